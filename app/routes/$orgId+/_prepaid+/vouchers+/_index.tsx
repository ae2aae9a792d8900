import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { requireOrg } from "~/services/guard.server";
import { listVoucherGroups } from "~/services/prepaid/vouchers.server";
import { groupRow, todayUtc } from "./__vouchers.server";

export const meta: MetaFunction = () => [{ title: "Vouchers | Mlango" }];

// vouchers (docs/guide/plans-and-prepaid.md#vouchers): the organisation's voucher groups, newest
// first, paged and searched by name. The Generate Vouchers button needs edit_vouchers (our
// permission; the spec checks view_vouchers only).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listVoucherGroups(ctx, list);
  const today = todayUtc();
  return json({
    groups: rows.map((g) => groupRow(g, ctx.org.clock.offsetMs, today)),
    total,
    list,
    orgId: ctx.org.id,
    canGenerate: ctx.permissions.has("edit_vouchers"),
  });
}

export default function Vouchers() {
  const { groups, total, list, orgId, canGenerate } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Vouchers</h1>
        {canGenerate ? (
          <Link to={`/${orgId}/vouchers/generate`} className="btn-primary">
            Generate Vouchers
          </Link>
        ) : null}
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search vouchers by name" />
      <DataTable
        rows={groups}
        rowKey={(g) => g.id}
        empty={list.search ? "No voucher group matches the search." : "No vouchers yet."}
        columns={[
          { header: "#", cell: (_g, index) => rowNumber(list, index) },
          {
            header: "Name",
            cell: (g) => (
              <Link to={`/${orgId}/vouchers/${g.id}`} className="link">
                {g.name}
              </Link>
            ),
          },
          { header: "Value (Kes)", numeric: true, cell: (g) => g.value },
          {
            header: "Expiry date",
            nowrap: true,
            cell: (g) => (
              <>
                {g.valid_till}
                {g.expired ? (
                  <span className="ml-2 rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs text-slate-600">Expired</span>
                ) : null}
              </>
            ),
          },
          { header: "Redeemed entries", numeric: true, cell: (g) => formatCount(g.redeemed_entries) },
          { header: "Description", cell: (g) => g.description ?? "" },
          { header: "Service plan", cell: (g) => g.plan },
          { header: "Codes", numeric: true, cell: (g) => formatCount(g.codes_count) },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
