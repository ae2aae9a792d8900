import { describe, expect, it } from "vitest";
import * as analytics from "~/services/analytics.server";
import type { AnalyticsScope } from "~/lib/analytics";
import { DAY, HOUR, T0, makeNetwork } from "../fixtures/analytics";
import * as reference from "../fixtures/analytics-reference";

const MIN = 60_000;

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
      dwellTime: 30 * 60 + 60 * 60, // the online connection adds nothing until it ends
      avgDwellTime: 2700, // over the 2 ended connections: the online one is not counted as zero
    });
    expect(await analytics.aggregateUsage(scope([net.venueA]))).toMatchObject({
      footfall: 3,
      connections: 2,
      abandoned: 1,
      newCustomers: 1,
      repeatCustomers: 1,
      dwellTime: 1800,
      avgDwellTime: 1800,
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

  it("averages dwell over ended connections only, alike from the roll-ups and from raw rows", async () => {
    const { net, day, scope } = await handMadeDay();
    // A second open session at Beta and a never-authorized visit: neither changes the average.
    await net.connect("b", { created_at: day + 15 * HOUR, authorized_at: day + 15 * HOUR + 1_000 });
    await net.connect("b", { created_at: day + 16 * HOUR });
    for (const venues of [undefined, [net.venueA], [net.venueB], [net.venueA, net.venueB]]) {
      const fromRollups = await analytics.aggregateUsage(scope(venues));
      expect(fromRollups).toEqual(await reference.aggregateUsage(scope(venues)));
    }
    expect(await analytics.aggregateUsage(scope())).toMatchObject({ connections: 4, dwellTime: 5400, avgDwellTime: 2700 });
    expect(await analytics.aggregateUsage(scope([net.venueB]))).toMatchObject({ connections: 2, dwellTime: 3600, avgDwellTime: 3600 });
    // Only an open session: no ended connection, an average of 0 (not a division by zero), both ways.
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
    expect(await analytics.dwellTimeSeries(scope(), "day")).toEqual([{ time: day, dwellTime: 5400 }]);
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
      dwellTime: 1800,
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
