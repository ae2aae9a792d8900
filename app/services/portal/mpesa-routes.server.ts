// Buying a plan with M-Pesa on the guest path (prepaid/mpesa.server.ts has the rules):
//   POST /connect/mpesa                      the plan and phone from the connect page → the STK push
//   GET  /connect/mpesa/wait?token&payment   the waiting page (a Refresh header), then the grant
//   POST /hotspot/mpesa/{callbackKey}        Daraja's STK result
//   POST /hotspot/mpesa/{callbackKey}/c2b/confirmation | /c2b/validation   paybill payments
import express from "express";
import { db } from "~/db/db.server";
import { firstServed, lanes } from "~/lib/lanes";
import { darajaPhone } from "../prepaid/daraja.server";
import { applyStkCallback, purchaseStatus, recordC2bConfirmation, startPurchase } from "../prepaid/mpesa.server";
import { heldSubscription } from "../prepaid/subscriptions.server";
import { authorizeGuest, loadGuestView, type GuestView } from "./connect.server";
import {
  messagePage,
  paymentFailedPage,
  refusalPage,
  refusalStatus,
  WAIT_REFRESH_SECONDS,
  waitingPage,
  type FormState,
} from "~/guest/pages";
import { GUEST_CSP, type GuestPage } from "./router.server";

type SendPage = (res: express.Response, status: number, page: string, csp?: string) => void;
type SendConnectPage = (res: express.Response, status: number, view: GuestView, token: string, state?: FormState) => Promise<void>;

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

function redirect(res: express.Response, location: string): void {
  res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  res.redirect(303, location);
}

const CALLBACK_LIMIT = "64kb";

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
export type WaitingAnswer = { redirect: string } | (GuestPage & { refresh?: string });

/**
 * GET /connect/mpesa/wait?token&payment: the waiting page, then the grant — answered through
 * Express (HEAD) and ahead of it (fast-path.server.ts) alike. A paid guest's work goes first.
 */
export function waitingAnswerFor(token: string | null, payment: string | null): Promise<WaitingAnswer> {
  return paidGuestsFirst.run(() => waitingAnswer(token ?? "", /^\d{1,12}$/.test(payment ?? "") ? Number(payment) : 0));
}

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

export function mountMpesaRoutes(
  router: express.Router,
  { sendPage, sendConnectPage, form }: { sendPage: SendPage; sendConnectPage: SendConnectPage; form: express.RequestHandler[] },
): void {
  /** POST /connect/mpesa, in a purchase lane (beforePush gives it back). */
  const buy = async (req: express.Request, res: express.Response, beforePush: () => void) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
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
      const held = await heldSubscription(db, view.organizationId, { phone: `+${digits}`, paidOnly: true }, Date.now());
      if (held) {
        const outcome = await authorizeGuest({ token, mode: "MPESA", subscriptionId: held.id });
        if (outcome.ok) return redirect(res, outcome.redirect);
      }
    }

    const started = await startPurchase({ token, planId, phone, beforePush });
    if (started.ok) return redirect(res, `/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${started.paymentId}`);
    const state: FormState = started.field
      ? { values, errors: { [started.field]: [started.message] } }
      : { values, message: started.message };
    // The form again, with the plans for sale this time.
    const again = await loadGuestView(token);
    if (!again || again.state !== "form") return sendPage(res, refusalStatus(again), refusalPage(again));
    await sendConnectPage(res, started.status, again, token, state);
  };
  router.post("/connect/mpesa", ...form, async (req, res) => {
    const lane = await purchaseLanes.enter();
    try {
      await paidGuestsFirst.quiet(PAID_FIRST_MS);
      await buy(req, res, lane.leave);
    } finally {
      lane.leave();
    }
  });

  router.get("/connect/mpesa/wait", async (req, res) => {
    const answer = await waitingAnswerFor(text(req.query.token), text(req.query.payment));
    if ("redirect" in answer) return redirect(res, answer.redirect);
    if (answer.refresh) res.set("Refresh", answer.refresh);
    sendPage(res, answer.status, answer.html, answer.csp);
  });

  // Daraja's bodies are small JSON; a NUL anywhere is not Daraja (PostgreSQL text cannot hold one).
  const json: express.RequestHandler[] = [
    express.json({ limit: CALLBACK_LIMIT }),
    (req, res, next) =>
      JSON.stringify(req.body ?? null).includes("\\u0000") ? res.status(400).json({ ResultCode: 1, ResultDesc: "Bad request." }) : next(),
  ];
  router.post("/hotspot/mpesa/:callbackKey", ...json, async (req, res) => {
    const answer = await paidGuestsFirst.run(() => applyStkCallback(req.params.callbackKey!, req.body));
    res.status(answer.status).json(answer.body);
  });
  router.post("/hotspot/mpesa/:callbackKey/c2b/confirmation", ...json, async (req, res) => {
    const answer = await recordC2bConfirmation(req.params.callbackKey!, req.body);
    res.status(answer.status).json(answer.body);
  });
  // Validation (only called when the shortcode asked Safaricom for it): every payment is accepted.
  router.post("/hotspot/mpesa/:callbackKey/c2b/validation", ...json, (_req, res) => {
    res.json({ ResultCode: 0, ResultDesc: "Accepted" });
  });
}
