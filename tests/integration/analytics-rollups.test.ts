import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { generateDemoData } from "~/tools/demo.server";
import { createRandom } from "~/tools/demo/random.server";
import { rebuildRollups } from "~/db/rollups.server";
import type { AnalyticsScope, DeviceDimension } from "~/lib/analytics";
import * as analytics from "~/services/analytics.server";
import { listVisitors } from "~/services/reports.server";
import { DAY, HOUR, rollupSnapshot } from "../fixtures/analytics";
import * as reference from "../fixtures/analytics-reference";
import { makeUser } from "../fixtures";
import { requireMembership, type AuthUser } from "~/services/guard.server";
import { updateOrganization } from "~/services/organizations.server";

const NOW = Date.UTC(2026, 10, 20, 15, 30);
const TODAY = NOW - (NOW % DAY);
const DIMENSIONS: DeviceDimension[] = ["is_mobile", "os", "brand", "browser"];

// Open sessions' dwell runs to now: one fixed clock, so the roll-ups and the reference agree to the millisecond.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

/** A generated organisation: 4 venues over 30 days, with online, abandoned and closed connections. */
async function generated(connections = 3_000, timeZone = "UTC") {
  const owner = await makeUser();
  const result = await generateDemoData({
    connections,
    customers: 250,
    devices: 350,
    venues: 4,
    accessPoints: 8,
    days: 30,
    seed: 4004,
    now: NOW,
    ownerId: owner.id,
    timeZone,
  });
  const venues = await db.selectFrom("venues").select("id").where("organization_id", "=", result.organizationId).orderBy("id").execute();
  return { orgId: result.organizationId, venueIds: venues.map((v) => v.id) };
}

/** Windows of whole days of an organisation `offsetMs` from UTC (NOW is 15:30 UTC, the same date from UTC−12 to UTC+8). */
const windowsAt = (offsetMs: number) =>
  [
    { name: "today", startMs: TODAY, endMs: TODAY + DAY },
    { name: "yesterday", startMs: TODAY - DAY, endMs: TODAY },
    { name: "last 7 days", startMs: TODAY - 6 * DAY, endMs: TODAY + DAY },
    { name: "10 days in the middle", startMs: TODAY - 20 * DAY, endMs: TODAY - 10 * DAY },
    { name: "from before the data", startMs: TODAY - 60 * DAY, endMs: TODAY + DAY },
    { name: "a year", startMs: TODAY - 364 * DAY, endMs: TODAY + DAY },
  ].map((w) => ({ ...w, startMs: w.startMs - offsetMs, endMs: w.endMs - offsetMs, offsetMs }));
const WINDOWS = windowsAt(0);

/** Every answer of the analytics service (from the roll-ups) equals the reference's from the rows, for each window and venue choice. */
async function expectRollupsEqualRaw(orgId: number, venueChoices: (number[] | undefined)[], windows = WINDOWS) {
  let compared = 0;
  for (const window of windows) {
    for (const venueIds of venueChoices) {
      const scope: AnalyticsScope = { organizationId: orgId, venueIds, range: window };
      const label = `${window.name}, venues ${venueIds?.join(",") ?? "all"}`;
      const both = async <T>(name: string, ask: (m: typeof reference) => Promise<T>) => {
        const [fromRows, fromRollups] = await Promise.all([ask(reference), ask(analytics)]);
        expect(fromRollups, `${name} (${label})`).toEqual(fromRows);
        compared++;
        return fromRows;
      };
      await both("aggregateUsage", (m) => m.aggregateUsage(scope));
      await both("customerCounts", (m) => m.customerCounts(scope));
      for (const bucket of ["hour", "day"] as const) {
        await both(`usageSeries ${bucket}`, (m) => m.usageSeries(scope, bucket));
        await both(`dwellTimeSeries ${bucket}`, (m) => m.dwellTimeSeries(scope, bucket));
        await both(`footfallSeries ${bucket}`, (m) => m.footfallSeries(scope, bucket));
      }
      await both("venueUsage", (m) => m.venueUsage(scope, 100));
      await both("venueUsage top 2", (m) => m.venueUsage(scope, 2));
      await both("accessPointUsage", (m) => m.accessPointUsage(scope, 100));
      await both("authModeSummary", (m) => m.authModeSummary(scope));
      for (const dimension of DIMENSIONS) await both(`deviceSummary ${dimension}`, (m) => m.deviceSummary(scope, dimension));
      await both("trafficHeatmap", (m) => m.trafficHeatmap(scope));
    }
  }
  return compared;
}

/** The presence chains and their gap counts (migration 0034), as rollupSnapshot gives the others. */
async function presenceSnapshot(organizationId: number) {
  const numbers = <T extends Record<string, unknown>>(rows: T[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])));
  const days = await db
    .selectFrom("customer_presence_days")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .orderBy("customer_id")
    .orderBy("venue_key")
    .orderBy("day_start")
    .execute();
  const gaps = await db
    .selectFrom("presence_gaps")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .orderBy("venue_key")
    .orderBy("next_day")
    .orderBy("day_start")
    .execute();
  // Gap rows whose pairs all went away hold zeros; they answer nothing.
  return { presenceDays: numbers(days), presenceGaps: numbers(gaps).filter((r) => r.customers !== 0) };
}

const snapshot = async (orgId: number) => ({ ...(await rollupSnapshot(orgId)), ...(await presenceSnapshot(orgId)) });
const NOTHING = {
  usageHourly: [],
  usageDaily: [],
  usageDailyAp: [],
  dimensions: [],
  visitDays: [],
  gaps: [],
  firsts: [],
  totals: [],
  presenceDays: [],
  presenceGaps: [],
};

/** The roll-ups the triggers kept equal the ones a rebuild computes from the rows. */
async function expectRollupsEqualRebuild(orgId: number) {
  const kept = await snapshot(orgId);
  await rebuildRollups(orgId);
  expect(kept).toEqual(await snapshot(orgId));
}

/** The all-visitors list and total (from the presence roll-up) equal the customers of the window's connection rows. */
async function expectAllVisitorsEqualRaw(orgId: number, venueChoices: (number[] | undefined)[], windows = WINDOWS) {
  for (const window of windows) {
    for (const venueIds of venueChoices) {
      const label = `${window.name}, venues ${venueIds?.join(",") ?? "all"}`;
      let rows = db
        .selectFrom("connections")
        .select("customer_id")
        .distinct()
        .where("organization_id", "=", orgId)
        .where("customer_id", "is not", null)
        .where("created_at", ">=", window.startMs)
        .where("created_at", "<", window.endMs);
      if (venueIds) rows = rows.where("venue_id", "in", venueIds);
      const expected = (await rows.execute()).map((r) => Number(r.customer_id)).sort((a, b) => a - b);
      const list = await listVisitors({ organizationId: orgId, venueIds, range: window }, "all_visitors", {
        offset: 0,
        pageSize: 100_000,
        search: "",
      });
      expect(list.total, `total (${label})`).toBe(expected.length);
      expect(list.capped).toBe(false);
      expect(
        list.rows.map((r) => r.id).sort((a, b) => a - b),
        `list (${label})`,
      ).toEqual(expected);
    }
  }
}

describe("analytics roll-ups", () => {
  it("answer exactly as the connection rows do on generated data", async () => {
    const { orgId, venueIds } = await generated();
    const everything = await reference.aggregateUsage({ organizationId: orgId, range: WINDOWS[4] });
    expect(everything.footfall).toBe(3_000);
    expect(everything.abandoned).toBeGreaterThan(0);
    const lastWeek = await reference.aggregateUsage({ organizationId: orgId, range: WINDOWS[2] });
    expect(lastWeek.newCustomers).toBeGreaterThan(0);
    expect(lastWeek.repeatCustomers).toBeGreaterThan(0);
    const compared = await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[2]], venueIds, [999_999]]);
    expect(compared).toBe(WINDOWS.length * 5 * 17);
  });

  it("answer in the organisation's own days: Nairobi (UTC+03:00), Kolkata (UTC+05:30) and New York (UTC−05:00)", async () => {
    for (const [timeZone, offsetMs] of [
      ["Africa/Nairobi", 3 * HOUR],
      ["Asia/Kolkata", 5.5 * HOUR],
      ["America/New_York", -5 * HOUR],
    ] as const) {
      const { orgId, venueIds } = await generated(1_000, timeZone);
      const org = await db
        .selectFrom("organizations")
        .select(["time_zone", "utc_offset_ms"])
        .where("id", "=", orgId)
        .executeTakeFirstOrThrow();
      expect({ timeZone: org.time_zone, offsetMs: Number(org.utc_offset_ms) }).toEqual({ timeZone, offsetMs });
      const windows = windowsAt(offsetMs);
      await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[2]]], windows);
      await expectAllVisitorsEqualRaw(orgId, [undefined, [venueIds[0]]], windows);
      // Day rows start at the organisation's midnight, hour rows on its hours.
      const days = await db.selectFrom("usage_daily").select("day_start").where("organization_id", "=", orgId).execute();
      expect(days.length).toBeGreaterThan(0);
      for (const d of days) expect((Number(d.day_start) + offsetMs) % DAY).toBe(0);
      const hours = await db.selectFrom("usage_hourly").select("hour_start").where("organization_id", "=", orgId).execute();
      for (const h of hours) expect((Number(h.hour_start) + offsetMs) % HOUR).toBe(0);
      await expectRollupsEqualRebuild(orgId);
    }
  });

  it("re-bucket an organisation's history when its time zone moves to another offset", async () => {
    const owner = await makeUser();
    const { organizationId: orgId } = await generateDemoData({
      connections: 800,
      customers: 80,
      devices: 120,
      venues: 2,
      accessPoints: 3,
      days: 20,
      seed: 77,
      now: NOW,
      ownerId: owner.id,
      timeZone: "UTC",
    });
    const venueIds = (await db.selectFrom("venues").select("id").where("organization_id", "=", orgId).execute()).map((v) => v.id);
    const ctx = await requireMembership(owner as unknown as AuthUser, orgId);
    await updateOrganization(ctx, { name: "Renamed", time_zone: "Africa/Nairobi" });
    const org = await db
      .selectFrom("organizations")
      .select(["name", "time_zone", "utc_offset_ms"])
      .where("id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect({ ...org, utc_offset_ms: Number(org.utc_offset_ms) }).toEqual({
      name: "Renamed",
      time_zone: "Africa/Nairobi",
      utc_offset_ms: 3 * HOUR,
    });
    expect(await db.selectFrom("analytics_paused").select("organization_id").where("organization_id", "=", orgId).execute()).toEqual([]);
    await expectRollupsEqualRaw(orgId, [undefined, venueIds], windowsAt(3 * HOUR));
    await expectRollupsEqualRebuild(orgId);
    // A zone with the same offset changes the name only; the triggers keep going in the new days.
    await updateOrganization(
      { ...ctx, org: { ...ctx.org, clock: { timeZone: "Africa/Nairobi", offsetMs: 3 * HOUR } } },
      { name: "Renamed", time_zone: "Africa/Addis_Ababa" },
    );
    expect((await db.selectFrom("organizations").select("time_zone").where("id", "=", orgId).executeTakeFirstOrThrow()).time_zone).toBe(
      "Africa/Addis_Ababa",
    );
    const latest = await db
      .selectFrom("connections")
      .select("id")
      .where("organization_id", "=", orgId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("connections")
      .set({ created_at: TODAY - 3 * HOUR - 1 })
      .where("id", "=", latest.id)
      .execute();
    await expectRollupsEqualRaw(orgId, [undefined], windowsAt(3 * HOUR).slice(0, 3));
    await expectRollupsEqualRebuild(orgId);
  });

  it("stay exact when every connection arrives one by one, in any order, and when they are deleted", async () => {
    const { orgId, venueIds } = await generated(1_500);
    const rows = await db.selectFrom("connections").selectAll().where("organization_id", "=", orgId).execute();
    await db.deleteFrom("connections").where("organization_id", "=", orgId).execute();
    expect(await snapshot(orgId)).toEqual(NOTHING);

    // Shuffled, so visit days land before, between and after a customer's other visits.
    const random = createRandom(99);
    const shuffled = rows.map(({ id: _id, ...row }) => row).sort(() => random.next() - 0.5);
    for (let i = 0; i < shuffled.length; i += 25)
      await db
        .insertInto("connections")
        .values(shuffled.slice(i, i + 25))
        .execute();
    await expectRollupsEqualRebuild(orgId);
    await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[3]]]);
  });

  it("follow the write paths: authorize, usage updates, close, delete, moves, device changes and deletions", async () => {
    const { orgId, venueIds } = await generated(1_200);
    const ids = (await db.selectFrom("connections").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.id,
    );
    const customers = (await db.selectFrom("customers").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.id,
    );
    const devices = (await db.selectFrom("devices").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.id,
    );
    const pick = <T>(list: T[], n: number, step: number) => Array.from({ length: n }, (_, i) => list[(i * step + 7) % list.length]);

    // A guest reaches the portal, gets online (first and repeat visits), uses data, and leaves.
    for (const [i, customerId] of pick(customers, 30, 13).entries()) {
      const createdAt = TODAY - (i % 5) * DAY + 9 * HOUR + i * 60_000;
      const { id } = await db
        .insertInto("connections")
        .values({
          organization_id: orgId,
          venue_id: venueIds[i % venueIds.length],
          created_at: createdAt,
          device_id: devices[i],
          upload: 0,
          download: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .updateTable("connections")
        .set({ authorized_at: createdAt + 20_000, customer_id: customerId, authorization_mode: "sms" })
        .where("id", "=", id)
        .execute();
      await db
        .updateTable("connections")
        .set({ upload: 1_000 * i, download: 9_000 * i })
        .where("id", "=", id)
        .execute();
      if (i % 3 !== 0)
        await db
          .updateTable("connections")
          .set({ ended_at: createdAt + 20_000 + i * 120_000 })
          .where("id", "=", id)
          .execute();
    }
    // Old connections: closed, deleted, moved to another day, venue, customer or device; de-authorized.
    for (const id of pick(ids, 20, 37))
      await db
        .updateTable("connections")
        .set({ ended_at: NOW })
        .where("id", "=", id)
        .where("ended_at", "is", null)
        .where("authorized_at", "is not", null)
        .execute();
    await db
      .deleteFrom("connections")
      .where("id", "in", pick(ids, 40, 29))
      .execute();
    for (const [i, id] of pick(ids, 25, 41).entries()) {
      await db
        .updateTable("connections")
        .set({
          created_at: TODAY - (i + 1) * DAY + 3 * HOUR,
          venue_id: venueIds[(i + 1) % venueIds.length],
          customer_id: customers[(i * 7) % customers.length],
        })
        .where("id", "=", id)
        .execute();
    }
    for (const id of pick(ids, 10, 53))
      await db.updateTable("connections").set({ authorized_at: null, authorization_mode: null }).where("id", "=", id).execute();
    for (const id of pick(ids, 10, 61)) await db.updateTable("connections").set({ device_id: devices[3] }).where("id", "=", id).execute();
    await db
      .updateTable("devices")
      .set({ os: "KaiOS", brand: "Nokia", is_mobile: 0, browser: " " })
      .where("id", "in", pick(devices, 15, 11))
      .execute();
    await expectRollupsEqualRebuild(orgId);

    // Deleting a device, a customer, an access point and a venue leaves their connections nameless.
    await db.deleteFrom("devices").where("id", "=", devices[3]).execute();
    await db
      .deleteFrom("customers")
      .where("id", "in", pick(customers, 5, 17))
      .execute();
    const ap = await db.selectFrom("access_points").select("id").where("venue_id", "=", venueIds[1]).executeTakeFirstOrThrow();
    await db.deleteFrom("access_points").where("id", "=", ap.id).execute();
    await db.deleteFrom("venues").where("id", "=", venueIds[2]).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1]], [venueIds[0], venueIds[1]], [venueIds[2]]]);
  });

  it("take one statement's byte and end changes across venues, hours and days together, beside rows it moves", async () => {
    // On PostgreSQL a statement trigger sums these figure changes per roll-up row (migration 0036);
    // rows whose hour, venue or authorization moves in the same statement stay row by row.
    const { orgId, venueIds } = await generated(1_200);
    const paused = await generated(300);
    const ids = (
      await db
        .selectFrom("connections")
        .select("id")
        .where("organization_id", "=", orgId)
        .where("authorized_at", "is not", null)
        .orderBy("id")
        .execute()
    ).map((r) => r.id);
    const open = (
      await db
        .selectFrom("connections")
        .select("id")
        .where("organization_id", "=", orgId)
        .where("authorized_at", "is not", null)
        .where("ended_at", "is", null)
        .orderBy("id")
        .execute()
    ).map((r) => r.id);
    const bytes = sql<number>`upload + (id % 7) * 1000`;
    await db
      .updateTable("connections")
      .set({ upload: bytes, download: sql`download + 5000` })
      .where(
        "id",
        "in",
        ids.filter((_, i) => i % 3 === 0),
      )
      .execute();
    await db.updateTable("connections").set({ ended_at: NOW }).where("id", "in", open.slice(0, 20)).execute();
    // One statement: figures only for most rows, a new hour and venue for some, authorization gone for others.
    const mixed = ids.filter((_, i) => i % 5 === 1);
    await db
      .updateTable("connections")
      .set({
        upload: sql`upload + 12345`,
        created_at: sql`case when id % 4 = 0 then created_at - ${3 * HOUR} else created_at end`,
        venue_id: sql`case when id % 4 = 0 then ${venueIds[0]} else venue_id end`,
        authorized_at: sql`case when id % 9 = 0 then null else authorized_at end`,
      })
      .where("id", "in", mixed)
      .execute();
    await expectRollupsEqualRebuild(orgId);

    // A paused organisation's rows move nothing (the bulk loader rebuilds it afterwards).
    const before = await snapshot(paused.orgId);
    await db.insertInto("analytics_paused").values({ organization_id: paused.orgId }).execute();
    await db
      .updateTable("connections")
      .set({ upload: sql`upload + 999`, ended_at: sql`coalesce(ended_at, ${NOW})` })
      .where("organization_id", "in", [paused.orgId, orgId])
      .execute();
    expect(await snapshot(paused.orgId)).toEqual(before);
    await db.deleteFrom("analytics_paused").where("organization_id", "=", paused.orgId).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[2]]]);
  });

  it("count all visitors (any connection record) exactly through inserts, unauthorized records, deletes and moves", async () => {
    const { orgId, venueIds } = await generated(900);
    const choices = [undefined, [venueIds[0]], [venueIds[1], venueIds[2]]];
    await expectAllVisitorsEqualRaw(orgId, choices);
    const customers = (await db.selectFrom("customers").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.id,
    );
    const pick = <T>(list: T[], n: number, step: number) => Array.from({ length: n }, (_, i) => list[(i * step + 3) % list.length]);

    // Guests who reach the portal and leave (some never get online at all), and some who get online,
    // on days before, between and after their other records.
    const portalOnly = (
      await db
        .insertInto("customers")
        .values({ organization_id: orgId, identity: "+254700999001", first_name: "Portal", created_at: NOW, updated_at: NOW })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const added: number[] = [];
    for (const [i, customerId] of [...pick(customers, 24, 11), portalOnly, portalOnly].entries()) {
      const createdAt = TODAY - ((i * 5) % 29) * DAY + 7 * HOUR + i * 60_000;
      const authorized = i % 3 === 0 && customerId !== portalOnly;
      const { id } = await db
        .insertInto("connections")
        .values({
          organization_id: orgId,
          venue_id: venueIds[i % venueIds.length],
          customer_id: customerId,
          created_at: createdAt,
          authorized_at: authorized ? createdAt + 20_000 : null,
          authorization_mode: authorized ? "sms" : null,
          upload: 0,
          download: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      added.push(id);
    }
    // A guest identified at the portal (customer set) without getting online.
    const anonymous = (
      await db
        .selectFrom("connections")
        .select("id")
        .where("organization_id", "=", orgId)
        .where("customer_id", "is", null)
        .limit(3)
        .execute()
    ).map((r) => r.id);
    for (const [i, id] of anonymous.entries())
      await db
        .updateTable("connections")
        .set({ customer_id: customers[i * 17] })
        .where("id", "=", id)
        .execute();
    await expectAllVisitorsEqualRaw(orgId, choices);

    const ids = (await db.selectFrom("connections").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.id,
    );
    await db
      .deleteFrom("connections")
      .where("id", "in", [...pick(ids, 30, 23), added[1]])
      .execute();
    for (const [i, id] of pick(ids, 15, 31).entries()) {
      await db
        .updateTable("connections")
        .set({ created_at: TODAY - (i + 2) * DAY + 5 * HOUR })
        .where("id", "=", id)
        .execute(); // another day
    }
    for (const [i, id] of pick(ids, 15, 37).entries()) {
      await db
        .updateTable("connections")
        .set({ venue_id: venueIds[(i + 1) % venueIds.length] })
        .where("id", "=", id)
        .execute(); // another venue
    }
    for (const [i, id] of pick(ids, 15, 43).entries()) {
      await db
        .updateTable("connections")
        .set({ customer_id: i % 4 === 0 ? null : customers[(i * 13) % customers.length] })
        .where("id", "=", id)
        .execute(); // another customer
    }
    for (const [i, id] of pick(ids, 10, 47).entries()) {
      await db
        .updateTable("connections")
        .set({ created_at: TODAY - i * DAY, venue_id: venueIds[i % venueIds.length], customer_id: customers[(i * 7) % customers.length] })
        .where("id", "=", id)
        .execute(); // all at once
    }
    // De-authorizing changes no presence; a closed connection neither.
    for (const id of pick(ids, 10, 53))
      await db.updateTable("connections").set({ authorized_at: null, authorization_mode: null }).where("id", "=", id).execute();
    for (const id of pick(ids, 10, 59)) await db.updateTable("connections").set({ ended_at: NOW }).where("id", "=", id).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectAllVisitorsEqualRaw(orgId, choices);
    const lastWeek = { organizationId: orgId, range: WINDOWS[2] };
    const all = await listVisitors(lastWeek, "all_visitors", { offset: 0, pageSize: 10, search: "" });
    const unique = await listVisitors(lastWeek, "unique_visitors", { offset: 0, pageSize: 10, search: "" });
    expect(all.total).toBeGreaterThan(unique.total); // the unauthorized records count

    // Deleted customers and a deleted venue leave their records nameless.
    await db
      .deleteFrom("customers")
      .where("id", "in", [portalOnly, ...pick(customers, 4, 19)])
      .execute();
    await db.deleteFrom("venues").where("id", "=", venueIds[2]).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectAllVisitorsEqualRaw(orgId, [...choices, [venueIds[0], venueIds[1], venueIds[3]]]);
  });

  it("go with their organisation when it is deleted, leaving other organisations alone", async () => {
    const first = await generated(600);
    const second = await generated(600);
    const before = await snapshot(second.orgId);
    await db.deleteFrom("organizations").where("id", "=", first.orgId).execute();
    expect(await snapshot(first.orgId)).toEqual(NOTHING);
    expect(await snapshot(second.orgId)).toEqual(before);
    expect(await db.selectFrom("analytics_paused").select("organization_id").execute()).toEqual([{ organization_id: first.orgId }]);

    // Rebuilding every organisation (db cli rollups:rebuild) recomputes lost rows and forgets the deleted one.
    await db.deleteFrom("usage_daily").where("organization_id", "=", second.orgId).execute();
    await db.deleteFrom("presence_gaps").where("organization_id", "=", second.orgId).execute();
    await rebuildRollups();
    expect(await snapshot(second.orgId)).toEqual(before);
    expect(await db.selectFrom("analytics_paused").selectAll().execute()).toEqual([]);
  });
});
