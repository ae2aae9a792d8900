// GET /{orgId}/exports/{file}?start&end&venues[&limit]: the dashboard's CSV exports
// (docs/guide/dashboard.md#exports): dashboard_summary_data.csv (downloaded as
// dashboard_summary_data_{start}_to_{end}.csv), top_networks.csv, top_access_points.csv,
// auth_mode_summary.csv, device_type_summary.csv, os_summary.csv, device_brand_summary.csv,
// browser_summary.csv. Signed-in browser or bearer token.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadName, isExportFile, parseTopLimit } from "~/lib/dashboard-exports";
import { DASHBOARD_MESSAGES } from "~/lib/schemas/dashboard";
import { exportTable, toCsv } from "~/services/dashboard-exports.server";
import { filterQuery, parseDashboardFilters } from "~/services/dashboard.server";
import { notFound, requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const file = params.file;
  if (!isExportFile(file)) notFound();
  const url = new URL(request.url);
  const filters = await parseDashboardFilters(ctx, url);
  const limit = parseTopLimit(url.searchParams);
  const table = await exportTable(file, filters, limit);
  if (table.rows.length === 0) {
    // "No data available to export." (docs/guide/dashboard.md#exports): a script gets the sentence with
    // a 404; a browser goes back to the page it came from.
    if (request.headers.get("Authorization")?.startsWith("Bearer ")) {
      return new Response(DASHBOARD_MESSAGES.noData, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
    const page = file === "top_networks.csv" ? "/top_networks" : file === "top_access_points.csv" ? "/top_access_points" : "";
    return redirectWithToast(request, `/${ctx.org.id}${page}?${filterQuery(filters)}`, {
      type: "error",
      message: DASHBOARD_MESSAGES.noData,
    });
  }
  return new Response(toCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${downloadName(file, filters.range)}"`,
      "Cache-Control": "no-store",
    },
  });
}
