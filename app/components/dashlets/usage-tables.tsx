import { Link } from "@remix-run/react";
import type { AccessPointUsage, VenueUsage } from "~/lib/analytics";
import { exportHref } from "~/lib/dashboard-exports";
import { formatBytes, formatCount } from "~/lib/format";
import { DashletCard, ExportLink } from "./dashlet-card";
import type { DashletProps } from "~/lib/dashlet-data";

/** The top networks table (#, Venue, Footfall, Connections, Bandwidth), shared by the dashlet and its page. */
export function TopNetworksTable({ rows }: { rows: readonly VenueUsage[] }) {
  return (
    <UsageTable
      label="Venue"
      rows={rows.map((r) => ({
        key: r.venueId,
        name: r.venueName,
        footfall: r.footfall,
        connections: r.connections,
        bandwidth: r.bandwidth,
      }))}
    />
  );
}

/** The top access points table (#, AP name, Footfall, Connections, Bandwidth). */
export function TopAccessPointsTable({ rows }: { rows: readonly AccessPointUsage[] }) {
  return (
    <UsageTable
      label="AP name"
      rows={rows.map((r) => ({
        key: r.accessPointId ?? r.accessPointMac ?? r.apName,
        name: r.venueName ? `${r.apName} — ${r.venueName}` : r.apName,
        footfall: r.footfall,
        connections: r.connections,
        bandwidth: r.bandwidth,
      }))}
    />
  );
}

function UsageTable({
  label,
  rows,
}: {
  label: string;
  rows: { key: string | number; name: string; footfall: number; connections: number; bandwidth: number }[];
}) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">No data for this period.</p>;
  return (
    // Fits a 1/3 column: the name wraps, the figures keep to one line with little padding, so
    // Bandwidth stays in view; only a cell narrower than the figures themselves scrolls.
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-2 font-medium">
              #
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {label}
            </th>
            <th scope="col" className="whitespace-nowrap py-2 pr-2 text-right font-medium">
              Footfall
            </th>
            <th scope="col" className="whitespace-nowrap py-2 pr-2 text-right font-medium">
              Connections
            </th>
            <th scope="col" className="whitespace-nowrap py-2 text-right font-medium">
              Bandwidth
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.key} className="border-b border-slate-100 last:border-0">
              <td className="py-2 pr-2 text-slate-500">{i + 1}</td>
              <td className="break-words py-2 pr-2 [overflow-wrap:anywhere]">{r.name}</td>
              <td className="whitespace-nowrap py-2 pr-2 text-right tabular-nums">{formatCount(r.footfall)}</td>
              <td className="whitespace-nowrap py-2 pr-2 text-right tabular-nums">{formatCount(r.connections)}</td>
              <td className="whitespace-nowrap py-2 text-right tabular-nums">{formatBytes(r.bandwidth)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TopNetworksDashlet({ data, env }: DashletProps<"top_networks">) {
  return (
    <DashletCard
      title="Top networks"
      actions={
        <>
          <ExportLink href={exportHref(env.orgId, "top_networks.csv", env.filterQuery)} />
          <Link to={`/${env.orgId}/top_networks?${env.filterQuery}`} className="text-indigo-700 hover:underline">
            See all
          </Link>
        </>
      }
    >
      <TopNetworksTable rows={data} />
    </DashletCard>
  );
}

export function TopAccessPointsDashlet({ data, env }: DashletProps<"top_access_points">) {
  return (
    <DashletCard
      title="Top access points"
      actions={
        <>
          <ExportLink href={exportHref(env.orgId, "top_access_points.csv", env.filterQuery)} />
          <Link to={`/${env.orgId}/top_access_points?${env.filterQuery}`} className="text-indigo-700 hover:underline">
            See all
          </Link>
        </>
      }
    >
      <TopAccessPointsTable rows={data} />
    </DashletCard>
  );
}
