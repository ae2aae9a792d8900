// The connect page as every guest route that shows it sends it: inside the splash page the display
// rules choose for this guest (if any), with the ad banner for them. Shared by connect, M-Pesa and
// social sign-in.
import type { ServerResponse } from "node:http";
import type { GuestPrivacy } from "~/components/guest/privacy-parts";
import { PRIVACY_TEXT } from "~/components/guest/privacy-text";
import { providersRefusing } from "~/lib/embedded-browser";
import { bannerForGuest } from "~/services/ads/serving.server";
import { loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { noticeForGuest, type PrivacyNotice } from "~/services/portal/privacy.server";
import { connectPage, messagePage, refusalPage, refusalStatus, type FormState } from "./pages";
import { frameForGuest } from "~/services/splash/rules.server";
import { GUEST_CSP, sendGuestPage, SPLASH_CSP, TRY_AGAIN, type GuestPage } from "./http";

/** The connect card's privacy parts: the notice's link and version, the data page, providers this browser cannot use. */
export function guestPrivacy(view: GuestView, token: string, notice: PrivacyNotice, userAgent?: string | null): GuestPrivacy {
  const q = `?token=${encodeURIComponent(token)}`;
  return {
    noticeHref: `/connect/privacy${q}`,
    dataHref: `/connect/my-data${q}`,
    version: notice.version,
    changed: view.acceptedNotice !== null && view.acceptedNotice !== notice.version,
    hiddenProviders: providersRefusing(userAgent, view.providers),
    text: PRIVACY_TEXT,
  };
}

export async function connectPageFor(
  status: number,
  view: GuestView,
  token: string,
  state?: FormState,
  userAgent?: string | null,
): Promise<GuestPage> {
  const [frame, ad, notice] = await Promise.all([frameForGuest(view.place), bannerForGuest(view, token), noticeForGuest(view)]);
  const privacy = notice ? guestPrivacy(view, token, notice, userAgent) : null;
  return { status, html: connectPage(view, token, state, frame, ad, privacy), csp: frame ? SPLASH_CSP : GUEST_CSP };
}

export async function sendConnectPage(
  res: ServerResponse,
  status: number,
  view: GuestView,
  token: string,
  state?: FormState,
  userAgent?: string | null,
): Promise<void> {
  sendGuestPage(res, await connectPageFor(status, view, token, state, userAgent));
}

/** GET /connect?token=…: the form, or the page saying why this token cannot be used. */
export async function connectPageForToken(token: string | null, userAgent?: string | null): Promise<GuestPage> {
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return { status: refusalStatus(view), html: refusalPage(view), csp: GUEST_CSP };
  return connectPageFor(200, view, token!, undefined, userAgent);
}

/** The page for a failure on our side. */
export function tryAgainPage(): GuestPage {
  return { status: 503, html: messagePage("Please try again", [TRY_AGAIN]), csp: GUEST_CSP };
}
