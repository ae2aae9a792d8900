// /{orgId}/subscriptions (menu "Subscriptions", view_subscriptions;
// docs/guide/plans-and-prepaid.md#subscriptions): what guests hold under the organisation's plans,
// newest first, with search and paging. Guests' names and phone numbers need view_clients too;
// without it a row names the guest "Guest #id". Statuses:
// docs/decisions/0017-plans-and-subscriptions.md (Expired is Active past its expiry).
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatBytes, formatCount } from "~/lib/format";
import { parseListParams, rowNumber, type ListParams } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { requireOrg } from "~/services/guard.server";
import { listSubscriptions, type SubscriptionDisplayStatus, type SubscriptionRow } from "~/services/prepaid/subscriptions.server";
import { Time } from "~/components/ui/time";

export const meta: MetaFunction = () => [{ title: "Subscriptions | Mlango" }];

export const EMPTY_SUBSCRIPTIONS = "No subscriptions yet. Guests get one when they take the free plan.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_subscriptions");
  const list = parseListParams(new URL(request.url).searchParams);
  const page = await listSubscriptions(ctx, list);
  return json({ page, list, orgId: ctx.org.id, personalData: ctx.permissions.has(PERSONAL_DATA_PERMISSION) });
}

const BADGE: Record<SubscriptionDisplayStatus, string> = {
  Pending: "border-amber-300 bg-amber-50 text-amber-800",
  Active: "border-green-300 bg-green-50 text-green-800",
  Expired: "border-slate-300 bg-slate-100 text-slate-700",
  Exhausted: "border-orange-300 bg-orange-50 text-orange-800",
  Cancelled: "border-red-300 bg-red-50 text-red-800",
};

/** Kes from the plan's price: "Kes 50", "Kes 49.50", "Kes 1,500". */
function kes(price: number): string {
  const whole = Number.isInteger(price);
  return `Kes ${price.toLocaleString("en-KE", { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** "12.40 MB of 1.00 GB" with a data limit, else the bytes used. */
function usageText(row: Pick<SubscriptionRow, "usage" | "usage_limit">): string {
  return row.usage_limit === null ? formatBytes(row.usage) : `${formatBytes(row.usage)} of ${formatBytes(row.usage_limit)}`;
}

export default function Subscriptions() {
  const { page, list, orgId, personalData } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="subscriptions-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h1 id="subscriptions-title" className="text-xl font-semibold">
          Subscriptions
        </h1>
      </div>
      {personalData ? null : (
        <p className="mb-3 text-sm text-slate-500">
          Guests' names and phone numbers are shown to members whose role has the View clients permission; the search looks at plan names.
        </p>
      )}
      <ListControls
        pageSize={list.pageSize}
        search={list.search}
        searchLabel={personalData ? "Search by guest, phone or plan" : "Search by plan name"}
      />
      <DataTable
        rows={page.rows}
        rowKey={(row) => row.id}
        empty={list.search ? "No subscription matches the search." : EMPTY_SUBSCRIPTIONS}
        columns={[
          { header: "#", cell: (_row, index) => rowNumber(list, index) },
          { header: "Customer", cell: (row) => <CustomerCell orgId={orgId} customer={row.customer} /> },
          { header: "Phone Number", nowrap: true, cell: (row) => row.customer?.phone_number ?? "—" },
          {
            header: "Service Plan",
            cell: (row) => (
              <>
                {row.servicePlan.name} @ {kes(row.servicePlan.price)}
              </>
            ),
          },
          { header: "Date", nowrap: true, cell: (row) => <Time ms={row.started_on ?? row.created_at} /> },
          { header: "Expiry", nowrap: true, cell: (row) => (row.expires_on === null ? "—" : <Time ms={row.expires_on} />) },
          { header: "Usage", nowrap: true, cell: (row) => usageText(row) },
          {
            header: "Status",
            cell: (row) => (
              <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE[row.status]}`}>{row.status}</span>
            ),
          },
        ]}
      />
      <div className="mt-3 text-sm text-slate-600">
        <RangeText params={list} shown={page.rows.length} total={page.total} capped={page.capped} />
      </div>
      <Pagination page={list.page} pageSize={list.pageSize} total={page.total} />
    </section>
  );
}

/** The guest's name linking to the profile; "Guest #id" without view_clients; a dash for a device-only subscription. */
function CustomerCell({ orgId, customer }: { orgId: number; customer: SubscriptionRow["customer"] }) {
  if (!customer) return <>—</>;
  if (customer.name === null) return <>Guest #{customer.id}</>;
  return (
    <Link to={`/${orgId}/customers/${customer.id}`} className="link">
      {customer.name}
    </Link>
  );
}

function RangeText({
  params,
  shown,
  total,
  capped,
}: {
  params: Pick<ListParams, "offset">;
  shown: number;
  total: number;
  capped: boolean;
}) {
  if (shown === 0) return null;
  const of = capped ? `more than ${formatCount(total)}` : formatCount(total);
  return (
    <p>
      Showing {formatCount(params.offset + 1)} to {formatCount(params.offset + shown)} of {of} subscriptions
    </p>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
