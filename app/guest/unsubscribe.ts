// Unsubscribing from broadcast mail:
//   GET  /unsubscribe/{token}   "Stop messages from {organisation}?" and one button
//   POST /unsubscribe/{token}   the button's form, or a mail client's RFC 8058 one-click POST (body
//                               `List-Unsubscribe=One-Click`, cross-site, no cookies): opts out
// The token is the whole authority (unsubscribe.server.ts); the body is not needed and not read (the
// language the page was in travels in the form's action, `?lang=`). The guest path reads no cookie,
// so the one-click POST from another origin is taken (it can only ever opt its own customer out).
import type { IncomingMessage, ServerResponse } from "node:http";
import { optOut } from "~/services/marketing/consent.server";
import { notFound, questionPage, unsubscribedPage } from "./unsubscribe-page";
import { unsubscribeTarget } from "~/services/marketing/unsubscribe.server";
import { sendPage, type GuestInput } from "./http";
import { speechFor } from "./i18n";

export async function askToUnsubscribe(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const speech = speechFor(req, null, query);
  const target = await unsubscribeTarget(params.token!);
  if (!target) return sendPage(res, 404, notFound(speech));
  const here = `/unsubscribe/${params.token!}`;
  if (target.optedOut) return sendPage(res, 200, unsubscribedPage(speech.t.unsubscribe.already(target.organizationName), speech, here));
  sendPage(res, 200, questionPage(target.organizationName, here, speech));
}

export async function unsubscribe(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const speech = speechFor(req, null, query);
  const target = await unsubscribeTarget(params.token!);
  if (!target) return sendPage(res, 404, notFound(speech));
  // Already out: nothing to write (a second click, or the mail client and the person both).
  if (!target.optedOut) await optOut(target.organizationId, target.customerId, "email-unsubscribe");
  sendPage(res, 200, unsubscribedPage(speech.t.unsubscribe.done(target.organizationName), speech));
}
