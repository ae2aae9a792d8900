// Sending a broadcast schedule (decision 0018) on the job queue:
//   broadcast.dispatch {scheduleId}   at dispatch_at: Scheduled → Sending, checks what the channels
//                                     need, makes the delivery rows (who receives, once each), wakes
//                                     the senders
//   broadcast.send {org, channel, slice}   sends the rows (dispatch/sender.server.ts), closes the
//                                     schedule (Sent or Failed) when none is left
// Both are idempotent: a job run again after a crash makes no second row and sends no sent row again.
import { sql } from "kysely";
import { db } from "~/db/db.server";
import type { BroadcastChannel, DeliveryChannel } from "~/db/schema";
import type { GroupFilters } from "~/lib/schemas/group-filters";
import { enqueue } from "../jobs/queue.server";
import { finishSchedules } from "./dispatch/deliveries.server";
import { NO_SMS_PROVIDER, smsSenders, wakeSender } from "./dispatch/sender.server";
import { groupMemberIds, parseStoredFilters } from "./group-filter.server";

export const DISPATCH_JOB = "broadcast.dispatch";

export const DISPATCH_MESSAGES = {
  noSmsProvider: NO_SMS_PROVIDER,
  noSms: "This broadcast has no SMS message.",
  noEmail: "This broadcast has no e-mail message.",
  badGroup: (name: string) => `The filters of the group "${name}" cannot be read; open the group and save its filters again.`,
};

/** A schedule moved later leaves its old job behind: that job finds dispatch_at ahead and does nothing (slack for clocks). */
const CLOCK_SLACK_MS = 60_000;

/** Queues the dispatch of a schedule for its time (once per schedule and time, whoever asks again). */
export async function scheduleDispatch(scheduleId: number, dispatchAt: number): Promise<void> {
  await enqueue(DISPATCH_JOB, { scheduleId }, { runAt: dispatchAt, dedupeKey: `${DISPATCH_JOB}:${scheduleId}:${dispatchAt}` });
}

export const channelsOf = (channel: BroadcastChannel): DeliveryChannel[] => (channel === "BOTH" ? ["EMAIL", "SMS"] : [channel]);

export async function runDispatchJob({ scheduleId }: { scheduleId: number }, now = Date.now()): Promise<void> {
  const schedule = await db
    .selectFrom("broadcast_schedules")
    .innerJoin("broadcasts", "broadcasts.id", "broadcast_schedules.broadcast_id")
    .select([
      "broadcast_schedules.organization_id",
      "broadcast_schedules.channel",
      "broadcast_schedules.status",
      "broadcast_schedules.dispatch_at",
      "broadcasts.sms",
      "broadcasts.email_html",
      "broadcasts.email_text",
    ])
    .where("broadcast_schedules.id", "=", scheduleId)
    .executeTakeFirst();
  // Deleted, cancelled, finished, or moved later (its own job will come).
  if (!schedule || Number(schedule.dispatch_at) > now + CLOCK_SLACK_MS) return;
  if (schedule.status === "Scheduled") {
    // The same statement a cancellation races with: one of them wins.
    const started = await db
      .updateTable("broadcast_schedules")
      .set({ status: "Sending", started_at: now, updated_at: now })
      .where("id", "=", scheduleId)
      .where("status", "=", "Scheduled")
      .executeTakeFirst();
    if (Number(started.numUpdatedRows) === 0) return;
  } else if (schedule.status !== "Sending") {
    return;
  }
  const organizationId = schedule.organization_id;
  const channels = channelsOf(schedule.channel);
  const groups = await scheduleGroups(scheduleId, organizationId);
  const problem =
    groups.find((g) => g.filters === null)?.problem ??
    (channels.includes("EMAIL") && !schedule.email_html?.trim() && !schedule.email_text?.trim() ? DISPATCH_MESSAGES.noEmail : null) ??
    (channels.includes("SMS") ? await smsProblem(organizationId, schedule.sms) : null);
  if (problem) return failSchedule(scheduleId, problem, now);
  const filters = groups.map((g) => g.filters!);
  for (const channel of channels) await materialise(scheduleId, organizationId, channel, filters, now);
  await finishSchedules(organizationId, now);
  for (const channel of channels) await wakeSender(organizationId, channel);
}

/** The schedule's groups that still exist (a deleted group is skipped), with their filters read. */
async function scheduleGroups(scheduleId: number, organizationId: number): Promise<{ filters: GroupFilters | null; problem: string }[]> {
  const rows = await db
    .selectFrom("broadcast_schedule_groups")
    .innerJoin("customer_groups", "customer_groups.id", "broadcast_schedule_groups.group_id")
    .select(["customer_groups.name", "customer_groups.filters"])
    .where("broadcast_schedule_groups.schedule_id", "=", scheduleId)
    .where("customer_groups.organization_id", "=", organizationId)
    .execute();
  return rows.map((row) => ({ filters: parseStoredFilters(row.filters), problem: DISPATCH_MESSAGES.badGroup(row.name) }));
}

async function smsProblem(organizationId: number, text: string | null): Promise<string | null> {
  if (!text?.trim()) return DISPATCH_MESSAGES.noSms;
  try {
    return (await smsSenders.lookup(organizationId)) ? null : DISPATCH_MESSAGES.noSmsProvider;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function failSchedule(scheduleId: number, error: string, now: number): Promise<void> {
  await db
    .updateTable("broadcast_schedules")
    .set({ status: "Failed", error, finished_at: now, updated_at: now })
    .where("id", "=", scheduleId)
    .where("status", "=", "Sending")
    .execute();
}

/**
 * The recipients as delivery rows, in one statement: the organisation's customers in any of the
 * groups, with marketing consent and the channel's address. The unique (schedule, customer, channel)
 * index makes each customer one row however many groups hold them, and makes a second run (another
 * worker, or this job again after a crash) add nothing.
 */
async function materialise(
  scheduleId: number,
  organizationId: number,
  channel: DeliveryChannel,
  groups: GroupFilters[],
  now: number,
): Promise<void> {
  if (groups.length === 0) return;
  const address = addressColumn(channel);
  const recipients = recipientsOf(organizationId, channel, groups).select([
    sql<number>`cast(${organizationId} as integer)`.as("organization_id"),
    sql<number>`cast(${scheduleId} as integer)`.as("schedule_id"),
    "customers.id as customer_id",
    sql<DeliveryChannel>`cast(${channel} as text)`.as("channel"),
    sql<string>`${sql.ref(address)}`.as("address"),
    sql<"queued">`cast(${"queued"} as text)`.as("status"),
    sql<number>`cast(${now} as bigint)`.as("created_at"),
    sql<number>`cast(${now} as bigint)`.as("updated_at"),
  ]);
  await db
    .insertInto("broadcast_deliveries")
    .columns(["organization_id", "schedule_id", "customer_id", "channel", "address", "status", "created_at", "updated_at"])
    .expression(recipients)
    .onConflict((oc) => oc.columns(["schedule_id", "customer_id", "channel"]).doNothing())
    .execute();
}

const addressColumn = (channel: DeliveryChannel) => (channel === "EMAIL" ? "customers.email_address" : "customers.phone_number");

/** Who a dispatch sends to: the customers in any of the groups, with marketing consent and the channel's address. */
function recipientsOf(organizationId: number, channel: DeliveryChannel, groups: GroupFilters[]) {
  const address = addressColumn(channel);
  return inAnyGroup(organizationId, groups)
    .where("customers.marketing_opt_in_at", "is not", null)
    .where(address, "is not", null)
    .where(address, "<>", "");
}

function inAnyGroup(organizationId: number, groups: GroupFilters[]) {
  return db
    .selectFrom("customers")
    .where("customers.organization_id", "=", organizationId)
    .where((eb) => eb.or(groups.map((filters) => eb("customers.id", "in", groupMemberIds(db, organizationId, filters)))));
}

/**
 * How many a dispatch made now would reach, per channel, and how many customers the groups hold:
 * what the Schedule form answers ("4 of the 17 customers…"). The dispatch reads the groups again
 * when it runs, so this is a forecast.
 */
export async function recipientCounts(
  organizationId: number,
  channels: readonly DeliveryChannel[],
  groups: GroupFilters[],
): Promise<{ members: number; byChannel: Partial<Record<DeliveryChannel, number>> }> {
  if (groups.length === 0) return { members: 0, byChannel: {} };
  const count = async (query: ReturnType<typeof inAnyGroup>) =>
    Number((await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const members = await count(inAnyGroup(organizationId, groups));
  const byChannel: Partial<Record<DeliveryChannel, number>> = {};
  for (const channel of channels) byChannel[channel] = await count(recipientsOf(organizationId, channel, groups));
  return { members, byChannel };
}
