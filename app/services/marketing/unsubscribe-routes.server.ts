// Unsubscribing from broadcast mail, a guest page with no sign-in, no
// cookie and no script:
//   GET  /unsubscribe/{token}   "Stop messages from {organisation}?" and one button
//   POST /unsubscribe/{token}   the button's form, or a mail client's RFC 8058 one-click POST (body
//                               `List-Unsubscribe=One-Click`, cross-site, no cookies): opts out
// The token is the whole authority (unsubscribe.server.ts); the body is not needed and not read.
// Served by the portal router, before the console's request boundary, so the one-click POST from
// another origin is taken (it can only ever opt its own customer out).
import type express from "express";
import { optOut } from "./consent.server";
import { html, Html } from "~/guest/html";
import { messagePage } from "~/guest/pages";
import { unsubscribeTarget } from "./unsubscribe.server";

type SendPage = (res: express.Response, status: number, page: string) => void;

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

function questionPage(organization: string, action: string): string {
  return page(
    UNSUBSCRIBE_MESSAGES.question(organization),
    html`<p>You will no longer get e-mail or SMS offers from ${organization}.</p><form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

const unsubscribedPage = (message: string) => page("Unsubscribed", html`<p role="status">${message}</p>`);

const notFound = () => messagePage("Not found", [UNSUBSCRIBE_MESSAGES.unknown]);

export function mountUnsubscribeRoutes(router: express.Router, { sendPage }: { sendPage: SendPage }): void {
  router.get("/unsubscribe/:token", async (req, res) => {
    const target = await unsubscribeTarget(req.params.token!);
    if (!target) return sendPage(res, 404, notFound());
    if (target.optedOut) return sendPage(res, 200, unsubscribedPage(UNSUBSCRIBE_MESSAGES.already(target.organizationName)));
    sendPage(res, 200, questionPage(target.organizationName, `/unsubscribe/${req.params.token!}`));
  });

  router.post("/unsubscribe/:token", async (req, res) => {
    const target = await unsubscribeTarget(req.params.token!);
    if (!target) return sendPage(res, 404, notFound());
    // Already out: nothing to write (a second click, or the mail client and the person both).
    if (!target.optedOut) await optOut(target.organizationId, target.customerId, "email-unsubscribe");
    sendPage(res, 200, unsubscribedPage(UNSUBSCRIBE_MESSAGES.done(target.organizationName)));
  });
}
