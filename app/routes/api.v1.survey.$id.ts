// The survey service (docs/guide/api.md#survey-service): one survey. Bearer token, organisation in X-Organization-Id.
// GET    /api/v1/survey/{id} (view_surveys) → 200 { data: survey with questions [{id, question_text,
//        question_type, options}] and venues [{id, name}] (none: every network) }
// PUT    /api/v1/survey/{id} — the body of POST /api/v1/survey; a question with the id of one of the
//        survey's questions is that question changed (its answers stay), questions left out are
//        removed (edit_surveys) → 200 { message: 'Survey Edited successfully!', data }; 422 { errors }
// DELETE /api/v1/survey/{id} (edit_surveys) → 200 { message: 'Survey deleted.', data: { id } }
// Another organisation's, an unknown or a malformed id: 404 { error: { message: 'Survey not found.' } }.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { SURVEY_MESSAGES, surveySchema } from "~/lib/schemas/surveys";
import { apiError, apiValidationFailed, dispatch, type ApiMethods } from "~/services/api.server";
import { readSurveyInput, requireSurveyApiOrg } from "~/services/surveys/api.server";
import { deleteSurvey, findSurvey, getSurvey, surveyJson, updateSurvey } from "~/services/surveys/surveys.server";

const NO_STORE = { "Cache-Control": "no-store" };

function failed(event: string, orgId: number, error: unknown, message: string): Response {
  if (error instanceof Response) throw error;
  console.error(JSON.stringify({ at: new Date().toISOString(), event, org: orgId, error: String(error) }));
  return apiError(500, message);
}

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireSurveyApiOrg(request, "view_surveys");
    return json({ data: surveyJson(await getSurvey(ctx, parseId(params.id))) }, { headers: NO_STORE });
  },

  async PUT({ request, params }) {
    const ctx = await requireSurveyApiOrg(request, "edit_surveys");
    const survey = await findSurvey(ctx, parseId(params.id)); // 404 before the body is looked at
    const input = await readSurveyInput(request, surveySchema);
    let outcome;
    try {
      outcome = await updateSurvey(ctx, survey.id, input);
    } catch (error) {
      return failed("surveys_api_update_failed", ctx.org.id, error, SURVEY_MESSAGES.saveFailed);
    }
    if (!outcome.ok) return apiValidationFailed(outcome.errors);
    return json({ message: SURVEY_MESSAGES.edited, data: surveyJson(await getSurvey(ctx, survey.id)) }, { headers: NO_STORE });
  },

  async DELETE({ request, params }) {
    const ctx = await requireSurveyApiOrg(request, "edit_surveys");
    const survey = await findSurvey(ctx, parseId(params.id));
    try {
      await deleteSurvey(ctx, survey.id);
    } catch (error) {
      return failed("surveys_api_delete_failed", ctx.org.id, error, SURVEY_MESSAGES.deleteFailed);
    }
    return json({ message: SURVEY_MESSAGES.deleted, data: { id: survey.id } }, { headers: NO_STORE });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
