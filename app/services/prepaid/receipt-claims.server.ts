// "Paid without the prompt" (issue 34 item 4, decision 0088): a guest who paid to the paybill or
// till from the phone's menu (C2B), or whose prompt never came, types the M-Pesa receipt on the
// connect page. Mlango checks it — a C2B confirmation already received for this organisation, else
// Daraja's Transaction Status (asynchronous: the result comes to the ResultURL, applyReceiptStatus)
// — and gives the plan whose price the amount pays, once: mpesa_receipt_claims has one row per
// receipt (a unique index), written before anything is checked, so two guests, two presses or two
// instances cannot both win. Every attempt counts against the connection and its device first
// (limitReceiptAttempt), so codes cannot be guessed. An amount no plan costs is listed for the
// operator (payment exception unmatched_amount); a receipt M-Pesa does not confirm may be tried again.
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import type { ReceiptClaimStatus } from "~/db/schema";
import { hashToken } from "../crypto.server";
import { plausibleToken } from "../portal/connect.server";
import { guestLimitMessage, limitReceiptAttempt } from "../rate-limit.server";
import { DarajaError, type AsyncResult } from "./daraja.server";
import { loadDarajaClient } from "./mpesa-settings.server";
import { mpesaResultUrls, recordPaymentException } from "./payment-exceptions.server";

/** An M-Pesa receipt as Safaricom prints it in the SMS: ten capital letters and digits. */
export const RECEIPT_CODE = /^[A-Z0-9]{10}$/;
/** A check Daraja has not answered after this long is given up (the guest may try again). */
export const RECEIPT_CHECK_TIMEOUT_MS = 60_000;
/** An STK payment settled without its receipt (by the STK query) this recent, same phone and amount, is taken to be the receipt's. */
const STK_WITHOUT_RECEIPT_MS = 7 * 86_400_000;

export const RECEIPT_MESSAGES = {
  format: "Type the M-Pesa code from your confirmation SMS: 10 letters and digits, such as QWE1RTY2UI.",
  used: "This M-Pesa code was already used.",
  checking: "This M-Pesa code is being checked for another device. If it is yours, try again in a minute.",
  unknown: "M-Pesa does not confirm this code as a payment to this network. Check the code in your SMS and try again.",
  noPlan: "Your payment arrived, but no plan here costs that amount. The network's operator has been told and will sort it out with you.",
  unavailable: "We could not check this code with M-Pesa just now. Please try again in a moment.",
  notSetUp: "M-Pesa payments are not available on this network.",
  link: "This payment link is not valid.",
} as const;

export type ClaimOutcome =
  | { ok: true; state: "granted"; subscriptionId: number }
  | { ok: true; state: "checking"; claimId: number }
  | { ok: false; status: number; message: string; retryAfterMs?: number; field?: "mpesa_receipt" };

/** The start of a refused claim's result when the receipt turned out to be used already. */
const USED = "used";

const log = (event: string, fields: Record<string, unknown>) =>
  console.error(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));

/** What the guest typed, as M-Pesa prints it: capitals, without spaces or dashes. */
export const normalReceipt = (raw: string | null | undefined) => (raw ?? "").toUpperCase().replace(/[\s-]/g, "").slice(0, 40);

/** Whole shillings and the plan they pay for: the oldest paid plan whose price, rounded up as the STK push charges it, is the amount. */
async function planForAmount(organizationId: number, amount: number) {
  return db
    .selectFrom("service_plans")
    .leftJoin("bandwidth_policies", "bandwidth_policies.id", "service_plans.bandwidth_policy_id")
    .select([
      "service_plans.id",
      "service_plans.name",
      "service_plans.price_cents",
      "service_plans.validity_minutes",
      "service_plans.time_limit_minutes",
      "service_plans.usage_limit_bytes",
      "service_plans.simultaneous_connections",
      "bandwidth_policies.max_upload_kbps",
      "bandwidth_policies.max_download_kbps",
    ])
    .where("service_plans.organization_id", "=", organizationId)
    .where("service_plans.free_internet", "=", 0)
    .where("service_plans.price_cents", ">", (amount - 1) * 100)
    .where("service_plans.price_cents", "<=", amount * 100)
    .orderBy("service_plans.id")
    .limit(1)
    .executeTakeFirst();
}

interface Claim {
  id: number;
  organization_id: number;
  receipt: string;
  connection_id: number | null;
  device_id: number | null;
}

/**
 * A confirmed payment of `amount` from `phone` for the claim: its plan starts now (an Active
 * subscription on the claiming device), or, when no plan costs the amount, the operator is told.
 * Applied once (the claim must still be checking).
 */
async function decide(claim: Claim, amount: number, phone: string, now: number): Promise<ClaimOutcome> {
  const plan = await planForAmount(claim.organization_id, amount);
  if (!plan) {
    const updated = await db
      .updateTable("mpesa_receipt_claims")
      .set({ status: "unmatched", amount, phone_number: phone.slice(0, 64), updated_at: now })
      .where("id", "=", claim.id)
      .where("status", "=", "checking")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1)
      await recordPaymentException(
        {
          organizationId: claim.organization_id,
          kind: "unmatched_amount",
          dedupe: `receipt-${claim.receipt}`,
          connectionId: claim.connection_id,
          receipt: claim.receipt,
          phone,
          amount,
          detail: `A guest typed the receipt ${claim.receipt} on the connect page: Kes ${amount} is the price of no plan, so none was given.`,
        },
        now,
      );
    return { ok: false, status: 409, message: RECEIPT_MESSAGES.noPlan };
  }
  const connection =
    claim.connection_id === null
      ? undefined
      : await db.selectFrom("connections").select(["customer_id"]).where("id", "=", claim.connection_id).executeTakeFirst();
  const granted = await db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable("mpesa_receipt_claims")
      .set({ status: "granted", amount, phone_number: phone.slice(0, 64), updated_at: now })
      .where("id", "=", claim.id)
      .where("status", "=", "checking")
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return null;
    const subscription = await trx
      .insertInto("subscriptions")
      .values({
        organization_id: claim.organization_id,
        customer_id: connection?.customer_id ?? null,
        device_id: claim.device_id,
        service_plan_id: plan.id,
        plan_name: plan.name,
        price_cents: amount * 100,
        source: "mpesa",
        status: "Active",
        started_on: now,
        expires_on: now + Number(plan.validity_minutes) * 60_000,
        time_limit_minutes: plan.time_limit_minutes,
        usage_limit_bytes: plan.usage_limit_bytes === null ? null : Number(plan.usage_limit_bytes),
        simultaneous_connections: Number(plan.simultaneous_connections),
        max_upload_kbps: plan.max_upload_kbps,
        max_download_kbps: plan.max_download_kbps,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.updateTable("mpesa_receipt_claims").set({ subscription_id: subscription.id }).where("id", "=", claim.id).execute();
    return Number(subscription.id);
  });
  if (granted === null) return { ok: false, status: 409, message: RECEIPT_MESSAGES.used };
  return { ok: true, state: "granted", subscriptionId: granted };
}

/**
 * The claim's row for the receipt: a new one, or a refused one taken over (M-Pesa did not confirm it
 * earlier). null: the receipt is held by another claim (used, or being checked for someone else).
 */
async function takeReceipt(
  organizationId: number,
  receipt: string,
  connectionId: number,
  deviceId: number | null,
  now: number,
): Promise<Claim | { sameConnection: number } | "elsewhere" | null> {
  const fields = { organization_id: organizationId, connection_id: connectionId, device_id: deviceId, status: "checking" as const };
  try {
    const inserted = await db
      .insertInto("mpesa_receipt_claims")
      .values({ ...fields, receipt, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: Number(inserted.id), organization_id: organizationId, receipt, connection_id: connectionId, device_id: deviceId };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const retaken = await db
    .updateTable("mpesa_receipt_claims")
    .set({ ...fields, amount: null, conversation_id: null, result: null, subscription_id: null, created_at: now, updated_at: now })
    .where("receipt", "=", receipt)
    .where("status", "=", "refused")
    .returning("id")
    .executeTakeFirst();
  if (retaken)
    return { id: Number(retaken.id), organization_id: organizationId, receipt, connection_id: connectionId, device_id: deviceId };
  const held = await db
    .selectFrom("mpesa_receipt_claims")
    .select(["id", "status", "connection_id"])
    .where("receipt", "=", receipt)
    .executeTakeFirst();
  // The same guest pressing again while it is checked: back to its waiting page.
  if (held && held.status === "checking" && Number(held.connection_id) === connectionId) return { sameConnection: Number(held.id) };
  return held?.status === "checking" ? "elsewhere" : null;
}

/** POST /connect/mpesa/receipt: the guest's receipt code, checked and, when it pays for a plan, given once. */
export async function claimReceipt(input: { token: string; receipt: string | null }, now = Date.now()): Promise<ClaimOutcome> {
  if (!plausibleToken(input.token)) return { ok: false, status: 404, message: RECEIPT_MESSAGES.link };
  const row = await db
    .selectFrom("connections")
    .innerJoin("mpesa_settings", "mpesa_settings.organization_id", "connections.organization_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "connections.device_id",
      "connections.authorized_at",
      "connections.token_expires_at",
      "mpesa_settings.callback_key",
    ])
    .where("connections.token", "=", hashToken(input.token))
    .executeTakeFirst();
  if (!row) return { ok: false, status: 404, message: RECEIPT_MESSAGES.notSetUp };
  if (row.authorized_at !== null || Number(row.token_expires_at ?? 0) <= now)
    return { ok: false, status: 409, message: RECEIPT_MESSAGES.link };
  const connectionId = Number(row.id);
  const deviceId = row.device_id === null ? null : Number(row.device_id);
  // Every attempt counts, right or wrong, before the code is looked at.
  const limited = await limitReceiptAttempt(connectionId, deviceId, now);
  if (limited) return { ok: false, status: 429, message: guestLimitMessage(limited), retryAfterMs: limited.retryAfterMs };
  const receipt = normalReceipt(input.receipt);
  if (!RECEIPT_CODE.test(receipt)) return { ok: false, status: 422, field: "mpesa_receipt", message: RECEIPT_MESSAGES.format };

  // A receipt an STK purchase already granted its plan for.
  const stk = await db
    .selectFrom("mpesa_transactions")
    .select("id")
    .where("transaction_id", "=", receipt)
    .where("source", "=", "stk")
    .executeTakeFirst();
  if (stk) return { ok: false, status: 409, field: "mpesa_receipt", message: RECEIPT_MESSAGES.used };

  const taken = await takeReceipt(row.organization_id, receipt, connectionId, deviceId, now);
  if (taken === null) return { ok: false, status: 409, field: "mpesa_receipt", message: RECEIPT_MESSAGES.used };
  // Another device's claim is being checked: not "used" yet (M-Pesa may still refuse it).
  if (taken === "elsewhere") return { ok: false, status: 409, field: "mpesa_receipt", message: RECEIPT_MESSAGES.checking };
  if ("sameConnection" in taken) return { ok: true, state: "checking", claimId: taken.sameConnection };

  // A paybill/till payment whose C2B confirmation came already.
  const c2b = await db
    .selectFrom("mpesa_transactions")
    .select(["amount", "phone_number"])
    .where("organization_id", "=", row.organization_id)
    .where("transaction_id", "=", receipt)
    .where("source", "=", "c2b")
    .where("status", "=", 1)
    .executeTakeFirst();
  if (c2b) return decide(taken, Number(c2b.amount), c2b.phone_number, now);

  // Otherwise M-Pesa is asked (Transaction Status); the answer comes to the ResultURL.
  try {
    const client = await loadDarajaClient(row.organization_id);
    if (!client) throw new DarajaError("invalid_input", RECEIPT_MESSAGES.notSetUp);
    const accepted = await client.transactionStatus({
      transactionId: receipt,
      remarks: "Receipt claim",
      occasion: `Claim ${taken.id}`,
      ...mpesaResultUrls(row.organization_id, row.callback_key),
    });
    await db
      .updateTable("mpesa_receipt_claims")
      .set({ conversation_id: accepted.conversationId, updated_at: Date.now() })
      .where("id", "=", taken.id)
      .execute();
    return { ok: true, state: "checking", claimId: taken.id };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    log("mpesa_receipt_check_failed", { organization: row.organization_id, claim: taken.id, error: error.message });
    await refuse(taken.id, `not asked: ${error.message}`, Date.now());
    return { ok: false, status: 503, message: RECEIPT_MESSAGES.unavailable };
  }
}

async function refuse(claimId: number, result: string, now: number): Promise<void> {
  await db
    .updateTable("mpesa_receipt_claims")
    .set({ status: "refused", result: result.slice(0, 300), updated_at: now })
    .where("id", "=", claimId)
    .where("status", "=", "checking")
    .execute();
}

/** "2547XXXXXXXX - Jane Doe" → 2547XXXXXXXX. */
const phoneOf = (party: string | undefined) => /^\s*(\d{9,15})/.exec(party ?? "")?.[1] ?? "";

/**
 * A Transaction Status result for a receipt claim (the ResultURL, after its secret was checked):
 * answers whether it was one. Only a completed payment of that receipt to this organisation's
 * short code counts; it is then recorded as a paybill payment and decided like a C2B confirmation.
 */
export async function applyReceiptStatus(
  organizationId: number,
  result: AsyncResult,
  timedOut: boolean,
  now = Date.now(),
): Promise<boolean> {
  const find = () =>
    db
      .selectFrom("mpesa_receipt_claims")
      .innerJoin("mpesa_settings", "mpesa_settings.organization_id", "mpesa_receipt_claims.organization_id")
      .select([
        "mpesa_receipt_claims.id",
        "mpesa_receipt_claims.organization_id",
        "mpesa_receipt_claims.receipt",
        "mpesa_receipt_claims.connection_id",
        "mpesa_receipt_claims.device_id",
        "mpesa_receipt_claims.status",
        "mpesa_settings.party_b",
      ])
      .where("mpesa_receipt_claims.organization_id", "=", organizationId)
      .where("mpesa_receipt_claims.conversation_id", "=", result.conversationId)
      .executeTakeFirst();
  let claim = await find();
  // A result can overtake our own write of the ConversationID Daraja just gave us: look again briefly.
  for (let i = 0; !claim && i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    claim = await find();
  }
  if (!claim) return false;
  if (claim.status !== "checking") return true;
  const p = result.parameters;
  const amount = Number(p.Amount);
  const toUs = (p.CreditPartyName ?? "").trim().startsWith(claim.party_b);
  const paid =
    !timedOut &&
    result.resultCode === "0" &&
    p.TransactionStatus === "Completed" &&
    (p.ReceiptNo ?? result.transactionId) === claim.receipt &&
    toUs &&
    Number.isInteger(amount) &&
    amount > 0;
  if (!paid) {
    await refuse(claim.id, `${result.resultCode}: ${result.resultDesc}${timedOut ? " (timed out)" : ""}`, now);
    return true;
  }
  const phone = phoneOf(p.DebitPartyName);
  // An STK purchase the STK query settled has no receipt stored: if one of this organisation paid the
  // same amount from the same phone lately, the receipt is taken to be its (already granted) payment.
  const settledWithout = await db
    .selectFrom("mpesa_transactions")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("source", "=", "stk")
    .where("status", "=", 1)
    .where("transaction_id", "is", null)
    .where("phone_number", "=", phone)
    .where("amount", "=", amount)
    .where("completed_at", ">", now - STK_WITHOUT_RECEIPT_MS)
    .orderBy("completed_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (settledWithout) {
    await db
      .updateTable("mpesa_transactions")
      .set({ transaction_id: claim.receipt, updated_at: now })
      .where("id", "=", settledWithout.id)
      .where("transaction_id", "is", null)
      .execute()
      .catch((error) => log("mpesa_receipt_attach_failed", { claim: claim.id, error: String(error) }));
    await refuse(claim.id, `${USED}: the receipt of an STK purchase already granted`, now);
    return true;
  }
  // Recorded as the paybill payment it is (the transactions list, a refund), once per receipt.
  await db
    .insertInto("mpesa_transactions")
    .values({
      organization_id: organizationId,
      source: "c2b",
      status: 1,
      phone_number: phone,
      amount,
      short_code: claim.party_b,
      account_reference: null,
      transaction_id: claim.receipt,
      result_code: 0,
      result_desc: "Transaction Status",
      completed_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("transaction_id").doNothing())
    .execute();
  await decide({ ...claim, connection_id: claim.connection_id === null ? null : Number(claim.connection_id) }, amount, phone, now);
  return true;
}

export type ClaimState =
  { state: "checking"; receipt: string } | { state: "granted"; subscriptionId: number } | { state: "failed"; message: string };

/** How the token's claim stands, for its waiting page; null: no such claim for this token. */
export async function receiptClaimStatus(token: string, claimId: number, now = Date.now()): Promise<ClaimState | null> {
  if (!plausibleToken(token) || !Number.isSafeInteger(claimId) || claimId < 1) return null;
  const row = await db
    .selectFrom("mpesa_receipt_claims")
    .innerJoin("connections", "connections.id", "mpesa_receipt_claims.connection_id")
    .select([
      "mpesa_receipt_claims.id",
      "mpesa_receipt_claims.status",
      "mpesa_receipt_claims.receipt",
      "mpesa_receipt_claims.subscription_id",
      "mpesa_receipt_claims.result",
      "mpesa_receipt_claims.updated_at",
    ])
    .where("mpesa_receipt_claims.id", "=", claimId)
    .where("connections.token", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const status: ReceiptClaimStatus = row.status;
  if (status === "checking" && now - Number(row.updated_at) > RECEIPT_CHECK_TIMEOUT_MS) {
    await refuse(Number(row.id), "no answer from M-Pesa", now);
    return { state: "failed", message: RECEIPT_MESSAGES.unavailable };
  }
  if (status === "checking") return { state: "checking", receipt: row.receipt };
  if (status === "granted" && row.subscription_id !== null) return { state: "granted", subscriptionId: row.subscription_id };
  if (status === "unmatched") return { state: "failed", message: RECEIPT_MESSAGES.noPlan };
  if (status === "granted" || row.result?.startsWith(`${USED}:`)) return { state: "failed", message: RECEIPT_MESSAGES.used };
  return { state: "failed", message: RECEIPT_MESSAGES.unknown };
}
