import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { requireOrg } from "~/services/guard.server";
import { listVoucherGroups } from "~/services/prepaid/vouchers.server";
import { groupRow, todayUtc } from "./__vouchers.server";

export const meta: MetaFunction = () => [{ title: "Vouchers | Mlango" }];

// vouchers (spec 3 §2): the organisation's voucher groups, newest first, paged and searched by name.
// The Generate Vouchers button needs edit_vouchers (our permission; the spec checks view_vouchers only).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listVoucherGroups(ctx, list);
  const today = todayUtc();
  return json({ groups: rows.map((g) => groupRow(g, today)), total, list, orgId: ctx.org.id, canGenerate: ctx.permissions.has("edit_vouchers") });
}

const COLUMNS = ["Name", "Value (Kes)", "Expiry date", "Redeemed entries", "Description", "Service plan", "Codes"];
const NUMERIC = ["Value (Kes)", "Redeemed entries", "Codes"];

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
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              {COLUMNS.map((c) => (
                <th key={c} className={NUMERIC.includes(c) ? "text-right" : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {groups.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 1} className="text-center text-slate-500">
                  {list.search ? "No voucher group matches the search." : "No vouchers yet."}
                </td>
              </tr>
            ) : null}
            {groups.map((g, index) => (
              <tr key={g.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/vouchers/${g.id}`} className="link">
                    {g.name}
                  </Link>
                </td>
                <td className="text-right">{g.value}</td>
                <td className="whitespace-nowrap">
                  {g.valid_till}
                  {g.expired ? <span className="ml-2 rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs text-slate-600">Expired</span> : null}
                </td>
                <td className="text-right">{formatCount(g.redeemed_entries)}</td>
                <td>{g.description ?? ""}</td>
                <td>{g.plan}</td>
                <td className="text-right">{formatCount(g.codes_count)}</td>
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
