// A gateway hands a guest over: GET /hotspot/{make}/{portalKey}[/…] (UniFi appends /guest/s/{site}/),
// or GET /guest/s/{site}/ on the portal's host as a UniFi controller's External Portal Server sends it,
// and for the RADIUS makes also POST (a MikroTik login.html posts the router's variables; Cisco and
// Ruckus may be set to POST too). The adapter reads the redirect (entry.server.ts); the guest goes on
// to the connect page with a fresh token.
import type { IncomingMessage, ServerResponse } from "node:http";
import { enterFromGateway, enterFromUnifiSite, type EntryOutcome } from "~/services/portal/entry.server";
import { messagePage } from "./pages";
import { RADIUS_MAKES } from "~/lib/schemas/radius-clients";
import { plainLook } from "./connect-page";
import { guestHeaderValues, redirect, sendPage, type GuestInput } from "./http";
import { speechFor, withLang } from "./i18n";

/** The makes whose gateway entry may come by POST, and whose grant is a login form (radius.ts). */
export const isRadiusMake = (make: string | undefined): boolean => RADIUS_MAKES.some((m) => m.value === make);

async function enter(req: IncomingMessage, res: ServerResponse, params: GuestInput["params"], query: URLSearchParams, status: 302 | 303) {
  const outcome = await enterFromGateway({
    make: params.make!,
    portalKey: params.portalKey!,
    rest: params["*"] ?? "",
    query,
    userAgent: req.headers["user-agent"] ?? null,
  });
  answer(req, res, query, outcome, status);
}

/** The entry's answer: on to the connect page, or a readable refusal in the guest's language. */
function answer(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, outcome: EntryOutcome, status: 302 | 303): void {
  // A gateway entry is good for one visit: its page has no language switch; `lang` on the entry goes on to the connect page.
  const speech = speechFor(req, null, Object.fromEntries(query));
  if (!outcome.ok)
    return sendPage(res, outcome.status, messagePage(speech.t.pages.couldNotConnect, [outcome.message], undefined, plainLook(speech)));
  redirect(res, status, withLang(`/connect?token=${outcome.token}`, speech.carried), status === 302 ? guestHeaderValues() : {});
}

/**
 * GET /guest/s/{site}/?id=&ap=&t=&url=&ssid=: where a UniFi controller's External Portal Server
 * really sends guests (the portal's host, no portal key); the network is the access point's.
 */
export async function enterByUnifiSite(req: IncomingMessage, res: ServerResponse, { params, search }: GuestInput): Promise<void> {
  const query = new URLSearchParams(search);
  const outcome = await enterFromUnifiSite({ site: params.site ?? "", query, userAgent: req.headers["user-agent"] ?? null });
  answer(req, res, query, outcome, 302);
}

/** GET /hotspot/{make}/{portalKey}[/…]: the gateway's redirect, its query read as sent. */
export function enterByRedirect(req: IncomingMessage, res: ServerResponse, { params, search }: GuestInput): Promise<void> {
  return enter(req, res, params, new URLSearchParams(search), 302);
}

/** POST /hotspot/{make}/{portalKey}: a RADIUS make's login.html posting the router's variables. */
export async function enterByForm(req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  if (!isRadiusMake(params.make)) {
    const speech = speechFor(req, null);
    return sendPage(res, 404, messagePage(speech.t.pages.notFound, [speech.t.pages.noSuchPage], undefined, plainLook(speech)));
  }
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>))
    if (typeof value === "string") query.set(name, value);
  return enter(req, res, params, query, 303);
}
