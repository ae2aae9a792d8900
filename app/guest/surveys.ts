// POST /connect/survey: the survey on the "online" page stores the answers or the skip and shows
// the online page again with a thank-you (the pages: app/guest/survey-page.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_OPTIONS } from "~/lib/schemas/surveys";
import { messagePage } from "./pages";
import { answerSurvey, GUEST_SURVEY_MESSAGES } from "~/services/surveys/guest.server";
import { note, online, surveyBlock } from "./survey-page";
import { loadGuestView } from "~/services/portal/connect.server";
import { plainLook, speechOf } from "./connect-page";
import { sendPage, text, type GuestInput } from "./http";

/**
 * The connect page's form takes 50 fields of 16 KB; a survey's form carries up to 50 questions
 * (a checkbox question one field per ticked option) and text answers of up to 1,000 characters.
 */
export const SURVEY_FORM = { limit: 128 * 1024, parameterLimit: 50 * (MAX_OPTIONS + 1) + 10 };

const send = (res: ServerResponse, status: number, page: { html: string; csp: string }) => sendPage(res, status, page.html, page.csp);

export async function answerGuestSurvey(req: IncomingMessage, res: ServerResponse, input: GuestInput): Promise<void> {
  const body = (input.body && typeof input.body === "object" ? input.body : {}) as Record<string, unknown>;
  const token = text(body.token) ?? "";
  const outcome = await answerSurvey({ token, surveyId: body.survey_id, intent: body.intent, body });
  const view = await loadGuestView(token, { plans: false });
  const speech = speechOf(req, view, body, input.query);
  if (outcome.ok) {
    const message = outcome.status === "answered" ? GUEST_SURVEY_MESSAGES.thanks : GUEST_SURVEY_MESSAGES.skipped;
    return send(res, 200, await online(view, token, note(message, "ok", speech), speech));
  }
  if ("survey" in outcome) return send(res, 422, await online(view, token, surveyBlock(outcome.survey, token, outcome, speech), speech));
  if (outcome.status === 404 && outcome.message === GUEST_SURVEY_MESSAGES.unknownLink)
    return sendPage(res, 404, messagePage(speech.t.pages.survey, [outcome.message], undefined, plainLook(speech)));
  send(res, outcome.status, await online(view, token, note(outcome.message, outcome.status === 409 ? "ok" : "error", speech), speech));
}
