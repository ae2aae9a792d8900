// Sends the subscribed reports by e-mail (docs/guide/reports.md#report-subscriptions).
//
// Time is the organisation's (its fixed offset from UTC, decision 0023): a subscription's hour H
// (1–24) of day D falls at D 00:00 local time + H hours, so hour 24 is midnight at the end of D.
// At any moment each subscription has one "due day": today once today's hour has come, else
// yesterday. Missed days are not caught up; only the latest due day is.
//
// Exactly once with several app instances: the claim is a row of report_deliveries, unique per
// (subscription, day). An instance claims a day by inserting that row (a second insert of the
// same key does nothing, on PostgreSQL it waits for the first and then does nothing) or, for a
// failed or abandoned attempt, by a conditional UPDATE that only one instance can win. A failed
// send keeps the row as `failed` with a retry time (exponential backoff) and is logged as a JSON
// line; a claim whose instance died is taken over after CLAIM_LEASE_MS. It runs every minute as the
// recurring job `reports.send-due` (app/services/jobs), or from cron with `reports:run`.
import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db as defaultDb } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { DAY_MS, todayIso } from "~/lib/date-range";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { isReportSlug, type ReportSlug } from "~/lib/reports";
import { deliverEmail } from "./email.server";
import { permissionsOf } from "./guard.server";
import { buildReportEmail } from "./report-mail.server";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Longer than any SMTP conversation can take (nodemailer's socket timeout is 10 minutes). */
export const CLAIM_LEASE_MS = 15 * MINUTE_MS;
const MAX_BACKOFF_MS = 60 * MINUTE_MS;
const BATCH = 200;

/** Minutes to wait after the n-th failed attempt: 1, 2, 4 … at most 60. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, MINUTE_MS * 2 ** Math.max(0, attempts - 1));
}

export interface RunResult {
  sent: number;
  failed: number;
}

interface Due {
  id: number;
  organization_id: number;
  report: string;
  day: string;
  email: string;
  org_name: string;
  time_zone: string;
  utc_offset_ms: number;
  is_owner: number;
  role_id: number | null;
  role_type: string | null;
}

/**
 * Sends every report due at `now` that no instance has sent or is sending. Safe to call from
 * several processes at once. `database` lets a caller (a test) claim through another connection.
 */
export async function runDueReports(now = Date.now(), database: Kysely<DB> = defaultDb): Promise<RunResult> {
  const result: RunResult = { sent: 0, failed: 0 };
  const started = Date.now();
  // Each offset from UTC has its own "today" and hour: organisations are taken one offset at a time
  // (a handful). Pages through the due subscriptions by id, so a run ends even when claims are lost.
  const offsets = await database.selectFrom("organizations").select("utc_offset_ms").distinct().execute();
  for (const { utc_offset_ms } of offsets) {
    const offsetMs = Number(utc_offset_ms);
    for (let afterId = 0; ;) {
      const due = await dueSubscriptions(database, now, offsetMs, afterId);
      if (due.length === 0) break;
      for (const item of due) {
        afterId = item.id;
        const claim = await claimDelivery(database, item, now);
        if (!claim) continue; // another instance has it
        if (await deliver(database, item, claim, now)) result.sent++;
        else result.failed++;
      }
    }
  }
  if (result.sent || result.failed) {
    console.log(JSON.stringify({ at: new Date().toISOString(), event: "report_emails_run", ...result, ms: Date.now() - started }));
  }
  return result;
}

/** Subscriptions of accepted members whose due day has no delivery that is sent, in progress or waiting to retry. */
async function dueSubscriptions(database: Kysely<DB>, now: number, offsetMs: number, afterId: number): Promise<Due[]> {
  const local = now + offsetMs;
  const todayStart = local - (local % DAY_MS);
  const hour = Math.floor((local - todayStart) / HOUR_MS); // 0–23 of the local day
  const today = todayIso(todayStart);
  const yesterday = todayIso(todayStart - DAY_MS);
  const dueDay = sql<string>`case when ${sql.ref("s.send_at")} <= ${hour} then ${today} else ${yesterday} end`;
  const rows = await database
    .selectFrom("report_subscriptions as s")
    .innerJoin("administrators as a", (j) => j.onRef("a.organization_id", "=", "s.organization_id").onRef("a.user_id", "=", "s.user_id"))
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("organizations as o", "o.id", "s.organization_id")
    .leftJoin("roles as r", "r.id", "a.role_id")
    .leftJoin("report_deliveries as d", (j) => j.onRef("d.subscription_id", "=", "s.id").on("d.day", "=", dueDay))
    .select([
      "s.id",
      "s.organization_id",
      "s.report",
      dueDay.as("day"),
      "u.email",
      "o.name as org_name",
      "o.time_zone",
      "o.utc_offset_ms",
      "a.is_owner",
      "a.role_id",
      "r.role_type",
    ])
    .where("o.utc_offset_ms", "=", offsetMs)
    .where("s.id", ">", afterId)
    .where("a.status", "=", "Accepted")
    .where(dueDay, ">=", sql.ref<string>("s.first_day"))
    .where((eb) =>
      eb.or([
        eb("d.id", "is", null),
        eb.and([eb("d.status", "=", "failed"), eb("d.next_attempt_at", "<=", now)]),
        eb.and([eb("d.status", "=", "sending"), eb("d.claimed_at", "<", now - CLAIM_LEASE_MS)]),
      ]),
    )
    .orderBy("s.id")
    .limit(BATCH)
    .execute();
  return rows;
}

export interface Claim {
  deliveryId: number;
  token: string;
  attempts: number;
}

/** Takes the (subscription, day) delivery for this instance, or null when another instance holds it. */
export async function claimDelivery(database: Kysely<DB>, item: Pick<Due, "id" | "day">, now: number): Promise<Claim | null> {
  const token = crypto.randomUUID();
  const inserted = await database
    .insertInto("report_deliveries")
    .values({
      subscription_id: item.id,
      day: item.day,
      status: "sending",
      attempts: 1,
      claim_token: token,
      claimed_at: now,
      next_attempt_at: null,
      last_error: null,
      sent_at: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(["subscription_id", "day"]).doNothing())
    .returning(["id", "attempts"])
    .executeTakeFirst();
  if (inserted) return { deliveryId: inserted.id, token, attempts: inserted.attempts };
  // A retry or a takeover: the WHERE is re-checked under the row lock, so one instance wins.
  const retaken = await database
    .updateTable("report_deliveries")
    .set((eb) => ({ status: "sending", attempts: eb("attempts", "+", 1), claim_token: token, claimed_at: now }))
    .where("subscription_id", "=", item.id)
    .where("day", "=", item.day)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "failed"), eb("next_attempt_at", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("claimed_at", "<", now - CLAIM_LEASE_MS)]),
      ]),
    )
    .returning(["id", "attempts"])
    .executeTakeFirst();
  return retaken ? { deliveryId: retaken.id, token, attempts: retaken.attempts } : null;
}

async function deliver(database: Kysely<DB>, item: Due, claim: Claim, now: number): Promise<boolean> {
  try {
    if (!isReportSlug(item.report)) throw new Error(`Unknown report "${item.report}".`);
    const email = await buildReportEmail({
      organizationId: item.organization_id,
      organizationName: item.org_name,
      report: item.report as ReportSlug,
      day: item.day,
      clock: { timeZone: item.time_zone, offsetMs: Number(item.utc_offset_ms) },
      // The subscriber's permissions on the day it is sent, not when they subscribed.
      personalData: (await permissionsOf(item)).has(PERSONAL_DATA_PERMISSION),
    });
    // Delivered here, not queued: this delivery row is the report's claim and retry record.
    await deliverEmail({ to: item.email, ...email });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const retryAt = now + retryDelayMs(claim.attempts);
    await database
      .updateTable("report_deliveries")
      .set({ status: "failed", claim_token: null, next_attempt_at: retryAt, last_error: message.slice(0, 500) })
      .where("id", "=", claim.deliveryId)
      .where("claim_token", "=", claim.token)
      .execute();
    console.error(
      JSON.stringify({
        at: new Date().toISOString(),
        event: "report_email_failed",
        subscription: item.id,
        org: item.organization_id,
        report: item.report,
        day: item.day,
        attempt: claim.attempts,
        retry_at: new Date(retryAt).toISOString(),
        error: message,
      }),
    );
    return false;
  }
  await database
    .updateTable("report_deliveries")
    .set({ status: "sent", sent_at: Date.now(), claim_token: null, last_error: null, next_attempt_at: null })
    .where("id", "=", claim.deliveryId)
    .where("claim_token", "=", claim.token)
    .execute();
  await database.updateTable("report_subscriptions").set({ last_sent_on: item.day }).where("id", "=", item.id).execute();
  return true;
}
