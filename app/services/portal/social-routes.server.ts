// Guests' social sign-in (docs/guide/guest-connect.md#social-sign-in,
// docs/guide/api.md#guest-calls): /splash/{provider}/login sends the guest to the provider,
// /splash/{provider}/callback comes back, reads who signed in and authorizes the connection with
// that provider as the mode. Nothing here sets a cookie (captive mini-browsers keep none): the flow
// travels in an encrypted `state` (social.server.ts). A provider that is configured but fails, or a
// guest who cancels there, gets the connect page again saying so.
import type express from "express";
import type { OAuthProviderName } from "~/db/schema";
import { getEnv } from "~/env.server";
import { authorizeGuest, CONNECT_MESSAGES, loadGuestView, type GuestView } from "./connect.server";
import { messagePage, PROVIDER_LABELS, refusalPage, refusalStatus, type FormState } from "~/guest/pages";
import { authorizationUrl, guestDetails, loadSocialClient, openState, socialProvider } from "./social.server";

type SendPage = (res: express.Response, status: number, page: string) => void;
type SendConnectPage = (res: express.Response, status: number, view: GuestView, token: string, state?: FormState) => Promise<void>;

const NOT_OFFERED = "This way of signing in is not available on this network. Use another way to connect.";
const BAD_STATE = "This sign-in link is not valid or has expired.";

const queryText = (value: unknown): string | null => (typeof value === "string" ? value : null);

function redirect(res: express.Response, status: number, location: string): void {
  // The provider and the gateway must not learn the connect token from a Referer.
  res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  res.redirect(status, location);
}

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

export function mountSocialRoutes(
  router: express.Router,
  { sendPage, sendConnectPage }: { sendPage: SendPage; sendConnectPage: SendConnectPage; form: express.RequestHandler[] },
): void {
  // Read once at boot, like the rest of the environment.
  const standIn = getEnv().OAUTH_PROVIDER_URL;

  /** The connect page again, with what went wrong above the ways to connect. */
  const connectAgain = (res: express.Response, status: number, view: GuestView, token: string, message: string) =>
    sendConnectPage(res, status, view, token, { message });

  // The click-through route (docs/guide/guest-connect.md#routes); the connect page's Connect button does the same.
  router.get("/splash/click_through", (req, res) => {
    redirect(res, 302, `/connect?token=${encodeURIComponent(queryText(req.query.token) ?? "")}`);
  });

  router.get("/splash/:provider/login", async (req, res) => {
    const token = queryText(req.query.token);
    const view = await loadGuestView(token);
    if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));
    const provider = socialProvider(req.params.provider);
    if (!provider || !view.providers.includes(provider)) return connectAgain(res, 404, view, token!, NOT_OFFERED);
    let location: string;
    try {
      const client = await loadSocialClient(view.organizationId, provider, standIn);
      if (!client) return connectAgain(res, 404, view, token!, NOT_OFFERED);
      location = authorizationUrl(client, token!);
    } catch (error) {
      logFailure(provider, view, "login", error);
      return connectAgain(res, 502, view, token!, failedMessage(provider));
    }
    redirect(res, 302, location);
  });

  router.get("/splash/:provider/callback", async (req, res) => {
    const provider = socialProvider(req.params.provider);
    const flow = provider ? openState(req.query.state, provider) : null;
    if (!provider || !flow) return sendPage(res, 400, messagePage("Get connected to WiFi", [BAD_STATE, CONNECT_MESSAGES.reconnect]));
    const { token } = flow;
    const view = await loadGuestView(token);
    if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));

    const error = queryText(req.query.error);
    if (error === "access_denied") return connectAgain(res, 200, view, token, cancelledMessage(provider));
    const code = queryText(req.query.code);
    if (error || !code) {
      logFailure(provider, view, "authorize", error?.slice(0, 100) ?? "no code");
      return connectAgain(res, 502, view, token, failedMessage(provider));
    }

    let details: Awaited<ReturnType<typeof guestDetails>>;
    try {
      const client = await loadSocialClient(view.organizationId, provider, standIn);
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
  });
}
