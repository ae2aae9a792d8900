import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/services/guard.server";
import { canCreateOrganization, countPendingInvitations, listUserOrganizations } from "~/services/organizations.server";
import { getSession } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Select organization · Mlango" }];

// The organisation chooser: the user works under one of their accepted organisations.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [organizations, pendingInvitations, canCreate, session] = await Promise.all([
    listUserOrganizations(user.id),
    countPendingInvitations(user.id),
    canCreateOrganization(user.id),
    getSession(request),
  ]);
  // Nothing to choose: a member of one organisation, with no invitation waiting, goes straight to it.
  if (organizations.length === 1 && pendingInvitations === 0) throw redirect(`/${organizations[0].id}`);
  return json({
    user: { firstName: user.first_name },
    organizations,
    lastUsed: session.get("orgId") ?? null,
    pendingInvitations,
    canCreate,
  });
}

export default function SelectOrganization() {
  const { user, organizations, lastUsed, pendingInvitations, canCreate } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Select organization</h1>
        <Link to="/logout" className="link text-sm">
          Log out
        </Link>
      </div>
      <p className="mt-2 text-slate-600">
        Welcome, {user.firstName}. To continue you need to create or select an organization: everything you manage in Mlango (networks,
        splash pages, customers, reports) belongs to one.
      </p>

      {organizations.length > 0 ? (
        <ul className="mt-6 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {organizations.map((org) => (
            <li key={org.id}>
              <Link to={`/${org.id}`} className="block px-5 py-4 hover:bg-slate-50">
                <span className="font-medium text-indigo-700">{org.name}</span>
                {org.id === lastUsed ? <span className="ml-2 text-xs text-slate-500">Last used</span> : null}
                <span className="block text-sm text-slate-500">{org.address || "No address"}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="card mt-6 text-slate-600">You do not belong to any organization yet.</p>
      )}

      <div className="mt-6 flex flex-wrap items-center gap-3">
        {canCreate ? (
          <Link to="/organizations/create" className="btn-primary">
            {organizations.length > 0 ? "Create another organization" : "Create organization"}
          </Link>
        ) : null}
        <Link to="/organizations" className="btn-secondary">
          Manage your organizations
        </Link>
      </div>
      {pendingInvitations > 0 ? (
        <p className="mt-4 rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-800">
          You have {pendingInvitations === 1 ? "a pending invitation" : `${pendingInvitations} pending invitations`} to join an
          organization.{" "}
          <Link to="/organizations" className="link">
            Review {pendingInvitations === 1 ? "it" : "them"} in Manage your organizations
          </Link>
          .
        </p>
      ) : null}
    </main>
  );
}
