// Broadcast schedules (docs/guide/marketing.md#schedules,
// docs/guide/access-control.md#what-each-permission-shows) through the page's loader and action and
// the service, on SQLite and PostgreSQL: the form's rules (channel, groups, now or later, content
// for the channel), one dispatch job per schedule at its time, the list, cancelling only what has
// not started (also when two cancels race), permissions and other organisations' ids.
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { ScheduleStatus } from "~/db/schema";
import { refusalMessage, type Permission } from "~/lib/permissions";
import { BROADCAST_MESSAGES, cancelQuestion, parseDispatchAt, SCHEDULE_MAX_GROUPS } from "~/lib/schemas/broadcasts";
import { formatUtcDateTime } from "~/lib/time";
import * as schedulesPage from "~/routes/$orgId+/_marketing+/broadcast+/$id.schedules";
import { DISPATCH_JOB } from "~/services/marketing/dispatch.server";
import { cancelSchedule, createSchedule, SCHEDULE_MESSAGES } from "~/services/marketing/schedules.server";
import { buildCustomer } from "~/tools/factories.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { contextOf, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
const MINUTE = 60_000;

async function world(name = "Mlango Cafe") {
  const owner = await makeUser();
  const { org } = await makeOrg(`${name} ${Math.random()}`, owner);
  return { orgId: org.id, owner };
}

async function broadcast(
  orgId: number,
  content: { sms?: string | null; email_html?: string | null; email_text?: string | null } = { sms: "Karibu", email_html: "<p>Karibu</p>" },
) {
  const now = Date.now();
  const row = await db
    .insertInto("broadcasts")
    .values({
      organization_id: orgId,
      title: "Weekend offer",
      description: null,
      sms: null,
      email_html: null,
      email_text: null,
      email_design: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
      ...content,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function group(orgId: number, name: string) {
  const now = Date.now();
  const row = await db
    .insertInto("customer_groups")
    .values({ organization_id: orgId, name, description: null, filters: "{}", created_by_user_id: null, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function post(userId: number, orgId: number, id: number | string, form: Record<string, string | string[]>) {
  const request = makeRequest(`/${orgId}/broadcast/${id}/schedules`, { form, cookie: await sessionCookie(userId) });
  return run(() => schedulesPage.action({ request, params: { orgId: String(orgId), id: String(id) }, context: {} }));
}

async function page(userId: number, orgId: number, id: number | string, query = "") {
  const request = makeRequest(`/${orgId}/broadcast/${id}/schedules${query}`, { cookie: await sessionCookie(userId) });
  return run(() => schedulesPage.loader({ request, params: { orgId: String(orgId), id: String(id) }, context: {} }));
}

const schedulesOf = (broadcastId: number) =>
  db.selectFrom("broadcast_schedules").selectAll().where("broadcast_id", "=", broadcastId).orderBy("id").execute();
const jobs = () =>
  db.selectFrom("jobs").select(["type", "payload", "run_at", "dedupe_key"]).where("type", "=", DISPATCH_JOB).orderBy("id").execute();

/** A date-time field's value (UTC, minutes) `ms` from now. */
const fieldTime = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString().slice(0, 16);

describe("scheduling a broadcast", () => {
  it("schedules it now for BOTH by default and queues exactly one dispatch job for its time", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const regulars = await group(orgId, "Regulars");
    // Six customers in the group (its filters are empty): four agreed to marketing, of whom three
    // have an e-mail address and all a phone number; another organisation's customer does not count.
    const consent = { marketing_opt_in_at: Date.now() - MINUTE };
    for (const fields of [
      { ...consent, email_address: "a@example.com" },
      { ...consent, email_address: "b@example.com" },
      { ...consent, email_address: "c@example.com" },
      consent,
      { email_address: "d@example.com" },
      {},
    ])
      await db.insertInto("customers").values(buildCustomer(orgId, fields)).execute();
    const other = await world("Other Cafe");
    await db
      .insertInto("customers")
      .values(buildCustomer(other.orgId, { ...consent, email_address: "e@example.com" }))
      .execute();
    const before = Date.now();
    const res = await post(owner.id, orgId, id, { intent: "schedule", groups: String(regulars) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/broadcast/${id}/schedules`);
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      message: `${SCHEDULE_MESSAGES.scheduledNow} ${SCHEDULE_MESSAGES.reach(6, { EMAIL: 3, SMS: 4 })}`,
    });
    expect(SCHEDULE_MESSAGES.reach(6, { EMAIL: 3, SMS: 4 })).toBe(
      "It reaches 3 by e-mail and 4 by SMS of the 6 customers in the chosen groups: those who agreed to marketing messages and have the address.",
    );
    const [schedule] = await schedulesOf(id);
    expect(schedule).toMatchObject({
      organization_id: orgId,
      channel: "BOTH",
      status: "Scheduled",
      created_by_user_id: owner.id,
      started_at: null,
      error: null,
    });
    expect(Number(schedule.dispatch_at)).toBeGreaterThanOrEqual(before);
    expect(Number(schedule.dispatch_at)).toBeLessThanOrEqual(Date.now());
    expect(await db.selectFrom("broadcast_schedule_groups").selectAll().where("schedule_id", "=", schedule.id).execute()).toEqual([
      { schedule_id: schedule.id, group_id: regulars, group_name: "Regulars" },
    ]);
    const queued = await jobs();
    expect(queued).toHaveLength(1);
    expect(JSON.parse(queued[0].payload)).toEqual({ scheduleId: schedule.id });
    expect(Number(queued[0].run_at)).toBe(Number(schedule.dispatch_at));
  });

  it("schedules it later for several groups (each once) on one channel, its job due at that time", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId, { sms: "Karibu" });
    const a = await group(orgId, "Regulars");
    const b = await group(orgId, "Students");
    const at = fieldTime(2 * 24 * 60 * MINUTE);
    const res = await post(owner.id, orgId, id, {
      intent: "schedule",
      channel: "SMS",
      groups: [String(b), String(a), String(a)],
      dispatch: "later",
      dispatch_at: at,
    });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toMatchObject({
      message: `${SCHEDULE_MESSAGES.scheduled(at.replace("T", " "), "UTC")} ${SCHEDULE_MESSAGES.reach(0, { SMS: 0 })}`,
    });
    const [schedule] = await schedulesOf(id);
    expect(schedule).toMatchObject({ channel: "SMS", status: "Scheduled" });
    expect(Number(schedule.dispatch_at)).toBe(Date.parse(`${at}:00Z`));
    const names = await db
      .selectFrom("broadcast_schedule_groups")
      .select("group_name")
      .where("schedule_id", "=", schedule.id)
      .orderBy("group_name")
      .execute();
    expect(names.map((n) => n.group_name)).toEqual(["Regulars", "Students"]);
    const queued = await jobs();
    expect(queued).toHaveLength(1);
    expect(Number(queued[0].run_at)).toBe(Date.parse(`${at}:00Z`));
    // A second schedule is a second job.
    expect((await post(owner.id, orgId, id, { intent: "schedule", channel: "SMS", groups: String(a) })).status).toBe(302);
    expect(await jobs()).toHaveLength(2);
  });

  it("refuses a time in the past, a malformed or impossible time, none, and one more than a year ahead", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const g = String(await group(orgId, "Regulars"));
    const cases: [string | undefined, string][] = [
      [fieldTime(-5 * MINUTE), SCHEDULE_MESSAGES.past],
      ["2020-01-01T10:00", SCHEDULE_MESSAGES.past],
      [undefined, BROADCAST_MESSAGES.dispatchAtRequired],
      ["tomorrow", BROADCAST_MESSAGES.dispatchAtInvalid],
      ["2027-02-30T10:00", BROADCAST_MESSAGES.dispatchAtInvalid],
      ["2027-01-01T25:00", BROADCAST_MESSAGES.dispatchAtInvalid],
      ["99999-01-01T10:00", BROADCAST_MESSAGES.dispatchAtInvalid],
      ["9".repeat(500), BROADCAST_MESSAGES.dispatchAtInvalid],
      [fieldTime(400 * 24 * 60 * MINUTE), SCHEDULE_MESSAGES.tooFar],
    ];
    for (const [at, message] of cases) {
      const form: Record<string, string> = { intent: "schedule", groups: g, dispatch: "later" };
      if (at !== undefined) form.dispatch_at = at;
      const res = await post(owner.id, orgId, id, form);
      expect(res.status, String(at)).toBe(400);
      expect(((await res.json()) as Json).error.dispatch_at, String(at)).toEqual([message]);
    }
    expect(await schedulesOf(id)).toEqual([]);
    expect(await jobs()).toEqual([]);
  });

  it("takes a time in the current minute as now", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const ctx = await contextOf(owner.id, orgId);
    const now = Date.now();
    const minute = now - (now % MINUTE);
    const outcome = await createSchedule(ctx, id, { channel: "BOTH", groups: [await group(orgId, "Regulars")], dispatchAt: minute }, now);
    expect(outcome.ok).toBe(true);
    expect(Number((await schedulesOf(id))[0].dispatch_at)).toBe(now);
    const late = await createSchedule(ctx, id, { channel: "BOTH", groups: [await group(orgId, "Late")], dispatchAt: minute - 1 }, now);
    expect(late).toEqual({ ok: false, errors: { dispatch_at: [SCHEDULE_MESSAGES.past] } });
  });

  it("refuses a channel the broadcast has no content for, with a clear message", async () => {
    const { orgId, owner } = await world();
    const g = String(await group(orgId, "Regulars"));
    const cases: [Parameters<typeof broadcast>[1], string, string | null][] = [
      [{}, "BOTH", SCHEDULE_MESSAGES.noContent],
      [{ sms: "Karibu" }, "BOTH", SCHEDULE_MESSAGES.noEmail],
      [{ email_text: "Karibu" }, "BOTH", SCHEDULE_MESSAGES.noSms],
      [{ sms: "Karibu" }, "EMAIL", SCHEDULE_MESSAGES.noEmail],
      [{ email_html: "<p>Karibu</p>" }, "SMS", SCHEDULE_MESSAGES.noSms],
      [{ email_text: "Karibu" }, "EMAIL", null],
      [{ email_html: "<p>Karibu</p>" }, "EMAIL", null],
      [{ sms: "Karibu" }, "SMS", null],
    ];
    for (const [content, channel, message] of cases) {
      const id = await broadcast(orgId, content);
      const res = await post(owner.id, orgId, id, { intent: "schedule", channel, groups: g });
      if (message === null) {
        expect(res.status).toBe(302);
      } else {
        expect(res.status).toBe(400);
        expect(((await res.json()) as Json).error.channel).toEqual([message]);
      }
    }
  });

  it("checks the form: groups required, channel one of three, no more than the group limit", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const g = String(await group(orgId, "Regulars"));
    const noGroups = await post(owner.id, orgId, id, { intent: "schedule" });
    expect(noGroups.status).toBe(400);
    expect(((await noGroups.json()) as Json).error.groups).toEqual([BROADCAST_MESSAGES.groupsRequired]);
    const badChannel = await post(owner.id, orgId, id, { intent: "schedule", channel: "FAX", groups: g });
    expect(((await badChannel.json()) as Json).error.channel).toEqual([BROADCAST_MESSAGES.channel]);
    const many = await post(owner.id, orgId, id, {
      intent: "schedule",
      groups: Array.from({ length: SCHEDULE_MAX_GROUPS + 1 }, (_, i) => String(i + 1)),
    });
    expect(((await many.json()) as Json).error.groups).toEqual([BROADCAST_MESSAGES.tooManyGroups(SCHEDULE_MAX_GROUPS)]);
    const unknownIntent = await post(owner.id, orgId, id, { intent: "send", groups: g });
    expect(unknownIntent.status).toBe(400);
    expect(await schedulesOf(id)).toEqual([]);
  });

  it("refuses another organisation's group, and another organisation's broadcast, as not found", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const mine = String(await group(orgId, "Regulars"));
    const other = await world("Other");
    const theirGroup = String(await group(other.orgId, "Their regulars"));
    const theirBroadcast = await broadcast(other.orgId);
    const foreignGroup = await post(owner.id, orgId, id, { intent: "schedule", groups: [mine, theirGroup] });
    expect(foreignGroup.status).toBe(404);
    expect(await foreignGroup.json()).toEqual({ message: SCHEDULE_MESSAGES.groupNotFound });
    expect((await post(owner.id, orgId, id, { intent: "schedule", groups: "2147483647" })).status).toBe(404);
    expect((await post(owner.id, orgId, theirBroadcast, { intent: "schedule", groups: mine })).status).toBe(404);
    expect((await post(owner.id, orgId, "abc", { intent: "schedule", groups: mine })).status).toBe(404);
    expect((await page(owner.id, orgId, theirBroadcast)).status).toBe(404);
    expect(await schedulesOf(id)).toEqual([]);
    expect(await schedulesOf(theirBroadcast)).toEqual([]);
    expect(await jobs()).toEqual([]);
  });

  it("needs create_groups to schedule or cancel (create_broadcasts is not enough)", async () => {
    const { orgId } = await world();
    const id = await broadcast(orgId);
    const g = String(await group(orgId, "Regulars"));
    const writer = (await makeMember(orgId, "custom", ["view_broadcasts", "create_broadcasts"] as Permission[])).user.id;
    const refused = await post(writer, orgId, id, { intent: "schedule", groups: g });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: refusalMessage("create_groups") });
    const view: Json = await (await page(writer, orgId, id)).json();
    expect(view).toMatchObject({ canSchedule: false, groups: [] });
    const scheduler = (await makeMember(orgId, "custom", ["create_groups"] as Permission[])).user.id;
    const allowed: Json = await (await page(scheduler, orgId, id)).json();
    expect(allowed).toMatchObject({ canSchedule: true, groups: [{ id: Number(g), name: "Regulars" }] });
    expect((await post(scheduler, orgId, id, { intent: "schedule", groups: g })).status).toBe(302);
    const [schedule] = await schedulesOf(id);
    const cancel = await post(writer, orgId, id, { intent: "cancel", schedule_id: String(schedule.id), confirmed: "yes" });
    expect(cancel.status).toBe(403);
    expect((await schedulesOf(id))[0].status).toBe("Scheduled");
  });
});

describe("the schedules list", () => {
  it("lists channel, groups, created by, created at, dispatch at and status, newest dispatch first, paged", async () => {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    const a = await group(orgId, "Regulars");
    const b = await group(orgId, "Students");
    const later = fieldTime(3 * 24 * 60 * MINUTE);
    await post(owner.id, orgId, id, { intent: "schedule", groups: [String(a), String(b)], channel: "EMAIL" });
    await post(owner.id, orgId, id, { intent: "schedule", groups: String(b), channel: "SMS", dispatch: "later", dispatch_at: later });
    // The group's name stays on the schedule after the group is deleted.
    await db.deleteFrom("customer_groups").where("id", "=", a).execute();
    const other = await world("Other");
    await broadcast(other.orgId);
    const data: Json = await (await page(owner.id, orgId, id)).json();
    expect(data.total).toBe(2);
    expect(data.schedules.map((s: Json) => [s.channel, s.groups, s.status])).toEqual([
      ["SMS", "Students", "Scheduled"],
      ["E-mail", "Regulars, Students", "Scheduled"],
    ]);
    expect(data.schedules[0]).toMatchObject({
      created_by: `${owner.first_name} ${owner.last_name}`,
      dispatch_at: formatUtcDateTime(Date.parse(`${later}:00Z`)),
      error: null,
    });
    expect(data.groups).toEqual([{ id: b, name: "Students" }]);
    const paged: Json = await (await page(owner.id, orgId, id, "?per_page=5&page=2")).json();
    expect(paged.schedules).toEqual([]);
  });
});

describe("cancelling a schedule", () => {
  async function scheduled() {
    const { orgId, owner } = await world();
    const id = await broadcast(orgId);
    await post(owner.id, orgId, id, {
      intent: "schedule",
      groups: String(await group(orgId, "Regulars")),
      dispatch: "later",
      dispatch_at: fieldTime(60 * MINUTE),
    });
    const [schedule] = await schedulesOf(id);
    return { orgId, owner, id, scheduleId: Number(schedule.id), dispatchAt: Number(schedule.dispatch_at) };
  }

  it("asks first, then cancels a Scheduled schedule", async () => {
    const { orgId, owner, id, scheduleId, dispatchAt } = await scheduled();
    const ask = await post(owner.id, orgId, id, { intent: "cancel", schedule_id: String(scheduleId) });
    expect(await ask.json()).toEqual({
      confirm: {
        message: cancelQuestion(formatUtcDateTime(dispatchAt), "UTC"),
        intent: "cancel",
        fields: { schedule_id: String(scheduleId) },
      },
    });
    expect((await schedulesOf(id))[0].status).toBe("Scheduled");
    const res = await post(owner.id, orgId, id, { intent: "cancel", schedule_id: String(scheduleId), confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toMatchObject({ type: "info", message: SCHEDULE_MESSAGES.cancelled });
    const [row] = await schedulesOf(id);
    expect(row.status).toBe("Cancelled");
    expect(row.finished_at).not.toBeNull();
    const again = await post(owner.id, orgId, id, { intent: "cancel", schedule_id: String(scheduleId), confirmed: "yes" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: SCHEDULE_MESSAGES.notCancellable("Cancelled") });
  });

  it.each(["Sending", "Sent", "Failed"] as ScheduleStatus[])("refuses to cancel a schedule that is %s", async (status) => {
    const { orgId, owner, id, scheduleId } = await scheduled();
    await db.updateTable("broadcast_schedules").set({ status }).where("id", "=", scheduleId).execute();
    const res = await post(owner.id, orgId, id, { intent: "cancel", schedule_id: String(scheduleId), confirmed: "yes" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: SCHEDULE_MESSAGES.notCancellable(status) });
    expect((await schedulesOf(id))[0].status).toBe(status);
  });

  it("lets exactly one of two racing cancels win", async () => {
    const { orgId, owner, id, scheduleId } = await scheduled();
    const ctx = await contextOf(owner.id, orgId);
    const outcomes = await Promise.all([cancelSchedule(ctx, scheduleId, id), cancelSchedule(ctx, scheduleId, id)]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toEqual({ ok: false, message: SCHEDULE_MESSAGES.notCancellable("Cancelled") });
    expect((await schedulesOf(id))[0].status).toBe("Cancelled");
  });

  it("answers 404 for another broadcast's or organisation's schedule and for malformed ids", async () => {
    const { orgId, owner, id, scheduleId } = await scheduled();
    const sibling = await broadcast(orgId);
    const other = await scheduled();
    for (const [broadcastId, raw] of [
      [sibling, String(scheduleId)],
      [id, String(other.scheduleId)],
      [id, "abc"],
      [id, "99999999999"],
      [id, ""],
    ] as const) {
      const res = await post(owner.id, orgId, broadcastId, { intent: "cancel", schedule_id: raw, confirmed: "yes" });
      expect(res.status).toBe(404);
    }
    expect(
      (await post(owner.id, orgId, other.id, { intent: "cancel", schedule_id: String(other.scheduleId), confirmed: "yes" })).status,
    ).toBe(404);
    expect((await schedulesOf(id))[0].status).toBe("Scheduled");
    expect((await schedulesOf(other.id))[0].status).toBe("Scheduled");
  });
});

describe("parseDispatchAt", () => {
  it("reads a date-time field as UTC and ISO times with their zone; refuses impossible times", () => {
    expect(parseDispatchAt("2026-12-31T09:30")).toBe(Date.UTC(2026, 11, 31, 9, 30));
    expect(parseDispatchAt("2026-12-31 09:30:15")).toBe(Date.UTC(2026, 11, 31, 9, 30, 15));
    expect(parseDispatchAt("2026-12-31T09:30:00Z")).toBe(Date.UTC(2026, 11, 31, 9, 30));
    expect(parseDispatchAt("2026-12-31T12:30:00+03:00")).toBe(Date.UTC(2026, 11, 31, 9, 30));
    expect(parseDispatchAt("2026-12-31T06:00:00.500-03:30")).toBe(Date.UTC(2026, 11, 31, 9, 30, 0, 500));
    for (const bad of [
      "2026-02-29T10:00",
      "2026-12-31T24:00",
      "2026-12-31T09:60",
      "2026-12-31",
      "31-12-2026 09:30",
      "2026-12-31T09:30+15:00",
      "",
    ]) {
      expect(parseDispatchAt(bad), bad).toBeNull();
    }
  });
});
