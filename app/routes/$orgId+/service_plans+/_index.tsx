import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { requireOrg } from "~/services/guard.server";
import { listPlans } from "~/services/prepaid/plans.server";
import { planRow } from "./__plans.server";

export const meta: MetaFunction = () => [{ title: "Service plans | Mlango" }];

// servicePlans: newest first, paged and searched by name or code, the free plan among them (spec 3 §2, §9).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listPlans(ctx, list);
  return json({ plans: rows.map(planRow), total, list, orgId: ctx.org.id, canCreate: ctx.permissions.has("create_service_plan") });
}

const COLUMNS = ["Plan Name", "Code", "Bandwidth Policy", "Time Limit", "Data Limit", "Validity", "Simultaneous connections", "Price in Kes", "Subscriptions", "Description"];

export default function ServicePlans() {
  const { plans, total, list, orgId, canCreate } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Service plans</h1>
        {canCreate ? (
          <Link to={`/${orgId}/service_plans/new`} className="btn-primary">
            New plan
          </Link>
        ) : null}
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search plans by name or code" />
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              {COLUMNS.map((c) => (
                <th key={c} className={["Simultaneous connections", "Price in Kes", "Subscriptions"].includes(c) ? "text-right" : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {plans.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 1} className="text-center text-slate-500">
                  {list.search ? "No service plan matches the search." : "No service plans yet."}
                </td>
              </tr>
            ) : null}
            {plans.map((p, index) => (
              <tr key={p.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={p.free ? `/${orgId}/free_plan/free` : `/${orgId}/service_plan/${p.id}`} className="link">
                    {p.name}
                  </Link>
                  {p.free ? <span className="ml-2 rounded-full border border-green-300 bg-green-50 px-2 py-0.5 text-xs text-green-800">Free plan</span> : null}
                </td>
                <td className="font-mono">{p.code}</td>
                <td>{p.bandwidth_policy}</td>
                <td>{p.time_limit}</td>
                <td>{p.data_limit}</td>
                <td>{p.validity}</td>
                <td className="text-right">{formatCount(p.simultaneous_connections)}</td>
                <td className="text-right">{p.price}</td>
                <td className="text-right">{formatCount(p.subscriptions)}</td>
                <td>{p.description ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
