// A customer group (docs/guide/marketing.md#customer-groups): its name and
// the three sections. Each section's route runs its own guard.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { requireOrg } from "~/services/guard.server";
import { getGroup, ownerName } from "~/services/marketing/groups.server";
import { groupIdParam } from "./__groups.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.group.name} · Customer Groups · Mlango` : "Mlango" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const group = await getGroup(ctx, groupIdParam(params));
  return json({ orgId: ctx.org.id, group: { id: group.id, name: group.name, description: group.description, owner: ownerName(group) } });
}

const SECTIONS = [
  { path: "", label: "Customers" },
  { path: "/filters", label: "Filters" },
  { path: "/settings", label: "Settings" },
];

export default function GroupLayout() {
  const { orgId, group } = useLoaderData<typeof loader>();
  const base = `/${orgId}/groups/${group.id}`; // not groupBase: a .server module is not in the browser bundle
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/groups`} className="link">
          Customer Groups
        </Link>{" "}
        › <span>{group.name}</span>
      </nav>
      <header className="card">
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500">Customer group</p>
        <h1 className="text-xl font-semibold">{group.name}</h1>
        {group.description ? <p className="mt-1 text-sm text-slate-700">{group.description}</p> : null}
        <p className="mt-1 text-sm text-slate-500">Owner: {group.owner}</p>
      </header>
      <nav aria-label="Group" className="flex flex-wrap gap-2">
        {SECTIONS.map((s) => (
          <NavLink key={s.label} to={`${base}${s.path}`} end className={({ isActive }) => (isActive ? "btn-primary" : "btn-secondary")}>
            {s.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
