// The delivery rows of broadcast schedules (decision 0018): claiming a batch, recording each answer,
// and closing a schedule when nothing is left to send.
//   queued ──claim (attempts+1, next_attempt_at = lease end)──▶ in flight
//   in flight ──everything but the request's last byte sent, then markSent──▶ sent ──last byte──▶ provider
//             ──refused before that──▶ queued (next_attempt_at = backoff), or failed for good / last attempt
//             ──customer opted out meanwhile──▶ opted_out
//             ──worker died──▶ claimed again once the lease is over: the provider never had the whole
//               request, so nothing goes twice
//   sent ──the provider refuses at the end──▶ queued for a retry, or failed
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { claimable } from "~/db/sql.server";
import type { DeliveryChannel } from "~/db/schema";
import { retryDelayMs } from "../../jobs/queue.server";
import { DISPATCH_TUNING } from "./tuning.server";

export interface ClaimedDelivery {
  id: number;
  scheduleId: number;
  customerId: number;
  address: string;
  /** The claim's attempt number: recording an answer checks it, so a lost lease's late answer is ignored. */
  attempts: number;
}

export type Outcome =
  | { status: "sent"; providerMessageId: string | null; cost: string | null }
  | { status: "failed"; error: string; retryable: boolean }
  | { status: "opted_out" };

/** The organisation's schedules being sent, oldest first. */
export async function sendingSchedules(organizationId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("broadcast_schedules")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("status", "=", "Sending")
    .orderBy("dispatch_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Takes up to `limit` due rows of one schedule and channel for this sender, in one statement: on
 * PostgreSQL the inner select locks them (SKIP LOCKED: a second sender takes other rows); SQLite has
 * one writer, so the statement is atomic across processes. The lease is next_attempt_at.
 */
export async function claimDeliveries(
  scheduleId: number,
  channel: DeliveryChannel,
  limit: number,
  now = Date.now(),
): Promise<ClaimedDelivery[]> {
  let due = db
    .selectFrom("broadcast_deliveries")
    .select("id")
    .where("schedule_id", "=", scheduleId)
    .where("status", "=", "queued")
    .where("channel", "=", channel)
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", now)]))
    .orderBy("id")
    .limit(limit);
  due = claimable(due);
  // A materialised CTE: PostgreSQL may run an `IN (select … limit n for update skip locked)` more
  // than once inside an UPDATE and take more than n rows (seen: all of them); the CTE runs once.
  const rows = await db
    .with(
      (wb) => wb("due").materialized(),
      () => due,
    )
    .updateTable("broadcast_deliveries")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: now + DISPATCH_TUNING.deliveryLeaseMs, updated_at: now }))
    .where("id", "in", (eb) => eb.selectFrom("due").select("due.id"))
    .where("status", "=", "queued")
    .returning(["id", "schedule_id", "customer_id", "address", "attempts"])
    .execute();
  return rows
    .map((r) => ({ id: Number(r.id), scheduleId: r.schedule_id, customerId: r.customer_id, address: r.address, attempts: r.attempts }))
    .sort((a, b) => a.id - b.id);
}

/**
 * The messages of the organisation's sending schedules on this channel that reached their provider
 * in the second before `now` (sent_at, written as the last byte goes), oldest first: where a send
 * job's pace starts, whichever job sent them.
 */
export async function reachedLastSecond(
  organizationId: number,
  channel: DeliveryChannel,
  now = Date.now(),
): Promise<{ at: number; count: number }[]> {
  const rows = await db
    .selectFrom("broadcast_deliveries")
    .select(["sent_at", (eb) => eb.fn.countAll<number>().as("count")])
    .where("schedule_id", "in", (eb) =>
      eb.selectFrom("broadcast_schedules").select("id").where("organization_id", "=", organizationId).where("status", "=", "Sending"),
    )
    .where("channel", "=", channel)
    .where("sent_at", ">", now - 1_000)
    .groupBy("sent_at")
    .orderBy("sent_at")
    .execute();
  return rows.map((r) => ({ at: Number(r.sent_at), count: Number(r.count) }));
}

/** The claimed customers who withdrew their consent since the rows were made. */
export async function withdrawnConsent(organizationId: number, rows: ClaimedDelivery[]): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const consenting = await db
    .selectFrom("customers")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("id", "in", [...new Set(rows.map((r) => r.customerId))])
    .where("marketing_opt_in_at", "is not", null)
    .execute();
  const still = new Set(consenting.map((c) => c.id));
  return new Set(rows.filter((r) => !still.has(r.customerId)).map((r) => r.customerId));
}

/** Another sender took a row over (its lease ran out): this sender must not send it. */
export class LeaseLost extends Error {
  constructor() {
    super("Another sender took this delivery over.");
    this.name = "LeaseLost";
  }
}

/**
 * Records claimed rows as sent, all or none, just before the provider gets the last byte of their
 * request, with the provider's id when it is known before sending (an e-mail's Message-ID). Throws
 * LeaseLost when a row is no longer this sender's (then none is recorded, and nothing is sent).
 */
export async function markSent(rows: ClaimedDelivery[], providerMessageId: string | null = null, now = Date.now()): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    // One statement for the batch: the claims' (id, attempts) pairs say the rows are still this sender's.
    const result = await trx
      .updateTable("broadcast_deliveries")
      .set({ status: "sent", provider_message_id: providerMessageId, error: null, sent_at: now, next_attempt_at: null, updated_at: now })
      .where(({ eb, refTuple, tuple }) =>
        eb(
          refTuple("id", "attempts"),
          "in",
          rows.map((r) => tuple(r.id, r.attempts)),
        ),
      )
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== rows.length) throw new LeaseLost(); // rolls back the others too
  });
}

/**
 * Writes each claimed row's answer in one transaction; a row whose lease was lost is left alone.
 * A row marked sent before its last byte went (markSent) takes the provider's answer too: its
 * message id and cost, or its refusal.
 */
export async function recordOutcomes(outcomes: [ClaimedDelivery, Outcome][], now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [row, outcome] of outcomes) {
      const update = trx
        .updateTable("broadcast_deliveries")
        .where("id", "=", row.id)
        .where("status", "in", ["queued", "sent"])
        .where("attempts", "=", row.attempts);
      if (outcome.status === "sent") {
        await update
          .set({
            status: "sent",
            provider_message_id: outcome.providerMessageId,
            cost: outcome.cost,
            error: null,
            sent_at: sql`coalesce(sent_at, ${now})`,
            next_attempt_at: null,
            updated_at: now,
          })
          .execute();
      } else if (outcome.status === "opted_out") {
        await update.set({ status: "opted_out", next_attempt_at: null, updated_at: now }).execute();
      } else if (outcome.retryable && row.attempts < DISPATCH_TUNING.maxAttempts) {
        await update
          .set({
            status: "queued",
            sent_at: null,
            error: outcome.error.slice(0, 1000),
            next_attempt_at: now + retryDelayMs(row.attempts),
            updated_at: now,
          })
          .execute();
      } else {
        await update
          .set({ status: "failed", sent_at: null, error: outcome.error.slice(0, 1000), next_attempt_at: null, updated_at: now })
          .execute();
      }
    }
  });
}

/** When the next queued row of the organisation's sending schedules is due (or its lease ends); null when none is left. */
export async function nextDueAt(organizationId: number, channel: DeliveryChannel): Promise<number | null> {
  const row = await db
    .selectFrom("broadcast_deliveries")
    .innerJoin("broadcast_schedules", "broadcast_schedules.id", "broadcast_deliveries.schedule_id")
    .select((eb) => [
      eb.fn.count<number>("broadcast_deliveries.id").as("queued"),
      eb.fn.min(sql<number>`coalesce(broadcast_deliveries.next_attempt_at, 0)`).as("due"),
    ])
    .where("broadcast_schedules.organization_id", "=", organizationId)
    .where("broadcast_schedules.status", "=", "Sending")
    .where("broadcast_deliveries.status", "=", "queued")
    .where("broadcast_deliveries.channel", "=", channel)
    .executeTakeFirstOrThrow();
  return Number(row.queued) === 0 ? null : Number(row.due);
}

/**
 * Closes the organisation's sending schedules that have no queued row left: Sent, or Failed when not
 * one message went out although some were meant to (the first error says why).
 */
export async function finishSchedules(organizationId: number, now = Date.now()): Promise<void> {
  for (const scheduleId of await sendingSchedules(organizationId)) {
    const counts = await db
      .selectFrom("broadcast_deliveries")
      .select(["status", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.min("error").as("error")])
      .where("schedule_id", "=", scheduleId)
      .groupBy("status")
      .execute();
    const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
    if (count("queued") > 0) continue;
    const failed = count("failed");
    const reached = count("sent") + count("delivered") + count("bounced");
    const firstError = counts.find((c) => c.status === "failed")?.error ?? "";
    const error =
      failed > 0 && reached === 0 ? `${failed === 1 ? "The message" : `All ${failed} messages`} failed. ${firstError}`.trim() : null;
    await db
      .updateTable("broadcast_schedules")
      .set({ status: error ? "Failed" : "Sent", error, finished_at: now, updated_at: now })
      .where("id", "=", scheduleId)
      .where("status", "=", "Sending")
      .execute();
  }
}
