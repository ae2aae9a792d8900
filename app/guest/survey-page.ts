// The guest's survey on the "online" page: the offer block the online page shows, and the pages
// POST /connect/survey answers with (app/guest/surveys.ts). Plain HTML forms (html.server.ts escapes
// every value), no script, no cookie; the connection's token identifies the guest.
import { captiveStatus } from "~/services/portal/captive.server";
import type { GuestView } from "~/services/portal/connect.server";
import { html, type Html } from "./html";
import { onlinePage } from "./pages";
import { cspOf, lookFor } from "./connect-page";
import { ENGLISH, say, type Speech } from "./i18n";
import { guestConnection, surveyToOffer, type GuestQuestion, type GuestSurvey } from "~/services/surveys/guest.server";
import { MAX_TEXT_ANSWER, RATING_MAX, RATING_MIN } from "~/lib/schemas/surveys";

const SURVEY_STYLE = html`<style>.survey{margin-top:1rem}.survey h2{font-size:1.15rem;margin:0 0 .25rem}.survey fieldset{border:0;padding:0;margin:.9rem 0 0}.survey legend{font-weight:600;font-size:.9rem;padding:0}.survey textarea,.survey select{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #94a3b8;border-radius:.5rem;background:#fff}.survey .rating{display:flex;gap:.4rem;flex-wrap:wrap}.survey .rating label{display:flex;gap:.25rem;align-items:center;font-weight:400;margin:.25rem 0 0;border:1px solid #cbd5e1;border-radius:.5rem;padding:.35rem .6rem}</style>`;

function questionField(q: GuestQuestion, values: string[], error: string | undefined, speech: Speech): Html {
  const t = speech.t.survey;
  const name = `q${q.id}`;
  const err = error ? html`<p class="err" id="${name}-error">${error}</p>` : "";
  const described = error ? html` aria-describedby="${name}-error"` : "";
  if (q.type === "text") {
    return html`<fieldset><label for="${name}">${q.text}</label><textarea id="${name}" name="${name}" rows="3" maxlength="${MAX_TEXT_ANSWER}"${described}>${values[0] ?? ""}</textarea>${err}</fieldset>`;
  }
  if (q.type === "dropdown") {
    return html`<fieldset><label for="${name}">${q.text}</label><select id="${name}" name="${name}"${described}><option value="">${t.choose}</option>${q.options.map(
      (o) => html`<option value="${o}"${values.includes(o) ? html` selected` : ""}>${o}</option>`,
    )}</select>${err}</fieldset>`;
  }
  if (q.type === "rating") {
    const scores = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i));
    return html`<fieldset${described}><legend>${q.text} <small>${t.scale(RATING_MIN, RATING_MAX)}</small></legend><div class="rating">${scores.map(
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
  speech: Speech = ENGLISH,
): Html {
  const t = speech.t.survey;
  const lang = speech.carried ? html`<input type="hidden" name="lang" value="${speech.carried}">` : "";
  const message = state.message ? say(speech.lang, state.message) : null;
  return html`${SURVEY_STYLE}<form class="card survey" method="post" action="/connect/survey" novalidate><input type="hidden" name="token" value="${token}">${lang}<input type="hidden" name="survey_id" value="${survey.id}"><h2>${survey.title}</h2>${
    survey.description ? html`<p>${survey.description}</p>` : ""
  }<p><small>${t.intro}</small></p>${message ? html`<div class="alert" role="alert"><p>${message}</p></div>` : ""}${survey.questions.map(
    (q) => {
      const error = state.errors?.[`q${q.id}`];
      return questionField(q, state.values?.[`q${q.id}`] ?? [], error === undefined ? undefined : say(speech.lang, error), speech);
    },
  )}<button type="submit" name="intent" value="answer">${t.send}</button><button type="submit" name="intent" value="skip" class="alt">${t.skip}</button></form>`;
}

/** The online page's survey offer for this token's guest, or null (no Active survey left for them). */
export async function surveyOffer(token: string | null, speech: Speech = ENGLISH): Promise<Html | null> {
  const connection = await guestConnection(token);
  if (!connection || !token) return null;
  const survey = await surveyToOffer(connection);
  return survey ? surveyBlock(survey, token, {}, speech) : null;
}

export const note = (message: string, tone: "ok" | "error" = "ok", speech: Speech = ENGLISH) =>
  html`<div class="card survey"><div class="alert${tone === "ok" ? " ok" : ""}" role="${tone === "ok" ? "status" : "alert"}"><p>${say(speech.lang, message)}</p></div></div>`;

/** The online page of the token's guest with `extra` under it, as the guest's other pages look. */
export async function online(view: GuestView | null, token: string, extra: Html, speech: Speech): Promise<{ html: string; csp: string }> {
  const authorized = view?.state === "authorized" ? view : null;
  const [status, look] = await Promise.all([
    view ? captiveStatus(view.connectionId) : null,
    lookFor(speech, authorized, `/connect/online?token=${encodeURIComponent(token)}`),
  ]);
  return { html: onlinePage(authorized, status?.sessionExpiresAt ?? null, extra, look), csp: cspOf(look) };
}
