// Times every analytics call of bench/analytics.bench.ts for one window.
import { db } from "~/db/db.server";
import { bucketFor, type AnalyticsScope } from "~/lib/analytics";
import * as analytics from "~/services/analytics.server";
import * as reference from "../tests/fixtures/analytics-reference";

type Range = AnalyticsScope["range"];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(runs: number, call: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await call(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

export async function timeCalls(organizationId: number, range: Range, runs: number) {
  const venues = (await db.selectFrom("venues").select("id").where("organization_id", "=", organizationId).orderBy("id").execute()).map(
    (v) => v.id,
  );
  const all: AnalyticsScope = { organizationId, range };
  const one: AnalyticsScope = { organizationId, range, venueIds: [venues[0]] };
  const three: AnalyticsScope = { organizationId, range, venueIds: venues.slice(1, 4) };
  const bucket = bucketFor(range);
  /** The home dashboard's analytics: summary cards, charts and top lists, as the page loads them. */
  const dashboard = (scope: AnalyticsScope) =>
    Promise.all([
      analytics.aggregateUsage(scope),
      analytics.usageSeries(scope, bucket),
      analytics.venueUsage(scope),
      analytics.accessPointUsage(scope),
      analytics.authModeSummary(scope),
      analytics.deviceSummary(scope, "is_mobile"),
      analytics.deviceSummary(scope, "os"),
      analytics.deviceSummary(scope, "brand"),
      analytics.deviceSummary(scope, "browser"),
      analytics.dwellTimeSeries(scope, bucket),
      analytics.footfallSeries(scope, bucket),
      analytics.venueOverview(organizationId, venues[0], range),
    ]);
  const calls: [string, () => Promise<unknown>, number?][] = [
    ["aggregateUsage (all venues)", () => analytics.aggregateUsage(all)],
    ["aggregateUsage (1 venue)", () => analytics.aggregateUsage(one)],
    ["aggregateUsage (3 venues)", () => analytics.aggregateUsage(three)],
    ["usageSeries", () => analytics.usageSeries(all, bucket)],
    ["venueUsage", () => analytics.venueUsage(all)],
    ["accessPointUsage", () => analytics.accessPointUsage(all)],
    ["authModeSummary", () => analytics.authModeSummary(all)],
    ["deviceSummary is_mobile", () => analytics.deviceSummary(all, "is_mobile")],
    ["deviceSummary os", () => analytics.deviceSummary(all, "os")],
    ["deviceSummary brand", () => analytics.deviceSummary(all, "brand")],
    ["deviceSummary browser", () => analytics.deviceSummary(all, "browser")],
    ["dwellTimeSeries", () => analytics.dwellTimeSeries(all, bucket)],
    ["footfallSeries", () => analytics.footfallSeries(all, bucket)],
    ["trafficHeatmap (all venues)", () => analytics.trafficHeatmap(all)],
    ["trafficHeatmap (1 venue)", () => analytics.trafficHeatmap(one)],
    ["venueOverview", () => analytics.venueOverview(organizationId, venues[0], range)],
    ["home dashboard, 12 calls (all venues)", () => dashboard(all)],
    ["home dashboard, 12 calls (3 venues)", () => dashboard(three)],
    // For scale: the same summary computed from the connection rows (fewer runs).
    ["aggregateUsage from rows (all venues)", () => reference.aggregateUsage(all), 3],
  ];
  const timings = [];
  for (const [call, run, fewer] of calls) timings.push({ call, ...(await time(Math.min(runs, fewer ?? runs), run)) });
  return timings;
}
