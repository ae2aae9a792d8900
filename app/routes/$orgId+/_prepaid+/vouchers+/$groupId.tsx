import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { formatOffset } from "~/lib/time-zone";
import { requireOrg } from "~/services/guard.server";
import { voucherCodes } from "~/services/prepaid/vouchers.server";
import { codeRow, groupRow } from "./__vouchers.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.group.name} · Vouchers · Mlango` : "Mlango" }];

const CODE_PAGE_SIZES = [25, 50, 100, 250] as const;

// vouchers/{id}: a voucher group's details and its codes (paged), with Print codes, Download CSV
// and Update (edit_vouchers). Another organisation's id, or anything not an id, is a 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  const list = parseListParams(new URL(request.url).searchParams, CODE_PAGE_SIZES, 50);
  const { group, codes } = await voucherCodes(ctx, parseId(params.groupId), list);
  return json({
    orgId: ctx.org.id,
    group: groupRow(group, ctx.org.clock.offsetMs),
    codes: codes.map((c) => codeRow(c, Number(group.uses_per_code), ctx.org.clock.offsetMs)),
    zone: formatOffset(ctx.org.clock.offsetMs),
    list,
    canEdit: ctx.permissions.has("edit_vouchers"),
  });
}

export default function VoucherGroupDetail() {
  const { orgId, group, codes, zone, list, canEdit } = useLoaderData<typeof loader>();
  const base = `/${orgId}/vouchers/${group.id}`;
  const summary: [string, string][] = [
    ["Value (Kes)", group.value],
    ["Expiry date", group.expired ? `${group.valid_till} (expired)` : group.valid_till],
    ["Service plan", group.plan],
    ["Codes", formatCount(group.codes_count)],
    ["Uses per code", formatCount(group.uses_per_code)],
    ["Redeemed entries", formatCount(group.redeemed_entries)],
    [`Created (${zone})`, group.created_at],
  ];
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/vouchers`} className="link">
          Vouchers
        </Link>{" "}
        › <span>{group.name}</span>
      </nav>
      <section className="card">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
          <div>
            <p className="text-sm font-medium uppercase tracking-wide text-slate-500">Voucher group</p>
            <h1 className="text-xl font-semibold">{group.name}</h1>
          </div>
          <div className="flex flex-wrap gap-2">
            <Link to={`${base}/print`} className="btn-primary" reloadDocument>
              Print codes
            </Link>
            <a href={`${base}/codes.csv`} className="btn-secondary" download={`vouchers-${group.id}.csv`}>
              Download CSV
            </a>
            {canEdit ? (
              <Link to={`/${orgId}/vouchers/generate?id=${group.id}`} className="btn-secondary">
                Update
              </Link>
            ) : null}
          </div>
        </div>
        <dl className="mb-4 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          {summary.map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-500">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
        {group.description ? <p className="text-sm text-slate-700">{group.description}</p> : null}
        {group.has_plan ? null : (
          <p className="mt-2 text-sm text-red-800">
            The plan of this group was deleted: its codes give no internet until the group gets another plan.
          </p>
        )}
      </section>
      <section className="card">
        <h2 className="mb-3 text-lg font-semibold">Codes</h2>
        <DataTable
          rows={codes}
          rowKey={(c) => c.code}
          empty="No codes on this page."
          columns={[
            { header: "#", cell: (_c, index) => rowNumber(list, index) },
            { header: "Code", mono: true, nowrap: true, cell: (c) => <span className="tracking-wider">{c.code}</span> },
            {
              header: "Uses",
              numeric: true,
              cell: (c) => (
                <>
                  {c.uses} / {group.uses_per_code}
                  {c.used_up ? <span className="ml-2 text-xs text-slate-500">used</span> : null}
                </>
              ),
            },
            { header: `First redeemed at (${zone})`, nowrap: true, cell: (c) => c.first_redeemed_at ?? "—" },
          ]}
        />
        <Pagination page={list.page} pageSize={list.pageSize} total={group.codes_count} />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
