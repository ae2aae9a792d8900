// Buying a plan with M-Pesa on the guest path (prepaid/mpesa.server.ts has the rules):
//   POST /connect/mpesa                      the plan and phone from the connect page → the STK push
//   GET  /connect/mpesa/wait?token&payment   the waiting page (a Refresh header), then the grant
//   POST /hotspot/mpesa/{callbackKey}        Daraja's STK result
//   POST /hotspot/mpesa/{callbackKey}/c2b/confirmation | /c2b/validation   paybill payments
//   POST /hotspot/mpesa-result/{organizationId}/{secret}[/timeout]   Reversal and Transaction Status results
import type { IncomingMessage, ServerResponse } from "node:http";
import { firstServed, lanes } from "~/lib/lanes";
import { authorizeGuest, loadGuestView } from "~/services/portal/connect.server";
import { messagePage, paymentFailedPage, refusalPage, refusalStatus, WAIT_REFRESH_SECONDS, waitingPage, type FormState } from "./pages";
import { darajaPhone } from "~/services/prepaid/daraja.server";
import { applyStkCallback, purchaseStatus, recordC2bConfirmation, startPurchase } from "~/services/prepaid/mpesa.server";
import { applyMpesaResult } from "~/services/prepaid/payment-exceptions.server";
import { paidPlanOfPhone } from "~/services/prepaid/reconnect.server";
import { sendConnectPage } from "./connect-page";
import { GUEST_CSP, redirect, sendJson, sendPage, text, type GuestInput, type GuestPage } from "./http";

/**
 * Guests who have paid go first (decision 0028). New purchases take turns, one at a time in each
 * process, for their own database work (not for Daraja's STK push, which may take seconds); the one
 * whose turn it is first waits while a callback or a waiting page is being answered, for
 * PAID_FIRST_MS at most, so a burst of purchases never stands in front of the callbacks and grants.
 */
const purchaseLanes = lanes(1);
const paidGuestsFirst = firstServed();
const PAID_FIRST_MS = 250;

/** The waiting page's answer: a page (with its Refresh header while the payment is pending) or a redirect. */
type WaitingAnswer = { redirect: string } | (GuestPage & { refresh?: string });

async function waitingAnswer(token: string, paymentId: number): Promise<WaitingAnswer> {
  const page = (status: number, html: string, refresh?: string): WaitingAnswer => ({ status, html, csp: GUEST_CSP, refresh });
  const purchase = await purchaseStatus(token, paymentId);
  if (!purchase)
    return page(404, messagePage("Payment not found", ["This payment link is not valid. Reconnect to the Wi-Fi to start again."]));
  if (purchase.state === "pending") {
    // Reloads without JavaScript: a header, as the guest CSP's sandbox refuses a meta refresh.
    return page(
      200,
      waitingPage(purchase.networkName, token, paymentId, purchase),
      `${WAIT_REFRESH_SECONDS};url=/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${paymentId}`,
    );
  }
  if (purchase.state === "failed") return page(200, paymentFailedPage(purchase.networkName, token, purchase.message));
  // Paid: this connection goes online under the plan (a second poll finds it online already).
  const online = { redirect: `/connect/online?token=${encodeURIComponent(token)}` };
  if (purchase.authorized) return online;
  const outcome = await authorizeGuest({
    token,
    mode: "MPESA",
    subscriptionId: purchase.subscriptionId,
    details: { phone_number: `+${purchase.phone}` },
  });
  if (outcome.ok) return { redirect: outcome.redirect };
  const again = await loadGuestView(token, { plans: false });
  if (again?.state === "authorized") return online;
  return page(
    outcome.status,
    messagePage("Payment received", [`Thank you: your payment arrived. ${outcome.message}`], purchase.networkName),
  );
}

/** GET /connect/mpesa/wait?token&payment: the waiting page, then the grant. A paid guest's work goes first. */
export async function showWaitingPage(_req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const payment = text(query.payment) ?? "";
  const answer = await paidGuestsFirst.run(() => waitingAnswer(text(query.token) ?? "", /^\d{1,12}$/.test(payment) ? Number(payment) : 0));
  if ("redirect" in answer) return redirect(res, 303, answer.redirect);
  sendPage(res, answer.status, answer.html, answer.csp, answer.refresh ? { Refresh: answer.refresh } : {});
}

/** POST /connect/mpesa, in a purchase lane (beforePush gives it back). */
async function buy(res: ServerResponse, body: Record<string, unknown>, beforePush: () => void): Promise<void> {
  const token = text(body.token) ?? "";
  const view = await loadGuestView(token, { plans: false });
  if (!view || view.state !== "form") return sendPage(res, refusalStatus(view), refusalPage(view));
  const planId = /^\d{1,9}$/.test(text(body.plan_id) ?? "") ? Number(body.plan_id) : null;
  const phone = text(body.phone_number)?.slice(0, 32) ?? null;
  const values = { plan_id: planId === null ? "" : String(planId), phone_number: phone ?? "" };

  // A guest who already paid for a plan with this phone (on another device) reconnects under it,
  // within its simultaneous connections, instead of paying again.
  const digits = phone ? darajaPhone(phone) : null;
  if (digits) {
    const held = await paidPlanOfPhone(view.organizationId, `+${digits}`);
    if (held) {
      const outcome = await authorizeGuest({ token, mode: "MPESA", subscriptionId: held.id });
      if (outcome.ok) return redirect(res, 303, outcome.redirect);
    }
  }

  const started = await startPurchase({ token, planId, phone, beforePush });
  if (started.ok) return redirect(res, 303, `/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${started.paymentId}`);
  const state: FormState = started.field
    ? { values, errors: { [started.field]: [started.message] } }
    : { values, message: started.message };
  // The form again, with the plans for sale this time.
  const again = await loadGuestView(token);
  if (!again || again.state !== "form") return sendPage(res, refusalStatus(again), refusalPage(again));
  await sendConnectPage(res, started.status, again, token, state);
}

export async function startMpesaPurchase(_req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const lane = await purchaseLanes.enter();
  try {
    await paidGuestsFirst.quiet(PAID_FIRST_MS);
    await buy(res, (body ?? {}) as Record<string, unknown>, lane.leave);
  } finally {
    lane.leave();
  }
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
