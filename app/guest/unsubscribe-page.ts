// The pages of unsubscribing from broadcast mail (app/guest/unsubscribe.ts): a guest page with no
// sign-in, no cookie and no script, in the guest's language with a switch to the other (decision 0079).
import { html, Html } from "./html";
import { messagePage, plainLook } from "./pages";
import { catalogue, ENGLISH, withLang, type Speech } from "./i18n";
import { en } from "./i18n/en";

/** The spec's English messages (the catalogue has them, and their Kiswahili). */
export const UNSUBSCRIBE_MESSAGES = en.unsubscribe;

const STYLE = `body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#0f172a;background:#f1f5f9}main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}h1{font-size:1.35rem;margin:.25rem 0 1rem}
button{display:block;width:100%;padding:.75rem;font:inherit;font-weight:600;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}.lang{text-align:right;font-size:.85rem;margin:0}`;

function page(title: string, body: Html, speech: Speech, here: string | null): string {
  const other = speech.lang === "sw" ? "en" : "sw";
  const link = here
    ? html`<p class="lang"><a href="${withLang(here, other)}" hreflang="${other}" lang="${other}">${catalogue(other).name}</a></p>`
    : "";
  return html`<!doctype html><html lang="${speech.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${new Html(STYLE)}</style></head><body><main><div class="card">${link}<h1>${title}</h1>${body}</div></main></body></html>`
    .text;
}

export function questionPage(organization: string, action: string, speech: Speech = ENGLISH): string {
  const t = speech.t.unsubscribe;
  const lang = speech.carried ? html`<input type="hidden" name="lang" value="${speech.carried}">` : "";
  return page(
    t.question(organization),
    html`<p>${t.explain(organization)}</p><form method="post" action="${withLang(action, speech.carried)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">${lang}<button type="submit">${t.button}</button></form>`,
    speech,
    action,
  );
}

export const unsubscribedPage = (message: string, speech: Speech = ENGLISH, here: string | null = null) =>
  page(speech.t.unsubscribe.title, html`<p role="status">${message}</p>`, speech, here);

export const notFound = (speech: Speech = ENGLISH) =>
  messagePage(speech.t.pages.notFound, [speech.t.unsubscribe.unknown], undefined, plainLook(speech));
