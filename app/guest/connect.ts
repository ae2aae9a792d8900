// The connect page and the spec's /splash JSON calls for app-based portals
// (docs/guide/guest-connect.md, docs/guide/api.md#guest-calls): the form, its sign-up or
// click-through, and the "You are online" page.
import type { IncomingMessage, ServerResponse } from "node:http";
import { signupSchema, checkSignup } from "~/lib/schemas/portal";
import { captiveStatus } from "~/services/portal/captive.server";
import { PRIVACY_TEXT } from "~/components/guest/privacy-text";
import { authorizeGuest, CONNECT_MESSAGES, loadGuestView, type AuthorizeRequest, type GuestView } from "~/services/portal/connect.server";
import { noticeForGuest } from "~/services/portal/privacy.server";
import { retryAfterHeaders } from "~/services/rate-limit.server";
import { checkCode, maskedPhone, proofAsker, sendCode } from "~/services/portal/phone-proof.server";
import { paidPlanOfPhone, provedCustomerOfPhone } from "~/services/prepaid/reconnect.server";
import { onlinePage, proofPage, tooManyAttemptsPage } from "./pages";
import { surveyOffer } from "./survey-page";
import { connectPageForToken, cspOf, lookFor, refusalFor, sendConnectPage, speechOf } from "./connect-page";
import { guestHeaderValues, redirect, sendGuestPage, sendJson, sendPage, text, type GuestInput } from "./http";
import { chosenLanguage, withLang } from "./i18n";

/** The sign-up or click-through a form or JSON body asks for, as an authorization request (or field errors). */
async function connectRequest(
  body: unknown,
): Promise<
  | { request: AuthorizeRequest; token: string; /** the guest's view, read for a sign-up */ view?: GuestView }
  | { errors: Record<string, string[]>; token: string; values: Record<string, unknown> }
> {
  const parsed = signupSchema.safeParse(body ?? {});
  const values = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (!parsed.success)
    return { errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), [i.message]])), token: "", values };
  const input = parsed.data;
  const lang = chosenLanguage(values);
  const view = await loadGuestView(input.token, { plans: false });
  // The notice the guest was shown: its version goes with the consent. A form posted under an older
  // version (the operator changed what is collected or shared meanwhile) is shown again to accept.
  const notice = view?.state === "form" ? await noticeForGuest(view) : null;
  const shown = typeof values.notice_version === "string" ? values.notice_version : null;
  if (notice && shown !== null && shown !== notice.version)
    return { errors: { notice_version: [PRIVACY_TEXT.termsRequired] }, token: input.token, values };
  const noticeVersion = notice?.version;
  // "Continue with my plan": the device's own subscription is looked up when it is authorized.
  if (input.mode === "SUBSCRIPTION")
    return { request: { token: input.token, mode: "SUBSCRIPTION", noticeVersion, lang }, token: input.token };
  // The voucher box: the code is checked when the connection is authorized (redeemVoucher).
  if (input.mode === "VOUCHER") {
    const code = typeof values.voucher_code === "string" ? values.voucher_code.slice(0, 64) : null;
    return { request: { token: input.token, mode: "VOUCHER", voucherCode: code, noticeVersion, lang }, token: input.token };
  }
  if (!view || view.state !== "form") return { request: { token: input.token, mode: "CLICK_THROUGH", lang }, token: input.token };
  if (!view.needsSignup) return { request: { token: input.token, mode: "CLICK_THROUGH", noticeVersion, lang }, token: input.token };
  const { errors, details } = checkSignup(
    input,
    {
      first_name: view.customer.firstName,
      last_name: view.customer.lastName,
      email_address: view.customer.emailAddress,
      phone_number: view.customer.phoneNumber,
    },
    view.signupFields,
  );
  if (Object.keys(errors).length) return { errors, token: input.token, values };
  return {
    request: {
      token: input.token,
      mode: "SIGNUP",
      details,
      consent: { terms: true, marketing: input.marketing_opt_in },
      noticeVersion,
      lang,
    },
    token: input.token,
    view,
  };
}

/** GET /connect?token=…: the form (GET and HEAD alike). */
export async function showConnectPage(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  sendGuestPage(res, await connectPageForToken(text(query.token), (view) => speechOf(req, view, query), req.headers["user-agent"]));
}

/** POST /connect: the form's sign-up, click-through, plan or voucher. */
export async function submitConnectForm(req: IncomingMessage, res: ServerResponse, { query, body }: GuestInput): Promise<void> {
  const ua = req.headers["user-agent"];
  const asked = await connectRequest(body);
  if ("errors" in asked) {
    const view = await loadGuestView(asked.token);
    const speech = speechOf(req, view, body, query);
    if (!view || view.state !== "form") return sendGuestPage(res, await refusalFor(view, asked.token, speech));
    const message = asked.errors.notice_version?.[0];
    return sendConnectPage(
      res,
      422,
      view,
      asked.token,
      speech,
      { values: asked.values as Record<string, string>, errors: asked.errors, message },
      ua,
    );
  }
  if (asked.view && (await askedForProof(req, res, asked.request, asked.view, body, query))) return;
  const outcome = await authorizeGuest(asked.request);
  if (outcome.ok) return redirect(res, 303, outcome.redirect, guestHeaderValues());
  if (outcome.retryAfterMs !== undefined) {
    // Throttled (a voucher code too many): a page saying when to try again, not the form to guess on.
    const view = await loadGuestView(asked.token, { plans: false });
    const look = await lookFor(speechOf(req, view, body, query), view, null);
    return sendPage(res, 429, tooManyAttemptsPage(view?.network.name ?? null, asked.token, outcome.message, look), cspOf(look), {
      ...retryAfterHeaders(outcome),
    });
  }
  const view = await loadGuestView(asked.token);
  const speech = speechOf(req, view, body, query);
  if (view?.state === "form") {
    const voucher =
      asked.request.mode === "VOUCHER"
        ? { values: { voucher_code: asked.request.voucherCode ?? "" }, errors: { voucher_code: [outcome.message] } }
        : { message: outcome.message };
    return sendConnectPage(res, outcome.status, view, asked.token, speech, voucher, ua);
  }
  const refusal = await refusalFor(view, asked.token, speech, outcome.message);
  sendGuestPage(res, { ...refusal, status: outcome.status });
}

/**
 * A sign-up naming a phone number another customer proved (decision 0086): the guest proves it
 * with a code sent to it ("Welcome back — enter the code sent to 07…78"), and then this device
 * joins that customer, their history and the plan their number paid for; or goes on without the
 * code, and the details stay on this device's own record. When no code can be sent, the sign-up
 * goes on unproved. Answers true when it sent a page; else `request` says what was proved.
 */
async function askedForProof(
  req: IncomingMessage,
  res: ServerResponse,
  request: AuthorizeRequest,
  view: GuestView,
  body: unknown,
  query: GuestInput["query"],
): Promise<boolean> {
  const phone = request.mode === "SIGNUP" ? request.details?.phone_number : null;
  const fields = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (!phone || text(fields.proof) === "skip") return false;
  const owner = await provedCustomerOfPhone(view.organizationId, phone);
  if (owner === null || (owner === view.customerId && view.deviceProved)) return false;
  const asker = proofAsker(view);
  const show = async (status: number, error: string | null, headers: Record<string, string> = {}) => {
    const look = await lookFor(speechOf(req, view, body, query), view, null);
    const kept = Object.fromEntries(
      Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === "string" && !/^(proof|proof_code|lang)$/.test(e[0])),
    );
    const at = { networkName: view.network.name, token: request.token, phone: maskedPhone(phone), action: "/connect", fields: kept };
    sendPage(res, status, proofPage("welcome", at, error, look), cspOf(look), headers);
    return true;
  };
  if (text(fields.proof) === "check") {
    const checked = await checkCode({ organizationId: view.organizationId, phone, code: text(fields.proof_code) ?? "", asker });
    if (!checked.ok) return show(checked.status, checked.message, retryAfterHeaders(checked));
    request.proved = true;
    // Their plan comes with them: the one their number paid for, if it still runs.
    const digits = phone.slice(1);
    const plan = await paidPlanOfPhone(view.organizationId, digits, view.place.deviceId);
    if (plan) Object.assign(request, { mode: "SUBSCRIPTION", subscriptionId: plan.id });
    return false;
  }
  const sent = await sendCode({ organizationId: view.organizationId, phone, asker });
  return sent.ok ? show(200, null) : false;
}

/** GET /connect/online: "You are online", with the guest's survey if one is offered. */
export async function showOnlinePage(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const token = text(query.token);
  const view = await loadGuestView(token, { plans: false });
  const speech = speechOf(req, view, query);
  const online = view?.state === "authorized";
  const here = token ? `/connect/online?token=${encodeURIComponent(token)}` : null;
  const [status, look, offer] = await Promise.all([
    view ? captiveStatus(view.connectionId) : null,
    lookFor(speech, online ? view : null, here),
    online ? surveyOffer(token, speech) : null,
  ]);
  sendPage(res, 200, onlinePage(online ? view : null, status?.sessionExpiresAt ?? null, offer, look, token), cspOf(look));
}

/** GET /splash/connection/{token}: the connection and its customer, for app-based portals. */
export async function connectionAsJson(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
  const view = await loadGuestView(params.token!, { plans: false });
  if (!view) return sendJson(res, 404, { error: { message: CONNECT_MESSAGES.unknown } }, headers);
  sendJson(
    res,
    200,
    {
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
    },
    headers,
  );
}

/** POST /splash/connect/auto: the sign-up payload (JSON or form) of app-based portals; answers redirect_to or the error. */
export async function connectAsJson(_req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const headers = { "Cache-Control": "no-store" };
  const asked = await connectRequest(body);
  if ("errors" in asked) {
    const first = Object.values(asked.errors)[0]?.[0] ?? "Check the form.";
    return sendJson(res, 422, { error: first, errors: asked.errors }, headers);
  }
  const outcome = await authorizeGuest(asked.request);
  if (outcome.ok) return sendJson(res, 200, { redirect_to: outcome.redirect }, headers);
  if (outcome.retryAfterMs !== undefined)
    return sendJson(res, 429, { error: outcome.message }, { ...headers, ...retryAfterHeaders(outcome) });
  sendJson(
    res,
    outcome.status,
    { error: outcome.reconnect ? `${outcome.message}. ${CONNECT_MESSAGES.reconnect}` : outcome.message },
    headers,
  );
}

/** GET /splash/click_through: the click-through route (docs/guide/guest-connect.md#routes); the connect page's Connect button does the same. */
export function clickThrough(_req: IncomingMessage, res: ServerResponse, { query }: GuestInput): void {
  redirect(res, 302, withLang(`/connect?token=${encodeURIComponent(text(query.token) ?? "")}`, chosenLanguage(query)));
}
