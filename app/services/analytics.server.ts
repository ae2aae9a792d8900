// The analytics answers of the dashboard, the network overview and the reports (spec 1 §7:
// usageSummary, venueUsageSummary, accessPointUsageSummary, aggregateUsageSummary,
// aggregateAuthModeSummary, aggregateDeviceSummary, dwellTime, footfall). Shapes and meanings:
// app/lib/analytics.ts. Callers pass an organisation they have already checked (the guard's
// ctx.org.id); every query filters by it.
//
// Windows that start and end on a boundary of the organisation's days (every date-range screen)
// read the roll-ups; any other window is computed from the connection rows. Both give the same
// answers. Times in the answers are UTC ms; hours of day and weekdays are the organisation's.
import { db } from "~/db/db.server";
import type { AnalyticsScope, Bucket, DeviceDimension, VenueOverview } from "~/lib/analytics";
import { isWholeDays, type DateRange } from "~/lib/date-range";
import * as raw from "./analytics-raw.server";
import * as rollups from "./analytics-rollups.server";

function source(scope: AnalyticsScope): typeof rollups {
  return isWholeDays(scope.range) ? rollups : raw;
}

/** usageSummary: footfall, connections, upload and download per hour or day. */
export const usageSeries = (scope: AnalyticsScope, bucket: Bucket) => source(scope).usageSeries(scope, bucket);
/** aggregateUsageSummary: the summary cards. */
export const aggregateUsage = (scope: AnalyticsScope) => source(scope).aggregateUsage(scope);
/** venueUsageSummary: top venues by bandwidth. */
export const venueUsage = (scope: AnalyticsScope, limit = 5) => source(scope).venueUsage(scope, limit);
/** accessPointUsageSummary: top access points by bandwidth. */
export const accessPointUsage = (scope: AnalyticsScope, limit = 5) => source(scope).accessPointUsage(scope, limit);
/** aggregateAuthModeSummary. */
export const authModeSummary = (scope: AnalyticsScope) => source(scope).authModeSummary(scope);
/** aggregateDeviceSummary: brand top 5 and browser top 10 unless a limit is given. */
export const deviceSummary = (scope: AnalyticsScope, dimension: DeviceDimension, limit?: number) =>
  source(scope).deviceSummary(scope, dimension, limit);
/** dwellTime: seconds per hour or day. */
export const dwellTimeSeries = (scope: AnalyticsScope, bucket: Bucket) => source(scope).dwellTimeSeries(scope, bucket);
/** footfall per hour or day. */
export const footfallSeries = (scope: AnalyticsScope, bucket: Bucket) => source(scope).footfallSeries(scope, bucket);
/** Traffic flow: footfall by weekday and hour of day (the organisation's). */
export const trafficHeatmap = (scope: AnalyticsScope) => source(scope).trafficHeatmap(scope);
/** New and repeat customers of the window. */
export const customerCounts = (scope: AnalyticsScope) => source(scope).customerCounts(scope);

/** Distinct customers with an authorized connection in the window (new + repeat). */
export async function uniqueCustomers(scope: AnalyticsScope): Promise<number> {
  const { newCustomers, repeatCustomers } = await customerCounts(scope);
  return newCustomers + repeatCustomers;
}

/** The network profile's cards: access points now, and the window's clients, connections and dwell. */
export async function venueOverview(
  organizationId: number,
  venueId: number,
  range: Pick<DateRange, "startMs" | "endMs" | "offsetMs">,
): Promise<VenueOverview> {
  const [accessPoints, online, totals] = await Promise.all([
    db
      .selectFrom("access_points")
      .where("organization_id", "=", organizationId)
      .where("venue_id", "=", venueId)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    // The organisation's online connections are few and have an index of their own; a condition on
    // the venue would tempt the planner into the venue's whole history instead.
    db
      .selectFrom("connections")
      .where("organization_id", "=", organizationId)
      .where("authorized_at", "is not", null)
      .where("ended_at", "is", null)
      .select((eb) => eb.fn.sum<number>(eb.case().when("venue_id", "=", venueId).then(1).else(0).end()).as("n"))
      .executeTakeFirstOrThrow(),
    aggregateUsage({ organizationId, venueIds: [venueId], range }),
  ]);
  return {
    accessPoints: Number(accessPoints.n),
    uniqueClients: totals.newCustomers + totals.repeatCustomers,
    totalConnections: totals.connections,
    currentlyConnected: Number(online.n ?? 0),
    dwellTime: totals.dwellTime,
  };
}
