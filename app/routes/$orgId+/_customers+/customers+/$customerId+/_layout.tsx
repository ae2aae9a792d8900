// The customer profile (docs/guide/connections-devices-customers.md#customer-profile):
// identity, phone, email, counts of connections and devices, and the menu connections,
// devices, account info. Each tab runs its own guard.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { getCustomer } from "~/services/customers.server";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.customer.name} · Customers · Mlango` : "Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customer = await getCustomer(ctx, parseId(params.customerId));
  return json({ orgId: ctx.org.id, customer });
}

const TABS = [
  { path: "connections", label: "Connections" },
  { path: "devices", label: "Devices" },
  { path: "account", label: "Account info" },
];

export default function CustomerProfile() {
  const { orgId, customer } = useLoaderData<typeof loader>();
  const base = `/${orgId}/customers/${customer.id}`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/customers`} className="link">
          Customers
        </Link>{" "}
        › <span>{customer.name}</span>
      </nav>
      <header className="card flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{customer.name}</h1>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-600">
            <dt>Identity</dt>
            <dd>{customer.identity}</dd>
            <dt>Phone</dt>
            <dd>{customer.phoneNumber ?? "—"}</dd>
            <dt>Email</dt>
            <dd>{customer.emailAddress ?? "—"}</dd>
          </dl>
        </div>
        <dl className="flex gap-6 text-center">
          <div>
            <dt className="text-sm text-slate-500">Connections</dt>
            <dd className="text-2xl font-semibold">{formatCount(customer.connectionsCount)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-500">Devices</dt>
            <dd className="text-2xl font-semibold">{formatCount(customer.devicesCount)}</dd>
          </div>
        </dl>
      </header>
      <nav aria-label="Customer" className="flex flex-wrap gap-2">
        {TABS.map((t) => (
          <NavLink key={t.path} to={`${base}/${t.path}`} className={({ isActive }) => (isActive ? "btn-primary" : "btn-secondary")}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
