// GET /{orgId}/reports/{new_visitors|unique_visitors|all_visitors|repeat_visitors}.csv: the whole
// visitor list of the period, venues and search of the page, streamed in batches. For the signed-in
// browser (cookie) and for scripts (Authorization: Bearer <token>). The rows are guests' personal
// data: view_clients is needed (PERSONAL_DATA_PERMISSION).
import type { LoaderFunctionArgs } from "@remix-run/node";
import type { AnalyticsScope } from "~/lib/analytics";
import { parseDateRange } from "~/lib/date-range";
import { parseListParams } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { reportFileName, type VisitorReport } from "~/lib/reports";
import { requireOrg } from "~/services/guard.server";
import { reportVenueFilter, visitorsCsvStream } from "~/services/reports.server";

export function visitorExportLoader(report: VisitorReport) {
  return async function loader({ request, params }: LoaderFunctionArgs) {
    const ctx = await requireOrg(request, params, PERSONAL_DATA_PERMISSION);
    const searchParams = new URL(request.url).searchParams;
    const { venueIds } = await reportVenueFilter(ctx, searchParams);
    const scope: AnalyticsScope = { organizationId: ctx.org.id, venueIds, range: parseDateRange(searchParams, ctx.org.clock) };
    const stream = visitorsCsvStream(scope, report, parseListParams(searchParams).search);
    return new Response(stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${reportFileName(report)}"`,
        "Cache-Control": "no-store",
      },
    });
  };
}
