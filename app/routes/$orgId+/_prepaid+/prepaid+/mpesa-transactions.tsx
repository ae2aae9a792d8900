// /{orgId}/prepaid/mpesa-transactions (menu "M-Pesa Transactions";
// docs/guide/plans-and-prepaid.md#m-pesa-transactions): the organisation's M-Pesa payments created in
// a date range (whole days of the organisation, default 1970-01-01 to today), newest first, 50 a page with a window
// of two pages either side, and the range's rows as mpesa_transactions.csv. Needs view_subscriptions
// (the spec names no permission; see MPESA_TRANSACTIONS_PERMISSION); phone numbers need view_clients
// too.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import {
  MPESA_TRANSACTIONS_CSV,
  MPESA_TRANSACTIONS_MESSAGES,
  MPESA_TRANSACTIONS_PAGE_SIZE,
  MPESA_TRANSACTIONS_PERMISSION,
  defaultMpesaRange,
  mpesaStatusText,
  mpesaWindowOfUrl,
} from "~/lib/schemas/mpesa-transactions";
import { requireOrg } from "~/services/guard.server";
import { listMpesaTransactions } from "~/services/prepaid/mpesa-transactions.server";
import { Time, useOrgClock } from "~/components/ui/time";
import { displayPhone } from "~/lib/phone";
import { formatOffset } from "~/lib/time-zone";

export const meta: MetaFunction = () => [{ title: "M-Pesa Transactions | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, MPESA_TRANSACTIONS_PERMISSION);
  const url = new URL(request.url);
  // One page size (docs/guide/plans-and-prepaid.md#m-pesa-transactions); the page number is clamped like every list's.
  const list = parseListParams(url.searchParams, [MPESA_TRANSACTIONS_PAGE_SIZE], MPESA_TRANSACTIONS_PAGE_SIZE);
  const personalData = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const window = mpesaWindowOfUrl(url.searchParams, ctx.org.clock.offsetMs);
  if (!window.ok) {
    // A malformed or reversed range: the form again (with the default range) and the reason.
    return json(
      { orgId: ctx.org.id, personalData, error: window.message, range: defaultMpesaRange(ctx.org.clock.offsetMs), list, page: null },
      { status: 400 },
    );
  }
  const page = await listMpesaTransactions(ctx, window.range, list.page).catch((error: unknown) => {
    if (error instanceof Response) throw error;
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "mpesa_transactions_failed", org: ctx.org.id, error: String(error) }),
    );
    throw json({ message: MPESA_TRANSACTIONS_MESSAGES.failed }, { status: 500 });
  });
  const rows = page.rows.map((row) => ({ ...row, phone_number: displayPhone(row.phone_number) }));
  return json({ orgId: ctx.org.id, personalData, error: null, range: window.range, list, page: { ...page, rows } });
}

const BADGE = {
  Completed: "border-green-300 bg-green-50 text-green-800",
  Incomplete: "border-slate-300 bg-slate-100 text-slate-700",
} as const;

export default function MpesaTransactions() {
  const { orgId, personalData, error, range, list, page } = useLoaderData<typeof loader>();
  const zone = formatOffset(useOrgClock().offsetMs);
  const rows = page?.rows ?? [];
  const csvHref = `/${orgId}/prepaid/mpesa-transactions.csv?${new URLSearchParams({ start: range.start, end: range.end })}`;
  return (
    <section className="card" aria-labelledby="mpesa-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h1 id="mpesa-title" className="text-xl font-semibold">
          M-Pesa Transactions
        </h1>
        {page && page.total > 0 ? (
          <a href={csvHref} className="btn-secondary" download={MPESA_TRANSACTIONS_CSV}>
            Export CSV
          </a>
        ) : (
          <button type="button" className="btn-secondary" disabled>
            Export CSV
          </button>
        )}
      </div>
      <div className="mb-3">
        <DateRangeForm range={range} />
      </div>
      {error ? (
        <p role="alert" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {personalData ? null : (
        <p className="mb-3 text-sm text-slate-500">Phone numbers are shown to members whose role has the View clients permission.</p>
      )}
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={MPESA_TRANSACTIONS_MESSAGES.empty}
        columns={[
          { header: "#", cell: (_row, index) => rowNumber(list, index) },
          { header: "Transaction ID", mono: true, nowrap: true, cell: (row) => row.transaction_id ?? "—" },
          { header: "Phone Number", nowrap: true, cell: (row) => row.phone_number ?? "—" },
          { header: "Amount", numeric: true, cell: (row) => `Kes ${formatCount(row.amount)}` },
          { header: "Short Code", nowrap: true, cell: (row) => row.short_code },
          {
            header: "Status",
            cell: (row) => {
              const status = mpesaStatusText(row.status);
              return <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE[status]}`}>{status}</span>;
            },
          },
          { header: `Created At (${zone})`, nowrap: true, cell: (row) => <Time ms={row.created_at} /> },
        ]}
      />
      {page && rows.length > 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          Showing {formatCount(list.offset + 1)} to {formatCount(list.offset + rows.length)} of{" "}
          {page.capped ? `more than ${formatCount(page.total)}` : formatCount(page.total)} transactions
        </p>
      ) : null}
      {page ? <Pagination page={list.page} pageSize={MPESA_TRANSACTIONS_PAGE_SIZE} total={page.total} /> : null}
    </section>
  );
}

/** 403 and 404 as everywhere; a failure of our own says what the guide says (docs/guide/plans-and-prepaid.md#m-pesa-transactions). */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status < 500) return <GeneralErrorBoundary />;
  return (
    <div role="alert" className="mx-auto my-16 max-w-lg text-center">
      <p className="text-5xl font-bold text-slate-300">500</p>
      <h1 className="mt-4 text-xl font-semibold text-slate-800">{MPESA_TRANSACTIONS_MESSAGES.failed}</h1>
    </div>
  );
}
