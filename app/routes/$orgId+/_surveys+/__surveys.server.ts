// What the survey screens share: the delete action (list and detail), and how a failed save or load
// is told (the messages of docs/guide/surveys.md) instead of a bare 500.
import { json } from "@remix-run/node";
import { confirmationNeeded } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { SURVEY_MESSAGES } from "~/lib/schemas/surveys";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { deleteSurvey, findSurvey } from "~/services/surveys/surveys.server";

export const surveysPath = (orgId: number) => `/${orgId}/surveys`;
export const surveyPath = (orgId: number, id: number) => `/${orgId}/survey/${id}`;

/** Logs a failure that is not a guard's or a service's answer (those are thrown Responses and pass on). */
export function logFailure(event: string, ctx: OrgContext, error: unknown): void {
  if (error instanceof Response) throw error;
  console.error(
    JSON.stringify({ at: new Date().toISOString(), event, org: ctx.org.id, error: error instanceof Error ? error.message : String(error) }),
  );
}

/** Delete after 'Are you sure you want to delete this survey?'; back to the list. */
export async function deleteSurveyAction(request: Request, ctx: OrgContext, form: FormData) {
  requirePermission(ctx, "edit_surveys");
  const survey = await findSurvey(ctx, parseId(form.get("id")));
  const ask = confirmationNeeded(form, "delete", SURVEY_MESSAGES.deleteQuestion, { id: survey.id });
  if (ask) return json(ask);
  try {
    await deleteSurvey(ctx, survey.id);
  } catch (error) {
    logFailure("survey_delete_failed", ctx, error);
    return json({ message: SURVEY_MESSAGES.deleteFailed }, { status: 500 });
  }
  return redirectWithToast(request, surveysPath(ctx.org.id), SURVEY_MESSAGES.deleted);
}
