// The M-Pesa transactions list and its export (docs/guide/plans-and-prepaid.md#m-pesa-transactions,
// docs/guide/api.md#m-pesa-transactions): the organisation's payments (STK pushes and C2B
// confirmations) created in a window of whole UTC days, newest first by (created_at, id) on
// mpesa_transactions_org, 50 a page, counted up to a cap like the other big lists
// (list-count.server.ts, decision 0006). Phone numbers are guests' contacts: they need view_clients
// (PERSONAL_DATA_PERMISSION) too, and are null without it.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { inIds, unindexed } from "~/db/sql.server";
import { csvCell, csvHeader } from "~/lib/csv-line";
import { pageCount } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { MPESA_TRANSACTIONS_PAGE_SIZE, MPESA_TRANSACTIONS_PERMISSION, mpesaStatusText } from "~/lib/schemas/mpesa-transactions";
import { displayPhone } from "~/lib/phone";
import { formatDateTime, withZone } from "~/lib/time";
import { requirePermission, type OrgContext } from "../guard.server";
import { cappedTotal, COUNT_CAP, type Cursor } from "../list-count.server";

/** A window of created_at: startMs inclusive, endMs exclusive (DateRange's startMs/endMs). */
export interface MpesaWindow {
  startMs: number;
  endMs: number;
}

export interface MpesaTransactionRow {
  id: number;
  /** The M-Pesa receipt; null until the payment completes. */
  transaction_id: string | null;
  /** 2547XXXXXXXX; null when the caller lacks view_clients. */
  phone_number: string | null;
  /** Whole shillings. */
  amount: number;
  short_code: string;
  /** 0 pending, 1 completed, 2 failed (mpesaStatusText: Completed / Incomplete). */
  status: number;
  created_at: number;
}

export interface MpesaTransactionPage {
  rows: MpesaTransactionRow[];
  page: number;
  perPage: number;
  /** Rows in the window, exact up to COUNT_CAP (or five pages past this one). */
  total: number;
  /** The count stopped at `total`: there are more. */
  capped: boolean;
  lastPage: number;
}

type Builder = ExpressionBuilder<DB, "mpesa_transactions">;

/**
 * The organisation's rows in the window; with `after`, only those below that row in newest-first
 * order. The keyset's bound replaces the window's end (it is below it), so the index is ranged on
 * one upper bound only (decision 0006 §5).
 */
function inWindow(orgId: number, window: MpesaWindow, after: Cursor | null = null) {
  return (eb: Builder): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [
      eb("mpesa_transactions.organization_id", "=", orgId),
      eb("mpesa_transactions.created_at", ">=", window.startMs),
    ];
    if (after) {
      and.push(
        sql<SqlBool>`(${sql.ref("mpesa_transactions.created_at")} <= ${after.createdAt} and (${sql.ref("mpesa_transactions.created_at")} < ${after.createdAt} or ${sql.ref("mpesa_transactions.id")} < ${after.id}))`,
      );
    } else {
      and.push(eb("mpesa_transactions.created_at", "<", window.endMs));
    }
    return eb.and(and);
  };
}

/**
 * getmpesatransactions / the page (docs/guide/api.md#m-pesa-transactions,
 * docs/guide/plans-and-prepaid.md#m-pesa-transactions): page `page` (from 1) of 50, newest
 * first. A page past the end is empty. Needs MPESA_TRANSACTIONS_PERMISSION.
 */
export async function listMpesaTransactions(ctx: OrgContext, window: MpesaWindow, page: number): Promise<MpesaTransactionPage> {
  requirePermission(ctx, MPESA_TRANSACTIONS_PERMISSION);
  const orgId = ctx.org.id;
  const perPage = MPESA_TRANSACTIONS_PAGE_SIZE;
  const params = { offset: (page - 1) * perPage, pageSize: perPage };
  // Ids first, from the index alone, so a deep page does not read the rows it skips.
  const ids = await db
    .selectFrom("mpesa_transactions")
    .select(["mpesa_transactions.id", "mpesa_transactions.created_at"])
    .where(inWindow(orgId, window))
    .orderBy("mpesa_transactions.created_at", "desc")
    .orderBy("mpesa_transactions.id", "desc")
    .limit(perPage)
    .offset(params.offset)
    .execute();
  const counted = await cappedTotal(
    ids.map((r) => ({ id: Number(r.id), created_at: Number(r.created_at) })),
    params,
    COUNT_CAP,
    async (after, limit) => {
      const matching = db
        .selectFrom("mpesa_transactions")
        .select(sql<number>`1`.as("one"))
        .where(inWindow(orgId, window, after))
        .limit(limit);
      const row = await db
        .selectFrom(matching.as("matching"))
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  );
  const rows = await transactionsByIds(
    ctx,
    ids.map((r) => Number(r.id)),
  );
  return { rows, page, perPage, ...counted, lastPage: pageCount(counted.total, perPage) };
}

const COLUMNS = [
  "mpesa_transactions.id",
  "mpesa_transactions.transaction_id",
  "mpesa_transactions.phone_number",
  "mpesa_transactions.amount",
  "mpesa_transactions.short_code",
  "mpesa_transactions.status",
  "mpesa_transactions.created_at",
] as const;

type StoredRow = {
  id: number;
  transaction_id: string | null;
  phone_number: string;
  amount: number;
  short_code: string;
  status: number;
  created_at: number;
};

function rowOf(r: StoredRow, personal: boolean): MpesaTransactionRow {
  return {
    id: Number(r.id),
    transaction_id: r.transaction_id,
    phone_number: personal ? r.phone_number : null,
    amount: Number(r.amount),
    short_code: r.short_code,
    status: Number(r.status),
    created_at: Number(r.created_at),
  };
}

/** The organisation's transactions with these ids, in the ids' order. */
async function transactionsByIds(ctx: OrgContext, ids: number[]): Promise<MpesaTransactionRow[]> {
  if (ids.length === 0) return [];
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const rows = await db
    .selectFrom("mpesa_transactions")
    .select(COLUMNS)
    // The ids drive (primary key); the organisation is tested row by row.
    .where(unindexed("mpesa_transactions.organization_id"), "=", ctx.org.id)
    .where(inIds("mpesa_transactions.id", ids))
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), rowOf(r, personal)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------------------------------------
// mpesa_transactions.csv (docs/guide/plans-and-prepaid.md#m-pesa-transactions): every row of the
// window, newest first, in keyset batches written as the client reads (connections-export.server.ts
// does the same at scale).

/** The header; times are on the organisation's clock (`offsetMs` from UTC), named in the column. */
export const mpesaCsvHeaderAt = (offsetMs: number) => [
  "#",
  "Transaction ID",
  "Phone Number",
  "Amount (Kes)",
  "Short Code",
  "Status",
  withZone("Created At", offsetMs),
];

/** Rows per read. */
const CSV_BATCH = 2_000;

function csvRecord(n: number, r: MpesaTransactionRow, offsetMs: number): string {
  return `${n},${csvCell(r.transaction_id)},${csvCell(displayPhone(r.phone_number))},${r.amount},${csvCell(r.short_code)},${mpesaStatusText(r.status)},${formatDateTime(r.created_at, offsetMs)}\n`;
}

async function* csvBatches(ctx: OrgContext, window: MpesaWindow, batchSize: number): AsyncGenerator<string> {
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  // Payments that arrive during the export are left out, so numbering stays exact.
  const fixed = { startMs: window.startMs, endMs: Math.min(window.endMs, Date.now() + 1) };
  let after: Cursor | null = null;
  let numbered = 0;
  for (;;) {
    const rows: StoredRow[] = await db
      .selectFrom("mpesa_transactions")
      .select(COLUMNS)
      .where(inWindow(ctx.org.id, fixed, after))
      .orderBy("mpesa_transactions.created_at", "desc")
      .orderBy("mpesa_transactions.id", "desc")
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    let chunk = "";
    for (const r of rows) chunk += csvRecord(++numbered, rowOf(r, personal), ctx.org.clock.offsetMs);
    yield chunk;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { createdAt: Number(last.created_at), id: Number(last.id) };
  }
}

/**
 * The CSV as a byte stream: the header, then one chunk per batch when the reader asks for it. The
 * permission is checked and the first batch read before the response starts, so a refusal or a
 * failing database is an answer of its own rather than a download cut short.
 */
export async function mpesaTransactionsCsvStream(
  ctx: OrgContext,
  window: MpesaWindow,
  batchSize = CSV_BATCH,
): Promise<ReadableStream<Uint8Array>> {
  requirePermission(ctx, MPESA_TRANSACTIONS_PERMISSION);
  const batches = csvBatches(ctx, window, batchSize);
  const first = await batches.next();
  const encoder = new TextEncoder();
  let next: IteratorResult<string> | Promise<IteratorResult<string>> | null = first;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeader(mpesaCsvHeaderAt(ctx.org.clock.offsetMs))));
    },
    async pull(controller) {
      const { value, done } = await next!;
      if (done) {
        controller.close();
        return;
      }
      const pending = batches.next();
      pending.catch(() => undefined); // awaited by the next pull; this only keeps Node from reporting it early
      next = pending;
      controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await Promise.resolve(next).catch(() => undefined);
      await batches.return(undefined);
    },
  });
}
