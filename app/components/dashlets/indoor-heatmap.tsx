import { Link, useLocation } from "@remix-run/react";
import { HeatmapChart, weekdayHourRows } from "~/components/charts";
import { CANVAS_HEIGHT, CANVAS_WIDTH } from "~/lib/layout";
import { formatCount } from "~/lib/format";
import { DashletCard } from "./dashlet-card";
import { chartWidth } from "./sizes";
import type { DashletProps, IndoorHeatmapData } from "~/lib/dashlet-data";
import { useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

/** Indoor heatmap: a tab per venue (links, so no JavaScript needed); the floor plan with each access point sized by its footfall. */
export function IndoorHeatmapDashlet({ data, env }: DashletProps<"indoor_heatmap">) {
  const { offsetMs } = useOrgClock();
  const location = useLocation();
  const tabHref = (venueId: number) => {
    const params = new URLSearchParams(location.search);
    params.set("heatmap_venue", String(venueId));
    return `${location.pathname}?${params}`;
  };
  return (
    <DashletCard title="Indoor heatmap">
      {data.venue === null ? (
        <p className="text-sm text-slate-500">No networks yet.</p>
      ) : (
        <>
          <nav aria-label="Networks" className="mb-3 flex flex-wrap gap-1 border-b border-slate-200 text-sm">
            {data.venues.map((v) => (
              <Link
                key={v.id}
                to={tabHref(v.id)}
                preventScrollReset
                aria-current={v.id === data.venue?.id ? "page" : undefined}
                className={
                  v.id === data.venue?.id
                    ? "-mb-px border-b-2 border-indigo-600 px-3 py-1.5 font-medium text-indigo-700"
                    : "px-3 py-1.5 text-slate-600 hover:text-slate-900"
                }
              >
                {v.name}
              </Link>
            ))}
          </nav>
          <FloorPlan venue={data.venue} width={chartWidth(env.width)} />
          <div className="mt-4">
            <HeatmapChart
              title={`Traffic by weekday and hour (${formatOffset(offsetMs)}), ${data.venue.name}`}
              rows={weekdayHourRows(data.venue.traffic)}
              width={chartWidth(env.width)}
              height={220}
            />
          </div>
        </>
      )}
    </DashletCard>
  );
}

function FloorPlan({ venue, width }: { venue: NonNullable<IndoorHeatmapData["venue"]>; width: number }) {
  const placed = venue.accessPoints.filter((ap) => ap.x !== null && ap.y !== null);
  const max = Math.max(1, ...placed.map((ap) => ap.footfall));
  const height = Math.round((width * CANVAS_HEIGHT) / CANVAS_WIDTH);
  const titleId = `floor-${venue.id}`;
  return (
    <figure>
      <figcaption id={titleId} className="text-sm font-medium text-slate-800">
        Footfall by access point, {venue.name}
      </figcaption>
      {placed.length === 0 ? (
        <p className="mt-2 rounded border border-dashed border-slate-300 p-4 text-sm text-slate-500">
          No access point has a place on the floor plan yet. Place them in the network's Layout Designer.
        </p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <svg
            viewBox={`0 0 ${CANVAS_WIDTH} ${CANVAS_HEIGHT}`}
            width={width}
            height={height}
            role="img"
            aria-labelledby={titleId}
            className="rounded border border-slate-200 bg-slate-50"
          >
            {venue.imageUrl ? (
              <image href={venue.imageUrl} x={0} y={0} width={CANVAS_WIDTH} height={CANVAS_HEIGHT} preserveAspectRatio="xMidYMid meet" />
            ) : null}
            {placed.map((ap) => {
              const share = ap.footfall / max;
              return (
                <g key={ap.id}>
                  <circle cx={ap.x!} cy={ap.y!} r={30 + 90 * share} fill="#ef4444" fillOpacity={0.12 + 0.45 * share} />
                  <circle cx={ap.x!} cy={ap.y!} r={10} fill="#4f46e5" />
                  <text x={ap.x!} y={ap.y! - 16} textAnchor="middle" fontSize={22} fill="#1e293b">
                    {ap.name}
                  </text>
                </g>
              );
            })}
          </svg>
        </div>
      )}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-600">Data table</summary>
        <table className="mt-2 min-w-full text-left text-xs">
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1">
                Access point
              </th>
              <th scope="col" className="px-2 py-1">
                Footfall
              </th>
              <th scope="col" className="px-2 py-1">
                Connections
              </th>
              <th scope="col" className="px-2 py-1">
                On the plan
              </th>
            </tr>
          </thead>
          <tbody>
            {venue.accessPoints.map((ap) => (
              <tr key={ap.id} className="odd:bg-slate-50">
                <th scope="row" className="px-2 py-1 font-normal">
                  {ap.name}
                </th>
                <td className="px-2 py-1">{formatCount(ap.footfall)}</td>
                <td className="px-2 py-1">{formatCount(ap.connections)}</td>
                <td className="px-2 py-1">{ap.x !== null && ap.y !== null ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
