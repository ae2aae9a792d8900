// The connect page as every guest route that shows it sends it: inside the splash page the display
// rules choose for this guest (if any), with the ad banner for them, in the guest's language, with
// the privacy notice's parts. And the look every other page of a token's guest has (the same frame,
// language and clock). Shared by connect, M-Pesa, social sign-in and surveys.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GuestPrivacy } from "~/components/guest/privacy-parts";
import { providersRefusing } from "~/lib/embedded-browser";
import { bannerForGuest } from "~/services/ads/serving.server";
import { captiveStatus } from "~/services/portal/captive.server";
import { loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { noticeForGuest, type PrivacyNotice } from "~/services/portal/privacy.server";
import { connectPage, messagePage, PLAIN, plainLook, refusalPage, refusalStatus, type FormState, type Look } from "./pages";
import { frameForGuest } from "~/services/splash/rules.server";
import { GUEST_CSP, sendGuestPage, SPLASH_CSP, TRY_AGAIN, type GuestPage } from "./http";
import { speechFor, withLang, type Speech } from "./i18n";

/** The guest's language: the page's choice (query, then form), their browser's, the network's default. */
export const speechOf = (req: IncomingMessage | null, view: GuestView | null, ...sources: unknown[]): Speech =>
  speechFor(req, view?.network.language, ...sources);

/**
 * How a token's guest's page looks: their language, the network's splash page around it (the one
 * the display rules choose) and the organisation's clock. `here`: the page's address for the switch.
 */
export async function lookFor(speech: Speech, view: GuestView | null, here: string | null): Promise<Look> {
  const frame = view ? await frameForGuest(view.place) : null;
  return { speech, frame, clock: view?.clock ?? PLAIN.clock, here };
}

export { plainLook };

/** The CSP of a page drawn with `look`: the splash page's frame needs its own. */
export const cspOf = (look: Look) => (look.frame ? SPLASH_CSP : GUEST_CSP);

/** The connect page's own address (the switch's target). */
export const connectHref = (token: string) => `/connect?token=${encodeURIComponent(token)}`;

/** The connect card's privacy parts: the notice's link and version, the data page, providers this browser cannot use. */
export function guestPrivacy(
  view: GuestView,
  token: string,
  notice: PrivacyNotice,
  userAgent: string | null | undefined,
  speech: Speech,
): GuestPrivacy {
  const q = withLang(`?token=${encodeURIComponent(token)}`, speech.carried);
  return {
    noticeHref: `/connect/privacy${q}`,
    dataHref: `/connect/my-data${q}`,
    version: notice.version,
    changed: view.acceptedNotice !== null && view.acceptedNotice !== notice.version,
    hiddenProviders: providersRefusing(userAgent, view.providers),
    text: speech.t.privacy,
  };
}

export async function connectPageFor(
  status: number,
  view: GuestView,
  token: string,
  speech: Speech,
  state?: FormState,
  userAgent?: string | null,
): Promise<GuestPage> {
  const [look, ad, notice] = await Promise.all([
    lookFor(speech, view, connectHref(token)),
    bannerForGuest(view, token),
    noticeForGuest(view),
  ]);
  const privacy = notice ? guestPrivacy(view, token, notice, userAgent, speech) : null;
  return { status, html: connectPage(view, token, state, look, ad, privacy), csp: cspOf(look) };
}

export async function sendConnectPage(
  res: ServerResponse,
  status: number,
  view: GuestView,
  token: string,
  speech: Speech,
  state?: FormState,
  userAgent?: string | null,
): Promise<void> {
  sendGuestPage(res, await connectPageFor(status, view, token, speech, state, userAgent));
}

/**
 * Why the token's connection cannot be authorized, on the network's page. A connection already
 * online says so, and until when, instead of refusing.
 */
export async function refusalFor(view: GuestView | null, token: string | null, speech: Speech, message?: string): Promise<GuestPage> {
  const [look, status] = await Promise.all([
    lookFor(speech, view, view && token ? connectHref(token) : null),
    view?.state === "authorized" ? captiveStatus(view.connectionId) : null,
  ]);
  const online = status?.online ? status.sessionExpiresAt : null;
  return { status: refusalStatus(view), html: refusalPage(view, message, look, online), csp: cspOf(look) };
}

/** A page of messages for a token's guest, on the network's page. */
export async function messageFor(
  status: number,
  view: GuestView | null,
  speech: Speech,
  title: string,
  messages: string[],
  here: string | null = null,
): Promise<GuestPage> {
  const look = await lookFor(speech, view, here);
  return { status, html: messagePage(title, messages, view?.network.name, look), csp: cspOf(look) };
}

/** GET /connect?token=…: the form, or the page saying why this token cannot be used. */
export async function connectPageForToken(
  token: string | null,
  speech: (view: GuestView | null) => Speech,
  userAgent?: string | null,
): Promise<GuestPage> {
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return refusalFor(view, token, speech(view));
  return connectPageFor(200, view, token!, speech(view), undefined, userAgent);
}

/** The page for a failure on our side. */
export function tryAgainPage(speech: Speech): GuestPage {
  const t = speech.t;
  return { status: 503, html: messagePage(t.pages.tryAgainTitle, [TRY_AGAIN], undefined, plainLook(speech)), csp: GUEST_CSP };
}
