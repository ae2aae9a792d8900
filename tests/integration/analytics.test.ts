import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import * as analytics from "~/services/analytics.server";
import type { AnalyticsScope } from "~/lib/analytics";
import { DAY, HOUR, T0, makeNetwork } from "../fixtures/analytics";
import * as reference from "../fixtures/analytics-reference";

const MIN = 60_000;
/** The clock of the hand-made day: 12:20:05 on Tuesday, 20 minutes into c2's open session. */
const NOW = T0 + DAY + 12 * HOUR + 5_000 + 20 * MIN;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

/**
 * The hand-made day (Tuesday T0+1d): c1 returns (first seen Monday), c2 is new (one ended visit at
 * Beta, one still online at Alpha), c3 never gets online, c4 only comes after the window.
 */
async function handMadeDay() {
  const net = await makeNetwork();
  const [c1, c2, c3, c4] = [await net.customer(), await net.customer(), await net.customer(), await net.customer()];
  const d1 = await net.device(c1, { is_mobile: 1, os: "Android", brand: "Samsung", browser: "Chrome" });
  const d2 = await net.device(c2, { is_mobile: 0, os: "Windows", brand: "", browser: "Firefox" });
  const d4 = await net.device(c4);
  const day = T0 + DAY;
  const ended = (at: number, minutes: number, mode: string, upload: number, download: number) => ({
    created_at: at,
    authorized_at: at + 10_000,
    ended_at: at + 10_000 + minutes * MIN,
    authorization_mode: mode,
    upload,
    download,
  });
  await net.connect("a", { customer_id: c1, device_id: d1, ...ended(T0 + 9 * HOUR, 20, "sms", 5, 5) });
  await net.connect("a", { customer_id: c1, device_id: d1, ...ended(day + 10 * HOUR, 30, "sms", 100, 900) });
  await net.connect("b", { customer_id: c2, device_id: d2, ...ended(day + 11 * HOUR, 60, "click_through", 200, 800) });
  await net.connect("a", {
    customer_id: c2,
    device_id: d2,
    created_at: day + 12 * HOUR,
    authorized_at: day + 12 * HOUR + 5_000,
    authorization_mode: "click_through",
    upload: 50,
    download: 50,
  });
  await net.connect("a", { customer_id: c3, device_id: null, created_at: day + 10 * HOUR + 30 * MIN });
  await net.connect("b", { customer_id: c4, device_id: d4, ...ended(day + DAY + HOUR, 5, "sms", 1, 1) });
  const scope = (venueIds?: number[]): AnalyticsScope => ({
    organizationId: net.org.id,
    venueIds,
    range: { startMs: day, endMs: day + DAY, offsetMs: 0 },
  });
  return { net, day, scope };
}

describe("analytics definitions on a hand-made day", () => {
  it("sums footfall, connections, abandoned, bytes, dwell and new/repeat customers", async () => {
    const { net, scope } = await handMadeDay();
    expect(await analytics.aggregateUsage(scope())).toEqual({
      upload: 350,
      download: 1750,
      bandwidth: 2100,
      footfall: 4,
      connections: 3,
      abandoned: 1,
      newCustomers: 1,
      repeatCustomers: 1,
      dwellTime: 30 * 60 + 60 * 60 + 20 * 60, // the online connection adds its 20 minutes so far
      avgDwellTime: 2200, // over the 3 authorized connections, the online one with its time so far
    });
    expect(await analytics.aggregateUsage(scope([net.venueA]))).toMatchObject({
      footfall: 3,
      connections: 2,
      abandoned: 1,
      newCustomers: 1,
      repeatCustomers: 1,
      dwellTime: 1800 + 1200,
      avgDwellTime: 1500,
    });
    expect(await analytics.aggregateUsage(scope([net.venueB]))).toMatchObject({
      footfall: 1,
      connections: 1,
      abandoned: 0,
      newCustomers: 1,
      repeatCustomers: 0,
      dwellTime: 3600,
      avgDwellTime: 3600,
    });
  });

  it("counts open sessions' time so far in the dwell and its average, alike from the roll-ups and from raw rows", async () => {
    const { net, day, scope } = await handMadeDay();
    // A second open session at Beta, online for 10 minutes, and a never-authorized visit (no dwell).
    await net.connect("b", { created_at: day + 12 * HOUR, authorized_at: NOW - 10 * MIN });
    await net.connect("b", { created_at: day + 12 * HOUR });
    for (const venues of [undefined, [net.venueA], [net.venueB], [net.venueA, net.venueB]]) {
      const fromRollups = await analytics.aggregateUsage(scope(venues));
      expect(fromRollups).toEqual(await reference.aggregateUsage(scope(venues)));
    }
    expect(await analytics.aggregateUsage(scope())).toMatchObject({ connections: 4, dwellTime: 7200, avgDwellTime: 1800 });
    expect(await analytics.aggregateUsage(scope([net.venueB]))).toMatchObject({ connections: 2, dwellTime: 4200, avgDwellTime: 2100 });
    // An open session authorized after the clock (a clock skew) adds 0, never a negative dwell, both ways.
    await net.connect("a", { created_at: day + 3 * DAY + HOUR, authorized_at: day + 3 * DAY + HOUR + 1_000 });
    const later: AnalyticsScope = { organizationId: net.org.id, range: { startMs: day + 3 * DAY, endMs: day + 4 * DAY, offsetMs: 0 } };
    expect(await analytics.aggregateUsage(later)).toMatchObject({ connections: 1, dwellTime: 0, avgDwellTime: 0 });
    expect(await reference.aggregateUsage(later)).toEqual(await analytics.aggregateUsage(later));
  });

  it("answers zeros, and an average dwell of 0, for a window without connections", async () => {
    const { net, day } = await handMadeDay();
    const empty: AnalyticsScope = { organizationId: net.org.id, range: { startMs: day + 3 * DAY, endMs: day + 4 * DAY, offsetMs: 0 } };
    expect(await analytics.aggregateUsage(empty)).toEqual({
      upload: 0,
      download: 0,
      bandwidth: 0,
      footfall: 0,
      connections: 0,
      abandoned: 0,
      newCustomers: 0,
      repeatCustomers: 0,
      dwellTime: 0,
      avgDwellTime: 0,
    });
    expect(await analytics.usageSeries(empty, "day")).toEqual([]);
    expect(await analytics.venueUsage(empty)).toEqual([]);
  });

  it("counts a customer as new in the window of their first authorized connection and repeat afterwards", async () => {
    const { net, day } = await handMadeDay();
    const monday: AnalyticsScope = { organizationId: net.org.id, range: { startMs: T0, endMs: T0 + DAY, offsetMs: 0 } };
    expect(await analytics.aggregateUsage(monday)).toMatchObject({ newCustomers: 1, repeatCustomers: 0 });
    const twoDays: AnalyticsScope = { organizationId: net.org.id, range: { startMs: T0, endMs: day + DAY, offsetMs: 0 } };
    expect(await analytics.aggregateUsage(twoDays)).toMatchObject({ newCustomers: 2, repeatCustomers: 0 });
  });

  it("buckets series by hour and day of creation", async () => {
    const { day, scope } = await handMadeDay();
    expect(await analytics.usageSeries(scope(), "hour")).toEqual([
      { time: day + 10 * HOUR, footfall: 2, connections: 1, upload: 100, download: 900 },
      { time: day + 11 * HOUR, footfall: 1, connections: 1, upload: 200, download: 800 },
      { time: day + 12 * HOUR, footfall: 1, connections: 1, upload: 50, download: 50 },
    ]);
    expect(await analytics.usageSeries(scope(), "day")).toEqual([{ time: day, footfall: 4, connections: 3, upload: 350, download: 1750 }]);
    expect(await analytics.footfallSeries(scope(), "hour")).toEqual([
      { time: day + 10 * HOUR, footfall: 2 },
      { time: day + 11 * HOUR, footfall: 1 },
      { time: day + 12 * HOUR, footfall: 1 },
    ]);
    expect(await analytics.dwellTimeSeries(scope(), "day")).toEqual([{ time: day, dwellTime: 6600 }]);
    expect(await analytics.dwellTimeSeries(scope(), "hour")).toEqual([
      { time: day + 10 * HOUR, dwellTime: 1800 },
      { time: day + 11 * HOUR, dwellTime: 3600 },
      { time: day + 12 * HOUR, dwellTime: 1200 },
    ]);
    expect(await analytics.trafficHeatmap(scope())).toEqual([
      { weekday: 1, hour: 10, footfall: 2 },
      { weekday: 1, hour: 11, footfall: 1 },
      { weekday: 1, hour: 12, footfall: 1 },
    ]);
  });

  it("ranks venues and access points by bandwidth, modes and devices by connections", async () => {
    const { net, scope } = await handMadeDay();
    expect(await analytics.venueUsage(scope())).toEqual([
      { venueId: net.venueA, venueName: "Alpha Cafe", footfall: 3, connections: 2, bandwidth: 1100 },
      { venueId: net.venueB, venueName: "Beta Mall", footfall: 1, connections: 1, bandwidth: 1000 },
    ]);
    expect(await analytics.venueUsage(scope(), 1)).toHaveLength(1);
    expect(await analytics.accessPointUsage(scope([net.venueB]))).toEqual([
      {
        accessPointId: net.apB.id,
        apName: "Beta AP",
        venueName: "Beta Mall",
        accessPointMac: net.apB.mac_address,
        footfall: 1,
        connections: 1,
        bandwidth: 1000,
      },
    ]);
    expect(await analytics.authModeSummary(scope())).toEqual([
      { mode: "click_through", connections: 2 },
      { mode: "sms", connections: 1 },
    ]);
    expect(await analytics.deviceSummary(scope(), "os")).toEqual([
      { key: "Windows", connections: 2, footfall: 2 },
      { key: "Android", connections: 1, footfall: 1 },
      { key: "Unknown", connections: 0, footfall: 1 },
    ]);
    expect(await analytics.deviceSummary(scope(), "is_mobile")).toEqual([
      { key: "Desktop", connections: 2, footfall: 2 },
      { key: "Mobile", connections: 1, footfall: 1 },
      { key: "Unknown", connections: 0, footfall: 1 },
    ]);
    expect(await analytics.deviceSummary(scope(), "brand", 1)).toEqual([{ key: "Unknown", connections: 2, footfall: 3 }]);
  });

  it("refuses a window that is not whole days of the organisation, for every figure", async () => {
    const { day, net } = await handMadeDay();
    const inDay: AnalyticsScope["range"] = { startMs: day + 10 * HOUR + 15 * MIN, endMs: day + 12 * HOUR + 30 * MIN, offsetMs: 0 };
    // UTC days read at Nairobi's offset are not its days either.
    const utcDaysInNairobi: AnalyticsScope["range"] = { startMs: day, endMs: day + DAY, offsetMs: 3 * HOUR };
    for (const range of [inDay, utcDaysInNairobi]) {
      const scope: AnalyticsScope = { organizationId: net.org.id, range };
      const refused = "Analytics take whole days of the organization's time zone.";
      for (const ask of [
        () => analytics.aggregateUsage(scope),
        () => analytics.customerCounts(scope),
        () => analytics.customerCounts({ ...scope, venueIds: [net.venueA, net.venueB] }),
        () => analytics.usageSeries(scope, "hour"),
        () => analytics.dwellTimeSeries(scope, "day"),
        () => analytics.footfallSeries(scope, "hour"),
        () => analytics.venueUsage(scope),
        () => analytics.accessPointUsage(scope),
        () => analytics.authModeSummary(scope),
        () => analytics.deviceSummary(scope, "os"),
        () => analytics.trafficHeatmap(scope),
        () => analytics.venueOverview(net.org.id, net.venueA, range),
      ])
        await expect(ask()).rejects.toThrow(refused);
    }
  });

  it("gives the network overview cards", async () => {
    const { net, scope } = await handMadeDay();
    expect(await analytics.venueOverview(net.org.id, net.venueA, scope().range)).toEqual({
      accessPoints: 1,
      uniqueClients: 2,
      totalConnections: 2,
      currentlyConnected: 1,
      dwellTime: 1800 + 1200,
    });
  });

  it("never answers with another organisation's data", async () => {
    const { net, scope } = await handMadeDay();
    const other = await makeNetwork("Other Org");
    const foreign: AnalyticsScope = { ...scope([net.venueA]), organizationId: other.org.id };
    expect(await analytics.aggregateUsage(foreign)).toMatchObject({ footfall: 0, connections: 0 });
    expect(await analytics.venueOverview(other.org.id, net.venueA, scope().range)).toMatchObject({
      accessPoints: 0,
      uniqueClients: 0,
      currentlyConnected: 0,
    });
  });
});

describe("dwell with guests online now, in Nairobi", () => {
  it("gives a network's dwell as the online guests' time so far, today in Nairobi after 21:00 UTC", async () => {
    // 22:30 UTC on 1 December 2026 is 01:30 on 2 December in Nairobi (UTC+03:00); the day began at 21:00 UTC.
    const now = Date.UTC(2026, 11, 1, 22, 30);
    vi.setSystemTime(now);
    const net = await makeNetwork("Nairobi dwell");
    await db
      .updateTable("organizations")
      .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * HOUR })
      .where("id", "=", net.org.id)
      .execute();
    const dayStart = Date.UTC(2026, 11, 1, 21, 0);
    // 20 guests online for 9 to 35 minutes (not a minute of it had ended), and yesterday's ended visit.
    let expected = 0;
    for (let i = 0; i < 20; i++) {
      const minutes = 9 + Math.round((i * 26) / 19);
      expected += minutes * 60;
      const at = now - minutes * MIN;
      await net.connect("a", { customer_id: await net.customer(), created_at: at - 2_000, authorized_at: at });
    }
    await net.connect("a", { created_at: dayStart - HOUR, authorized_at: dayStart - HOUR, ended_at: dayStart - 30 * MIN });
    const range = { startMs: dayStart, endMs: dayStart + DAY, offsetMs: 3 * HOUR };
    const overview = await analytics.venueOverview(net.org.id, net.venueA, range);
    expect(overview).toMatchObject({ currentlyConnected: 20, totalConnections: 20, dwellTime: expected });
    const scope: AnalyticsScope = { organizationId: net.org.id, venueIds: [net.venueA], range };
    const totals = await analytics.aggregateUsage(scope);
    expect(totals).toMatchObject({ dwellTime: expected, avgDwellTime: Math.round(expected / 20) });
    expect(totals).toEqual(await reference.aggregateUsage(scope));
    // The hours are Nairobi's: 00:00–01:00 (21:00 UTC) and 01:00–02:00 (22:00 UTC).
    const hours = await analytics.dwellTimeSeries(scope, "hour");
    expect(hours.map((h) => h.time)).toEqual([Date.UTC(2026, 11, 1, 21, 0), Date.UTC(2026, 11, 1, 22, 0)]);
    expect(hours.reduce((sum, h) => sum + h.dwellTime, 0)).toBe(expected);
    expect(hours).toEqual(await reference.dwellTimeSeries(scope, "hour"));
    // Ten minutes later every guest has ten more minutes.
    vi.setSystemTime(now + 10 * MIN);
    expect((await analytics.venueOverview(net.org.id, net.venueA, range)).dwellTime).toBe(expected + 20 * 600);
  });
});
