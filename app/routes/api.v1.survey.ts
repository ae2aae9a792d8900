// The survey service (docs/guide/api.md#survey-service), for scripts: bearer token, organisation
// in X-Organization-Id (or organization_id in the query). The same schemas and services as the
// pages.
// GET  /api/v1/survey?limit=&offset=&search=   (view_surveys) → 200 { data: [survey], total }
//      newest first; limit 1–100 (default 10), offset ≥ 0; each survey: id, title, description,
//      start_date, end_date (YYYY-MM-DD), status (Upcoming | Active | Expired), created_at.
// POST /api/v1/survey {title, description, start_date, end_date, venues?: [id], questions: [{question_text,
//      question_type (text | multiple | checkbox | dropdown | rating), options (list or comma separated)}]}
//      (edit_surveys) → 201 { message: 'Survey created successfully!', data: survey with questions }
//      422 { errors: { field: [message] } } (the pages' messages, e.g. 'Start date cannot be later than End date!').
// 401 without a token, 404 for an organisation the caller is not a member of, 403 without the permission.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { SURVEY_MESSAGES, surveySchema } from "~/lib/schemas/surveys";
import { apiError, apiValidationFailed, dispatch, type ApiMethods } from "~/services/api.server";
import { readSurveyInput, requireSurveyApiOrg } from "~/services/surveys/api.server";
import { createSurvey, getSurvey, listSurveys, surveyJson } from "~/services/surveys/surveys.server";

const NO_STORE = { "Cache-Control": "no-store" };

function clampInt(raw: string | null, min: number, max: number, fallback: number): number {
  const n = Number.parseInt(raw ?? "", 10);
  return Number.isFinite(n) ? Math.min(Math.max(n, min), max) : fallback;
}

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireSurveyApiOrg(request, "view_surveys");
    const q = new URL(request.url).searchParams;
    const pageSize = clampInt(q.get("limit"), 1, 100, 10);
    const offset = clampInt(q.get("offset"), 0, 100_000_000, 0);
    const search = (q.get("search") ?? "").trim().slice(0, 100);
    try {
      const { rows, total } = await listSurveys(ctx, { offset, pageSize, search });
      return json({ data: rows.map(surveyJson), total }, { headers: NO_STORE });
    } catch (error) {
      if (error instanceof Response) throw error;
      console.error(
        JSON.stringify({ at: new Date().toISOString(), event: "surveys_api_list_failed", org: ctx.org.id, error: String(error) }),
      );
      return apiError(500, SURVEY_MESSAGES.loadListFailed);
    }
  },

  async POST({ request }) {
    const ctx = await requireSurveyApiOrg(request, "edit_surveys");
    const input = await readSurveyInput(request, surveySchema);
    let outcome;
    try {
      outcome = await createSurvey(ctx, input);
    } catch (error) {
      if (error instanceof Response) throw error;
      console.error(
        JSON.stringify({ at: new Date().toISOString(), event: "surveys_api_create_failed", org: ctx.org.id, error: String(error) }),
      );
      return apiError(500, SURVEY_MESSAGES.createFailed);
    }
    if (!outcome.ok) return apiValidationFailed(outcome.errors);
    return json(
      { message: SURVEY_MESSAGES.created, data: surveyJson(await getSurvey(ctx, outcome.id)) },
      { status: 201, headers: NO_STORE },
    );
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
