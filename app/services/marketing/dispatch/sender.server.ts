// The send jobs (decision 0018): `broadcast.send` works the queued delivery rows of one organisation
// and channel during one time slice, at the channel's pace, a batch at a time, then hands over to the
// next slice's job while rows are left. Each slice has one job (dedupe key), and a job sends only
// inside its slice, so an organisation's rate holds however many workers and instances there are.
import { db } from "~/db/db.server";
import type { DeliveryChannel } from "~/db/schema";
import { enqueue } from "../../jobs/queue.server";
import type { SmsProvider, SmsSendResult } from "../sms/provider.server";
import { smsSenderFor } from "../sms/settings.server";
import { withStopLine } from "~/lib/schemas/broadcasts";
import {
  claimDeliveries,
  finishSchedules,
  LeaseLost,
  markSent,
  nextDueAt,
  reachedLastSecond,
  recordOutcomes,
  sendingSchedules,
  withdrawnConsent,
  type ClaimedDelivery,
  type Outcome,
} from "./deliveries.server";
import { sendHeldMail } from "./held-smtp.server";
import { broadcastEmail, textFromHtml, type BroadcastContent } from "./email.server";
import { DISPATCH_TUNING } from "./tuning.server";

export const SEND_JOB = "broadcast.send";
export const NO_SMS_PROVIDER = "No SMS provider is set up for this organization.";

export interface SendPayload {
  organizationId: number;
  channel: DeliveryChannel;
  slice: number;
}

/** Where SMS go for an organisation. A seam: tests and the benchmark put a stand-in provider here. */
export const smsSenders = { lookup: smsSenderFor };

const sliceOf = (time: number) => Math.floor(time / DISPATCH_TUNING.sliceMs);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Makes sure a send job will work this organisation's channel from `slice` on: that slice's job, or,
 * when that one exists already (it may be finished), the next slice's, which cannot have run yet.
 */
export async function wakeSender(
  organizationId: number,
  channel: DeliveryChannel,
  slice = sliceOf(Date.now()),
  notBefore = 0,
): Promise<void> {
  for (const s of [slice, slice + 1]) {
    const runAt = Math.max(s * DISPATCH_TUNING.sliceMs, notBefore);
    const id = await enqueue(SEND_JOB, { organizationId, channel, slice: s } satisfies SendPayload, {
      runAt,
      dedupeKey: `${SEND_JOB}:${organizationId}:${channel}:${s}`,
      maxAttempts: 3,
    });
    if (id !== null) return;
  }
}

export async function runSendJob({ organizationId, channel, slice }: SendPayload): Promise<void> {
  const end = (slice + 1) * DISPATCH_TUNING.sliceMs;
  // A job taken back after its worker died may come after its slice: it only hands over.
  if (Date.now() < end) await sendUntil(organizationId, channel, end);
  await finishSchedules(organizationId);
  const due = await nextDueAt(organizationId, channel);
  if (due === null) return;
  const next = Math.max(slice + 1, sliceOf(Math.max(due, Date.now())));
  // Waiting out the slice here lets this worker take the next slice's job at once (no poll gap).
  if (next === slice + 1) await sleep(end - Date.now());
  await wakeSender(organizationId, channel, next, due);
}

interface Channel {
  perSecond: number;
  batch: number;
  /**
   * Sends the rows, each recorded as sent (markSent) before its provider can take it, and answers
   * what became of them; rows another sender took over meanwhile are left out. `released` is called
   * as each request's last byte goes: when the provider receives it.
   */
  send(content: Content, rows: ClaimedDelivery[], released: () => void): Promise<[ClaimedDelivery, Outcome][]>;
}

type Content = BroadcastContent & { sms: string | null };

/**
 * Claims and sends batches while the slice lasts. The pace is a sliding one-second log of when each
 * batch reached the provider (its last byte, after its commit): a batch is claimed only when the last
 * second's messages and it stay within the rate, so the provider never sees more than the rate
 * whatever the commits take. The slice's last second is left empty, so the next slice's job (which
 * knows nothing of this one's log) cannot add to a busy second.
 */
async function sendUntil(organizationId: number, channel: DeliveryChannel, end: number): Promise<void> {
  const sender = channel === "EMAIL" ? emailChannel() : await smsChannel(organizationId);
  if (!sender) return failQueuedSms(organizationId, NO_SMS_PROVIDER);
  const stopAt = end - 1_000;
  const contents = new Map<number, Content>();
  // Started from what reached the provider in the last second, so a new slice's job cannot crowd the last one's.
  const log = await reachedLastSecond(organizationId, channel);
  for (;;) {
    // The earliest moment a full batch fits in the rate.
    let at = Date.now();
    while (log.length && log[0]!.at <= at - 1_000) log.shift();
    let inSecond = log.reduce((n, e) => n + e.count, 0);
    for (const e of log) {
      if (inSecond + sender.batch <= sender.perSecond) break;
      inSecond -= e.count;
      at = e.at + 1_000;
    }
    if (at >= stopAt) return;
    await sleep(at - Date.now());
    let rows: ClaimedDelivery[] = [];
    for (const scheduleId of await sendingSchedules(organizationId)) {
      rows = await claimDeliveries(scheduleId, channel, sender.batch);
      if (rows.length) break;
    }
    if (rows.length === 0) return;
    let reachedAt = Date.now();
    const scheduleId = rows[0]!.scheduleId;
    if (!contents.has(scheduleId)) contents.set(scheduleId, await contentOf(scheduleId));
    const withdrawn = await withdrawnConsent(organizationId, rows);
    const outcomes: [ClaimedDelivery, Outcome][] = rows.filter((r) => withdrawn.has(r.customerId)).map((r) => [r, { status: "opted_out" }]);
    const toSend = rows.filter((r) => !withdrawn.has(r.customerId));
    outcomes.push(...(await sender.send(contents.get(scheduleId)!, toSend, () => (reachedAt = Math.max(reachedAt, Date.now())))));
    log.push({ at: reachedAt, count: rows.length });
    await recordOutcomes(outcomes);
  }
}

async function contentOf(scheduleId: number): Promise<Content> {
  const row = await db
    .selectFrom("broadcast_schedules")
    .innerJoin("broadcasts", "broadcasts.id", "broadcast_schedules.broadcast_id")
    .innerJoin("organizations", "organizations.id", "broadcast_schedules.organization_id")
    .select([
      "organizations.id as organizationId",
      "organizations.name as organizationName",
      "broadcasts.title",
      "broadcasts.email_html",
      "broadcasts.email_text",
      "broadcasts.sms",
    ])
    .where("broadcast_schedules.id", "=", scheduleId)
    .executeTakeFirstOrThrow();
  // The text part read off the HTML once per schedule, not once per mail.
  const emailText = row.email_text?.trim() || textFromHtml(row.email_html ?? "");
  return {
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    title: row.title,
    emailHtml: row.email_html,
    emailText,
    sms: row.sms,
  };
}

/** SMTP answers 5xx for good (no such mailbox); anything else (4xx, a dropped connection) may pass later. */
function emailFailure(error: unknown): Outcome {
  const code = (error as { responseCode?: number }).responseCode;
  const message = error instanceof Error ? error.message : String(error);
  return { status: "failed", error: message, retryable: !(typeof code === "number" && code >= 500 && code < 600) };
}

/** Each mail on a connection of its own, recorded as sent before the mail server takes it (held-smtp.server.ts). */
function emailChannel(): Channel {
  return {
    perSecond: DISPATCH_TUNING.emailPerSecond,
    batch: Math.min(DISPATCH_TUNING.emailBatch, DISPATCH_TUNING.emailPerSecond),
    send: async (content, rows, released) => {
      const outcomes = await Promise.all(
        rows.map(async (row): Promise<[ClaimedDelivery, Outcome] | null> => {
          const mail = broadcastEmail(content, { id: row.id, customerId: row.customerId, address: row.address });
          const messageId = mail.headers!["Message-ID"]!;
          try {
            const held = await sendHeldMail(mail, () => markSent([row], messageId).then(released));
            if (held.sent) return [row, { status: "sent", providerMessageId: messageId, cost: null }];
            // A refusal at the end is the server's word (5xx for good, 4xx later). An answer lost after
            // the end is ambiguous: the mail may have gone, so it is not sent again.
            if (held.committed && typeof held.error.responseCode !== "number")
              return [
                row,
                { status: "failed", error: `${held.error.message} (the mail may have been delivered; not sent again)`, retryable: false },
              ];
            return [row, emailFailure(held.error)];
          } catch (error) {
            if (error instanceof LeaseLost) return null;
            throw error;
          }
        }),
      );
      return outcomes.filter((o) => o !== null);
    },
  };
}

async function smsChannel(organizationId: number): Promise<Channel | null> {
  const sms = await smsSenders.lookup(organizationId);
  if (!sms) return null;
  return {
    perSecond: Math.max(1, sms.messagesPerSecond),
    // At most one second's worth per request, so no second sees more than the rate.
    batch: Math.max(1, Math.min(DISPATCH_TUNING.smsBatch, sms.messagesPerSecond)),
    // Every broadcast SMS ends with the stop line, which the inbound callback honours.
    send: (content, rows, released) => sendSms(sms.provider, { text: withStopLine(content.sms ?? ""), from: sms.from }, rows, released),
  };
}

/**
 * One request for the batch's numbers (Africa's Talking takes one text for many); each row gets its
 * number's answer. The rows are recorded as sent before the request's last byte goes (SmsProvider).
 */
async function sendSms(
  provider: SmsProvider,
  message: { text: string; from: string | null },
  rows: ClaimedDelivery[],
  released: () => void,
): Promise<[ClaimedDelivery, Outcome][]> {
  if (rows.length === 0) return [];
  let committed = false;
  let results: Map<string, SmsSendResult>;
  try {
    const answers = await provider.send(
      { to: [...new Set(rows.map((r) => r.address))], text: message.text, from: message.from },
      async () => {
        await markSent(rows);
        committed = true;
        released();
      },
    );
    results = new Map(answers.map((a) => [a.to, a]));
  } catch (error) {
    if (error instanceof LeaseLost) return [];
    // The provider's own refusal (429, 5xx, refused credentials) keeps its meaning. No answer is
    // ambiguous once the whole request went (a timeout, a connection lost after the last byte): the
    // provider may have sent, so never again.
    const { retryable, kind } = error as { retryable?: boolean; kind?: string };
    const ambiguous = kind === "timeout" || (committed && kind === "unreachable");
    const outcome: Outcome = {
      status: "failed",
      error: error instanceof Error ? error.message : String(error),
      retryable: retryable !== false && !ambiguous,
    };
    return rows.map((row) => [row, outcome]);
  }
  return rows.map((row) => {
    const answer = results.get(row.address);
    if (!answer) return [row, { status: "failed", error: "The SMS provider gave no answer for this number.", retryable: false }];
    if (answer.status === "sent") return [row, { status: "sent", providerMessageId: answer.messageId, cost: answer.cost }];
    return [row, { status: "failed", error: answer.error ?? "The SMS provider refused this number.", retryable: answer.retryable }];
  });
}

/** SMS settings removed while a broadcast was being sent: its queued SMS fail, visibly. */
async function failQueuedSms(organizationId: number, error: string): Promise<void> {
  const now = Date.now();
  await db
    .updateTable("broadcast_deliveries")
    .set({ status: "failed", error, next_attempt_at: null, updated_at: now })
    .where("organization_id", "=", organizationId)
    .where("channel", "=", "SMS")
    .where("status", "=", "queued")
    .where("schedule_id", "in", (eb) =>
      eb.selectFrom("broadcast_schedules").select("id").where("organization_id", "=", organizationId).where("status", "=", "Sending"),
    )
    .execute();
}
