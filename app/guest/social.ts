// Guests' social sign-in (docs/guide/guest-connect.md#social-sign-in,
// docs/guide/api.md#guest-calls): /splash/{provider}/login sends the guest to the provider,
// /splash/{provider}/callback comes back, reads who signed in and authorizes the connection with
// that provider as the mode. Nothing here sets a cookie (captive mini-browsers keep none): the flow
// travels in an encrypted `state` (social.server.ts). A provider that is configured but fails, or a
// guest who cancels there, gets the connect page again saying so.
import type { IncomingMessage, ServerResponse } from "node:http";
import { PRIVACY_TEXT } from "~/components/guest/privacy-text";
import type { OAuthProviderName } from "~/db/schema";
import { providersRefusing } from "~/lib/embedded-browser";
import { getEnv } from "~/env.server";
import { authorizeGuest, CONNECT_MESSAGES, loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { messagePage, PROVIDER_LABELS, refusalPage, refusalStatus } from "./pages";
import { authorizationUrl, guestDetails, loadSocialClient, openState, socialProvider } from "~/services/portal/social.server";
import { sendConnectPage } from "./connect-page";
import { redirect, sendPage, text, type GuestInput } from "./http";

const NOT_OFFERED = "This way of signing in is not available on this network. Use another way to connect.";
const BAD_STATE = "This sign-in link is not valid or has expired.";

const failedMessage = (provider: OAuthProviderName) =>
  `Sign-in with ${PROVIDER_LABELS[provider]} did not work. Try again or use another way to connect.`;
const cancelledMessage = (provider: OAuthProviderName) =>
  `Sign-in with ${PROVIDER_LABELS[provider]} was cancelled. Try again or use another way to connect.`;

function logFailure(provider: OAuthProviderName, view: GuestView, step: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    JSON.stringify({
      at: new Date().toISOString(),
      event: "social_signin_failed",
      provider,
      organization: view.organizationId,
      step,
      error: message,
    }),
  );
}

/** The connect page again, with what went wrong above the ways to connect. */
const connectAgain = (res: ServerResponse, status: number, view: GuestView, token: string, message: string) =>
  sendConnectPage(res, status, view, token, { message });

/** The provider's stand-in (OAUTH_PROVIDER_URL), read from the environment as parsed at boot. */
const standIn = () => getEnv().OAUTH_PROVIDER_URL;

/** GET /splash/{provider}/login?token=…: off to the provider. */
export async function startSocialSignIn(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const token = text(query.token);
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));
  const provider = socialProvider(params.provider);
  if (!provider || !view.providers.includes(provider)) return connectAgain(res, 404, view, token!, NOT_OFFERED);
  // A captive sheet is an embedded webview: Google would answer disallowed_useragent. Say what works instead.
  const ua = req.headers["user-agent"];
  if (providersRefusing(ua, [provider]).length)
    return sendConnectPage(res, 200, view, token!, { message: PRIVACY_TEXT.captiveNote(PROVIDER_LABELS[provider]) }, ua);
  let location: string;
  try {
    const client = await loadSocialClient(view.organizationId, provider, standIn());
    if (!client) return connectAgain(res, 404, view, token!, NOT_OFFERED);
    location = authorizationUrl(client, token!);
  } catch (error) {
    logFailure(provider, view, "login", error);
    return connectAgain(res, 502, view, token!, failedMessage(provider));
  }
  redirect(res, 302, location);
}

/** GET /splash/{provider}/callback?state&code: back from the provider. */
export async function finishSocialSignIn(_req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const provider = socialProvider(params.provider);
  const flow = provider ? openState(query.state, provider) : null;
  if (!provider || !flow) return sendPage(res, 400, messagePage("Get connected to WiFi", [BAD_STATE, CONNECT_MESSAGES.reconnect]));
  const { token } = flow;
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));

  const error = text(query.error);
  if (error === "access_denied") return connectAgain(res, 200, view, token, cancelledMessage(provider));
  const code = text(query.code);
  if (error || !code) {
    logFailure(provider, view, "authorize", error?.slice(0, 100) ?? "no code");
    return connectAgain(res, 502, view, token, failedMessage(provider));
  }

  let details: Awaited<ReturnType<typeof guestDetails>>;
  try {
    const client = await loadSocialClient(view.organizationId, provider, standIn());
    if (!client) return connectAgain(res, 404, view, token, NOT_OFFERED);
    details = await guestDetails(client, code, flow.verifier);
  } catch (failure) {
    logFailure(provider, view, "callback", failure);
    return connectAgain(res, 502, view, token, failedMessage(provider));
  }

  const outcome = await authorizeGuest({ token, mode: provider, details });
  if (outcome.ok) return redirect(res, 303, outcome.redirect);
  const after = await loadGuestView(token);
  if (after?.state === "form") return connectAgain(res, outcome.status, after, token, outcome.message);
  sendPage(res, outcome.status, refusalPage(after, outcome.message));
}
