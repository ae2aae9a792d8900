// Every URL of the guest side, in one list: what gateways, guests' browsers, FreeRADIUS, Daraja and
// Africa's Talking call. One small router (find-my-way; every GET route answers HEAD too, Node leaving out the body) on
// plain node:http; server/app.mjs asks it first and passes its route's body rules to the request
// boundary (server/boundary.mjs) before the handler runs. What is not here goes to Express and Remix.
// The handlers live in this folder, one module per area; the rules they apply live in app/services.
import type { IncomingMessage, ServerResponse } from "node:http";
import querystring from "node:querystring";
import Router from "find-my-way";
import { messagePage } from "./pages";
import { acceptAccounting, listRevocations } from "./accounting";
import { adBanner, adClick } from "./ads";
import { captiveApi, venueInfo } from "./captive";
import { clickThrough, connectAsJson, connectionAsJson, showConnectPage, showOnlinePage, submitConnectForm } from "./connect";
import { plainLook, tryAgainPage } from "./connect-page";
import { speechFor } from "./i18n";
import { enterByForm, enterByRedirect, enterByUnifiSite, isRadiusMake } from "./entry";
import { logPortalError, sendGuestPage, sendJson, sendPage, TRY_AGAIN, type GuestHandler, type GuestInput } from "./http";
import {
  c2bConfirmation,
  c2bValidation,
  cancelMpesaPurchase,
  mpesaResult,
  mpesaResultTimeout,
  showChangeNumberPage,
  showWaitingPage,
  startMpesaPurchase,
  stkCallback,
} from "./mpesa";
import { claimMpesaReceipt, showReceiptWaitingPage } from "./receipt";
import { mikrotikLoginFile, radiusAccounting, radiusAuthenticate, radiusAuthorize, radiusClient, radiusLoginPage } from "./radius";
import { smsDeliveryReport, smsInbound } from "./sms";
import { finishSocialSignIn, startSocialSignIn } from "./social";
import { showMyData, showPrivacyNotice, submitMyData } from "./privacy";
import { publishedPage, splashImage, styleSheet } from "./splash";
import { answerGuestSurvey, SURVEY_FORM } from "./surveys";
import { askToUnsubscribe, unsubscribe } from "./unsubscribe";

const KB = 1024;
const URLENCODED = ["application/x-www-form-urlencoded"];
const JSON_TYPES = ["application/json"];

/** What the request boundary reads of a route's body (server/boundary.mjs, passBoundary). */
interface BodyRules {
  limit: number;
  /** Content types read; null: any (the body is capped and checked, not read). */
  types: string[] | null;
  parameterLimit?: number;
}
/** GETs, and POSTs whose body is not read. */
const NO_BODY: BodyRules = { limit: 16 * KB, types: null };
/** The connect page's forms, and the same fields as JSON from app-based portals. */
const GUEST_FORM: BodyRules = { limit: 16 * KB, types: [...URLENCODED, ...JSON_TYPES], parameterLimit: 50 };
const CALLBACK_JSON: BodyRules = { limit: 64 * KB, types: JSON_TYPES };
const ACCOUNTING_JSON: BodyRules = { limit: 1024 * KB, types: JSON_TYPES };
const SMS_CALLBACK: BodyRules = { limit: 16 * KB, types: [...URLENCODED, ...JSON_TYPES], parameterLimit: 20 };
const SURVEY: BodyRules = { types: URLENCODED, ...SURVEY_FORM };

/** Query strings of gateway redirects are small; a huge one is refused before any work. */
const QUERY_LIMIT = 8192;

/** A route's answers are JSON (machines) or guest pages (browsers): refusals and failures come in the same shape. */
type Answers = "json" | "page";

interface Route {
  handler: GuestHandler;
  body: BodyRules;
  answers: Answers;
}

/** A request the guest side answers: the rules the boundary applies, then the answer. */
export interface GuestRequest {
  rules: BodyRules & {
    queryLimit: number;
    jsonRequired: true;
    origin: null;
    refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void;
  };
  answer(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
}

function refusal(answers: Answers) {
  return (req: IncomingMessage, res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return void res.end();
    if (answers === "json") return sendJson(res, status, { error: { message } });
    const speech = speechFor(req, null);
    const title = status === 414 ? speech.t.pages.tooLong : speech.t.pages.badRequest;
    sendPage(res, status, messagePage(title, [message], undefined, plainLook(speech)));
  };
}

/** A failure on our side (the database, a bug): logged, and a readable 503 — the guest can try again, the server lives on. */
function failed(req: IncomingMessage, res: ServerResponse, answers: Answers, error: unknown): void {
  logPortalError(req.url ?? "", error);
  if (res.headersSent) return void res.destroy();
  if (answers === "json") return sendJson(res, 503, { error: { message: TRY_AGAIN } });
  sendGuestPage(res, tryAgainPage(speechFor(req, null)));
}

/** GET /hotspot/{make}/{key}/login: a RADIUS make's grant page; for the other makes, a gateway entry like any other path. */
const loginOrEntry: GuestHandler = (req, res, input) =>
  isRadiusMake(input.params.make) ? radiusLoginPage(input.params.make!, req, res, input) : enterByRedirect(req, res, input);

export function guestRoutes(): { find(method: string, url: string): GuestRequest | null } {
  // Express matched "/connect/" as "/connect", and any length of path segment (Node caps the request line).
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: 16 * KB });
  const get = (path: string, handler: GuestHandler, answers: Answers = "page") =>
    router.on(["GET", "HEAD"], path, () => {}, { handler, body: NO_BODY, answers } satisfies Route);
  const post = (path: string, handler: GuestHandler, body: BodyRules, answers: Answers = "page") =>
    router.on("POST", path, () => {}, { handler, body, answers } satisfies Route);

  // Gateways hand guests over.
  get("/hotspot/:make/:portalKey", enterByRedirect); // a gateway's redirect (entry.ts)
  get("/hotspot/:make/:portalKey/*", enterByRedirect); // …with a path after the key (UniFi's /guest/s/{site}/)
  get("/guest/s/:site", enterByUnifiSite); // UniFi's External Portal Server on the portal's host: the network from the access point's MAC
  post("/hotspot/:make/:portalKey", enterByForm, GUEST_FORM); // a RADIUS make's login.html posting the router's variables
  get("/hotspot/:make/:portalKey/login", loginOrEntry); // a RADIUS make's grant: the credentials posted to the gateway (radius.ts)
  get("/hotspot/mikrotik/:portalKey/login.html", mikrotikLoginFile); // the login.html an operator uploads to a MikroTik

  // The connect page and its ways to connect.
  get("/connect", showConnectPage); // the form, or why this token cannot be used (connect.ts)
  post("/connect", submitConnectForm, GUEST_FORM); // sign-up, click-through, a held plan, a voucher
  get("/connect/online", showOnlinePage); // "You are online", with the survey offered
  post("/connect/survey", answerGuestSurvey, SURVEY); // the survey's answers or its skip (surveys.ts)
  post("/connect/mpesa", startMpesaPurchase, GUEST_FORM); // a plan bought with M-Pesa: the STK push (mpesa.ts)
  get("/connect/mpesa/wait", showWaitingPage); // the waiting page, then the grant
  post("/connect/mpesa/cancel", cancelMpesaPurchase, GUEST_FORM); // the waiting page's "Cancel" and "Use another number"
  get("/connect/mpesa/change", showChangeNumberPage); // another number for the cancelled purchase's plan
  post("/connect/mpesa/receipt", claimMpesaReceipt, GUEST_FORM); // "Paid already?": an M-Pesa code typed (receipt.ts)
  get("/connect/mpesa/receipt/wait", showReceiptWaitingPage); // while M-Pesa is asked about it, then the grant
  get("/connect/privacy", showPrivacyNotice); // the privacy notice generated for the network (privacy.tsx)
  get("/connect/my-data", showMyData); // the guest's own data: prove the phone with a code…
  post("/connect/my-data", submitMyData, GUEST_FORM); // …then see it, stop marketing, ask for deletion
  get("/splash/click_through", clickThrough); // the spec's click-through route
  get("/splash/:provider/login", startSocialSignIn); // social sign-in: off to the provider (social.ts)
  get("/splash/:provider/callback", finishSocialSignIn); // …and back
  get("/splash/connection/:token", connectionAsJson, "json"); // the connection and its customer, for app-based portals
  post("/splash/connect/auto", connectAsJson, GUEST_FORM, "json"); // their sign-up payload
  get("/ads/click/:bannerId", adClick); // an ad's click: counted, then to the advertiser (ads.ts)
  get("/assets/ads/*", adBanner); // an ad's banner image

  // Splash pages' public files (splash.ts).
  get("/splash/styles/:file", styleSheet); // a styling template's style sheet
  get("/splash/pages/:publicKey", publishedPage); // "View page" of a published splash page
  get("/assets/*", splashImage); // an operator's image

  // RFC 8908 Captive Portal API, announced with DHCP option 114 (captive.ts).
  get("/captive/:portalKey", captiveApi, "json"); // captive or not, the time left
  get("/captive/:portalKey/venue", venueInfo); // the venue-info page

  // Usage and closing, from gateways with the network's gateway secret (accounting.ts).
  post("/hotspot/accounting", acceptAccounting, ACCOUNTING_JSON, "json"); // one accounting record or a batch
  get("/hotspot/mlango/:portalKey/revocations", listRevocations, "json"); // Mlango's make polls the connections closed in the console

  // FreeRADIUS's rest calls, with RADIUS_API_SECRET (radius.ts).
  post("/radius/client", radiusClient, NO_BODY, "json"); // is this source address a registered NAS?
  post("/radius/authorize", radiusAuthorize, CALLBACK_JSON, "json"); // Access-Request: the reply's attributes
  post("/radius/authenticate", radiusAuthenticate, CALLBACK_JSON, "json"); // the guest's one-time credentials checked
  post("/radius/accounting", radiusAccounting, CALLBACK_JSON, "json"); // Accounting-Request

  // Daraja's callbacks, authenticated by the key in the path (mpesa.ts).
  post("/hotspot/mpesa/:callbackKey", stkCallback, CALLBACK_JSON, "json"); // an STK push's result
  post("/hotspot/mpesa/:callbackKey/c2b/confirmation", c2bConfirmation, CALLBACK_JSON, "json"); // a paybill payment
  post("/hotspot/mpesa/:callbackKey/c2b/validation", c2bValidation, CALLBACK_JSON, "json"); // a paybill payment to accept
  // Reversal and Transaction Status results (Daraja's ResultURL), behind a secret compared in constant time.
  post("/hotspot/mpesa-result/:organizationId/:secret", mpesaResult, CALLBACK_JSON, "json");
  post("/hotspot/mpesa-result/:organizationId/:secret/timeout", mpesaResultTimeout, CALLBACK_JSON, "json"); // its QueueTimeOutURL

  // Africa's Talking's callbacks, authenticated by the key in the path (sms.ts).
  post("/marketing/sms/:callbackKey/delivery", smsDeliveryReport, SMS_CALLBACK, "json"); // a delivery report
  post("/marketing/sms/:callbackKey/inbound", smsInbound, SMS_CALLBACK, "json"); // a text to the short code ("STOP")

  // Unsubscribing from broadcast mail (unsubscribe.ts).
  get("/unsubscribe/:token", askToUnsubscribe); // "Stop messages from …?"
  post("/unsubscribe/:token", unsubscribe, NO_BODY); // the button, or a mail client's RFC 8058 one-click POST

  return {
    find(method, url) {
      const end = url.indexOf("?");
      const path = end < 0 ? url : url.slice(0, end);
      const found = router.find(method as Router.HTTPMethod, path);
      if (!found) return null;
      const route = found.store as Route;
      const search = end < 0 ? "" : url.slice(end + 1);
      return {
        rules: { ...route.body, queryLimit: QUERY_LIMIT, jsonRequired: true, origin: null, refuse: refusal(route.answers) },
        async answer(req, res, body) {
          const input: GuestInput = { params: found.params, query: querystring.parse(search), search, body };
          try {
            await route.handler(req, res, input);
          } catch (error) {
            failed(req, res, route.answers, error);
          }
        },
      };
    },
  };
}
