// The dashlet registry: one component per dashlet key of the stored layout (docs/guide/dashboard.md#dashlets).
import type { DashletKey } from "~/lib/dashboard-layout";
import { AccessPointStatusDashlet } from "./access-point-status";
import { RecentConnectionsDashlet, WhoIsOnlineDashlet } from "./connections";
import { ConnectionsGraphDashlet } from "./connections-graph";
import { IndoorHeatmapDashlet } from "./indoor-heatmap";
import { OrganizationOverviewDashlet } from "./organization-overview";
import { AuthModePieDashlet, BrandDoughnutDashlet, BrowserDoughnutDashlet, DeviceTypePieDashlet, OsDoughnutDashlet } from "./share-pies";
import { CampaignSummaryDashlet, DwellTimeDashlet, FootfallDashlet } from "./time-series";
import type { DashletDataMap, DashletEnv, DashletProps } from "~/lib/dashlet-data";
import { TopAccessPointsDashlet, TopNetworksDashlet } from "./usage-tables";

const COMPONENTS: { [K in DashletKey]: (props: DashletProps<K>) => JSX.Element } = {
  organization_overview: OrganizationOverviewDashlet,
  who_is_online: WhoIsOnlineDashlet,
  recent_connections: RecentConnectionsDashlet,
  connections_graph: ConnectionsGraphDashlet,
  top_networks: TopNetworksDashlet,
  top_access_points: TopAccessPointsDashlet,
  auth_mode_pie: AuthModePieDashlet,
  device_type_pie: DeviceTypePieDashlet,
  os_doughnut: OsDoughnutDashlet,
  device_brand_doughnut: BrandDoughnutDashlet,
  browser_doughnut: BrowserDoughnutDashlet,
  campaign_summary: CampaignSummaryDashlet,
  dwell_time: DwellTimeDashlet,
  footfall: FootfallDashlet,
  access_point_status: AccessPointStatusDashlet,
  indoor_heatmap: IndoorHeatmapDashlet,
};

/** Renders one dashlet from the loader's data (absent data: nothing, e.g. while a new cell is filled). */
export function Dashlet<K extends DashletKey>({ dashlet, data, env }: { dashlet: K; data: Partial<DashletDataMap>; env: DashletEnv }) {
  const value = data[dashlet];
  if (value === undefined) return null;
  const Component = COMPONENTS[dashlet] as (props: DashletProps<K>) => JSX.Element;
  return <Component data={value as DashletDataMap[K]} env={env} />;
}
