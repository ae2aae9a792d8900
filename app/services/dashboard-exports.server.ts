// The rows of the dashboard's CSV exports (docs/guide/dashboard.md#exports): the usage summary, the top
// networks and access points, and the share charts. Small, bounded tables (a summary row, a top-N
// list, one row per mode/OS/brand/browser), so they are built in memory. As in every export, figures are
// numbers a spreadsheet can sum (sizes in bytes, durations in seconds, the unit in the header) and
// authorization modes are words.
import { csvFile } from "~/lib/csv-line";
import type { ExportFile } from "~/lib/dashboard-exports";
import type { DeviceDimension, DeviceUsage } from "~/lib/analytics";
import { authModeLabel } from "~/lib/auth-modes";
import { accessPointUsage, aggregateUsage, authModeSummary, deviceSummary, venueUsage } from "./analytics.server";
import type { DashboardFilters } from "./dashboard.server";
import { BRAND_LIMIT, BROWSER_LIMIT, OS_LIMIT } from "./dashlets.server";

export interface ExportTable {
  headers: string[];
  rows: (string | number)[][];
}

const DEVICE_EXPORTS: Partial<Record<ExportFile, { dimension: DeviceDimension; label: string; limit?: number }>> = {
  "device_type_summary.csv": { dimension: "is_mobile", label: "Device type" },
  "os_summary.csv": { dimension: "os", label: "Operating system", limit: OS_LIMIT },
  "device_brand_summary.csv": { dimension: "brand", label: "Brand", limit: BRAND_LIMIT },
  "browser_summary.csv": { dimension: "browser", label: "Browser", limit: BROWSER_LIMIT },
};

const deviceRows = (rows: DeviceUsage[]) => rows.map((r) => [r.key, r.connections, r.footfall]);

/** The table behind an export; no rows means "No data available to export.". `limit`: the top lists' length. */
export async function exportTable(file: ExportFile, filters: DashboardFilters, limit: number): Promise<ExportTable> {
  const { scope, range } = filters;
  switch (file) {
    case "dashboard_summary_data.csv": {
      const t = await aggregateUsage(scope);
      return {
        headers: [
          "Start",
          "End",
          "Upload (bytes)",
          "Download (bytes)",
          "Bandwidth (bytes)",
          "New customers",
          "Repeat customers",
          "Connections",
          "Footfall",
          "Dwell time (seconds)",
          "Abandoned",
          "Average dwell time (seconds)",
        ],
        rows:
          t.footfall === 0 && t.connections === 0
            ? []
            : [
                [
                  range.start,
                  range.end,
                  t.upload,
                  t.download,
                  t.bandwidth,
                  t.newCustomers,
                  t.repeatCustomers,
                  t.connections,
                  t.footfall,
                  t.dwellTime,
                  t.abandoned,
                  t.avgDwellTime,
                ],
              ],
      };
    }
    case "top_networks.csv": {
      const rows = await venueUsage(scope, limit);
      return {
        headers: ["#", "Venue", "Footfall", "Connections", "Bandwidth (bytes)"],
        rows: rows.map((r, i) => [i + 1, r.venueName, r.footfall, r.connections, r.bandwidth]),
      };
    }
    case "top_access_points.csv": {
      const rows = await accessPointUsage(scope, limit);
      return {
        headers: ["#", "AP name", "MAC address", "Footfall", "Connections", "Bandwidth (bytes)"],
        rows: rows.map((r, i) => [i + 1, r.apName, r.accessPointMac ?? "", r.footfall, r.connections, r.bandwidth]),
      };
    }
    case "auth_mode_summary.csv": {
      const rows = await authModeSummary(scope);
      return { headers: ["Mode", "Connections"], rows: rows.map((r) => [authModeLabel(r.mode), r.connections]) };
    }
    default: {
      const spec = DEVICE_EXPORTS[file]!;
      return { headers: [spec.label, "Connections", "Footfall"], rows: deviceRows(await deviceSummary(scope, spec.dimension, spec.limit)) };
    }
  }
}

export function toCsv(table: ExportTable): string {
  return csvFile([table.headers, ...table.rows]);
}
