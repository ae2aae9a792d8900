// The analytics answers of the dashboard, the network overview and the reports (spec 1 §7:
// usageSummary, venueUsageSummary, accessPointUsageSummary, aggregateUsageSummary,
// aggregateAuthModeSummary, aggregateDeviceSummary, dwellTime, footfall). Shapes and meanings:
// app/lib/analytics.ts. Callers pass an organisation they have already checked (the guard's
// ctx.org.id); every query filters by it.
import { db } from "~/db/db.server";
import type { AnalyticsScope, VenueOverview } from "~/lib/analytics";
import type { DateRange } from "~/lib/date-range";
import * as raw from "./analytics-raw.server";

export const usageSeries = raw.usageSeries;
export const aggregateUsage = raw.aggregateUsage;
export const venueUsage = raw.venueUsage;
export const accessPointUsage = raw.accessPointUsage;
export const authModeSummary = raw.authModeSummary;
export const deviceSummary = raw.deviceSummary;
export const dwellTimeSeries = raw.dwellTimeSeries;
export const footfallSeries = raw.footfallSeries;
export const trafficHeatmap = raw.trafficHeatmap;
export const uniqueCustomers = raw.uniqueCustomers;

/** The network profile's cards: access points now, and the window's clients, connections and dwell. */
export async function venueOverview(
  organizationId: number,
  venueId: number,
  range: Pick<DateRange, "startMs" | "endMs">,
): Promise<VenueOverview> {
  const scope: AnalyticsScope = { organizationId, venueIds: [venueId], range };
  const [accessPoints, online, totals, uniqueClients] = await Promise.all([
    db
      .selectFrom("access_points")
      .where("organization_id", "=", organizationId)
      .where("venue_id", "=", venueId)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("connections")
      .where("organization_id", "=", organizationId)
      .where("venue_id", "=", venueId)
      .where("authorized_at", "is not", null)
      .where("ended_at", "is", null)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    aggregateUsage(scope),
    uniqueCustomers(scope),
  ]);
  return {
    accessPoints: Number(accessPoints.n),
    uniqueClients,
    totalConnections: totals.connections,
    currentlyConnected: Number(online.n),
    dwellTime: totals.dwellTime,
  };
}

