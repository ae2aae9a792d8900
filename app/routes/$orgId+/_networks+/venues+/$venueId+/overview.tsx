import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { bucketLabel, HeatmapChart, LineChart, weekdayHourRows } from "~/components/charts";
import { ConnectionsTable } from "~/components/connections/connections-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { bucketFor } from "~/lib/analytics";
import { parseDateRange } from "~/lib/date-range";
import { formatCount, formatHms, toHours } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { PAGE_SIZES, parseListParams } from "~/lib/pagination";
import { dwellTimeSeries, trafficHeatmap, usageSeries, venueOverview } from "~/services/analytics.server";
import { listConnections } from "~/services/connections.server";
import { requireOrg } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";
import { useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

export const meta: MetaFunction = () => [{ title: "Network overview | Mlango" }];

const ONLINE_PREFIX = "online_";

// The network's overview for the profile's date range: counts, dwell time, the connections graph,
// who is online now (customer data: only with view_clients) and the traffic-flow heatmap.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const searchParams = new URL(request.url).searchParams;
  const range = parseDateRange(searchParams, ctx.org.clock);
  const scope = { organizationId: ctx.org.id, venueIds: [venue.id], range };
  const bucket = bucketFor(range);
  const canViewClients = ctx.permissions.has("view_clients");
  const online = parseListParams(searchParams, PAGE_SIZES, 5, ONLINE_PREFIX);
  const [overview, series, dwell, heatmap, onlineConnections] = await Promise.all([
    venueOverview(ctx.org.id, venue.id, range),
    usageSeries(scope, bucket),
    dwellTimeSeries(scope, bucket),
    trafficHeatmap(scope),
    canViewClients ? listConnections(ctx, { venueId: venue.id, online: true }, online) : null,
  ]);
  return json({
    overview,
    bucket,
    series: series.map((p) => ({ time: p.time, footfall: p.footfall, connections: p.connections })),
    dwell,
    heatmap,
    online: onlineConnections ? { page: onlineConnections, list: online } : null,
    canClose: ctx.permissions.has("edit_connections"),
  });
}

export default function VenueOverviewPage() {
  const { overview, bucket, series, dwell, heatmap, online, canClose } = useLoaderData<typeof loader>();
  const cards = [
    { label: "Access points", value: formatCount(overview.accessPoints) },
    { label: "Unique Clients", value: formatCount(overview.uniqueClients) },
    { label: "Total Connections", value: formatCount(overview.totalConnections) },
    { label: "Currently Connected", value: formatCount(overview.currentlyConnected) },
    { label: "Dwell time", value: formatHms(overview.dwellTime) },
  ];
  const { offsetMs } = useOrgClock();
  const points = (key: "footfall" | "connections") => series.map((p) => ({ x: bucketLabel(p.time, bucket, offsetMs), y: p[key] }));
  const xLegend = bucket === "hour" ? `Hour (${formatOffset(offsetMs)})` : "Day";
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-5">
        {cards.map((c) => (
          <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-500">{c.label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900">{c.value}</dd>
          </div>
        ))}
      </dl>
      <section className="card overflow-x-auto">
        <LineChart
          title="Connections"
          series={[
            { id: "Connections", points: points("connections") },
            { id: "Footfall", points: points("footfall") },
          ]}
          xLegend={xLegend}
          width={900}
        />
      </section>
      <section className="card overflow-x-auto">
        <LineChart
          title="Dwell time"
          series={[{ id: "Dwell time", points: dwell.map((p) => ({ x: bucketLabel(p.time, bucket, offsetMs), y: toHours(p.dwellTime) })) }]}
          yLegend="Hours"
          xLegend={xLegend}
          width={900}
        />
      </section>
      {online ? (
        <div className="card">
          <ConnectionsTable
            title="Online connections"
            page={online.page}
            params={online.list}
            canClose={canClose}
            compact
            prefix={ONLINE_PREFIX}
            hide={["Network"]}
          />
        </div>
      ) : null}
      <section className="card overflow-x-auto">
        <HeatmapChart title={`Traffic flow (${formatOffset(offsetMs)})`} rows={weekdayHourRows(heatmap)} width={900} />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
