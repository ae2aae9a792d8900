import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { confirmationNeeded } from "~/lib/confirm";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { INVITATION_INTENTS } from "~/lib/schemas/organizations";
import { formatUtcDateTime } from "~/lib/time";
import { requireUser } from "~/services/guard.server";
import {
  ORGANIZATION_REFUSALS,
  canCreateOrganization,
  findMembership,
  listMemberships,
  redirectWithOrganization,
  respondToInvitation,
} from "~/services/organizations.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Organizations · Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = parseListParams(new URL(request.url).searchParams);
  const [{ rows, total }, canCreate] = await Promise.all([listMemberships(user.id, params), canCreateOrganization(user.id)]);
  return json({
    page: params.page,
    pageSize: params.pageSize,
    offset: params.offset,
    total,
    canCreate,
    memberships: rows.map((r) => ({
      organizationId: r.id,
      name: r.name,
      address: r.address,
      email: r.email_address,
      phoneNumber: r.phone_number,
      description: r.more_info,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      status: r.status,
      isOwner: r.is_owner,
      actions: r.actions,
    })),
  });
}

// Accept, Decline or Delete (leave) a membership: PUT administrators {status, organization_id}.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const status = Object.hasOwn(INVITATION_INTENTS, intent) ? INVITATION_INTENTS[intent] : undefined;
  if (!status) return json({ message: "Unknown action." }, { status: 400 });
  const membership = await findMembership(user.id, form.get("organization_id"));
  if (membership.is_owner === 1 && status !== "Accepted") {
    return json({ message: ORGANIZATION_REFUSALS.ownerCannotLeave }, { status: 403 });
  }
  if (status === "Delete") {
    const ask = confirmationNeeded(form, intent, `Are you sure you want to delete ${membership.name}?`, {
      organization_id: membership.id,
    });
    if (ask) return json(ask);
  }
  const message = await respondToInvitation(user.id, membership.id, status);
  if (status === "Accepted") return redirectWithToast(request, "/organizations", message);
  // Leaving or declining the organisation stored in the session forgets it there.
  return redirectWithOrganization(request, "/organizations", message, { forget: membership.id });
}

const STATUS_LABELS: Record<string, string> = { Accepted: "Accepted", Declined: "Declined", Pending: "Pending invitation" };

export default function Organizations() {
  const { memberships, canCreate, page, pageSize, offset, total } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link to="/" className="link text-sm">
            ← Select organization
          </Link>
          <h1 className="mt-1 text-2xl font-semibold">Organizations</h1>
        </div>
        {canCreate ? (
          <Link to="/organizations/create" className="btn-primary">
            New organization
          </Link>
        ) : null}
      </div>

      <div className="mt-6">
        <ActionFeedback actionData={actionData} cancelTo="/organizations" />
      </div>

      {memberships.length === 0 ? (
        <p className="card text-slate-600">You have no organizations and no invitations.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="table">
            <thead>
              <tr>
                <th>#</th>
                <th>Name</th>
                <th>Address</th>
                <th>Email</th>
                <th>Phone number</th>
                <th>Description</th>
                <th>Created at</th>
                <th>Last updated</th>
                <th>Status</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {memberships.map((m, i) => (
                <tr key={m.organizationId}>
                  <td>{rowNumber({ offset }, i)}</td>
                  <td className="font-medium">
                    {m.status === "Accepted" ? (
                      <Link to={`/${m.organizationId}`} className="link">
                        {m.name}
                      </Link>
                    ) : (
                      m.name
                    )}
                  </td>
                  <td>{m.address}</td>
                  <td>{m.email}</td>
                  <td>{m.phoneNumber}</td>
                  <td className="max-w-xs">{m.description}</td>
                  <td className="whitespace-nowrap">{formatUtcDateTime(m.createdAt)}</td>
                  <td className="whitespace-nowrap">{formatUtcDateTime(m.updatedAt)}</td>
                  <td>{m.isOwner ? "Administrator" : STATUS_LABELS[m.status]}</td>
                  <td className="whitespace-nowrap">
                    <div className="flex gap-2">
                      {m.actions.accept || m.actions.decline ? (
                        <Form method="post" className="flex gap-2">
                          <input type="hidden" name="organization_id" value={m.organizationId} />
                          {m.actions.accept ? (
                            <button type="submit" name="intent" value="accept" className="btn-primary">
                              Accept
                            </button>
                          ) : null}
                          {m.actions.decline ? (
                            <button type="submit" name="intent" value="decline" className="btn-secondary">
                              Decline
                            </button>
                          ) : null}
                        </Form>
                      ) : null}
                      {m.actions.delete ? (
                        <ConfirmButton
                          intent="delete"
                          message={`Are you sure you want to delete ${m.name}?`}
                          fields={{ organization_id: m.organizationId }}
                        >
                          Delete
                        </ConfirmButton>
                      ) : null}
                      {m.isOwner ? (
                        <Link to={`/${m.organizationId}/organization/details`} className="link text-sm">
                          Manage
                        </Link>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} />
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
