// The guest path's HTTP surface, served before Remix by server/app.mjs (decision 0014): gateway
// entries, the connect page, the spec's /splash JSON calls, the Captive Portal API (RFC 8908) and
// gateway accounting. Plain Express handlers rendering strings: a guest's page must cost a fraction
// of a console page (bench/portal.bench.ts).
//
// Guest pages are served under a CSP sandbox without allow-same-origin: they run with an opaque
// origin, so nothing on them (today's built-in page, tomorrow an operator's splash page) can read a
// console session. They set no cookie and send no Referer (the token is in the URL).
import { Readable } from "node:stream";
import express, { type NextFunction, type Request, type Response } from "express";
import { signupSchema, checkSignup } from "~/lib/schemas/portal";
import { publicOrigin } from "../email.server";
import { recordAccounting, revocationsSince } from "./accounting.server";
import { authorizeGuest, CONNECT_MESSAGES, loadGuestView, plausibleToken, type AuthorizeRequest, type GuestView } from "./connect.server";
import { captiveStatus } from "./captive.server";
import { enterFromGateway } from "./entry.server";
import { bearerToken, networkByGatewaySecret, networkByPortalKey } from "./network.server";
import { publishedFrameByKey } from "../splash/pages.server";
import { publicAsset } from "../splash/assets.server";
import { frameForGuest } from "../splash/rules.server";
import { styleFileFor } from "../splash/styles.server";
import { connectPage, messagePage, onlinePage, previewCard, refusalPage, refusalStatus, type FormState } from "~/guest/pages";
import { mountMpesaRoutes } from "./mpesa-routes.server";
import { mountSocialRoutes } from "./social-routes.server";
import { mountSurveyRoutes, surveyOffer } from "../surveys/guest-routes.server";
import { mountAdsRoutes } from "../ads/guest-routes.server";
import { bannerForGuest } from "../ads/serving.server";
import { mountSmsRoutes } from "../marketing/sms/callback-routes.server";
import { mountRadiusRoutes } from "../radius/routes.server";
import { mountUnsubscribeRoutes } from "../marketing/unsubscribe-routes.server";
import { hasNul } from "~/lib/nul";

export const GUEST_CSP =
  "sandbox allow-forms allow-top-navigation; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";
/**
 * An operator's splash page may run its own scripts, still in the sandbox without allow-same-origin
 * (no cookies, no storage, no reading our responses) and with no network access of its own.
 */
export const SPLASH_CSP =
  "sandbox allow-forms allow-scripts allow-top-navigation; default-src 'none'; script-src 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; base-uri 'none'; frame-ancestors 'none'";
const FORM_LIMIT = "16kb";
const ACCOUNTING_LIMIT = "1mb";

/** The headers of every guest page: the sandbox, no referrer, no caching. */
export function guestHeaderValues(csp = GUEST_CSP): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  };
}

export function guestHeaders(res: Response, csp = GUEST_CSP): void {
  res.set(guestHeaderValues(csp));
}

export function sendPage(res: Response, status: number, page: string, csp = GUEST_CSP): void {
  guestHeaders(res, csp);
  res.status(status).type("html").send(page);
}

/** A guest page to send: its status, HTML and Content-Security-Policy. */
export interface GuestPage {
  status: number;
  html: string;
  csp: string;
}

/** The connect page, inside the splash page the display rules choose for this guest (if any). */
async function connectPageFor(status: number, view: GuestView, token: string, state?: FormState): Promise<GuestPage> {
  const [frame, ad] = await Promise.all([frameForGuest(view.place), bannerForGuest(view, token)]);
  return { status, html: connectPage(view, token, state, frame, ad), csp: frame ? SPLASH_CSP : GUEST_CSP };
}

export async function sendConnectPage(res: Response, status: number, view: GuestView, token: string, state?: FormState): Promise<void> {
  const page = await connectPageFor(status, view, token, state);
  sendPage(res, page.status, page.html, page.csp);
}

/** GET /connect?token=…: the form, or the page saying why this token cannot be used. */
export async function connectPageForToken(token: string | null): Promise<GuestPage> {
  const view = await loadGuestView(token);
  if (!view || view.state !== "form") return { status: refusalStatus(view), html: refusalPage(view), csp: GUEST_CSP };
  return connectPageFor(200, view, token!);
}

/** Query strings of gateway redirects are small; a huge or NUL-laden one is refused before any work. */
export function queryRefusal(url: string): GuestPage | null {
  const query = url.split("?")[1] ?? "";
  if (query.length > 8192)
    return { status: 414, html: messagePage("Request too long", ["The address of this page is too long."]), csp: GUEST_CSP };
  if (/%00/i.test(url))
    return { status: 400, html: messagePage("Bad request", ["The request contains a character that is not allowed."]), csp: GUEST_CSP };
  return null;
}

function saneQuery(req: Request, res: Response, next: NextFunction) {
  const refusal = queryRefusal(req.originalUrl);
  if (refusal) return sendPage(res, refusal.status, refusal.html, refusal.csp);
  next();
}

/** A failure on our side (the database, a bug), logged; the guest sees a readable 503 and can try again. */
export function logPortalError(path: string, error: unknown): void {
  console.error(
    JSON.stringify({
      at: new Date().toISOString(),
      event: "portal_error",
      path: path.split("/").slice(0, 3).join("/"),
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
}

export const TRY_AGAIN = "Something went wrong on our side. Please try again in a moment.";

/** The page for such a failure. */
export function tryAgainPage(): GuestPage {
  return { status: 503, html: messagePage("Please try again", [TRY_AGAIN]), csp: GUEST_CSP };
}

function rejectNulBody(req: Request, res: Response, next: NextFunction) {
  if (hasNul(req.body)) return sendPage(res, 400, messagePage("Bad request", ["The request contains a character that is not allowed."]));
  next();
}

const form = [
  express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 50 }),
  express.json({ limit: FORM_LIMIT }),
  rejectNulBody,
];

/** The sign-up or click-through a form or JSON body asks for, as an authorization request (or field errors). */
async function connectRequest(
  body: unknown,
): Promise<
  { request: AuthorizeRequest; token: string } | { errors: Record<string, string[]>; token: string; values: Record<string, unknown> }
> {
  const parsed = signupSchema.safeParse(body ?? {});
  const values = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (!parsed.success)
    return { errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), [i.message]])), token: "", values };
  const input = parsed.data;
  // "Continue with my plan": the device's own subscription is looked up when it is authorized.
  if (input.mode === "SUBSCRIPTION") return { request: { token: input.token, mode: "SUBSCRIPTION" }, token: input.token };
  // The voucher box: the code is checked when the connection is authorized (redeemVoucher).
  if (input.mode === "VOUCHER") {
    const code = typeof values.voucher_code === "string" ? values.voucher_code.slice(0, 64) : null;
    return { request: { token: input.token, mode: "VOUCHER", voucherCode: code }, token: input.token };
  }
  const view = await loadGuestView(input.token, { plans: false });
  if (!view || view.state !== "form") return { request: { token: input.token, mode: "CLICK_THROUGH" }, token: input.token };
  if (!view.needsSignup) return { request: { token: input.token, mode: "CLICK_THROUGH" }, token: input.token };
  const { errors, details } = checkSignup(input, {
    first_name: view.customer.firstName,
    last_name: view.customer.lastName,
    email_address: view.customer.emailAddress,
    phone_number: view.customer.phoneNumber,
  });
  if (Object.keys(errors).length) return { errors, token: input.token, values };
  return {
    request: { token: input.token, mode: "SIGNUP", details, consent: { terms: true, marketing: input.marketing_opt_in } },
    token: input.token,
  };
}

/**
 * Express 4 does not await handlers: a rejected promise (a database deadlock, a dropped connection)
 * would be unhandled and end the process. Every handler of this router passes its failure to next().
 */
function catchingRouter(): express.Router {
  const router = express.Router();
  const wrap = (handler: unknown) =>
    typeof handler === "function" && handler.length < 4
      ? (req: Request, res: Response, next: NextFunction) => {
          try {
            const result = (handler as express.RequestHandler)(req, res, next) as unknown;
            if (result instanceof Promise) result.catch(next);
          } catch (error) {
            next(error);
          }
        }
      : handler;
  for (const method of ["get", "post"] as const) {
    const register = router[method].bind(router) as (...args: unknown[]) => express.Router;
    (router as unknown as Record<string, unknown>)[method] = (path: unknown, ...handlers: unknown[]) =>
      register(path, ...handlers.flat().map(wrap));
  }
  return router;
}

const JSON_PATHS =
  /^\/(radius\/|hotspot\/accounting|hotspot\/mpesa\/|marketing\/sms\/|hotspot\/mlango\/[^/]+\/revocations|splash\/connect\/auto|splash\/connection\/|captive\/[^/]+$)/;

export function portalRouter(): express.Router {
  const router = catchingRouter();
  // First: its /hotspot/{make}/{key}/login and POST entries come before the generic entry route.
  mountRadiusRoutes(router, { sendPage, messagePage, form });

  // Gateway accounting: one record or a batch, authenticated by the network's gateway secret.
  router.post("/hotspot/accounting", express.json({ limit: ACCOUNTING_LIMIT }), rejectNulBody, async (req, res) => {
    const secret = bearerToken(req.headers.authorization);
    const network = secret ? await networkByGatewaySecret(secret) : null;
    if (!network)
      return res
        .status(401)
        .set("WWW-Authenticate", "Bearer")
        .json({ error: { message: "Send the network's gateway secret as a bearer token." } });
    const outcome = await recordAccounting(network, req.body);
    res.status(outcome.ok ? 200 : 422).json(outcome.ok ? { data: outcome.data } : { error: { message: outcome.message } });
  });

  // Mlango's own make: the gateway polls the connections closed in the console.
  router.get("/hotspot/mlango/:portalKey/revocations", saneQuery, async (req, res) => {
    const secret = bearerToken(req.headers.authorization);
    const network = secret ? await networkByGatewaySecret(secret) : null;
    if (!network || network.portalKey !== req.params.portalKey)
      return res
        .status(401)
        .set("WWW-Authenticate", "Bearer")
        .json({ error: { message: "Send the network's gateway secret as a bearer token." } });
    const after = Number(req.query.after ?? 0);
    res
      .set("Cache-Control", "no-store")
      .json({ data: await revocationsSince(network, Number.isSafeInteger(after) && after > 0 ? after : 0) });
  });

  // A gateway hands a guest over: /hotspot/{make}/{portalKey}[/…] (UniFi appends /guest/s/{site}/).
  router.get(["/hotspot/:make/:portalKey", "/hotspot/:make/:portalKey/*"], saneQuery, async (req, res) => {
    const query = new URLSearchParams(req.originalUrl.split("?")[1] ?? "");
    const outcome = await enterFromGateway({
      make: req.params.make!,
      portalKey: req.params.portalKey!,
      rest: (req.params as Record<string, string>)[0] ?? "",
      query,
      userAgent: req.headers["user-agent"] ?? null,
    });
    if (!outcome.ok) return sendPage(res, outcome.status, messagePage("We could not connect you", [outcome.message]));
    guestHeaders(res);
    res.redirect(302, `/connect?token=${outcome.token}`);
  });

  // GET is answered ahead of Express (fast-path.server.ts); this route serves HEAD.
  router.get("/connect", saneQuery, async (req, res) => {
    const page = await connectPageForToken(typeof req.query.token === "string" ? req.query.token : null);
    sendPage(res, page.status, page.html, page.csp);
  });

  router.post("/connect", saneQuery, ...form, async (req, res) => {
    const asked = await connectRequest(req.body);
    if ("errors" in asked) {
      const view = await loadGuestView(asked.token);
      if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));
      return sendConnectPage(res, 422, view, asked.token, { values: asked.values as Record<string, string>, errors: asked.errors });
    }
    const outcome = await authorizeGuest(asked.request);
    if (outcome.ok) {
      guestHeaders(res);
      return res.redirect(303, outcome.redirect);
    }
    const view = await loadGuestView(asked.token);
    if (view?.state === "form") {
      const voucher =
        asked.request.mode === "VOUCHER"
          ? { values: { voucher_code: asked.request.voucherCode ?? "" }, errors: { voucher_code: [outcome.message] } }
          : { message: outcome.message };
      return sendConnectPage(res, outcome.status, view, asked.token, voucher);
    }
    sendPage(res, outcome.status, refusalPage(view, outcome.message));
  });

  router.get("/connect/online", saneQuery, async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : null;
    const view = await loadGuestView(token, { plans: false });
    const status = view ? await captiveStatus(view.connectionId) : null;
    const online = view?.state === "authorized";
    sendPage(res, 200, onlinePage(online ? view : null, status?.sessionExpiresAt ?? null, online ? await surveyOffer(token) : null));
  });

  // The connection and its customer, for app-based portals (docs/guide/api.md#guest-calls).
  router.get("/splash/connection/:token", saneQuery, async (req, res) => {
    res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
    const view = await loadGuestView(req.params.token, { plans: false });
    if (!view) return res.status(404).json({ error: { message: CONNECT_MESSAGES.unknown } });
    res.json({
      data: {
        connection: {
          id: view.connectionId,
          authorizedAt: view.authorizedAt,
          status: view.state,
          venue: { name: view.network.name },
          needsSignup: view.needsSignup,
          providers: view.providers,
          customer: view.customer,
        },
      },
    });
  });

  // The sign-up payload (JSON or form) of app-based portals; answers redirect_to or the error (docs/guide/api.md#guest-calls).
  router.post("/splash/connect/auto", saneQuery, ...form, async (req, res) => {
    res.set({ "Cache-Control": "no-store" });
    const asked = await connectRequest(req.body);
    if ("errors" in asked) {
      const first = Object.values(asked.errors)[0]?.[0] ?? "Check the form.";
      return res.status(422).json({ error: first, errors: asked.errors });
    }
    const outcome = await authorizeGuest(asked.request);
    if (outcome.ok) return res.json({ redirect_to: outcome.redirect });
    res.status(outcome.status).json({ error: outcome.reconnect ? `${outcome.message}. ${CONNECT_MESSAGES.reconnect}` : outcome.message });
  });

  // RFC 8908 Captive Portal API, announced by the gateway with DHCP option 114 (RFC 8910).
  router.get("/captive/:portalKey", saneQuery, async (req, res) => {
    const network = await networkByPortalKey(req.params.portalKey!);
    res.set({ "Cache-Control": "private, no-store" });
    if (!network)
      return res
        .status(404)
        .type("application/captive+json")
        .send(JSON.stringify({ captive: true }));
    const token = typeof req.query.token === "string" && plausibleToken(req.query.token) ? req.query.token : null;
    const view = token ? await loadGuestView(token, { plans: false }) : null;
    const status = view && view.network.id === network.id ? await captiveStatus(view.connectionId) : null;
    const body: Record<string, unknown> = {
      captive: !status?.online,
      "venue-info-url": `${publicOrigin()}/captive/${network.portalKey}/venue`,
    };
    if (token && view?.state === "form") body["user-portal-url"] = `${publicOrigin()}/connect?token=${token}`;
    if (status?.online) {
      body["seconds-remaining"] = Math.max(0, Math.floor((status.sessionExpiresAt - Date.now()) / 1000));
      body["can-extend-session"] = false;
    }
    res.type("application/captive+json").send(JSON.stringify(body));
  });

  router.get("/captive/:portalKey/venue", saneQuery, async (req, res) => {
    const network = await networkByPortalKey(req.params.portalKey!);
    if (!network) return sendPage(res, 404, messagePage("Not found", ["This Wi-Fi network is not set up in Mlango."]));
    sendPage(res, 200, messagePage(network.name, [`Guest Wi-Fi by ${network.organizationName}.`]));
  });

  mountSocialRoutes(router, { sendPage, sendConnectPage, form });
  mountMpesaRoutes(router, { sendPage, sendConnectPage, form });
  mountSmsRoutes(router);
  mountUnsubscribeRoutes(router, { sendPage });
  mountSurveyRoutes(router, { sendPage });
  mountAdsRoutes(router, { sendPage, messagePage });

  // Splash pages: the styling templates' files, operators' images, "View page".
  router.get("/splash/styles/:file", (req, res) => {
    const body = styleFileFor(req.params.file!);
    if (!body) return sendPage(res, 404, messagePage("Not found", ["There is no such style sheet."]));
    res.set({ "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" });
    res.status(200).type("text/css").send(body);
  });

  router.get("/assets/*", async (req, res) => {
    const asset = await publicAsset((req.params as Record<string, string>)[0] ?? "");
    if (!asset) return sendPage(res, 404, messagePage("Not found", ["There is no such image."]));
    // Keys are random and never reused, so an image can be cached for good.
    res.set({
      "Content-Type": asset.contentType,
      "Content-Length": String(asset.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    res.status(200);
    Readable.fromWeb(asset.body as import("node:stream/web").ReadableStream).pipe(res);
  });

  router.get("/splash/pages/:publicKey", async (req, res) => {
    const frame = await publishedFrameByKey(req.params.publicKey!);
    if (!frame) return sendPage(res, 404, messagePage("Not found", ["This splash page is not published."]));
    sendPage(res, 200, frame.before + previewCard() + frame.after, SPLASH_CSP);
  });

  // Bodies too large or malformed for the parsers above: a readable 4xx. Anything else that failed
  // (the database, a bug): logged, and a readable 503 — the guest can try again, the server lives on.
  router.use((error: { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    const clientError = error.status && error.status >= 400 && error.status < 500 ? error.status : null;
    if (!clientError) logPortalError(req.path, error);
    const status = clientError ?? 503;
    const message = status === 413 ? "The request is too large." : clientError ? "The request body could not be read." : TRY_AGAIN;
    if (res.headersSent) return res.end();
    if (JSON_PATHS.test(req.path)) return res.status(status).json({ error: { message } });
    sendPage(res, status, messagePage(clientError ? "Bad request" : "Please try again", [message]));
  });
  return router;
}
