// Payment exceptions (issue 34 item 3, decision 0077): M-Pesa payments that need a person —
// paid but not granted, paid late, a receipt another payment already used, an amount or phone
// different from the purchase, a result for a purchase Mlango never started, a purchase M-Pesa
// never gave a final answer for. The payment flow records them (recordPaymentException, once per
// organisation and dedupe key, so Daraja's retries add nothing); the console lists them
// (view_subscriptions, phones with view_clients) and the organisation's owner grants the plan or
// refunds through Daraja's Reversal API, whose result comes back later to the ResultURL
// (applyMpesaResult, behind a secret in the path compared in constant time).
import crypto from "node:crypto";
import { sql } from "kysely";
import { db } from "~/db/db.server";
import type { PaymentExceptionKind, PaymentExceptionStatus } from "~/db/schema";
import { pageCount } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import {
  PAYMENT_EXCEPTION_MESSAGES,
  PAYMENT_EXCEPTIONS_PAGE_SIZE,
  PAYMENT_EXCEPTIONS_PERMISSION,
  type PaymentExceptionAction,
} from "~/lib/schemas/payment-exceptions";
import { publicOrigin } from "../email.server";
import { notFound, requireOwner, requirePermission, type OrgContext } from "../guard.server";
import { DarajaError, describeDarajaError, parseAsyncResult } from "./daraja.server";
import { loadDarajaClient } from "./mpesa-settings.server";
import { applyReceiptStatus } from "./receipt-claims.server";

export {
  PAYMENT_EXCEPTION_KINDS,
  PAYMENT_EXCEPTION_MESSAGES,
  PAYMENT_EXCEPTION_STATUSES,
  PAYMENT_EXCEPTIONS_PAGE_SIZE,
  PAYMENT_EXCEPTIONS_PERMISSION,
} from "~/lib/schemas/payment-exceptions";

const log = (event: string, fields: Record<string, unknown>) =>
  console.error(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));

export interface NewPaymentException {
  organizationId: number;
  kind: PaymentExceptionKind;
  /** what makes it the same exception when it is reported again (a receipt, a CheckoutRequestID) */
  dedupe: string;
  mpesaTransactionId?: number | null;
  connectionId?: number | null;
  subscriptionId?: number | null;
  servicePlanId?: number | null;
  receipt?: string | null;
  phone?: string | null;
  amount?: number | null;
  expectedAmount?: number | null;
  checkoutRequestId?: string | null;
  detail: string;
}

/** Records an exception once (a repeat of the same kind and key changes nothing). Never throws: a payment path must go on. */
export async function recordPaymentException(e: NewPaymentException, now = Date.now()): Promise<void> {
  try {
    await db
      .insertInto("payment_exceptions")
      .values({
        organization_id: e.organizationId,
        kind: e.kind,
        dedupe_key: `${e.kind}:${e.dedupe}`.slice(0, 200),
        mpesa_transaction_id: e.mpesaTransactionId ?? null,
        connection_id: e.connectionId ?? null,
        subscription_id: e.subscriptionId ?? null,
        service_plan_id: e.servicePlanId ?? null,
        receipt: e.receipt ?? null,
        phone_number: (e.phone ?? "").slice(0, 64),
        amount: e.amount ?? null,
        expected_amount: e.expectedAmount ?? null,
        checkout_request_id: e.checkoutRequestId ?? null,
        detail: e.detail.slice(0, 500),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["organization_id", "dedupe_key"]).doNothing())
      .execute();
  } catch (error) {
    log("payment_exception_not_recorded", { organization: e.organizationId, kind: e.kind, error: String(error) });
  }
}

export interface PaymentExceptionRow {
  id: number;
  kind: PaymentExceptionKind;
  status: PaymentExceptionStatus;
  receipt: string | null;
  /** 2547XXXXXXXX; null without view_clients */
  phone_number: string | null;
  amount: number | null;
  expected_amount: number | null;
  connection_id: number | null;
  subscription_id: number | null;
  plan_name: string | null;
  detail: string;
  reversal_result: string | null;
  /** the actions still open to the owner */
  can_grant: boolean;
  can_refund: boolean;
  created_at: number;
}

export interface PaymentExceptionPage {
  rows: PaymentExceptionRow[];
  page: number;
  perPage: number;
  total: number;
  lastPage: number;
  open: number;
}

function exceptionsQuery(ctx: OrgContext) {
  return db
    .selectFrom("payment_exceptions")
    .leftJoin("subscriptions", "subscriptions.id", "payment_exceptions.subscription_id")
    .where("payment_exceptions.organization_id", "=", ctx.org.id)
    .select([
      "payment_exceptions.id",
      "payment_exceptions.kind",
      "payment_exceptions.status",
      "payment_exceptions.receipt",
      "payment_exceptions.phone_number",
      "payment_exceptions.amount",
      "payment_exceptions.expected_amount",
      "payment_exceptions.connection_id",
      "payment_exceptions.subscription_id",
      "payment_exceptions.detail",
      "payment_exceptions.reversal_result",
      "payment_exceptions.created_at",
      "subscriptions.plan_name",
      "subscriptions.status as subscription_status",
    ]);
}

type StoredRow = Awaited<ReturnType<ReturnType<typeof exceptionsQuery>["executeTakeFirstOrThrow"]>>;

function exceptionRow(r: StoredRow, personal: boolean): PaymentExceptionRow {
  return {
    id: Number(r.id),
    kind: r.kind,
    status: r.status,
    receipt: r.receipt,
    phone_number: personal ? r.phone_number || null : null,
    amount: r.amount === null ? null : Number(r.amount),
    expected_amount: r.expected_amount === null ? null : Number(r.expected_amount),
    connection_id: r.connection_id === null ? null : Number(r.connection_id),
    subscription_id: r.subscription_id,
    plan_name: r.plan_name ?? null,
    detail: r.detail,
    reversal_result: r.reversal_result,
    can_grant: r.status === "open" && r.subscription_id !== null && r.subscription_status !== "Active",
    can_refund: (r.status === "open" || r.status === "refund_failed") && r.receipt !== null && r.amount !== null,
    created_at: Number(r.created_at),
  };
}

/** One of the organisation's exceptions as the list shows it; 404 for another organisation's, an unknown or a malformed id. */
export async function getPaymentException(ctx: OrgContext, id: number | null): Promise<PaymentExceptionRow> {
  requirePermission(ctx, PAYMENT_EXCEPTIONS_PERMISSION);
  if (id === null || !Number.isSafeInteger(id) || id < 1) notFound(PAYMENT_EXCEPTION_MESSAGES.notFound);
  const row = await exceptionsQuery(ctx).where("payment_exceptions.id", "=", id).executeTakeFirst();
  if (!row) notFound(PAYMENT_EXCEPTION_MESSAGES.notFound);
  return exceptionRow(row, ctx.permissions.has(PERSONAL_DATA_PERMISSION));
}

export interface PaymentExceptionsQuery {
  openOnly: boolean;
  /** 1-based (the page, REST); ignored when offset is given */
  page?: number;
  /** rows skipped (GraphQL's offset) */
  offset?: number;
  /** rows per page; the page's 50 by default */
  perPage?: number;
}

/** The organisation's exceptions, newest first; `openOnly` only those still needing someone. */
export async function listPaymentExceptions(ctx: OrgContext, options: PaymentExceptionsQuery): Promise<PaymentExceptionPage> {
  requirePermission(ctx, PAYMENT_EXCEPTIONS_PERMISSION);
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const perPage = Math.max(1, Math.min(options.perPage ?? PAYMENT_EXCEPTIONS_PAGE_SIZE, 250));
  const offset = Math.max(0, Math.min(options.offset ?? (Math.max(1, Math.min(options.page ?? 1, 1_000_000)) - 1) * perPage, 250_000_000));
  const page = Math.floor(offset / perPage) + 1;
  let query = exceptionsQuery(ctx);
  if (options.openOnly) query = query.where("payment_exceptions.status", "=", "open");
  const rows = await query
    .orderBy("payment_exceptions.created_at", "desc")
    .orderBy("payment_exceptions.id", "desc")
    .limit(perPage)
    .offset(offset)
    .execute();
  const counts = await db
    .selectFrom("payment_exceptions")
    .select((eb) => [
      eb.fn.countAll<number>().as("all"),
      eb.fn.sum<number>(eb.case().when("status", "=", "open").then(1).else(0).end()).as("open"),
    ])
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirstOrThrow();
  const open = Number(counts.open ?? 0);
  const total = options.openOnly ? open : Number(counts.all);
  return {
    rows: rows.map((r) => exceptionRow(r, personal)),
    page,
    perPage,
    total,
    lastPage: pageCount(total, perPage),
    open,
  };
}

/** How many exceptions still need someone (the dashboard's figure); null without the permission. */
export async function countOpenPaymentExceptions(ctx: OrgContext): Promise<number | null> {
  if (!ctx.permissions.has(PAYMENT_EXCEPTIONS_PERMISSION)) return null;
  const row = await db
    .selectFrom("payment_exceptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", ctx.org.id)
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ExceptionActionOutcome = { ok: true; message: string } | { ok: false; status: number; message: string };

async function exceptionOf(ctx: OrgContext, id: number) {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  return db.selectFrom("payment_exceptions").selectAll().where("organization_id", "=", ctx.org.id).where("id", "=", id).executeTakeFirst();
}

/**
 * Grants the purchase's plan: its subscription (Pending, or Cancelled when the purchase was given
 * up on) becomes Active from now for the plan's validity. Owner only; once.
 */
export async function grantPaymentException(ctx: OrgContext, id: number, now = Date.now()): Promise<ExceptionActionOutcome> {
  requirePermission(ctx, PAYMENT_EXCEPTIONS_PERMISSION);
  requireOwner(ctx);
  const found = await exceptionOf(ctx, id);
  if (!found) return { ok: false, status: 404, message: PAYMENT_EXCEPTION_MESSAGES.notFound };
  if (found.status !== "open") return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen };
  if (found.subscription_id === null) return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.nothingToGrant };
  const subscriptionId = found.subscription_id;
  const done = await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("payment_exceptions")
      .set({ status: "granted", resolved_by: ctx.user.id, resolved_at: now, updated_at: now })
      .where("id", "=", found.id)
      .where("status", "=", "open")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable("subscriptions")
      .set((eb) => ({
        status: "Active",
        started_on: now,
        expires_on: sql<number>`coalesce((${eb
          .selectFrom("service_plans")
          .select(sql<number>`cast(${now} as bigint) + validity_minutes * 60000`.as("e"))
          .whereRef("service_plans.id", "=", "subscriptions.service_plan_id")}), cast(${now + 86_400_000} as bigint))`,
        updated_at: now,
      }))
      .where("id", "=", subscriptionId)
      .where("organization_id", "=", ctx.org.id)
      .where("status", "in", ["Pending", "Cancelled"])
      .execute();
    return true;
  });
  if (!done) return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen };
  return { ok: true, message: PAYMENT_EXCEPTION_MESSAGES.granted };
}

/** Marks an exception dealt with outside Mlango. Owner only. */
export async function dismissPaymentException(ctx: OrgContext, id: number, now = Date.now()): Promise<ExceptionActionOutcome> {
  requirePermission(ctx, PAYMENT_EXCEPTIONS_PERMISSION);
  requireOwner(ctx);
  const found = await exceptionOf(ctx, id);
  if (!found) return { ok: false, status: 404, message: PAYMENT_EXCEPTION_MESSAGES.notFound };
  const updated = await db
    .updateTable("payment_exceptions")
    .set({ status: "dismissed", resolved_by: ctx.user.id, resolved_at: now, updated_at: now })
    .where("id", "=", found.id)
    .where("status", "in", ["open", "refund_failed"])
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen };
  return { ok: true, message: PAYMENT_EXCEPTION_MESSAGES.dismissed };
}

/** One of the owner's actions by name (the page's intent, the API's path, the mutation). */
export function actOnPaymentException(ctx: OrgContext, action: PaymentExceptionAction, id: number): Promise<ExceptionActionOutcome> {
  switch (action) {
    case "grant":
      return grantPaymentException(ctx, id);
    case "refund":
      return refundPaymentException(ctx, id);
    case "dismiss":
      return dismissPaymentException(ctx, id);
  }
}

/** The ResultURL's secret for an organisation: derived from its (secret) callback key, never stored. */
export function mpesaResultSecret(callbackKey: string): string {
  return crypto.createHmac("sha256", callbackKey).update("mpesa-result-url").digest("base64url").slice(0, 32);
}

/** Where Daraja sends this organisation's Transaction Status and Reversal results. */
export function mpesaResultUrls(organizationId: number, callbackKey: string): { resultUrl: string; queueTimeoutUrl: string } {
  const base = `${publicOrigin()}/hotspot/mpesa-result/${organizationId}/${mpesaResultSecret(callbackKey)}`;
  return { resultUrl: base, queueTimeoutUrl: `${base}/timeout` };
}

/**
 * Refunds the payment through Daraja's Reversal API: the request is sent now, its result comes to
 * the ResultURL (applyMpesaResult). Owner only; one refund at a time per exception.
 */
export async function refundPaymentException(ctx: OrgContext, id: number, now = Date.now()): Promise<ExceptionActionOutcome> {
  requirePermission(ctx, PAYMENT_EXCEPTIONS_PERMISSION);
  requireOwner(ctx);
  const found = await exceptionOf(ctx, id);
  if (!found) return { ok: false, status: 404, message: PAYMENT_EXCEPTION_MESSAGES.notFound };
  if (found.status !== "open" && found.status !== "refund_failed")
    return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen };
  if (found.receipt === null || found.amount === null) return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.noReceipt };
  const settings = await db
    .selectFrom("mpesa_settings")
    .select("callback_key")
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!settings) return { ok: false, status: 409, message: "Save your M-Pesa settings first." };
  // Claimed first, so two presses never send two reversals.
  const claimed = await db
    .updateTable("payment_exceptions")
    .set({ status: "refunding", reversal_result: null, resolved_by: ctx.user.id, updated_at: now })
    .where("id", "=", found.id)
    .where("status", "=", found.status)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, status: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen };
  try {
    const client = await loadDarajaClient(ctx.org.id);
    if (!client) throw new DarajaError("invalid_input", "Save your M-Pesa settings first.");
    const accepted = await client.reversal({
      transactionId: found.receipt,
      amount: Number(found.amount),
      remarks: "Refund",
      occasion: `Exception ${found.id}`,
      ...mpesaResultUrls(ctx.org.id, settings.callback_key),
    });
    await db
      .updateTable("payment_exceptions")
      .set({ reversal_conversation_id: accepted.conversationId, updated_at: Date.now() })
      .where("id", "=", found.id)
      .execute();
    return { ok: true, message: PAYMENT_EXCEPTION_MESSAGES.refundRequested };
  } catch (error) {
    await db
      .updateTable("payment_exceptions")
      .set({ status: found.status, updated_at: Date.now() })
      .where("id", "=", found.id)
      .where("status", "=", "refunding")
      .execute();
    if (!(error instanceof DarajaError) && !(error instanceof Error)) throw error;
    return { ok: false, status: 502, message: describeDarajaError(error) };
  }
}

export type ResultAnswer = { status: number; body: Record<string, unknown> };
const ACK: ResultAnswer = { status: 200, body: { ResultCode: 0, ResultDesc: "Accepted" } };
const UNKNOWN: ResultAnswer = { status: 404, body: { ResultCode: 1, ResultDesc: "Unknown result address." } };

/**
 * POST /hotspot/mpesa-result/{organizationId}/{secret}[/timeout]: a Reversal (or Transaction
 * Status) result. The secret is compared in constant time; a known address is always acknowledged
 * (Daraja retries anything but 2xx).
 */
export async function applyMpesaResult(
  organizationIdText: string,
  secret: string,
  body: unknown,
  timedOut = false,
  now = Date.now(),
): Promise<ResultAnswer> {
  if (!/^\d{1,9}$/.test(organizationIdText) || !/^[A-Za-z0-9_-]{1,64}$/.test(secret)) return UNKNOWN;
  const organizationId = Number(organizationIdText);
  const settings = await db
    .selectFrom("mpesa_settings")
    .select("callback_key")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  // Digests of both, so the comparison takes the same time whatever the lengths.
  const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
  const same = crypto.timingSafeEqual(digest(secret), digest(mpesaResultSecret(settings?.callback_key ?? "no settings")));
  if (!settings || !same) return UNKNOWN;
  const result = parseAsyncResult(body);
  if (!result) return { status: 400, body: { ResultCode: 1, ResultDesc: "Not a Daraja result." } };
  const reversal = await db
    .selectFrom("payment_exceptions")
    .select(["id", "status"])
    .where("organization_id", "=", organizationId)
    .where("reversal_conversation_id", "=", result.conversationId)
    .executeTakeFirst();
  if (reversal) {
    const ok = !timedOut && result.resultCode === "0";
    await db
      .updateTable("payment_exceptions")
      .set({
        status: ok ? "refunded" : "refund_failed",
        reversal_result: `${result.resultCode}: ${result.resultDesc}`.slice(0, 300),
        resolved_at: ok ? now : null,
        updated_at: now,
      })
      .where("id", "=", reversal.id)
      .where("status", "=", "refunding")
      .execute();
    return ACK;
  }
  // A Transaction Status asked for a receipt a guest typed (decision 0088).
  if (await applyReceiptStatus(organizationId, result, timedOut, now)) return ACK;
  log("mpesa_result_unknown", { organization: organizationId, conversation: result.conversationId });
  return ACK;
}
