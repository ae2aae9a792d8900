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
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              #
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {label}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Footfall
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Connections
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Bandwidth
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.key} className="border-b border-slate-100 last:border-0">
              <td className="py-2 pr-3 text-slate-500">{i + 1}</td>
              <td className="py-2 pr-3">{r.name}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCount(r.footfall)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCount(r.connections)}</td>
              <td className="py-2 text-right tabular-nums">{formatBytes(r.bandwidth)}</td>
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
