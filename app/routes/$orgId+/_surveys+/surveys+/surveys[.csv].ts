// GET /{orgId}/surveys/surveys.csv?survey_id=…&start_date=…&end_date=…
// (docs/guide/surveys.md#survey-report): every answer of the survey in the range, newest first,
// streamed in keyset batches (responses.server.ts). For the signed-in browser (cookie) and for scripts
// (Authorization: Bearer <token>); view_surveys, names and contacts with view_clients. No rows: 'No
// surveys to export.' (a toast back on the report for a browser, 404 { message } for a script).
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { CSV_FILE, SURVEY_MESSAGES, responsesQuerySchema } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { hasResponses, responsesCsvStream } from "~/services/surveys/responses.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_surveys");
  const url = new URL(request.url);
  const parsed = responsesQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? SURVEY_MESSAGES.selectSurvey }, { status: 400 });
  if (!(await hasResponses(ctx, parsed.data))) {
    if (/^Bearer\s/i.test(request.headers.get("Authorization") ?? "")) return json({ message: SURVEY_MESSAGES.noCsvRows }, { status: 404 });
    return redirectWithToast(request, `/${ctx.org.id}/surveys/report${url.search}`, { type: "info", message: SURVEY_MESSAGES.noCsvRows });
  }
  const stream = await responsesCsvStream(ctx, parsed.data);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${CSV_FILE}"`,
      "Cache-Control": "no-store",
    },
  });
}
