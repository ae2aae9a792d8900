// What each dashlet receives from the dashboard loader (plain JSON: numbers and strings only).
import type {
  AccessPointUsage,
  AuthModeUsage,
  Bucket,
  DeviceUsage,
  DwellPoint,
  FootfallPoint,
  TrafficCell,
  UsagePoint,
  VenueUsage,
} from "~/lib/analytics";
import type { ConnectionRow } from "~/lib/connections";
import type { AdFigures, AdHourPoint } from "~/lib/schemas/ads";
import type { DashletKey, Width } from "~/lib/dashboard-layout";
import type { DateRange } from "~/lib/date-range";

export interface OverviewCounts {
  venuesCount: number;
  accessPointsCount: number;
  customersCount: number;
  devicesCount: number;
  connectionsCount: number;
  onlineConnectionsCount: number;
}

/** A page of connections for the ConnectionsTable, or the reason it is not shown. */
export type ConnectionsDashletData =
  | { allowed: false }
  | {
      allowed: true;
      page: { rows: ConnectionRow[]; total: number; capped?: boolean };
      params: { page: number; pageSize: number; offset: number; search: string };
    };

export interface AccessPointStatusRow {
  id: number;
  name: string;
  macAddress: string;
  venueName: string;
  online: boolean;
  lastSeenAt: number | null;
}

export interface AccessPointStatusData {
  total: number;
  online: number;
  windowMinutes: number;
  rows: AccessPointStatusRow[];
  page: number;
  pageSize: number;
}

export interface IndoorHeatmapData {
  venues: { id: number; name: string }[];
  venue: null | {
    id: number;
    name: string;
    imageUrl: string | null;
    accessPoints: { id: number; name: string; x: number | null; y: number | null; footfall: number; connections: number }[];
    traffic: TrafficCell[];
  };
}

export interface DashletDataMap {
  organization_overview: OverviewCounts;
  who_is_online: ConnectionsDashletData;
  recent_connections: ConnectionsDashletData;
  connections_graph: { bucket: Bucket; points: UsagePoint[] };
  top_networks: VenueUsage[];
  top_access_points: AccessPointUsage[];
  auth_mode_pie: AuthModeUsage[];
  device_type_pie: DeviceUsage[];
  os_doughnut: DeviceUsage[];
  device_brand_doughnut: DeviceUsage[];
  browser_doughnut: DeviceUsage[];
  /** Ads figures (ads/figures.server.ts campaignSummary): hidden without view_ads. */
  campaign_summary: { allowed: false } | { allowed: true; totals: AdFigures; hours: AdHourPoint[] };
  dwell_time: { bucket: Bucket; points: DwellPoint[] };
  footfall: { bucket: Bucket; points: FootfallPoint[] };
  access_point_status: AccessPointStatusData;
  indoor_heatmap: IndoorHeatmapData;
}

/** What every dashlet knows besides its data. */
export interface DashletEnv {
  orgId: number;
  range: Pick<DateRange, "start" | "end">;
  /** The dashboard's filters as a query string (start, end, venues), for export and "see all" links. */
  filterQuery: string;
  /** The width of the cell, so charts pick a fitting size. */
  width: Width;
  canCloseConnections: boolean;
}

export type DashletProps<K extends DashletKey> = { data: DashletDataMap[K]; env: DashletEnv };
