// The pages of unsubscribing from broadcast mail (app/guest/unsubscribe.ts): a guest page with no
// sign-in, no cookie and no script.
import { html, Html } from "./html";
import { messagePage } from "./pages";

export const UNSUBSCRIBE_MESSAGES = {
  question: (organization: string) => `Stop messages from ${organization}?`,
  done: (organization: string) => `You will get no more messages from ${organization}.`,
  already: (organization: string) => `You already get no messages from ${organization}.`,
  unknown: "This unsubscribe link is not valid. Use the link in the latest message you received.",
};

const STYLE = `body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#0f172a;background:#f1f5f9}main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}h1{font-size:1.35rem;margin:.25rem 0 1rem}
button{display:block;width:100%;padding:.75rem;font:inherit;font-weight:600;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}`;

function page(title: string, body: Html): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${new Html(STYLE)}</style></head><body><main><div class="card"><h1>${title}</h1>${body}</div></main></body></html>`
    .text;
}

export function questionPage(organization: string, action: string): string {
  return page(
    UNSUBSCRIBE_MESSAGES.question(organization),
    html`<p>You will no longer get e-mail or SMS offers from ${organization}.</p><form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export const unsubscribedPage = (message: string) => page("Unsubscribed", html`<p role="status">${message}</p>`);

export const notFound = () => messagePage("Not found", [UNSUBSCRIBE_MESSAGES.unknown]);
