// The guest's survey on the "online" page: the offer block the online page
// shows, and POST /connect/survey, which stores the answers or the skip and shows the online page
// again with a thank-you. Plain HTML forms (html.server.ts escapes every value), no script, no cookie;
// the connection's token identifies the guest. Mounted on the portal router (router.server.ts).
import express from "express";
import { hasNul } from "~/lib/nul";
import { captiveStatus } from "../portal/captive.server";
import { loadGuestView } from "../portal/connect.server";
import { html, type Html } from "~/guest/html";
import { messagePage, onlinePage } from "~/guest/pages";
import { answerSurvey, GUEST_SURVEY_MESSAGES, guestConnection, surveyToOffer, type GuestQuestion, type GuestSurvey } from "./guest.server";
import { MAX_OPTIONS, MAX_TEXT_ANSWER, RATING_MAX, RATING_MIN } from "~/lib/schemas/surveys";

type SendPage = (res: express.Response, status: number, page: string) => void;

const SURVEY_STYLE = html`<style>.survey{margin-top:1rem}.survey h2{font-size:1.15rem;margin:0 0 .25rem}.survey fieldset{border:0;padding:0;margin:.9rem 0 0}.survey legend{font-weight:600;font-size:.9rem;padding:0}.survey textarea,.survey select{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #94a3b8;border-radius:.5rem;background:#fff}.survey .rating{display:flex;gap:.4rem;flex-wrap:wrap}.survey .rating label{display:flex;gap:.25rem;align-items:center;font-weight:400;margin:.25rem 0 0;border:1px solid #cbd5e1;border-radius:.5rem;padding:.35rem .6rem}</style>`;

function questionField(q: GuestQuestion, values: string[], error: string | undefined): Html {
  const name = `q${q.id}`;
  const err = error ? html`<p class="err" id="${name}-error">${error}</p>` : "";
  const described = error ? html` aria-describedby="${name}-error"` : "";
  if (q.type === "text") {
    return html`<fieldset><label for="${name}">${q.text}</label><textarea id="${name}" name="${name}" rows="3" maxlength="${MAX_TEXT_ANSWER}"${described}>${values[0] ?? ""}</textarea>${err}</fieldset>`;
  }
  if (q.type === "dropdown") {
    return html`<fieldset><label for="${name}">${q.text}</label><select id="${name}" name="${name}"${described}><option value="">Choose…</option>${q.options.map(
      (o) => html`<option value="${o}"${values.includes(o) ? html` selected` : ""}>${o}</option>`,
    )}</select>${err}</fieldset>`;
  }
  if (q.type === "rating") {
    const scores = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i));
    return html`<fieldset${described}><legend>${q.text} <small>(${RATING_MIN} = poor, ${RATING_MAX} = excellent)</small></legend><div class="rating">${scores.map(
      (s) => html`<label><input type="radio" name="${name}" value="${s}"${values.includes(s) ? html` checked` : ""}>${s}</label>`,
    )}</div>${err}</fieldset>`;
  }
  const type = q.type === "checkbox" ? "checkbox" : "radio";
  return html`<fieldset${described}><legend>${q.text}</legend>${q.options.map(
    (o) =>
      html`<label class="check"><input type="${type}" name="${name}" value="${o}"${values.includes(o) ? html` checked` : ""}><span>${o}</span></label>`,
  )}${err}</fieldset>`;
}

/** The survey form shown under "You are online". */
export function surveyBlock(
  survey: GuestSurvey,
  token: string,
  state: { errors?: Record<string, string>; values?: Record<string, string[]>; message?: string } = {},
): Html {
  return html`${SURVEY_STYLE}<form class="card survey" method="post" action="/connect/survey" novalidate><input type="hidden" name="token" value="${token}"><input type="hidden" name="survey_id" value="${survey.id}"><h2>${survey.title}</h2>${
    survey.description ? html`<p>${survey.description}</p>` : ""
  }<p><small>A short survey, if you have a moment. You are online either way.</small></p>${
    state.message ? html`<div class="alert" role="alert"><p>${state.message}</p></div>` : ""
  }${survey.questions.map((q) => questionField(q, state.values?.[`q${q.id}`] ?? [], state.errors?.[`q${q.id}`]))}<button type="submit" name="intent" value="answer">Send answers</button><button type="submit" name="intent" value="skip" class="alt">Skip the survey</button></form>`;
}

/** The online page's survey offer for this token's guest, or null (no Active survey left for them). */
export async function surveyOffer(token: string | null): Promise<Html | null> {
  const connection = await guestConnection(token);
  if (!connection || !token) return null;
  const survey = await surveyToOffer(connection);
  return survey ? surveyBlock(survey, token) : null;
}

const note = (message: string, tone: "ok" | "error" = "ok") =>
  html`<div class="card survey"><div class="alert${tone === "ok" ? " ok" : ""}" role="${tone === "ok" ? "status" : "alert"}"><p>${message}</p></div></div>`;

/** The online page of the token's guest with `extra` under it. */
async function online(token: string, extra: Html): Promise<string> {
  const view = await loadGuestView(token);
  const status = view ? await captiveStatus(view.connectionId) : null;
  return onlinePage(view?.state === "authorized" ? view : null, status?.sessionExpiresAt ?? null, extra);
}

/**
 * The connect page's form parser takes 50 fields of 16 KB; a survey's form carries up to 50 questions
 * (a checkbox question one field per ticked option) and text answers of up to 1,000 characters.
 */
const parseSurveyForm = express.urlencoded({ extended: false, limit: "128kb", parameterLimit: 50 * (MAX_OPTIONS + 1) + 10 });

export function mountSurveyRoutes(router: express.Router, { sendPage }: { sendPage: SendPage }): void {
  const refuseNul: express.RequestHandler = (req, res, next) =>
    hasNul(req.body) ? sendPage(res, 400, messagePage("Bad request", ["The request contains a character that is not allowed."])) : next();
  router.post("/connect/survey", parseSurveyForm, refuseNul, async (req, res) => {
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
    const token = typeof body.token === "string" ? body.token : "";
    const outcome = await answerSurvey({ token, surveyId: body.survey_id, intent: body.intent, body });
    if (outcome.ok) {
      const message = outcome.status === "answered" ? GUEST_SURVEY_MESSAGES.thanks : GUEST_SURVEY_MESSAGES.skipped;
      return sendPage(res, 200, await online(token, note(message)));
    }
    if ("survey" in outcome) return sendPage(res, 422, await online(token, surveyBlock(outcome.survey, token, outcome)));
    if (outcome.status === 404 && outcome.message === GUEST_SURVEY_MESSAGES.unknownLink)
      return sendPage(res, 404, messagePage("Survey", [outcome.message]));
    sendPage(res, outcome.status, await online(token, note(outcome.message, outcome.status === 409 ? "ok" : "error")));
  });
}
