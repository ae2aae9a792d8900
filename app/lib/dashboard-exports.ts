// The CSV exports of the dashboard and the top lists (docs/guide/dashboard.md#exports),
// reached at /{orgId}/exports/{file}?start&end&venues.

export const EXPORT_FILES = [
  "dashboard_summary_data.csv",
  "top_networks.csv",
  "top_access_points.csv",
  "auth_mode_summary.csv",
  "device_type_summary.csv",
  "os_summary.csv",
  "device_brand_summary.csv",
  "browser_summary.csv",
] as const;

export type ExportFile = (typeof EXPORT_FILES)[number];

export function isExportFile(value: string | undefined): value is ExportFile {
  return (EXPORT_FILES as readonly string[]).includes(value ?? "");
}

export function exportHref(orgId: number, file: ExportFile, filterQuery: string): string {
  return `/${orgId}/exports/${file}${filterQuery ? `?${filterQuery}` : ""}`;
}

/** The download's name: the summary carries its dates (dashboard_summary_data_{start}_to_{end}.csv). */
export function downloadName(file: ExportFile, range: { start: string; end: string }): string {
  return file === "dashboard_summary_data.csv" ? `dashboard_summary_data_${range.start}_to_${range.end}.csv` : file;
}

/**
 * Rows shown on the top networks / access points pages and in their exports: 5 by default
 * (docs/guide/dashboard.md#top-networks, #top-access-points).
 */
export const TOP_LIMITS = [5, 10, 25, 50, 100] as const;

export function parseTopLimit(searchParams: URLSearchParams): number {
  const n = Number(searchParams.get("limit"));
  return (TOP_LIMITS as readonly number[]).includes(n) ? n : TOP_LIMITS[0];
}
