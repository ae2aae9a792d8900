// Buying a plan with M-Pesa on the guest path (prepaid/mpesa.server.ts has the rules):
//   POST /connect/mpesa                      the plan and phone from the connect page → the STK push
//   GET  /connect/mpesa/wait?token&payment   the waiting page (a Refresh header), then the grant
//   POST /connect/mpesa/cancel               the waiting page's buttons: cancel, or use another number
//   GET  /connect/mpesa/change?token&payment the page asking for another number
//   POST /hotspot/mpesa/{callbackKey}        Daraja's STK result
//   POST /hotspot/mpesa/{callbackKey}/c2b/confirmation | /c2b/validation   paybill payments
//   POST /hotspot/mpesa-result/{organizationId}/{secret}[/timeout]   Reversal and Transaction Status results
import type { IncomingMessage, ServerResponse } from "node:http";
import { firstServed, lanes } from "~/lib/lanes";
import { authorizeGuest, loadGuestView, type GuestView } from "~/services/portal/connect.server";
import {
  changeNumberPage,
  messagePage,
  proofPage,
  paymentFailedPage,
  tooManyAttemptsPage,
  WAIT_REFRESH_SECONDS,
  waitingHref,
  waitingPage,
  type FormState,
} from "./pages";
import { darajaPhone } from "~/services/prepaid/daraja.server";
import {
  applyStkCallback,
  cancelPurchase,
  purchaseStatus,
  purchaseToRedo,
  recordC2bConfirmation,
  startPurchase,
} from "~/services/prepaid/mpesa.server";
import { applyMpesaResult } from "~/services/prepaid/payment-exceptions.server";
import { retryAfterHeaders } from "~/services/rate-limit.server";
import { paidPlanOfPhone } from "~/services/prepaid/reconnect.server";
import { checkCode, maskedPhone, proofAsker, sendCode } from "~/services/portal/phone-proof.server";
import { cspOf, lookFor, messageFor, plainLook, refusalFor, sendConnectPage, speechOf } from "./connect-page";
import { redirect, sendGuestPage, sendJson, sendPage, text, type GuestInput, type GuestPage } from "./http";
import { say, withLang, type Speech } from "./i18n";

/**
 * Guests who have paid go first (decision 0028). New purchases take turns, one at a time in each
 * process, for their own database work (not for Daraja's STK push, which may take seconds); the one
 * whose turn it is first waits while a callback or a waiting page is being answered, for
 * PAID_FIRST_MS at most, so a burst of purchases never stands in front of the callbacks and grants.
 */
const purchaseLanes = lanes(1);
const paidGuestsFirst = firstServed();
const PAID_FIRST_MS = 250;

/** The payment id of a query or form (0 when it is not one: no purchase has it). */
const paymentParam = (value: unknown): number => {
  const payment = text(value) ?? "";
  return /^\d{1,12}$/.test(payment) ? Number(payment) : 0;
};
const paymentLink = (path: string, token: string, paymentId: number) => `${path}?token=${encodeURIComponent(token)}&payment=${paymentId}`;

/** The waiting page's answer: a page (with its Refresh header while the payment is pending) or a redirect. */
type WaitingAnswer = { redirect: string } | (GuestPage & { refresh?: string });

/**
 * The waiting page's answer, on the network's page in the guest's language (`speech` once the
 * guest's view is read: the network's default is in it).
 */
async function waitingAnswer(req: IncomingMessage, query: GuestInput["query"], token: string, paymentId: number): Promise<WaitingAnswer> {
  const [purchase, view] = await Promise.all([purchaseStatus(token, paymentId), loadGuestView(token, { plans: false })]);
  const speech: Speech = speechOf(req, view, query);
  const t = speech.t;
  if (!purchase) return messageFor(404, null, speech, t.pages.paymentNotFound, [t.pages.paymentLinkInvalid]);
  const look = await lookFor(speech, view, waitingHref(token, paymentId));
  const page = (status: number, html: string, refresh?: string): WaitingAnswer => ({
    status,
    html,
    csp: cspOf(look),
    refresh,
  });
  if (purchase.state === "pending") {
    // Reloads without JavaScript: a header, as the guest CSP's sandbox refuses a meta refresh. It keeps the chosen language.
    return page(
      200,
      waitingPage(purchase.networkName, token, paymentId, purchase, look),
      `${WAIT_REFRESH_SECONDS};url=${waitingHref(token, paymentId, speech.carried)}`,
    );
  }
  if (purchase.state === "failed" || purchase.state === "cancelled")
    return page(200, paymentFailedPage(purchase.networkName, token, purchase.message, look));
  // Paid: this connection goes online under the plan (a second poll finds it online already).
  const online = { redirect: withLang(`/connect/online?token=${encodeURIComponent(token)}`, speech.carried) };
  if (purchase.authorized) return online;
  const outcome = await authorizeGuest({
    token,
    mode: "MPESA",
    subscriptionId: purchase.subscriptionId,
    details: { phone_number: `+${purchase.phone}` },
    // The payment was answered on that phone, with its M-Pesa PIN.
    proved: true,
    lang: speech.carried,
  });
  if (outcome.ok) return { redirect: outcome.redirect };
  const again = await loadGuestView(token, { plans: false });
  if (again?.state === "authorized") return online;
  return messageFor(outcome.status, view, speech, t.pages.paymentReceived, [t.pages.paymentArrived(say(speech.lang, outcome.message))]);
}

/** GET /connect/mpesa/wait?token&payment: the waiting page, then the grant. A paid guest's work goes first. */
export async function showWaitingPage(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const answer = await paidGuestsFirst.run(() => waitingAnswer(req, query, text(query.token) ?? "", paymentParam(query.payment)));
  if ("redirect" in answer) return redirect(res, 303, answer.redirect);
  sendPage(res, answer.status, answer.html, answer.csp, answer.refresh ? { Refresh: answer.refresh } : {});
}

/** POST /connect/mpesa, in a purchase lane (beforePush gives it back). */
async function buy(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>, beforePush: () => void): Promise<void> {
  const token = text(body.token) ?? "";
  const view = await loadGuestView(token, { plans: false });
  const speech = speechOf(req, view, body);
  if (!view || view.state !== "form") return sendGuestPage(res, await refusalFor(view, token, speech));
  const planId = /^\d{1,9}$/.test(text(body.plan_id) ?? "") ? Number(body.plan_id) : null;
  const phone = text(body.phone_number)?.slice(0, 32) ?? null;
  // The M-Pesa form's own phone field (its id is mpesa_phone_number: the sign-up form has a phone field too).
  const values = { plan_id: planId === null ? "" : String(planId), mpesa_phone_number: phone ?? "" };

  // A plan this number paid for: the buyer's device and the devices its owner approved reconnect
  // under it (within its simultaneous connections); any other device proves the phone first, or
  // pays for a plan of its own ("Pay for a new plan instead": proof=skip).
  const digits = phone ? darajaPhone(phone) : null;
  if (digits && text(body.proof) !== "skip") {
    // An unsigned MAC (decision 0087) is no buyer's device: only a code or a payment proves.
    const held = await paidPlanOfPhone(view.organizationId, digits, view.deviceProved ? view.place.deviceId : null);
    if (held) {
      const proof = held.approved ? null : await proveForPlan(res, view, speech, { token, phone: `+${digits}`, body });
      if (proof === "answered") return;
      if (held.approved || proof === "proved") {
        const outcome = await authorizeGuest({
          token,
          mode: "MPESA",
          subscriptionId: held.id,
          ...(proof === "proved" ? { details: { phone_number: `+${digits}` }, proved: true } : {}),
          lang: speech.carried,
        });
        if (outcome.ok) return redirect(res, 303, outcome.redirect);
      }
    }
  }

  const started = await startPurchase({ token, planId, phone, beforePush });
  if (started.ok) return redirect(res, 303, waitingHref(token, started.paymentId, speech.carried));
  if (started.retryAfterMs !== undefined) {
    const look = await lookFor(speech, view, null);
    return sendPage(res, 429, tooManyAttemptsPage(view.network.name, token, started.message, look), cspOf(look), {
      ...retryAfterHeaders(started),
    });
  }
  const field = started.field === "phone_number" ? "mpesa_phone_number" : started.field;
  const state: FormState = field ? { values, errors: { [field]: [started.message] } } : { values, message: started.message };
  // The form again, with the plans for sale this time.
  const again = await loadGuestView(token);
  if (!again || again.state !== "form") return sendGuestPage(res, await refusalFor(again, token, speech));
  await sendConnectPage(res, started.status, again, token, speech, state);
}

/**
 * Another device typed the number a plan was paid from: a code goes to that phone, and the page
 * asks for it. Answers "answered" when a page was sent, "proved" when the code was right,
 * "unprovable" when no code can be sent (no SMS provider, or sending failed): the guest pays for a
 * plan of their own, which proves the phone.
 */
async function proveForPlan(
  res: ServerResponse,
  view: GuestView,
  speech: Speech,
  at: { token: string; phone: string; body: Record<string, unknown> },
): Promise<"answered" | "proved" | "unprovable"> {
  const asker = proofAsker(view);
  const organizationId = view.organizationId;
  const fields = { token: at.token, plan_id: text(at.body.plan_id) ?? "", phone_number: text(at.body.phone_number) ?? "" };
  const show = async (status: number, error: string | null, headers: Record<string, string> = {}) => {
    const look = await lookFor(speech, view, null);
    const where = { networkName: view.network.name, token: at.token, phone: maskedPhone(at.phone), action: "/connect/mpesa", fields };
    sendPage(res, status, proofPage("plan", where, error, look), cspOf(look), headers);
    return "answered" as const;
  };
  if (text(at.body.proof) === "check") {
    const checked = await checkCode({ organizationId, phone: at.phone, code: text(at.body.proof_code) ?? "", asker });
    return checked.ok ? "proved" : show(checked.status, checked.message, retryAfterHeaders(checked));
  }
  const sent = await sendCode({ organizationId, phone: at.phone, asker });
  if (sent.ok) return show(200, null);
  if (sent.status !== 429) return "unprovable";
  const look = await lookFor(speech, view, null);
  sendPage(res, 429, tooManyAttemptsPage(view.network.name, at.token, sent.message, look), cspOf(look), retryAfterHeaders(sent));
  return "answered";
}

export async function startMpesaPurchase(req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const lane = await purchaseLanes.enter();
  try {
    await paidGuestsFirst.quiet(PAID_FIRST_MS);
    await buy(req, res, (body ?? {}) as Record<string, unknown>, lane.leave);
  } finally {
    lane.leave();
  }
}

/**
 * POST /connect/mpesa/cancel (token, payment, intent): the waiting page's buttons. "cancel" stops
 * waiting and goes back to the connect page; "change" goes on to the page asking for another
 * number. A purchase paid meanwhile is not cancelled: its waiting page grants it.
 */
export async function cancelMpesaPurchase(req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const fields = (body ?? {}) as Record<string, unknown>;
  const token = text(fields.token) ?? "";
  const paymentId = paymentParam(fields.payment);
  const state = await cancelPurchase(token, paymentId);
  const speech = speechOf(req, null, fields);
  const { t, carried } = speech;
  if (state === null)
    return sendPage(res, 404, messagePage(t.pages.paymentNotFound, [t.pages.paymentLinkInvalid], undefined, plainLook(speech)));
  if (state === "paid") return redirect(res, 303, withLang(paymentLink("/connect/mpesa/wait", token, paymentId), carried));
  if (text(fields.intent) === "change")
    return redirect(res, 303, withLang(paymentLink("/connect/mpesa/change", token, paymentId), carried));
  redirect(res, 303, withLang(`/connect?token=${encodeURIComponent(token)}`, carried));
}

/** GET /connect/mpesa/change?token&payment: the cancelled purchase's plan, and the number to type again. */
export async function showChangeNumberPage(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const token = text(query.token) ?? "";
  const [redo, view] = await Promise.all([purchaseToRedo(token, paymentParam(query.payment)), loadGuestView(token, { plans: false })]);
  const speech = speechOf(req, view, query);
  // Paid, still pending, online or the plan gone: the connect page says what is true now.
  if (!redo?.plan) return redirect(res, 303, withLang(`/connect?token=${encodeURIComponent(token)}`, speech.carried));
  const look = await lookFor(speech, view, null);
  sendPage(res, 200, changeNumberPage(redo.networkName, token, redo.plan, redo.phone, null, look), cspOf(look));
}

export async function stkCallback(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await paidGuestsFirst.run(() => applyStkCallback(params.callbackKey!, body));
  sendJson(res, answer.status, answer.body);
}

export async function c2bConfirmation(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await recordC2bConfirmation(params.callbackKey!, body);
  sendJson(res, answer.status, answer.body);
}

/** Validation (only called when the shortcode asked Safaricom for it): every payment is accepted. */
export function c2bValidation(_req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 200, { ResultCode: 0, ResultDesc: "Accepted" });
}

/** A Reversal or Transaction Status result (Daraja's ResultURL), or its queue timeout. */
export async function mpesaResult(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await applyMpesaResult(params.organizationId!, params.secret!, body);
  sendJson(res, answer.status, answer.body);
}

export async function mpesaResultTimeout(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await applyMpesaResult(params.organizationId!, params.secret!, body, true);
  sendJson(res, answer.status, answer.body);
}
