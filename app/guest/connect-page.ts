// The connect page as every guest route that shows it sends it: inside the splash page the display
// rules choose for this guest (if any), with the ad banner for them. Shared by connect, M-Pesa and
// social sign-in.
import type { ServerResponse } from "node:http";
import { bannerForGuest } from "~/services/ads/serving.server";
import { loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { connectPage, messagePage, refusalPage, refusalStatus, type FormState } from "./pages";
import { frameForGuest } from "~/services/splash/rules.server";
import { GUEST_CSP, sendGuestPage, SPLASH_CSP, TRY_AGAIN, type GuestPage } from "./http";

export async function connectPageFor(status: number, view: GuestView, token: string, state?: FormState): Promise<GuestPage> {
  const [frame, ad] = await Promise.all([frameForGuest(view.place), bannerForGuest(view, token)]);
  return { status, html: connectPage(view, token, state, frame, ad), csp: frame ? SPLASH_CSP : GUEST_CSP };
}

export async function sendConnectPage(
  res: ServerResponse,
  status: number,
  view: GuestView,
  token: string,
  state?: FormState,
): Promise<void> {
  sendGuestPage(res, await connectPageFor(status, view, token, state));
}

/** GET /connect?token=…: the form, or the page saying why this token cannot be used. */
export async function connectPageForToken(token: string | null): Promise<GuestPage> {
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return { status: refusalStatus(view), html: refusalPage(view), csp: GUEST_CSP };
  return connectPageFor(200, view, token!);
}

/** The page for a failure on our side. */
export function tryAgainPage(): GuestPage {
  return { status: 503, html: messagePage("Please try again", [TRY_AGAIN]), csp: GUEST_CSP };
}
