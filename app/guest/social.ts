// Guests' social sign-in (docs/guide/guest-connect.md#social-sign-in,
// docs/guide/api.md#guest-calls): /splash/{provider}/login sends the guest to the provider,
// /splash/{provider}/callback comes back, reads who signed in and authorizes the connection with
// that provider as the mode. Nothing here sets a cookie (captive mini-browsers keep none): the flow
// travels in an encrypted `state` (social.server.ts). A provider that is configured but fails, or a
// guest who cancels there, gets the connect page again saying so.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OAuthProviderName } from "~/db/schema";
import { providersRefusing } from "~/lib/embedded-browser";
import { getEnv } from "~/env.server";
import { authorizeGuest, CONNECT_MESSAGES, loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { messagePage, PROVIDER_LABELS } from "./pages";
import { authorizationUrl, guestDetails, loadSocialClient, openState, socialProvider } from "~/services/portal/social.server";
import { plainLook, refusalFor, sendConnectPage, speechOf } from "./connect-page";
import { redirect, sendGuestPage, sendPage, text, type GuestInput } from "./http";
import type { Speech } from "./i18n";

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
const connectAgain = (res: ServerResponse, status: number, view: GuestView, token: string, speech: Speech, message: string) =>
  sendConnectPage(res, status, view, token, speech, { message });

/** The provider's stand-in (OAUTH_PROVIDER_URL), read from the environment as parsed at boot. */
const standIn = () => getEnv().OAUTH_PROVIDER_URL;

/** GET /splash/{provider}/login?token=…: off to the provider. */
export async function startSocialSignIn(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const token = text(query.token);
  const view = await loadGuestView(token);
  const speech = speechOf(req, view, query);
  const t = speech.t.social;
  if (!view || view.state !== "form") return sendGuestPage(res, await refusalFor(view, token, speech));
  const provider = socialProvider(params.provider);
  if (!provider || !view.providers.includes(provider)) return connectAgain(res, 404, view, token!, speech, t.notOffered);
  // A captive sheet is an embedded webview: Google would answer disallowed_useragent. Say what works instead.
  const ua = req.headers["user-agent"];
  if (providersRefusing(ua, [provider]).length)
    return sendConnectPage(res, 200, view, token!, speech, { message: speech.t.privacy.captiveNote(PROVIDER_LABELS[provider]) }, ua);
  let location: string;
  try {
    const client = await loadSocialClient(view.organizationId, provider, standIn());
    if (!client) return connectAgain(res, 404, view, token!, speech, t.notOffered);
    location = authorizationUrl(client, token!, Date.now(), speech.carried);
  } catch (error) {
    logFailure(provider, view, "login", error);
    return connectAgain(res, 502, view, token!, speech, t.failed(provider));
  }
  redirect(res, 302, location);
}

/** GET /splash/{provider}/callback?state&code: back from the provider. */
// The language the guest chose rides in the sealed state (the provider's redirect carries no `lang` of ours).
export async function finishSocialSignIn(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const provider = socialProvider(params.provider);
  const flow = provider ? openState(query.state, provider) : null;
  if (!provider || !flow) {
    const speech = speechOf(req, null);
    const page = messagePage(speech.t.connect.title, [speech.t.social.badState, CONNECT_MESSAGES.reconnect], undefined, plainLook(speech));
    return sendPage(res, 400, page);
  }
  const { token } = flow;
  const view = await loadGuestView(token);
  const speech = speechOf(req, view, { lang: flow.lang });
  const t = speech.t.social;
  if (!view || view.state !== "form") return sendGuestPage(res, await refusalFor(view, token, speech));

  const error = text(query.error);
  if (error === "access_denied") return connectAgain(res, 200, view, token, speech, t.cancelled(provider));
  const code = text(query.code);
  if (error || !code) {
    logFailure(provider, view, "authorize", error?.slice(0, 100) ?? "no code");
    return connectAgain(res, 502, view, token, speech, t.failed(provider));
  }

  let details: Awaited<ReturnType<typeof guestDetails>>;
  try {
    const client = await loadSocialClient(view.organizationId, provider, standIn());
    if (!client) return connectAgain(res, 404, view, token, speech, t.notOffered);
    details = await guestDetails(client, code, flow.verifier);
  } catch (failure) {
    logFailure(provider, view, "callback", failure);
    return connectAgain(res, 502, view, token, speech, t.failed(provider));
  }

  const outcome = await authorizeGuest({ token, mode: provider, details, lang: speech.carried });
  if (outcome.ok) return redirect(res, 303, outcome.redirect);
  const after = await loadGuestView(token);
  if (after?.state === "form") return connectAgain(res, outcome.status, after, token, speech, outcome.message);
  sendGuestPage(res, { ...(await refusalFor(after, token, speech, outcome.message)), status: outcome.status });
}
