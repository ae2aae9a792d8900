// GET /{orgId}/surveys/report.xlsx?survey_id=…&start_date=…&end_date=…&page=N
// (docs/guide/surveys.md#survey-report): the report's page N as a spreadsheet named
// survey-responses-page-N.xlsx with one sheet, 'Survey Responses', written by exceljs's streaming
// writer. Cookie or bearer token; view_surveys (names and contacts with view_clients). An empty page:
// 'No data found on this page to export.'; a failure: 'Failed to export this page.'
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { RESPONSES_PER_PAGE, SURVEY_MESSAGES, responsesQuerySchema, xlsxFileName } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { responsesPage, responsesXlsxStream } from "~/services/surveys/responses.server";
import { logFailure } from "~/routes/$orgId+/_surveys+/__surveys.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_surveys");
  const url = new URL(request.url);
  const bearer = /^Bearer\s/i.test(request.headers.get("Authorization") ?? "");
  const parsed = responsesQuerySchema.safeParse({ ...Object.fromEntries(url.searchParams), per_page: String(RESPONSES_PER_PAGE) });
  if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? SURVEY_MESSAGES.selectSurvey }, { status: 400 });
  const refuse = (message: string, status: number) =>
    bearer
      ? json({ message }, { status })
      : redirectWithToast(request, `/${ctx.org.id}/surveys/report${url.search}`, { type: status === 404 ? "info" : "error", message });
  let page;
  try {
    page = await responsesPage(ctx, parsed.data);
  } catch (error) {
    logFailure("survey_xlsx_failed", ctx, error);
    return refuse(SURVEY_MESSAGES.exportPageFailed, 500);
  }
  // A page past the last one is empty, not the last page again.
  if (page.rows.length === 0 || page.pagination.current_page !== parsed.data.page) return refuse(SURVEY_MESSAGES.noPageRows, 404);
  return new Response(responsesXlsxStream(page, ctx.org.clock.offsetMs), {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${xlsxFileName(page.pagination.current_page)}"`,
      "Cache-Control": "no-store",
    },
  });
}
