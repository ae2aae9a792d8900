import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { requireOrg } from "~/services/guard.server";
import { listPlans } from "~/services/prepaid/plans.server";
import { planRow } from "~/routes/$orgId+/_prepaid+/__plans.server";

export const meta: MetaFunction = () => [{ title: "Service plans | Mlango" }];

// servicePlans: newest first, paged and searched by name or code, the free plan among them (docs/guide/plans-and-prepaid.md#service-plans).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listPlans(ctx, list);
  return json({ plans: rows.map(planRow), total, list, orgId: ctx.org.id, canCreate: ctx.permissions.has("create_service_plan") });
}

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
      <DataTable
        rows={plans}
        rowKey={(p) => p.id}
        empty={list.search ? "No service plan matches the search." : "No service plans yet."}
        columns={[
          { header: "#", cell: (_p, index) => rowNumber(list, index) },
          {
            header: "Plan Name",
            cell: (p) => (
              <>
                <Link to={p.free ? `/${orgId}/free_plan/free` : `/${orgId}/service_plan/${p.id}`} className="link">
                  {p.name}
                </Link>
                {p.free ? (
                  <span className="ml-2 rounded-full border border-green-300 bg-green-50 px-2 py-0.5 text-xs text-green-800">
                    Free plan
                  </span>
                ) : null}
              </>
            ),
          },
          { header: "Code", mono: true, nowrap: true, cell: (p) => p.code },
          { header: "Bandwidth Policy", cell: (p) => p.bandwidth_policy },
          { header: "Time Limit", nowrap: true, cell: (p) => p.time_limit },
          { header: "Data Limit", nowrap: true, cell: (p) => p.data_limit },
          { header: "Validity", nowrap: true, cell: (p) => p.validity },
          { header: "Simultaneous connections", numeric: true, cell: (p) => formatCount(p.simultaneous_connections) },
          { header: "Price in Kes", numeric: true, cell: (p) => p.price },
          { header: "Subscriptions", numeric: true, cell: (p) => formatCount(p.subscriptions) },
          { header: "Description", cell: (p) => p.description ?? "" },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
