import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { generateDemoData } from "~/db/demo.server";
import { createRandom } from "~/db/demo/random.server";
import { rebuildRollups } from "~/db/rollups.server";
import type { AnalyticsScope, DeviceDimension } from "~/lib/analytics";
import * as raw from "~/services/analytics-raw.server";
import * as rollups from "~/services/analytics-rollups.server";
import { DAY, HOUR, rollupSnapshot } from "../fixtures/analytics";
import { makeUser } from "../fixtures";

const NOW = Date.UTC(2026, 10, 20, 15, 30);
const TODAY = NOW - (NOW % DAY);
const DIMENSIONS: DeviceDimension[] = ["is_mobile", "os", "brand", "browser"];

/** A generated organisation: 4 venues over 30 days, with online, abandoned and closed connections. */
async function generated(connections = 3_000) {
  const owner = await makeUser();
  const result = await generateDemoData({ connections, customers: 250, devices: 350, venues: 4, accessPoints: 8, days: 30, seed: 4004, now: NOW, ownerId: owner.id });
  const venues = await db.selectFrom("venues").select("id").where("organization_id", "=", result.organizationId).orderBy("id").execute();
  return { orgId: result.organizationId, venueIds: venues.map((v) => v.id) };
}

const WINDOWS = [
  { name: "today", startMs: TODAY, endMs: TODAY + DAY },
  { name: "yesterday", startMs: TODAY - DAY, endMs: TODAY },
  { name: "last 7 days", startMs: TODAY - 6 * DAY, endMs: TODAY + DAY },
  { name: "10 days in the middle", startMs: TODAY - 20 * DAY, endMs: TODAY - 10 * DAY },
  { name: "from before the data", startMs: TODAY - 60 * DAY, endMs: TODAY + DAY },
  { name: "a year", startMs: TODAY - 364 * DAY, endMs: TODAY + DAY },
];

/** Every answer from the roll-ups equals the answer from the rows, for each window and venue choice. */
async function expectRollupsEqualRaw(orgId: number, venueChoices: (number[] | undefined)[]) {
  let compared = 0;
  for (const window of WINDOWS) {
    for (const venueIds of venueChoices) {
      const scope: AnalyticsScope = { organizationId: orgId, venueIds, range: window };
      const label = `${window.name}, venues ${venueIds?.join(",") ?? "all"}`;
      const both = async <T>(name: string, ask: (m: typeof rollups) => Promise<T>) => {
        const [fromRows, fromRollups] = await Promise.all([ask(raw as typeof rollups), ask(rollups)]);
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

/** The roll-ups the triggers kept equal the ones a rebuild computes from the rows. */
async function expectRollupsEqualRebuild(orgId: number) {
  const kept = await rollupSnapshot(orgId);
  await rebuildRollups(orgId);
  expect(kept).toEqual(await rollupSnapshot(orgId));
}

describe("analytics roll-ups", () => {
  it("answer exactly as the connection rows do on generated data", async () => {
    const { orgId, venueIds } = await generated();
    const everything = await raw.aggregateUsage({ organizationId: orgId, range: WINDOWS[4] });
    expect(everything.footfall).toBe(3_000);
    expect(everything.abandoned).toBeGreaterThan(0);
    const lastWeek = await raw.aggregateUsage({ organizationId: orgId, range: WINDOWS[2] });
    expect(lastWeek.newCustomers).toBeGreaterThan(0);
    expect(lastWeek.repeatCustomers).toBeGreaterThan(0);
    const compared = await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[2]], venueIds, [999_999]]);
    expect(compared).toBe(WINDOWS.length * 5 * 17);
  });

  it("stay exact when every connection arrives one by one, in any order, and when they are deleted", async () => {
    const { orgId, venueIds } = await generated(1_500);
    const rows = await db.selectFrom("connections").selectAll().where("organization_id", "=", orgId).execute();
    await db.deleteFrom("connections").where("organization_id", "=", orgId).execute();
    const empty = await rollupSnapshot(orgId);
    expect(empty).toEqual({ usageHourly: [], usageDaily: [], usageDailyAp: [], dimensions: [], visitDays: [], gaps: [], firsts: [] });

    // Shuffled, so visit days land before, between and after a customer's other visits.
    const random = createRandom(99);
    const shuffled = rows.map(({ id: _id, ...row }) => row).sort(() => random.next() - 0.5);
    for (let i = 0; i < shuffled.length; i += 25) await db.insertInto("connections").values(shuffled.slice(i, i + 25)).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1], venueIds[3]]]);
  });

  it("follow the write paths: authorize, usage updates, close, delete, moves, device changes and deletions", async () => {
    const { orgId, venueIds } = await generated(1_200);
    const ids = (await db.selectFrom("connections").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map((r) => r.id);
    const customers = (await db.selectFrom("customers").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map((r) => r.id);
    const devices = (await db.selectFrom("devices").select("id").where("organization_id", "=", orgId).orderBy("id").execute()).map((r) => r.id);
    const pick = <T>(list: T[], n: number, step: number) => Array.from({ length: n }, (_, i) => list[(i * step + 7) % list.length]);

    // A guest reaches the portal, gets online (first and repeat visits), uses data, and leaves.
    for (const [i, customerId] of pick(customers, 30, 13).entries()) {
      const createdAt = TODAY - (i % 5) * DAY + 9 * HOUR + i * 60_000;
      const { id } = await db
        .insertInto("connections")
        .values({ organization_id: orgId, venue_id: venueIds[i % venueIds.length], created_at: createdAt, device_id: devices[i], upload: 0, download: 0 })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.updateTable("connections").set({ authorized_at: createdAt + 20_000, customer_id: customerId, authorization_mode: "sms" }).where("id", "=", id).execute();
      await db.updateTable("connections").set({ upload: 1_000 * i, download: 9_000 * i }).where("id", "=", id).execute();
      if (i % 3 !== 0) await db.updateTable("connections").set({ ended_at: createdAt + 20_000 + i * 120_000 }).where("id", "=", id).execute();
    }
    // Old connections: closed, deleted, moved to another day, venue, customer or device; de-authorized.
    for (const id of pick(ids, 20, 37)) await db.updateTable("connections").set({ ended_at: NOW }).where("id", "=", id).where("ended_at", "is", null).where("authorized_at", "is not", null).execute();
    await db.deleteFrom("connections").where("id", "in", pick(ids, 40, 29)).execute();
    for (const [i, id] of pick(ids, 25, 41).entries()) {
      await db
        .updateTable("connections")
        .set({ created_at: TODAY - (i + 1) * DAY + 3 * HOUR, venue_id: venueIds[(i + 1) % venueIds.length], customer_id: customers[(i * 7) % customers.length] })
        .where("id", "=", id)
        .execute();
    }
    for (const id of pick(ids, 10, 53)) await db.updateTable("connections").set({ authorized_at: null, authorization_mode: null }).where("id", "=", id).execute();
    for (const id of pick(ids, 10, 61)) await db.updateTable("connections").set({ device_id: devices[3] }).where("id", "=", id).execute();
    await db.updateTable("devices").set({ os: "KaiOS", brand: "Nokia", is_mobile: 0, browser: " " }).where("id", "in", pick(devices, 15, 11)).execute();
    await expectRollupsEqualRebuild(orgId);

    // Deleting a device, a customer, an access point and a venue leaves their connections nameless.
    await db.deleteFrom("devices").where("id", "=", devices[3]).execute();
    await db.deleteFrom("customers").where("id", "in", pick(customers, 5, 17)).execute();
    const ap = await db.selectFrom("access_points").select("id").where("venue_id", "=", venueIds[1]).executeTakeFirstOrThrow();
    await db.deleteFrom("access_points").where("id", "=", ap.id).execute();
    await db.deleteFrom("venues").where("id", "=", venueIds[2]).execute();
    await expectRollupsEqualRebuild(orgId);
    await expectRollupsEqualRaw(orgId, [undefined, [venueIds[0]], [venueIds[1]], [venueIds[0], venueIds[1]], [venueIds[2]]]);
  });

  it("go with their organisation when it is deleted, leaving other organisations alone", async () => {
    const first = await generated(600);
    const second = await generated(600);
    const before = await rollupSnapshot(second.orgId);
    await db.deleteFrom("organizations").where("id", "=", first.orgId).execute();
    expect(await rollupSnapshot(first.orgId)).toEqual({ usageHourly: [], usageDaily: [], usageDailyAp: [], dimensions: [], visitDays: [], gaps: [], firsts: [] });
    expect(await rollupSnapshot(second.orgId)).toEqual(before);
    expect(await db.selectFrom("analytics_paused").select("organization_id").execute()).toEqual([{ organization_id: first.orgId }]);

    // Rebuilding every organisation (db cli rollups:rebuild) recomputes lost rows and forgets the deleted one.
    await db.deleteFrom("usage_daily").where("organization_id", "=", second.orgId).execute();
    await rebuildRollups();
    expect(await rollupSnapshot(second.orgId)).toEqual(before);
    expect(await db.selectFrom("analytics_paused").selectAll().execute()).toEqual([]);
  });
});
