import { formatCount } from "~/lib/format";
import { DashletCard } from "./dashlet-card";
import type { DashletProps } from "~/lib/dashlet-data";

const ITEMS = [
  ["venuesCount", "Networks"],
  ["accessPointsCount", "Access points"],
  ["customersCount", "Customers"],
  ["devicesCount", "Devices"],
  ["connectionsCount", "Connections"],
  ["onlineConnectionsCount", "Online now"],
] as const;

/** Organisation overview: what the organisation holds, whatever the date range. */
export function OrganizationOverviewDashlet({ data, env }: DashletProps<"organization_overview">) {
  const wide = env.width === "width-full" || env.width === "width-3-4" || env.width === "width-2-3";
  return (
    <DashletCard title="Organization overview">
      <dl className={`grid gap-3 ${wide ? "grid-cols-3 xl:grid-cols-6" : "grid-cols-2"}`}>
        {ITEMS.map(([key, label]) => (
          <div key={key} className="rounded-md bg-slate-50 p-3">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900">{formatCount(data[key])}</dd>
          </div>
        ))}
      </dl>
    </DashletCard>
  );
}
