// The guest's survey on the "online" page: the offer block the online page shows, and the pages
// POST /connect/survey answers with (app/guest/surveys.ts). Plain HTML forms (html.server.ts escapes
// every value), no script, no cookie; the connection's token identifies the guest.
import { captiveStatus } from "~/services/portal/captive.server";
import { loadGuestView } from "~/services/portal/connect.server";
import { html, type Html } from "./html";
import { onlinePage } from "./pages";
import { guestConnection, surveyToOffer, type GuestQuestion, type GuestSurvey } from "~/services/surveys/guest.server";
import { MAX_TEXT_ANSWER, RATING_MAX, RATING_MIN } from "~/lib/schemas/surveys";

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

export const note = (message: string, tone: "ok" | "error" = "ok") =>
  html`<div class="card survey"><div class="alert${tone === "ok" ? " ok" : ""}" role="${tone === "ok" ? "status" : "alert"}"><p>${message}</p></div></div>`;

/** The online page of the token's guest with `extra` under it. */
export async function online(token: string, extra: Html): Promise<string> {
  const view = await loadGuestView(token);
  const status = view ? await captiveStatus(view.connectionId) : null;
  return onlinePage(view?.state === "authorized" ? view : null, status?.sessionExpiresAt ?? null, extra);
}
