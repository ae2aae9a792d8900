// Buying a plan with M-Pesa on the connect page (decision 0017):
//
// 1. startPurchase: the guest picks a plan and types a phone number; a Pending subscription and a
//    pending transaction are written, then Daraja's STK push asks the phone for the PIN.
// 2. The guest waits on a page that refreshes itself (no JavaScript) — purchaseStatus.
// 3. Daraja POSTs the result to /hotspot/mpesa/{callback_key} — applyStkCallback. Callbacks are
//    unsigned and may come twice or never: a result is applied once (a conditional UPDATE on the
//    pending transaction), only to a CheckoutRequestID we asked for under that organisation's key,
//    and a success only when its amount and phone match the request. A callback never creates a
//    subscription: it can only turn the purchase's Pending one Active (or Cancelled).
// 4. A purchase with no callback is settled by the STK query: by the waiting page while the guest
//    waits, and by the reconciliation job (reconcilePayments) for everyone else. A check is claimed
//    with a conditional UPDATE of next_check_at, so two instances never query the same one at once.
//    The callback is a hint, the query is the truth (decision 0077): after PAYMENT_TIMEOUT_MS the
//    page stops waiting and the purchase becomes Unconfirmed (status 3), not failed; it is still
//    asked about, less and less often, until Daraja gives a final answer, so a late success still
//    activates the plan (the guest finds it on reconnect). Only after GIVE_UP_MS without one is it
//    given up, and listed for the operator (payment-exceptions.server.ts), as is a payment that
//    could not be granted, a late one, a receipt used twice, a mismatched amount or phone, and a
//    result for a purchase we never started.
// 5. Once paid, the waiting page authorizes the connection under the subscription (mode MPESA).
//
// C2B confirmations (paybill payments made from the phone's menu) are recorded once per TransID.
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import { db } from "~/db/db.server";
import { isUniqueViolation, retryDeadlocks, writeTogether } from "~/db/sql.server";
import type { DB, MpesaTransactionStatus } from "~/db/schema";
import { hashToken } from "../crypto.server";
import { plausibleToken } from "../portal/connect.server";
import { guestLimitMessage, limitStkPush } from "../rate-limit.server";
import { darajaPhone, DarajaError, stkResultMessage, type DarajaClient, type StkQueryResult } from "./daraja.server";
import {
  callbackKeyHash,
  DARAJA_COLUMNS,
  darajaClientOf,
  loadDarajaClient,
  mpesaCallbackUrl,
  sameCallbackKey,
} from "./mpesa-settings.server";
import { recordPaymentException } from "./payment-exceptions.server";

export const PENDING: MpesaTransactionStatus = 0;
export const COMPLETED: MpesaTransactionStatus = 1;
export const FAILED: MpesaTransactionStatus = 2;
/** The waiting page stopped waiting; Daraja has not given a final answer, and is still asked. */
export const UNCONFIRMED: MpesaTransactionStatus = 3;
/** Statuses a result may still be applied to. */
const OPEN_STATUSES: MpesaTransactionStatus[] = [PENDING, UNCONFIRMED];

/** A purchase with no result after this long is asked about (STK query). */
export const QUERY_AFTER_MS = 15_000;
/** How long a claimed check keeps others off it. */
export const CHECK_LEASE_MS = 15_000;
/** The waiting page stops waiting after this long (the phone's prompt is long gone); the purchase is still asked about. */
export const PAYMENT_TIMEOUT_MS = 3 * 60_000;
/** Without a final answer from Daraja after this long, a purchase is given up and listed for the operator. */
export const GIVE_UP_MS = 24 * 3600_000;
/** How long an unconfirmed purchase waits between checks: a tenth of its age, from a minute to 15 minutes. */
export function recheckAfterMs(ageMs: number): number {
  return Math.min(15 * 60_000, Math.max(60_000, Math.round(ageMs / 10)));
}
/** An M-Pesa receipt (MpesaReceiptNumber, TransID). */
const RECEIPT = /^[A-Z0-9]{6,20}$/;
/** Our own result code for a purchase M-Pesa never gave a result for (Daraja's codes are ≥ 0). */
const TIMED_OUT = -1;
/** Our own result code for a success callback whose amount or phone is not the purchase's. */
const MISMATCH = -2;

export const MPESA_MESSAGES = {
  plan: "Choose a plan.",
  notSold: "This plan is not for sale here any more. Choose another one.",
  phone: "Enter a Safaricom number such as 0712 345 678.",
  notSetUp: "M-Pesa payments are not available on this network.",
  unavailable: "M-Pesa could not start the payment just now. Please try again in a moment, or use a voucher.",
  timeout:
    "We have not heard back from M-Pesa yet, so this page stopped waiting. We keep checking with M-Pesa: if the payment goes through, your plan starts and you can use it when you reconnect to the Wi-Fi. If you were not charged, try again.",
  neverConfirmed:
    "M-Pesa never confirmed this payment. If you were charged, the network's operator has been told and will sort it out with you.",
  mismatch:
    "M-Pesa's answer did not match this purchase, so no plan was started. The network's operator has been told and will sort it out with you.",
  unknown: "This payment link is not valid.",
  cancelled:
    "You cancelled this payment. If M-Pesa still takes it (a PIN entered on the prompt already sent), the plan is yours: reconnect to the Wi-Fi to use it.",
} as const;

export type PurchaseOutcome =
  | { ok: true; paymentId: number }
  | {
      ok: false;
      status: number;
      field?: "phone_number" | "plan_id";
      message: string;
      /** status 429: when to try again */ retryAfterMs?: number;
    };

export interface PurchaseInput {
  token: string;
  planId: number | null;
  phone: string | null;
  /** Called once the purchase is written, before Daraja is asked (which may take seconds): the caller's purchase lane is given back there. */
  beforePush?: () => void;
}

const log = (event: string, fields: Record<string, unknown>) =>
  console.error(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));

/**
 * Starts buying a plan for the token's connection: checks the plan and the phone, writes the
 * Pending subscription and the pending transaction, and sends the STK push. A second press while
 * a purchase of this connection is still pending goes to that purchase's waiting page.
 */
export async function startPurchase(input: PurchaseInput, now = Date.now()): Promise<PurchaseOutcome> {
  if (!plausibleToken(input.token)) return { ok: false, status: 404, message: MPESA_MESSAGES.unknown };
  if (input.planId === null) return { ok: false, status: 422, field: "plan_id", message: MPESA_MESSAGES.plan };
  const phone = input.phone ? darajaPhone(input.phone) : null;
  if (phone === null) return { ok: false, status: 422, field: "phone_number", message: MPESA_MESSAGES.phone };

  // One round trip: the connection, the organisation's M-Pesa settings, the plan asked for (when it
  // is sold) and the connection's purchase still pending, if any.
  const planId = input.planId;
  const row = await db
    .selectFrom("connections")
    .innerJoin("mpesa_settings", "mpesa_settings.organization_id", "connections.organization_id")
    .leftJoin("service_plans as plan", (join) =>
      join
        .onRef("plan.organization_id", "=", "connections.organization_id")
        .on("plan.id", "=", planId)
        .on("plan.free_internet", "=", 0)
        .on("plan.price_cents", ">=", 100),
    )
    .leftJoin("bandwidth_policies", "bandwidth_policies.id", "plan.bandwidth_policy_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "connections.customer_id",
      "connections.device_id",
      "connections.authorized_at",
      "connections.token_expires_at",
      "mpesa_settings.callback_key",
      ...DARAJA_COLUMNS.map((column) => `mpesa_settings.${column}` as const),
      "plan.id as plan_id",
      "plan.name as plan_name",
      "plan.price_cents",
      "plan.time_limit_minutes",
      "plan.usage_limit_bytes",
      "plan.simultaneous_connections",
      "bandwidth_policies.max_upload_kbps",
      "bandwidth_policies.max_download_kbps",
      (eb) =>
        eb
          .selectFrom("mpesa_transactions")
          .select("mpesa_transactions.id")
          .whereRef("mpesa_transactions.connection_id", "=", "connections.id")
          .where("mpesa_transactions.status", "=", PENDING)
          .where("mpesa_transactions.cancelled_at", "is", null)
          .limit(1)
          .as("pending_id"),
    ])
    .where("connections.token", "=", hashToken(input.token))
    .executeTakeFirst();
  if (!row) return { ok: false, status: 404, message: MPESA_MESSAGES.notSetUp };
  if (row.authorized_at !== null || Number(row.token_expires_at ?? 0) <= now)
    return { ok: false, status: 409, message: MPESA_MESSAGES.unknown };
  const orgId = row.organization_id;
  if (row.plan_id === null) return { ok: false, status: 422, field: "plan_id", message: MPESA_MESSAGES.notSold };
  const planName = row.plan_name!;
  const amount = Math.ceil(Number(row.price_cents) / 100);
  if (row.pending_id !== null) return { ok: true, paymentId: Number(row.pending_id) };

  let client: DarajaClient;
  try {
    client = darajaClientOf(row);
  } catch (error) {
    log("mpesa_credentials_unreadable", { organization: orgId, error: (error as Error).message });
    return { ok: false, status: 503, message: MPESA_MESSAGES.unavailable };
  }

  // The Pending subscription and the pending transaction naming it: both or neither.
  const subscription = {
    organization_id: orgId,
    customer_id: row.customer_id,
    device_id: row.device_id === null ? null : Number(row.device_id),
    service_plan_id: row.plan_id,
    plan_name: planName,
    price_cents: amount * 100,
    source: "mpesa" as const,
    status: "Pending" as const,
    started_on: null,
    expires_on: null,
    time_limit_minutes: row.time_limit_minutes,
    usage_limit_bytes: row.usage_limit_bytes === null ? null : Number(row.usage_limit_bytes),
    simultaneous_connections: Number(row.simultaneous_connections),
    max_upload_kbps: row.max_upload_kbps,
    max_download_kbps: row.max_download_kbps,
    created_at: now,
    updated_at: now,
  };
  const payment = {
    organization_id: orgId,
    source: "stk" as const,
    status: PENDING,
    connection_id: Number(row.id),
    service_plan_id: row.plan_id,
    phone_number: phone,
    amount,
    short_code: row.party_b,
    account_reference: accountReference(planName),
    next_check_at: now + QUERY_AFTER_MS,
    created_at: now,
    updated_at: now,
  };
  const insertPurchase = (): Promise<number> =>
    writeTogether({
      // The transaction's row takes the id of the subscription inserted beside it.
      together: async () => {
        const inserted = await db
          .with("subscription", (qc) => qc.insertInto("subscriptions").values(subscription).returning("id"))
          .insertInto("mpesa_transactions")
          .values((eb) => ({ ...payment, subscription_id: eb.selectFrom("subscription").select("subscription.id") }))
          .returning("id")
          .executeTakeFirstOrThrow();
        return Number(inserted.id);
      },
      apart: () =>
        db.transaction().execute(async (trx) => {
          const inserted = await trx.insertInto("subscriptions").values(subscription).returning("id").executeTakeFirstOrThrow();
          const paid = await trx
            .insertInto("mpesa_transactions")
            .values({ ...payment, subscription_id: inserted.id })
            .returning("id")
            .executeTakeFirstOrThrow();
          return Number(paid.id);
        }),
    });
  let paymentId: number;
  try {
    paymentId = await insertPurchase();
  } catch (error) {
    // Pressed twice at once: the other press's purchase (index mpesa_transactions_one_pending) is this one.
    if (!isUniqueViolation(error)) throw error;
    const other = await db
      .selectFrom("mpesa_transactions")
      .select("id")
      .where("connection_id", "=", Number(row.id))
      .where("status", "=", PENDING)
      .where("cancelled_at", "is", null)
      .executeTakeFirst();
    if (!other) throw error;
    return { ok: true, paymentId: Number(other.id) };
  }

  // Counted once the purchase is written, so presses that wait on one purchase count once; a
  // prompt too many is not sent, and its purchase is taken back (decision 0078).
  const limited = await limitStkPush(phone, Number(row.id), now);
  if (limited) {
    await dropPurchase(paymentId);
    return { ok: false, status: 429, message: guestLimitMessage(limited), retryAfterMs: limited.retryAfterMs };
  }

  input.beforePush?.();
  try {
    const accepted = await client.stkPush({
      amount,
      phone,
      accountReference: accountReference(planName),
      description: "WiFi plan",
      callbackUrl: mpesaCallbackUrl(row.callback_key),
    });
    await db
      .updateTable("mpesa_transactions")
      .set({ checkout_request_id: accepted.checkoutRequestId, merchant_request_id: accepted.merchantRequestId, updated_at: Date.now() })
      .where("id", "=", paymentId)
      .execute();
    return { ok: true, paymentId };
  } catch (error) {
    log("mpesa_stk_push_failed", {
      organization: orgId,
      payment: paymentId,
      error: error instanceof DarajaError ? `${error.kind}: ${error.message}` : String(error),
    });
    await settle(paymentId, { resultCode: null, resultDesc: "The STK push was not accepted." }, Date.now());
    if (error instanceof DarajaError && error.kind === "invalid_input")
      return { ok: false, status: 422, field: "phone_number", message: error.message };
    if (!(error instanceof DarajaError)) throw error;
    return { ok: false, status: 503, message: MPESA_MESSAGES.unavailable };
  }
}

/** A purchase whose prompt was never sent: its transaction and Pending subscription go. */
async function dropPurchase(paymentId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const dropped = await trx
      .deleteFrom("mpesa_transactions")
      .where("id", "=", paymentId)
      .where("status", "=", PENDING)
      .returning("subscription_id")
      .executeTakeFirst();
    if (dropped?.subscription_id != null)
      await trx.deleteFrom("subscriptions").where("id", "=", dropped.subscription_id).where("status", "=", "Pending").execute();
  });
}

/** AccountReference (at most 12 characters): the plan's name, as the guest sees it in the prompt. */
function accountReference(planName: string): string {
  const cleaned = planName
    .replace(/[^A-Za-z0-9 ]/g, "")
    .trim()
    .slice(0, 12)
    .trim();
  return cleaned || "WiFi";
}

export interface StkResult {
  /** null: we gave up (the push was refused, or no answer in time) */
  resultCode: number | null;
  resultDesc: string;
  receipt?: string | null;
}

/**
 * Applies a purchase's result exactly once: the open (pending or unconfirmed) transaction becomes
 * completed or failed (a conditional UPDATE: a duplicate callback, a late query or a second
 * instance changes nothing) and its Pending subscription becomes Active from now, or Cancelled.
 * A payment applied after the page stopped waiting, or whose subscription could not be activated,
 * is listed for the operator. Answers whether this call applied it. Throws a unique violation when
 * the receipt is another payment's (the caller records that).
 */
export async function settle(paymentId: number, result: StkResult, now = Date.now()): Promise<boolean> {
  const paid = result.resultCode === 0;
  const settlePayment = (executor: Kysely<DB>) =>
    executor
      .updateTable("mpesa_transactions")
      .set({
        status: paid ? COMPLETED : FAILED,
        result_code: result.resultCode,
        result_desc: result.resultDesc.slice(0, 300),
        transaction_id: paid ? (result.receipt ?? null) : null,
        completed_at: now,
        next_check_at: null,
        updated_at: now,
      })
      .where("id", "=", paymentId)
      .where("status", "in", OPEN_STATUSES)
      .returning([
        "subscription_id",
        "organization_id",
        "connection_id",
        "service_plan_id",
        "phone_number",
        "amount",
        "checkout_request_id",
        "created_at",
      ]);
  const subscriptionChange = (eb: ExpressionBuilder<DB, "subscriptions">) =>
    paid
      ? {
          status: "Active" as const,
          started_on: now,
          // Validity from the moment it was paid; a day when the plan was deleted while the guest paid.
          expires_on: sql<number>`coalesce((${eb
            .selectFrom("service_plans")
            .select(sql<number>`cast(${now} as bigint) + validity_minutes * 60000`.as("e"))
            .whereRef("service_plans.id", "=", "subscriptions.service_plan_id")}), cast(${now + 86_400_000} as bigint))`,
          updated_at: now,
        }
      : { status: "Cancelled" as const, updated_at: now };

  type Applied = {
    subscription_id: number | null;
    organization_id: number;
    connection_id: number | null;
    service_plan_id: number | null;
    phone_number: string;
    amount: number;
    checkout_request_id: string | null;
    created_at: number;
    granted: boolean;
  };
  const applied: Applied | null = await writeTogether({
    // A callback's whole write: both UPDATEs in one statement.
    together: async () => {
      const row = await retryDeadlocks(() =>
        db
          .with("payment", () => settlePayment(db))
          .with("subscription", (qc) =>
            qc
              .updateTable("subscriptions")
              .from("payment")
              .set(subscriptionChange)
              .whereRef("subscriptions.id", "=", "payment.subscription_id")
              .where("subscriptions.status", "=", "Pending")
              .returning("subscriptions.id"),
          )
          .selectFrom("payment")
          .selectAll("payment")
          .select((eb) =>
            eb
              .selectFrom("subscription")
              .select((e) => e.fn.countAll<number>().as("n"))
              .as("granted"),
          )
          .executeTakeFirst(),
      );
      return row ? { ...row, granted: Number(row.granted) === 1 } : null;
    },
    apart: () =>
      retryDeadlocks(() =>
        db.transaction().execute(async (trx) => {
          const updated = await settlePayment(trx).executeTakeFirst();
          if (!updated) return null;
          let granted = false;
          if (updated.subscription_id !== null) {
            const changed = await trx
              .updateTable("subscriptions")
              .set(subscriptionChange)
              .where("id", "=", updated.subscription_id)
              .where("status", "=", "Pending")
              .executeTakeFirst();
            granted = Number(changed.numUpdatedRows) === 1;
          }
          return { ...updated, granted };
        }),
      ),
  });
  if (!applied) return false;
  const facts = {
    organizationId: applied.organization_id,
    dedupe: `payment-${paymentId}`,
    mpesaTransactionId: paymentId,
    connectionId: applied.connection_id === null ? null : Number(applied.connection_id),
    subscriptionId: applied.subscription_id,
    servicePlanId: applied.service_plan_id,
    receipt: result.receipt ?? null,
    phone: applied.phone_number,
    amount: Number(applied.amount),
    checkoutRequestId: applied.checkout_request_id,
  };
  if (paid && !applied.granted) {
    await recordPaymentException(
      { ...facts, kind: "paid_not_granted", detail: "M-Pesa says it was paid, but its plan was no longer waiting to start." },
      now,
    );
  } else if (paid && now - Number(applied.created_at) > PAYMENT_TIMEOUT_MS) {
    await recordPaymentException(
      {
        ...facts,
        kind: "late",
        detail: `Paid ${Math.round((now - Number(applied.created_at)) / 1000)} s after the purchase started, after its page stopped waiting; the plan was started.`,
      },
      now,
    );
  } else if (result.resultCode === TIMED_OUT) {
    await recordPaymentException(
      { ...facts, kind: "unconfirmed", detail: "M-Pesa never gave a final answer for this purchase: check the M-Pesa statement." },
      now,
    );
  }
  return true;
}

// ---- Daraja's callback ----

const CALLBACK_ACK = { ResultCode: 0, ResultDesc: "Accepted" } as const;

interface CallbackItem {
  Name?: unknown;
  Value?: unknown;
}

/** Reads a callback item by name (items come in any order, some without a Value). */
function item(items: CallbackItem[], name: string): unknown {
  return items.find((i) => i && typeof i === "object" && i.Name === name)?.Value;
}

export type CallbackAnswer = { status: number; body: Record<string, unknown> };

const CALLBACK_KEY = /^[A-Za-z0-9_-]{16,64}$/;
const UNKNOWN_CALLBACK_KEY: CallbackAnswer = { status: 404, body: { ResultCode: 1, ResultDesc: "Unknown callback address." } };

/**
 * POST /hotspot/mpesa/{callbackKey}: Daraja's STK result. Always acknowledged when the key is known
 * (Daraja retries otherwise); applied only when it names a pending purchase of that organisation
 * and, for a payment, its amount and phone match the request.
 */
export async function applyStkCallback(callbackKey: string, body: unknown, now = Date.now()): Promise<CallbackAnswer> {
  const callback = (body as { Body?: { stkCallback?: Record<string, unknown> } } | null)?.Body?.stkCallback;
  const checkoutRequestId = typeof callback?.CheckoutRequestID === "string" ? callback.CheckoutRequestID.slice(0, 100) : null;
  const resultCode =
    typeof callback?.ResultCode === "number"
      ? callback.ResultCode
      : typeof callback?.ResultCode === "string" && /^\d+$/.test(callback.ResultCode)
        ? Number(callback.ResultCode)
        : null;
  if (!checkoutRequestId || resultCode === null) {
    return (await organizationByCallbackKey(callbackKey))
      ? { status: 400, body: { ResultCode: 1, ResultDesc: "Not an STK callback." } }
      : UNKNOWN_CALLBACK_KEY;
  }
  if (!CALLBACK_KEY.test(callbackKey)) return UNKNOWN_CALLBACK_KEY;

  // The key's organisation and its purchase in one round trip (the payment's columns are null when
  // the key is known but the CheckoutRequestID is not).
  const find = () =>
    db
      .selectFrom("mpesa_settings")
      .leftJoin("mpesa_transactions", (join) =>
        join
          .onRef("mpesa_transactions.organization_id", "=", "mpesa_settings.organization_id")
          .on("mpesa_transactions.checkout_request_id", "=", checkoutRequestId),
      )
      .select([
        "mpesa_settings.organization_id",
        "mpesa_settings.callback_key",
        "mpesa_transactions.id",
        "mpesa_transactions.status",
        "mpesa_transactions.amount",
        "mpesa_transactions.phone_number",
        "mpesa_transactions.connection_id",
        "mpesa_transactions.subscription_id",
        "mpesa_transactions.service_plan_id",
      ])
      .where("mpesa_settings.callback_key_hash", "=", callbackKeyHash(callbackKey))
      .executeTakeFirst();
  let found = await find();
  if (found && !sameCallbackKey(found.callback_key, callbackKey)) return UNKNOWN_CALLBACK_KEY;
  // A result can overtake our own write of the CheckoutRequestID Daraja just gave us: look again briefly.
  for (let i = 0; found?.id === null && i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = await find();
  }
  if (!found) return UNKNOWN_CALLBACK_KEY; // unknown key (or its settings deleted meanwhile)
  const organizationId = found.organization_id;
  const rawItems = (callback?.CallbackMetadata as { Item?: unknown } | undefined)?.Item;
  const items = Array.isArray(rawItems) ? (rawItems as CallbackItem[]) : [];
  const resultDesc = typeof callback?.ResultDesc === "string" ? callback.ResultDesc : "";
  const paidAmount = Number(item(items, "Amount"));
  const paidPhone = String(item(items, "PhoneNumber") ?? "").slice(0, 20);
  const rawReceipt = item(items, "MpesaReceiptNumber");
  const receipt = typeof rawReceipt === "string" && RECEIPT.test(rawReceipt) ? rawReceipt : null;
  if (found.id === null) {
    log("mpesa_callback_unknown", { organization: organizationId, checkout: checkoutRequestId });
    // Money for a purchase we never started (or whose record is gone): a person must look at it.
    if (resultCode === 0) {
      await recordPaymentException(
        {
          organizationId,
          kind: "unknown_purchase",
          dedupe: `checkout-${checkoutRequestId}`,
          receipt,
          phone: paidPhone,
          amount: Number.isFinite(paidAmount) ? Math.round(paidAmount) : null,
          checkoutRequestId,
          detail: "M-Pesa reported a payment for a purchase Mlango did not start.",
        },
        now,
      );
    }
    return { status: 200, body: CALLBACK_ACK };
  }
  const payment = { id: Number(found.id), status: found.status!, amount: Number(found.amount!), phone_number: found.phone_number! };
  if (!OPEN_STATUSES.includes(payment.status)) return { status: 200, body: CALLBACK_ACK };
  const facts = {
    organizationId,
    mpesaTransactionId: payment.id,
    connectionId: found.connection_id === null ? null : Number(found.connection_id),
    subscriptionId: found.subscription_id,
    servicePlanId: found.service_plan_id,
    receipt,
    phone: paidPhone || payment.phone_number,
    amount: Number.isFinite(paidAmount) ? Math.round(paidAmount) : null,
    expectedAmount: payment.amount,
    checkoutRequestId,
  };

  if (resultCode === 0) {
    if (receipt === null) {
      // No receipt: not a payment we can trust; left open for the STK query to settle (reconcilePayments).
      log("mpesa_callback_no_receipt", { organization: organizationId, payment: payment.id });
      return { status: 200, body: CALLBACK_ACK };
    }
    if (paidAmount !== payment.amount || paidPhone !== payment.phone_number) {
      // Not what we asked for: an exception for a person, never a grant (the purchase ends here, so
      // the STK query cannot grant it either).
      log("mpesa_callback_mismatch", { organization: organizationId, payment: payment.id });
      if (await settle(payment.id, { resultCode: MISMATCH, resultDesc: "The callback's amount or phone is not the purchase's." }, now)) {
        await recordPaymentException(
          {
            ...facts,
            kind: "amount_mismatch",
            dedupe: `payment-${payment.id}`,
            detail: `M-Pesa reported Kes ${Number.isFinite(paidAmount) ? paidAmount : "?"} from ${paidPhone || "?"}; the purchase asked Kes ${payment.amount} from ${payment.phone_number}.`,
          },
          now,
        );
      }
      return { status: 200, body: CALLBACK_ACK };
    }
    try {
      await settle(payment.id, { resultCode: 0, resultDesc, receipt }, now);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The receipt is another payment's: acknowledged (Daraja retries anything else) and listed;
      // the purchase stays open for the STK query to settle.
      log("mpesa_callback_duplicate_receipt", { organization: organizationId, payment: payment.id });
      await recordPaymentException(
        {
          ...facts,
          kind: "duplicate_receipt",
          dedupe: `receipt-${receipt}-${payment.id}`,
          detail: `The receipt ${receipt} was already used by another payment.`,
        },
        now,
      );
    }
  } else {
    await settle(payment.id, { resultCode, resultDesc }, now);
  }
  return { status: 200, body: CALLBACK_ACK };
}

async function organizationByCallbackKey(callbackKey: string): Promise<{ organizationId: number; shortCode: string } | null> {
  if (!CALLBACK_KEY.test(callbackKey)) return null;
  const row = await db
    .selectFrom("mpesa_settings")
    .select(["organization_id", "party_b", "callback_key"])
    .where("callback_key_hash", "=", callbackKeyHash(callbackKey))
    .executeTakeFirst();
  return row && sameCallbackKey(row.callback_key, callbackKey) ? { organizationId: row.organization_id, shortCode: row.party_b } : null;
}

/**
 * POST /hotspot/mpesa/{callbackKey}/c2b/confirmation: a paybill or till payment made from the
 * phone's menu, recorded once per TransID (a repeated confirmation changes nothing).
 */
export async function recordC2bConfirmation(callbackKey: string, body: unknown, now = Date.now()): Promise<CallbackAnswer> {
  const settings = await organizationByCallbackKey(callbackKey);
  if (!settings) return UNKNOWN_CALLBACK_KEY;
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const transId = typeof b.TransID === "string" && RECEIPT.test(b.TransID) ? b.TransID : null;
  const amount = Number(b.TransAmount);
  const msisdn = typeof b.MSISDN === "string" || typeof b.MSISDN === "number" ? String(b.MSISDN).slice(0, 64) : "";
  if (!transId || !Number.isFinite(amount) || amount <= 0)
    return { status: 400, body: { ResultCode: 1, ResultDesc: "Not a C2B confirmation." } };
  await db
    .insertInto("mpesa_transactions")
    .values({
      organization_id: settings.organizationId,
      source: "c2b",
      status: COMPLETED,
      phone_number: msisdn,
      amount: Math.round(amount),
      short_code:
        typeof b.BusinessShortCode === "string" || typeof b.BusinessShortCode === "number"
          ? String(b.BusinessShortCode).slice(0, 20)
          : settings.shortCode,
      account_reference: typeof b.BillRefNumber === "string" ? b.BillRefNumber.slice(0, 64) : null,
      transaction_id: transId,
      result_code: 0,
      result_desc: typeof b.TransactionType === "string" ? b.TransactionType.slice(0, 40) : "C2B",
      completed_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("transaction_id").doNothing())
    .execute();
  return { status: 200, body: CALLBACK_ACK };
}

// ---- Settling purchases without a callback ----

/**
 * Claims the next check of a pending purchase (when it is due), so one caller at a time asks
 * Daraja about it; answers whether this caller got it.
 */
async function claimCheck(paymentId: number, now: number): Promise<boolean> {
  const claimed = await db
    .updateTable("mpesa_transactions")
    .set({ next_check_at: now + CHECK_LEASE_MS })
    .where("id", "=", paymentId)
    .where("status", "in", OPEN_STATUSES)
    .where("next_check_at", "<=", now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

interface PendingPayment {
  id: number;
  organization_id: number;
  status: MpesaTransactionStatus;
  checkout_request_id: string | null;
  created_at: number;
}

/**
 * Asks Daraja how a claimed purchase ended and applies it. Without a final answer, a purchase past
 * PAYMENT_TIMEOUT_MS becomes Unconfirmed (its page stops waiting) and is asked again later
 * (recheckAfterMs); one past GIVE_UP_MS is given up and listed for the operator.
 */
async function checkPayment(
  payment: PendingPayment,
  query: (orgId: number, checkoutId: string) => Promise<StkQueryResult | null>,
  now: number,
): Promise<void> {
  const overdue = now - Number(payment.created_at) > PAYMENT_TIMEOUT_MS;
  let result: StkQueryResult | null = null;
  if (payment.checkout_request_id !== null) {
    try {
      result = await query(payment.organization_id, payment.checkout_request_id);
    } catch (error) {
      log("mpesa_stk_query_failed", { payment: payment.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const age = now - Number(payment.created_at);
  if (result?.status === "done") {
    // The query does not give the receipt: the transaction id stays empty for a payment settled this way.
    await settle(payment.id, { resultCode: result.resultCode, resultDesc: result.resultDesc }, now);
  } else if (age > GIVE_UP_MS) {
    await settle(payment.id, { resultCode: TIMED_OUT, resultDesc: "No final result from M-Pesa." }, now);
  } else if (overdue) {
    // Still open: the page stops waiting, the job asks again later (the claim's lease is replaced).
    await db
      .updateTable("mpesa_transactions")
      .set({ status: UNCONFIRMED, next_check_at: now + recheckAfterMs(age), updated_at: now })
      .where("id", "=", payment.id)
      .where("status", "in", OPEN_STATUSES)
      .execute();
  }
}

function darajaQuery(): (orgId: number, checkoutId: string) => Promise<StkQueryResult | null> {
  const clients = new Map<number, ReturnType<typeof loadDarajaClient>>();
  return async (orgId, checkoutId) => {
    if (!clients.has(orgId)) clients.set(orgId, loadDarajaClient(orgId));
    const client = await clients.get(orgId)!;
    return client ? client.stkQuery(checkoutId) : null;
  };
}

/**
 * The reconciliation job (mpesa.reconcile, every minute in every instance): pending purchases whose
 * check is due are claimed one by one and asked about. Answers how many it checked.
 */
export async function reconcilePayments(now = Date.now(), limit = 200): Promise<number> {
  const due = await db
    .selectFrom("mpesa_transactions")
    .select(["id", "organization_id", "status", "checkout_request_id", "created_at"])
    .where("status", "in", OPEN_STATUSES)
    .where("next_check_at", "<=", now)
    .orderBy("next_check_at")
    .limit(limit)
    .execute();
  const query = darajaQuery();
  let checked = 0;
  for (const payment of due) {
    if (!(await claimCheck(Number(payment.id), now))) continue;
    await checkPayment({ ...payment, id: Number(payment.id), created_at: Number(payment.created_at) }, query, now);
    checked++;
  }
  return checked;
}

// ---- The waiting page ----

export type PurchaseState = (
  | { state: "pending"; planName: string; amount: number; phone: string }
  | { state: "failed"; message: string }
  /** the guest cancelled it; Daraja has not said how it ended yet */
  | { state: "cancelled"; message: string }
  | { state: "paid"; subscriptionId: number; phone: string }
) & {
  /** the page's heading: the network the guest is on */
  networkName: string;
  /** the connection is online already (a second poll after the grant) */
  authorized: boolean;
};

/**
 * How the token's purchase stands, for its waiting page (with what the page shows besides, so it needs no other query). A purchase still pending after
 * QUERY_AFTER_MS is asked about here too (when no one else is asking), so a lost callback costs
 * the guest seconds, not the job's minute. null: no such purchase for this token.
 */
export async function purchaseStatus(token: string, paymentId: number, now = Date.now()): Promise<PurchaseState | null> {
  if (!plausibleToken(token) || !Number.isSafeInteger(paymentId) || paymentId < 1) return null;
  const find = () =>
    db
      .selectFrom("mpesa_transactions")
      .innerJoin("connections", "connections.id", "mpesa_transactions.connection_id")
      .innerJoin("venues", "venues.id", "connections.venue_id")
      .leftJoin("subscriptions", "subscriptions.id", "mpesa_transactions.subscription_id")
      .select([
        "venues.name as network_name",
        "connections.authorized_at",
        "mpesa_transactions.id",
        "mpesa_transactions.organization_id",
        "mpesa_transactions.status",
        "mpesa_transactions.result_code",
        "mpesa_transactions.amount",
        "mpesa_transactions.phone_number",
        "mpesa_transactions.checkout_request_id",
        "mpesa_transactions.next_check_at",
        "mpesa_transactions.created_at",
        "mpesa_transactions.cancelled_at",
        "mpesa_transactions.subscription_id",
        "subscriptions.plan_name",
      ])
      .where("mpesa_transactions.id", "=", paymentId)
      .where("connections.token", "=", hashToken(token))
      .executeTakeFirst();
  let row = await find();
  if (!row) return null;
  if (OPEN_STATUSES.includes(row.status) && Number(row.next_check_at ?? 0) <= now && (await claimCheck(Number(row.id), now))) {
    await checkPayment(
      {
        id: Number(row.id),
        organization_id: row.organization_id,
        status: row.status,
        checkout_request_id: row.checkout_request_id,
        created_at: Number(row.created_at),
      },
      darajaQuery(),
      now,
    );
    row = (await find())!;
  }
  const page = { networkName: row.network_name, authorized: row.authorized_at !== null };
  if (row.status === COMPLETED && row.subscription_id !== null)
    return { state: "paid", subscriptionId: row.subscription_id, phone: row.phone_number, ...page };
  if (row.status === PENDING && row.cancelled_at !== null) return { state: "cancelled", message: MPESA_MESSAGES.cancelled, ...page };
  if (row.status === PENDING)
    return { state: "pending", planName: row.plan_name ?? "", amount: Number(row.amount), phone: row.phone_number, ...page };
  // Unconfirmed: the page stops waiting and says so; the purchase is still asked about.
  if (row.status === UNCONFIRMED) return { state: "failed", message: MPESA_MESSAGES.timeout, ...page };
  const message =
    row.result_code === null
      ? MPESA_MESSAGES.unavailable
      : row.result_code === TIMED_OUT
        ? MPESA_MESSAGES.neverConfirmed
        : row.result_code === MISMATCH
          ? MPESA_MESSAGES.mismatch
          : stkResultMessage(row.result_code);
  return { state: "failed", message, ...page };
}

// ---- The guest changes their mind (issue 34, item 5; decision 0078) ----

/**
 * The guest cancels a pending purchase from its waiting page. Daraja has no way to withdraw a
 * prompt already on the phone, so the purchase is only marked cancelled_at: the connection may start
 * another one (mpesa_transactions_one_pending leaves cancelled ones out), and this one stays
 * pending until Daraja's final answer (callback, STK query, the job) settles it like any other — a
 * PIN entered on the old prompt still makes its subscription Active (the plan waits on the device),
 * and cancelled_at keeps it recognisable for the operator. Answers how the purchase stands
 * afterwards; null: no such purchase for this token.
 */
export async function cancelPurchase(token: string, paymentId: number, now = Date.now()): Promise<"cancelled" | "paid" | "failed" | null> {
  if (!plausibleToken(token) || !Number.isSafeInteger(paymentId) || paymentId < 1) return null;
  const ofToken = (eb: ExpressionBuilder<DB, "mpesa_transactions">) =>
    eb(
      "mpesa_transactions.connection_id",
      "=",
      eb.selectFrom("connections").select("connections.id").where("connections.token", "=", hashToken(token)),
    );
  await db
    .updateTable("mpesa_transactions")
    .set({ cancelled_at: now, updated_at: now })
    .where("id", "=", paymentId)
    .where("status", "=", PENDING)
    .where("cancelled_at", "is", null)
    .where(ofToken)
    .execute();
  const row = await db
    .selectFrom("mpesa_transactions")
    .select(["status", "cancelled_at"])
    .where("id", "=", paymentId)
    .where(ofToken)
    .executeTakeFirst();
  if (!row) return null;
  return row.status === COMPLETED ? "paid" : row.status === PENDING ? "cancelled" : "failed";
}

export interface PurchaseToRedo {
  networkName: string;
  /** the plan, as sold now (null: no longer for sale) */
  plan: { id: number; name: string; amount: number } | null;
  /** the number it was sent to, as the guest typed it (07…) */
  phone: string;
}

/**
 * A cancelled or failed purchase of the token's connection, to start again with another number
 * (the change-number page); null when there is none, or it was paid, or the connection is online.
 */
export async function purchaseToRedo(token: string, paymentId: number): Promise<PurchaseToRedo | null> {
  if (!plausibleToken(token) || !Number.isSafeInteger(paymentId) || paymentId < 1) return null;
  const row = await db
    .selectFrom("mpesa_transactions")
    .innerJoin("connections", "connections.id", "mpesa_transactions.connection_id")
    .innerJoin("venues", "venues.id", "connections.venue_id")
    .leftJoin("service_plans", (join) =>
      join
        .onRef("service_plans.id", "=", "mpesa_transactions.service_plan_id")
        .onRef("service_plans.organization_id", "=", "mpesa_transactions.organization_id")
        .on("service_plans.free_internet", "=", 0)
        .on("service_plans.price_cents", ">=", 100),
    )
    .select([
      "venues.name as network_name",
      "connections.authorized_at",
      "mpesa_transactions.status",
      "mpesa_transactions.cancelled_at",
      "mpesa_transactions.phone_number",
      "service_plans.id as plan_id",
      "service_plans.name as plan_name",
      "service_plans.price_cents",
    ])
    .where("mpesa_transactions.id", "=", paymentId)
    .where("connections.token", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.authorized_at !== null || row.status === COMPLETED) return null;
  if (row.status === PENDING && row.cancelled_at === null) return null;
  const phone = row.phone_number.startsWith("254") ? `0${row.phone_number.slice(3)}` : row.phone_number;
  return {
    networkName: row.network_name,
    plan: row.plan_id === null ? null : { id: row.plan_id, name: row.plan_name!, amount: Math.ceil(Number(row.price_cents) / 100) },
    phone,
  };
}
