import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { formatDateTime } from "~/lib/time";
import { formatOffset } from "~/lib/time-zone";
import { requireOrg } from "~/services/guard.server";
import { broadcastDeliveries, DELIVERY_STATUSES, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";

// broadcast/{id} (messages, the default section; docs/guide/marketing.md#broadcasts): what the
// broadcast's schedules sent, one row per recipient and channel with its status, and the totals
// per status. Guests' names and addresses need view_clients.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const list = parseListParams(new URL(request.url).searchParams);
  const { broadcast, rows, total, totals } = await broadcastDeliveries(ctx, parseId(params.id), list);
  return json({
    orgId: ctx.org.id,
    zone: formatOffset(ctx.org.clock.offsetMs),
    broadcastId: broadcast.id,
    list,
    total,
    totals,
    personal: ctx.permissions.has(PERSONAL_DATA_PERMISSION),
    rows: rows.map((r) => ({
      ...r,
      sent_at: r.sent_at === null ? null : formatDateTime(r.sent_at, ctx.org.clock.offsetMs),
      delivered_at: r.delivered_at === null ? null : formatDateTime(r.delivered_at, ctx.org.clock.offsetMs),
    })),
  });
}

const STATUS_LABELS: Record<(typeof DELIVERY_STATUSES)[number], string> = {
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
  bounced: "Bounced",
  opted_out: "Opted out",
};

export default function BroadcastMessages() {
  const { orgId, broadcastId, list, total, totals, personal, rows, zone } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-3 text-lg font-semibold">Messages</h2>
      <dl className="mb-4 grid grid-cols-3 gap-x-6 gap-y-2 text-sm sm:grid-cols-7">
        <div>
          <dt className="text-slate-500">All</dt>
          <dd className="font-medium">{formatCount(total)}</dd>
        </div>
        {/* STATUS_LABELS, not DELIVERY_STATUSES: a .server module's values are not in the browser bundle */}
        {(Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((s) => (
          <div key={s}>
            <dt className="text-slate-500">{STATUS_LABELS[s]}</dt>
            <dd className="font-medium">{formatCount(totals[s])}</dd>
          </div>
        ))}
      </dl>
      {personal ? null : <p className="mb-3 text-sm text-slate-600">Customers' names and addresses need the View clients permission.</p>}
      <DataTable
        rows={rows}
        rowKey={(r) => r.id}
        empty={
          total === 0 ? (
            <>
              Nothing sent yet.{" "}
              <Link to={`/${orgId}/broadcast/${broadcastId}/schedules`} className="link">
                Schedule it
              </Link>{" "}
              for your customer groups.
            </>
          ) : (
            "No messages on this page."
          )
        }
        columns={[
          { header: "#", cell: (_r, index) => rowNumber(list, index) },
          personal && { header: "Customer", cell: (r) => r.customer?.name ?? "" },
          personal && { header: "Sent to", long: true, cell: (r) => r.customer?.address ?? "" },
          { header: "Channel", cell: (r) => (r.channel === "EMAIL" ? "E-mail" : "SMS") },
          { header: "Status", cell: (r) => STATUS_LABELS[r.status] },
          { header: `Sent at (${zone})`, nowrap: true, cell: (r) => r.sent_at ?? "—" },
          { header: `Delivered at (${zone})`, nowrap: true, cell: (r) => r.delivered_at ?? "—" },
          { header: "Details", cell: (r) => r.error ?? "" },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
