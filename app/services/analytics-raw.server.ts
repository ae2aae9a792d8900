// Analytics computed directly from the connection rows: the reference answers (the roll-ups must
// equal them, tests compare both) and the path for windows that do not start and end on a UTC day
// boundary. Meanings: app/lib/analytics.ts and DESIGN.md "Analytics definitions".
// Every query filters by organisation; a venue id of another organisation simply matches nothing.
import { sql, type ExpressionBuilder } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import type {
  AccessPointUsage,
  AnalyticsScope,
  AuthModeUsage,
  Bucket,
  DeviceDimension,
  DeviceUsage,
  DwellPoint,
  FootfallPoint,
  TrafficCell,
  UsagePoint,
  UsageTotals,
  VenueUsage,
} from "~/lib/analytics";
import { bucketStart, dwellMsOf, hourOfDay, isAuthorized, weekdayOf } from "./analytics-sql.server";
import { deviceKeyExpression, modeKeyExpression, toDeviceUsage, toTotals, toSeconds, type TotalsRow } from "./analytics-shape.server";

type Eb = ExpressionBuilder<DB, "connections">;

/** Connections of the scope: created in the window, at the chosen venues (all when none chosen). */
function inScope(scope: AnalyticsScope) {
  let query = db
    .selectFrom("connections")
    .where("connections.organization_id", "=", scope.organizationId)
    .where("connections.created_at", ">=", scope.range.startMs)
    .where("connections.created_at", "<", scope.range.endMs);
  if (scope.venueIds?.length) query = query.where("connections.venue_id", "in", [...scope.venueIds]);
  return query;
}

const footfall = (eb: Eb) => eb.fn.countAll<number>();
const authorized = (eb: Eb) => eb.fn.count<number>("connections.authorized_at");
const upload = (eb: Eb) => eb.fn.coalesce(eb.fn.sum<number>("connections.upload"), eb.lit(0));
const download = (eb: Eb) => eb.fn.coalesce(eb.fn.sum<number>("connections.download"), eb.lit(0));
const dwellMs = (eb: Eb) => eb.fn.coalesce(eb.fn.sum<number>(dwellMsOf("connections")), eb.lit(0));
const endedConnections = sql<number>`count(case when connections.authorized_at is not null and connections.ended_at is not null then 1 end)`;

export async function usageSeries(scope: AnalyticsScope, bucket: Bucket): Promise<UsagePoint[]> {
  const time = bucketStart(sql.ref("connections.created_at"), bucket, scope.range.offsetMs);
  const rows = await inScope(scope)
    .select((eb) => [
      time.as("time"),
      footfall(eb).as("footfall"),
      authorized(eb).as("connections"),
      upload(eb).as("upload"),
      download(eb).as("download"),
    ])
    .groupBy(time)
    .orderBy(time)
    .execute();
  return rows.map((r) => ({
    time: Number(r.time),
    footfall: Number(r.footfall),
    connections: Number(r.connections),
    upload: Number(r.upload),
    download: Number(r.download),
  }));
}

export async function aggregateUsage(scope: AnalyticsScope): Promise<UsageTotals> {
  const totals = await inScope(scope)
    .select((eb) => [
      footfall(eb).as("footfall"),
      authorized(eb).as("connections"),
      upload(eb).as("upload"),
      download(eb).as("download"),
      dwellMs(eb).as("dwellMs"),
      endedConnections.as("endedConnections"),
    ])
    .executeTakeFirstOrThrow();
  const customers = await customerCounts(scope);
  return toTotals(totals as TotalsRow, customers);
}

/**
 * New and repeat customers of the scope: customers with an authorized connection in the window
 * (at the chosen venues), split by when their first authorized connection in the organisation was.
 */
export async function customerCounts(scope: AnalyticsScope): Promise<{ newCustomers: number; repeatCustomers: number }> {
  const present = inScope(scope)
    .select("connections.customer_id")
    .where(isAuthorized("connections"))
    .where("connections.customer_id", "is not", null)
    .distinct();
  const row = await db
    .selectFrom("connections as first")
    .where("first.organization_id", "=", scope.organizationId)
    .where("first.authorized_at", "is not", null)
    .where("first.customer_id", "in", present)
    .select(["first.customer_id", (eb) => eb.fn.min<number>("first.created_at").as("firstAt")])
    .groupBy("first.customer_id")
    .as("firsts");
  const counts = await db
    .selectFrom(row)
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when("firsts.firstAt", ">=", scope.range.startMs).then(1).else(0).end()).as("newCustomers"),
      eb.fn.sum<number>(eb.case().when("firsts.firstAt", "<", scope.range.startMs).then(1).else(0).end()).as("repeatCustomers"),
    ])
    .executeTakeFirstOrThrow();
  return { newCustomers: Number(counts.newCustomers ?? 0), repeatCustomers: Number(counts.repeatCustomers ?? 0) };
}

/** Venues of the scope by bandwidth (then name); connections whose venue was deleted are left out. */
export async function venueUsage(scope: AnalyticsScope, limit = 5): Promise<VenueUsage[]> {
  const rows = await inScope(scope)
    .innerJoin("venues", "venues.id", "connections.venue_id")
    .select((eb) => [
      "venues.id as venueId",
      "venues.name as venueName",
      footfall(eb).as("footfall"),
      authorized(eb).as("connections"),
      eb.fn.coalesce(eb.fn.sum<number>(sql`connections.upload + connections.download`), eb.lit(0)).as("bandwidth"),
    ])
    .groupBy(["venues.id", "venues.name"])
    .orderBy("bandwidth", "desc")
    .orderBy("venues.name")
    .orderBy("venues.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    venueId: r.venueId,
    venueName: r.venueName,
    footfall: Number(r.footfall),
    connections: Number(r.connections),
    bandwidth: Number(r.bandwidth),
  }));
}

/** Access points of the scope by bandwidth (then name); connections whose access point was deleted are left out. */
export async function accessPointUsage(scope: AnalyticsScope, limit = 5): Promise<AccessPointUsage[]> {
  const rows = await inScope(scope)
    .innerJoin("access_points", "access_points.id", "connections.access_point_id")
    .leftJoin("venues as ap_venue", "ap_venue.id", "access_points.venue_id")
    .select((eb) => [
      "access_points.id as accessPointId",
      "access_points.name as apName",
      "ap_venue.name as venueName",
      "access_points.mac_address as accessPointMac",
      footfall(eb).as("footfall"),
      authorized(eb).as("connections"),
      eb.fn.coalesce(eb.fn.sum<number>(sql`connections.upload + connections.download`), eb.lit(0)).as("bandwidth"),
    ])
    .groupBy(["access_points.id", "access_points.name", "access_points.mac_address", "ap_venue.name"])
    .orderBy("bandwidth", "desc")
    .orderBy("access_points.name")
    .orderBy("access_points.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    accessPointId: r.accessPointId,
    apName: r.apName,
    venueName: r.venueName ?? null,
    accessPointMac: r.accessPointMac,
    footfall: Number(r.footfall),
    connections: Number(r.connections),
    bandwidth: Number(r.bandwidth),
  }));
}

/** Authorized connections by authorization mode, most first. */
export async function authModeSummary(scope: AnalyticsScope): Promise<AuthModeUsage[]> {
  const mode = modeKeyExpression("connections");
  const rows = await inScope(scope)
    .where(isAuthorized("connections"))
    .select((eb) => [mode.as("mode"), eb.fn.countAll<number>().as("connections")])
    .groupBy(mode)
    .orderBy("connections", "desc")
    .orderBy("mode")
    .execute();
  return rows.map((r) => ({ mode: r.mode, connections: Number(r.connections) }));
}

/** Footfall and connections by a property of the device (its current value); unknown devices as "Unknown". */
export async function deviceSummary(scope: AnalyticsScope, dimension: DeviceDimension, limit?: number): Promise<DeviceUsage[]> {
  const key = deviceKeyExpression(dimension, "devices");
  const rows = await inScope(scope)
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select((eb) => [key.as("key"), authorized(eb).as("connections"), footfall(eb).as("footfall")])
    .groupBy(key)
    .execute();
  return toDeviceUsage(rows, dimension, limit);
}

export async function dwellTimeSeries(scope: AnalyticsScope, bucket: Bucket): Promise<DwellPoint[]> {
  const time = bucketStart(sql.ref("connections.created_at"), bucket, scope.range.offsetMs);
  const rows = await inScope(scope)
    .select((eb) => [time.as("time"), dwellMs(eb).as("dwellMs")])
    .groupBy(time)
    .orderBy(time)
    .execute();
  return rows.map((r) => ({ time: Number(r.time), dwellTime: toSeconds(Number(r.dwellMs)) }));
}

export async function footfallSeries(scope: AnalyticsScope, bucket: Bucket): Promise<FootfallPoint[]> {
  const time = bucketStart(sql.ref("connections.created_at"), bucket, scope.range.offsetMs);
  const rows = await inScope(scope)
    .select((eb) => [time.as("time"), footfall(eb).as("footfall")])
    .groupBy(time)
    .orderBy(time)
    .execute();
  return rows.map((r) => ({ time: Number(r.time), footfall: Number(r.footfall) }));
}

export async function trafficHeatmap(scope: AnalyticsScope): Promise<TrafficCell[]> {
  const weekday = weekdayOf(sql.ref("connections.created_at"), scope.range.offsetMs);
  const hour = hourOfDay(sql.ref("connections.created_at"), scope.range.offsetMs);
  const rows = await inScope(scope)
    .select((eb) => [weekday.as("weekday"), hour.as("hour"), footfall(eb).as("footfall")])
    .groupBy([weekday, hour])
    .orderBy(weekday)
    .orderBy(hour)
    .execute();
  return rows.map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), footfall: Number(r.footfall) }));
}
