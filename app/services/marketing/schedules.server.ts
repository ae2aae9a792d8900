// Broadcast schedules (docs/guide/marketing.md#schedules,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql): when
// a broadcast goes out, by which channel, to which customer groups. Creating one writes the schedule
// and its groups, then queues its dispatch on the job queue (dispatch.server.ts), which decides who
// receives it at dispatch time.
//
// Statuses (the spec shows them as returned without naming them; these are ours):
//   Scheduled  waiting for its time; the only status that can be cancelled.
//   Sending    the dispatch has started: recipients are being chosen and messages sent.
//   Sent       every recipient's message was handed to the mail server or the SMS provider
//              (per-recipient outcomes are in broadcast_deliveries, shown in the Messages section).
//   Failed     the dispatch could not go on (no SMS settings, the broadcast deleted …); `error` says why.
//   Cancelled  cancelled before it started; nothing was sent.
// Scheduled → Sending → Sent | Failed is the dispatch's; Scheduled → Cancelled is cancelSchedule's,
// a conditional UPDATE, so a cancel and a starting dispatch (or two cancels) cannot both win.
import { db } from "~/db/db.server";
import type { BroadcastChannel, DeliveryChannel, ScheduleStatus } from "~/db/schema";
import { inIds } from "~/db/sql.server";
import type { ScheduleInput } from "~/lib/schemas/broadcasts";
import { formatInputTime } from "~/lib/time";
import { formatOffset } from "~/lib/time-zone";
import type { GroupFilters } from "~/lib/schemas/group-filters";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { getBroadcast, VIEW_BROADCASTS, type Broadcast } from "./broadcasts.server";
import { channelsOf, recipientCounts, scheduleDispatch } from "./dispatch.server";
import { parseStoredFilters } from "./group-filter.server";

export const SCHEDULE_PERMISSION = "create_groups" as const;

/** How far ahead a dispatch may be set. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3_600_000;

export const SCHEDULE_MESSAGES = {
  scheduledNow: "The broadcast is being sent now.",
  scheduled: (when: string, zone: string) => `The broadcast is scheduled for ${when} (${zone}).`,
  /** Not in the spec: who it reaches, counted as the schedule is made (the dispatch counts again). */
  reach: (members: number, byChannel: Partial<Record<DeliveryChannel, number>>) => {
    const parts = (["EMAIL", "SMS"] as const)
      .filter((c) => byChannel[c] !== undefined)
      .map((c) => `${byChannel[c]!.toLocaleString("en-US")} by ${c === "EMAIL" ? "e-mail" : "SMS"}`);
    const customers = `${members.toLocaleString("en-US")} customer${members === 1 ? "" : "s"}`;
    return `It reaches ${parts.join(" and ")} of the ${customers} in the chosen groups: those who agreed to marketing messages and have the address.`;
  },
  past: "That time has passed: choose a later time, or send it now.",
  tooFar: "Choose a time within a year from now.",
  noEmail: "Write the e-mail (its HTML or plain-text body) before sending this broadcast by e-mail.",
  noSms: "Write the SMS before sending this broadcast by SMS.",
  noContent: "Write the e-mail and the SMS before sending this broadcast by both.",
  groupNotFound: "Customer group not found.",
  notFound: "Schedule not found.",
  cancelled: "The schedule is cancelled: nothing will be sent.",
  notCancellable: (status: ScheduleStatus) =>
    status === "Cancelled"
      ? "This schedule is already cancelled."
      : `This schedule is ${status.toLowerCase()}: only a schedule that has not started can be cancelled.`,
} as const;

/** The organisation's customer groups for the schedule form (id and name, by name). */
export async function groupChoices(ctx: OrgContext): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .selectFrom("customer_groups")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/** What the broadcast lacks for the channel, in words; null when it can be sent that way. */
export function missingContent(broadcast: Pick<Broadcast, "email_html" | "email_text" | "sms">, channel: BroadcastChannel): string | null {
  const email = Boolean(broadcast.email_html || broadcast.email_text);
  const sms = Boolean(broadcast.sms);
  if (channel === "EMAIL") return email ? null : SCHEDULE_MESSAGES.noEmail;
  if (channel === "SMS") return sms ? null : SCHEDULE_MESSAGES.noSms;
  if (!email && !sms) return SCHEDULE_MESSAGES.noContent;
  return !email ? SCHEDULE_MESSAGES.noEmail : !sms ? SCHEDULE_MESSAGES.noSms : null;
}

export type ScheduleOutcome = { ok: true; id: number; message: string } | { ok: false; errors: Record<string, string[]> };

/**
 * scheduleBroadcast (create_groups). Refusals: a field's message for a time in the past or too far
 * ahead and for content missing for the channel; a group that is not the organisation's is a 404.
 * A time in the current minute counts as now (a date-time field has no seconds).
 */
export async function createSchedule(
  ctx: OrgContext,
  broadcastId: number | null,
  input: ScheduleInput,
  now = Date.now(),
): Promise<ScheduleOutcome> {
  requirePermission(ctx, SCHEDULE_PERMISSION);
  const broadcast = await getBroadcast(ctx, broadcastId);
  let dispatchAt = now;
  if (input.dispatchAt !== "now") {
    if (input.dispatchAt < now - (now % 60_000)) return { ok: false, errors: { dispatch_at: [SCHEDULE_MESSAGES.past] } };
    if (input.dispatchAt > now + MAX_SCHEDULE_AHEAD_MS) return { ok: false, errors: { dispatch_at: [SCHEDULE_MESSAGES.tooFar] } };
    dispatchAt = Math.max(input.dispatchAt, now);
  }
  const missing = missingContent(broadcast, input.channel);
  if (missing) return { ok: false, errors: { channel: [missing] } };
  const groups = await db
    .selectFrom("customer_groups")
    .select(["id", "name", "filters"])
    .where("organization_id", "=", ctx.org.id)
    .where(inIds("id", input.groups))
    .execute();
  if (groups.length !== input.groups.length) notFound(SCHEDULE_MESSAGES.groupNotFound);
  const id = await db.transaction().execute(async (trx) => {
    const schedule = await trx
      .insertInto("broadcast_schedules")
      .values({
        organization_id: ctx.org.id,
        broadcast_id: broadcast.id,
        channel: input.channel,
        dispatch_at: dispatchAt,
        status: "Scheduled",
        started_at: null,
        finished_at: null,
        error: null,
        created_by_user_id: ctx.user.id,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const scheduleId = Number(schedule.id);
    const byId = new Map(groups.map((g) => [Number(g.id), g.name]));
    await trx
      .insertInto("broadcast_schedule_groups")
      .values(input.groups.map((groupId) => ({ schedule_id: scheduleId, group_id: groupId, group_name: byId.get(groupId)! })))
      .execute();
    return scheduleId;
  });
  // After the commit: the job must find the schedule when it runs (at once, for "now").
  await scheduleDispatch(id, dispatchAt);
  const when =
    input.dispatchAt === "now"
      ? SCHEDULE_MESSAGES.scheduledNow
      : SCHEDULE_MESSAGES.scheduled(formatInputTime(dispatchAt, ctx.org.clock.offsetMs), formatOffset(ctx.org.clock.offsetMs));
  // A group whose filters cannot be read is the dispatch's to report (it fails the schedule, naming it).
  const readable = groups.map((g) => parseStoredFilters(g.filters)).filter((f): f is GroupFilters => f !== null);
  const { members, byChannel } = await recipientCounts(ctx.org.id, channelsOf(input.channel), readable);
  return { ok: true, id, message: `${when} ${SCHEDULE_MESSAGES.reach(members, byChannel)}` };
}

export interface ScheduleRow {
  id: number;
  channel: BroadcastChannel;
  groups: { id: number | null; name: string }[];
  createdBy: { id: number; first_name: string; last_name: string } | null;
  created_at: number;
  dispatch_at: number;
  status: ScheduleStatus;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
}

/** A broadcast's schedules, newest dispatch first, with their groups' names (read in one query for the page). */
export async function listSchedules(ctx: OrgContext, broadcastId: number | null, page: { offset: number; pageSize: number }) {
  requirePermission(ctx, ...VIEW_BROADCASTS);
  const broadcast = await getBroadcast(ctx, broadcastId);
  const schedules = db
    .selectFrom("broadcast_schedules")
    .where("broadcast_id", "=", broadcast.id)
    .where("broadcast_schedules.organization_id", "=", ctx.org.id);
  const [rows, total] = await Promise.all([
    schedules
      .leftJoin("users", "users.id", "broadcast_schedules.created_by_user_id")
      .select([
        "broadcast_schedules.id",
        "broadcast_schedules.channel",
        "broadcast_schedules.created_at",
        "broadcast_schedules.dispatch_at",
        "broadcast_schedules.status",
        "broadcast_schedules.started_at",
        "broadcast_schedules.finished_at",
        "broadcast_schedules.error",
        "broadcast_schedules.created_by_user_id",
        "users.first_name",
        "users.last_name",
      ])
      .orderBy("broadcast_schedules.dispatch_at", "desc")
      .orderBy("broadcast_schedules.id", "desc")
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    schedules.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => Number(r.id));
  const groupRows = ids.length
    ? await db
        .selectFrom("broadcast_schedule_groups")
        .select(["schedule_id", "group_id", "group_name"])
        .where(inIds("schedule_id", ids))
        .orderBy("group_name")
        .execute()
    : [];
  const groupsOf = new Map<number, { id: number | null; name: string }[]>();
  for (const g of groupRows) {
    const list = groupsOf.get(Number(g.schedule_id)) ?? [];
    list.push({ id: g.group_id === null ? null : Number(g.group_id), name: g.group_name });
    groupsOf.set(Number(g.schedule_id), list);
  }
  return {
    broadcast,
    total: Number(total.n),
    rows: rows.map((r): ScheduleRow => ({
      id: Number(r.id),
      channel: r.channel,
      groups: groupsOf.get(Number(r.id)) ?? [],
      createdBy:
        r.created_by_user_id === null
          ? null
          : { id: Number(r.created_by_user_id), first_name: r.first_name ?? "", last_name: r.last_name ?? "" },
      created_at: Number(r.created_at),
      dispatch_at: Number(r.dispatch_at),
      status: r.status,
      started_at: r.started_at === null ? null : Number(r.started_at),
      finished_at: r.finished_at === null ? null : Number(r.finished_at),
      error: r.error,
    })),
  };
}

export type CancelOutcome = { ok: true; message: string } | { ok: false; message: string };

/** The schedule of this broadcast in the organisation, or a 404. */
async function findSchedule(ctx: OrgContext, broadcastId: number, scheduleId: number | null) {
  if (scheduleId === null) notFound(SCHEDULE_MESSAGES.notFound);
  const row = await db
    .selectFrom("broadcast_schedules")
    .select(["id", "status", "dispatch_at"])
    .where("id", "=", scheduleId)
    .where("broadcast_id", "=", broadcastId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound(SCHEDULE_MESSAGES.notFound);
}

/** The schedule the cancel confirmation asks about (404 unless it is this broadcast's). */
export async function scheduleForCancel(ctx: OrgContext, broadcastId: number | null, scheduleId: number | null) {
  requirePermission(ctx, SCHEDULE_PERMISSION);
  const broadcast = await getBroadcast(ctx, broadcastId);
  const row = await findSchedule(ctx, broadcast.id, scheduleId);
  return { id: Number(row.id), status: row.status, dispatch_at: Number(row.dispatch_at) };
}

/**
 * Cancels a schedule that has not started (create_groups), one of this broadcast's; without
 * `broadcastId`, any of the organisation's (the data API names the schedule alone).
 */
export async function cancelSchedule(ctx: OrgContext, scheduleId: number | null, broadcastId?: number | null): Promise<CancelOutcome> {
  requirePermission(ctx, SCHEDULE_PERMISSION);
  const broadcast = broadcastId === undefined ? null : await getBroadcast(ctx, broadcastId);
  if (scheduleId === null) notFound(SCHEDULE_MESSAGES.notFound);
  const now = Date.now();
  const result = await db
    .updateTable("broadcast_schedules")
    .set({ status: "Cancelled", finished_at: now, updated_at: now })
    .where("id", "=", scheduleId)
    .where("organization_id", "=", ctx.org.id)
    .$if(broadcast !== null, (q) => q.where("broadcast_id", "=", broadcast!.id))
    .where("status", "=", "Scheduled")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return { ok: true, message: SCHEDULE_MESSAGES.cancelled };
  // Not cancelled: say why (it is not there, or it is past Scheduled).
  const row = await db
    .selectFrom("broadcast_schedules")
    .select("status")
    .where("id", "=", scheduleId)
    .where("organization_id", "=", ctx.org.id)
    .$if(broadcast !== null, (q) => q.where("broadcast_id", "=", broadcast!.id))
    .executeTakeFirst();
  if (!row) notFound(SCHEDULE_MESSAGES.notFound);
  return { ok: false, message: SCHEDULE_MESSAGES.notCancellable(row.status) };
}
