// "Paid without the prompt" on the guest path (decision 0088; prepaid/receipt-claims.server.ts has the rules):
//   POST /connect/mpesa/receipt                  the M-Pesa code typed on the connect page → the plan, or the check
//   GET  /connect/mpesa/receipt/wait?token&claim while M-Pesa is asked (a Refresh header), then the grant
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FormState } from "~/components/guest/connect-card";
import { authorizeGuest, loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { claimReceipt, receiptClaimStatus } from "~/services/prepaid/receipt-claims.server";
import { retryAfterHeaders } from "~/services/rate-limit.server";
import { cspOf, lookFor, messageFor, refusalFor, sendConnectPage, speechOf } from "./connect-page";
import { redirect, sendGuestPage, sendPage, text, type GuestInput } from "./http";
import { say, withLang, type Speech } from "./i18n";
import { receiptWaitingHref, receiptWaitingPage, tooManyAttemptsPage, WAIT_REFRESH_SECONDS } from "./pages";

/** The connect form again with what the guest typed and why it did not work. */
async function formAgain(res: ServerResponse, status: number, token: string, speech: Speech, state: FormState): Promise<void> {
  const again = await loadGuestView(token);
  if (!again || again.state !== "form") return sendGuestPage(res, await refusalFor(again, token, speech));
  await sendConnectPage(res, status, again, token, speech, state);
}

/** The claimed plan's grant: this connection goes online under it. */
async function grant(res: ServerResponse, token: string, subscriptionId: number, view: GuestView | null, speech: Speech): Promise<void> {
  const outcome = await authorizeGuest({ token, mode: "MPESA", subscriptionId, lang: speech.carried });
  if (outcome.ok) return redirect(res, 303, outcome.redirect);
  const t = speech.t;
  sendGuestPage(
    res,
    await messageFor(outcome.status, view, speech, t.pages.paymentReceived, [t.pages.paymentArrived(say(speech.lang, outcome.message))]),
  );
}

export async function claimMpesaReceipt(req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const fields = (body ?? {}) as Record<string, unknown>;
  const token = text(fields.token) ?? "";
  const view = await loadGuestView(token, { plans: false });
  const speech = speechOf(req, view, fields);
  if (!view || view.state !== "form") return sendGuestPage(res, await refusalFor(view, token, speech));
  const typed = text(fields.mpesa_receipt)?.slice(0, 40) ?? "";
  const outcome = await claimReceipt({ token, receipt: typed });
  if (outcome.ok && outcome.state === "granted") return grant(res, token, outcome.subscriptionId, view, speech);
  if (outcome.ok) return redirect(res, 303, receiptWaitingHref(token, outcome.claimId, speech.carried));
  if (outcome.retryAfterMs !== undefined) {
    const look = await lookFor(speech, view, null);
    return sendPage(res, 429, tooManyAttemptsPage(view.network.name, token, outcome.message, look), cspOf(look), {
      ...retryAfterHeaders(outcome),
    });
  }
  const values = { mpesa_receipt: typed };
  const state: FormState = outcome.field ? { values, errors: { mpesa_receipt: [outcome.message] } } : { values, message: outcome.message };
  await formAgain(res, outcome.status, token, speech, state);
}

export async function showReceiptWaitingPage(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const token = text(query.token) ?? "";
  const claimText = text(query.claim) ?? "";
  const claimId = /^\d{1,12}$/.test(claimText) ? Number(claimText) : 0;
  const [claim, view] = await Promise.all([receiptClaimStatus(token, claimId), loadGuestView(token, { plans: false })]);
  const speech = speechOf(req, view, query);
  const t = speech.t;
  if (!claim) return sendGuestPage(res, await messageFor(404, null, speech, t.pages.paymentNotFound, [t.pages.paymentLinkInvalid]));
  if (claim.state === "checking") {
    const look = await lookFor(speech, view, receiptWaitingHref(token, claimId));
    // Reloads without JavaScript: a header, as the guest CSP's sandbox refuses a meta refresh.
    return sendPage(res, 200, receiptWaitingPage(view?.network.name ?? null, token, claimId, claim.receipt, look), cspOf(look), {
      Refresh: `${WAIT_REFRESH_SECONDS};url=${receiptWaitingHref(token, claimId, speech.carried)}`,
    });
  }
  if (claim.state === "granted") {
    if (view?.state === "authorized")
      return redirect(res, 303, withLang(`/connect/online?token=${encodeURIComponent(token)}`, speech.carried));
    return grant(res, token, claim.subscriptionId, view, speech);
  }
  await formAgain(res, 200, token, speech, { message: claim.message });
}
