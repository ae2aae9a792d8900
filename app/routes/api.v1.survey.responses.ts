// POST /api/v1/survey/responses {survey_id, page, per_page, start_date, end_date}
// (docs/guide/api.md#survey-service): a page of the survey's answers, newest first, as the report shows
// them. Bearer token, X-Organization-Id; view_surveys; firstname, lastname, email, phonenumber are null
// without view_clients.
//   survey_id   required ('Please select a survey'); another organisation's or unknown: 404
//   page        from 1, default 1 (past the last page: the last page)
//   per_page    1–100, default 20 (docs/guide/surveys.md#survey-report)
//   start_date, end_date   YYYY-MM-DD, inclusive UTC days; none: every answer
// → 200 { responses: [{ id, surveyquestion, surveyresponse, firstname, lastname, email, phonenumber,
//         question_id, created_at }], pagination: { total, per_page, current_page, last_page } }
//   422 { errors }; 500 { error: { message: 'Failed to fetch survey responses' } }.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { SURVEY_MESSAGES, responsesQuerySchema } from "~/lib/schemas/surveys";
import { apiError, dispatch, type ApiMethods } from "~/services/api.server";
import { readSurveyInput, requireSurveyApiOrg } from "~/services/surveys/api.server";
import { responsesPage } from "~/services/surveys/responses.server";

const methods: ApiMethods = {
  async POST({ request }) {
    const ctx = await requireSurveyApiOrg(request, "view_surveys");
    const query = await readSurveyInput(request, responsesQuerySchema);
    let page;
    try {
      page = await responsesPage(ctx, query);
    } catch (error) {
      if (error instanceof Response) throw error;
      console.error(
        JSON.stringify({ at: new Date().toISOString(), event: "survey_responses_api_failed", org: ctx.org.id, error: String(error) }),
      );
      return apiError(500, SURVEY_MESSAGES.fetchResponsesFailed);
    }
    return json(
      { responses: page.rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })), pagination: page.pagination },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
