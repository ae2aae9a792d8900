// The analytics answers of the dashboard, the network overview and the reports
// (docs/guide/api.md#data-api-graphql: usageSummary, venueUsageSummary, accessPointUsageSummary,
// aggregateUsageSummary, aggregateAuthModeSummary, aggregateDeviceSummary, dwellTime, footfall),
// read from the roll-ups the triggers keep (docs/decisions/0009-analytics-rollups.md): a year of
// the whole organisation is 365 daily rows (the every-venue rows, venue_id ALL_VENUES) instead of
// millions of connections. Shapes and meanings: app/lib/analytics.ts. Callers pass an organisation
// they have already checked (the guard's ctx.org.id); every query filters by it.
//
// Windows are whole days of the organisation (its offset from UTC, decision 0023), which is what
// every screen, report and API asks and what the roll-ups hold; any other window is refused
// (decision 0068). Times in the answers are UTC ms; hours of day and weekdays are the organisation's.
// The tests compare every answer with one computed from the connection rows (tests/fixtures/analytics-reference.ts).
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { ALL_VENUES } from "~/db/rollups-sql.server";
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
  VenueOverview,
  VenueUsage,
} from "~/lib/analytics";
import { assertWholeDays, type DateRange } from "~/lib/date-range";
import { hourOfDay, weekdayOf } from "./analytics-sql.server";
import { toDeviceUsage, toSeconds, toTotals } from "./analytics-shape.server";

/** The scope's window, which must be whole days of the organisation. */
function windowOf(scope: AnalyticsScope): AnalyticsScope["range"] {
  assertWholeDays(scope.range);
  return scope.range;
}

const venuesOf = (scope: AnalyticsScope) => (scope.venueIds?.length ? [...scope.venueIds] : null);

/** The chosen venues' rows, or the rows that hold every venue together. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely builder with a where()
function atVenues<Q extends { where: (...args: any[]) => Q }>(query: Q, column: string, scope: AnalyticsScope): Q {
  const venues = venuesOf(scope);
  return venues ? query.where(column, "in", venues) : query.where(column, "=", ALL_VENUES);
}

function daily(scope: AnalyticsScope) {
  const { startMs, endMs } = windowOf(scope);
  const query = db
    .selectFrom("usage_daily as u")
    .where("u.organization_id", "=", scope.organizationId)
    .where("u.day_start", ">=", startMs)
    .where("u.day_start", "<", endMs);
  return atVenues(query, "u.venue_id", scope);
}

function hourly(scope: AnalyticsScope) {
  const { startMs, endMs } = windowOf(scope);
  const query = db
    .selectFrom("usage_hourly as u")
    .where("u.organization_id", "=", scope.organizationId)
    .where("u.hour_start", ">=", startMs)
    .where("u.hour_start", "<", endMs);
  return atVenues(query, "u.venue_id", scope);
}

function dimension(scope: AnalyticsScope, name: DeviceDimension | "mode") {
  const { startMs, endMs } = windowOf(scope);
  const query = db
    .selectFrom("dimension_daily as d")
    .where("d.organization_id", "=", scope.organizationId)
    .where("d.dimension", "=", name)
    .where("d.day_start", ">=", startMs)
    .where("d.day_start", "<", endMs);
  return atVenues(query, "d.venue_id", scope);
}

// Sums of the usage tables; rows whose connections were all deleted hold zeros and are skipped
// where a row's presence matters (series points, ranked lists).
const footfall = sql<number>`sum(u.footfall)`;
const sums = [
  footfall.as("footfall"),
  sql<number>`sum(u.connections)`.as("connections"),
  sql<number>`sum(u.upload)`.as("upload"),
  sql<number>`sum(u.download)`.as("download"),
  sql<number>`sum(u.dwell_ms)`.as("dwellMs"),
];
const bandwidth = sql<number>`sum(u.upload + u.download)`;

type SumsRow = { footfall: number; connections: number; upload: number; download: number; dwellMs: number };

async function series(scope: AnalyticsScope, bucket: Bucket): Promise<(SumsRow & { time: number })[]> {
  const rows =
    bucket === "hour"
      ? await hourly(scope)
          .select(["u.hour_start as time", ...sums])
          .groupBy("u.hour_start")
          .having(footfall, ">", 0)
          .orderBy("u.hour_start")
          .execute()
      : await daily(scope)
          .select(["u.day_start as time", ...sums])
          .groupBy("u.day_start")
          .having(footfall, ">", 0)
          .orderBy("u.day_start")
          .execute();
  return rows.map((r) => ({
    time: Number(r.time),
    footfall: Number(r.footfall),
    connections: Number(r.connections),
    upload: Number(r.upload),
    download: Number(r.download),
    dwellMs: Number(r.dwellMs),
  }));
}

/** usageSummary: footfall, connections, upload and download per hour or day. */
export async function usageSeries(scope: AnalyticsScope, bucket: Bucket): Promise<UsagePoint[]> {
  return (await series(scope, bucket)).map(({ time, footfall, connections, upload, download }) => ({
    time,
    footfall,
    connections,
    upload,
    download,
  }));
}

/**
 * dwellTime per hour or day: the ended connections' seconds from the roll-ups, plus the time so far
 * of the sessions still online (now − authorization), each in the bucket it was created in.
 */
export async function dwellTimeSeries(scope: AnalyticsScope, bucket: Bucket): Promise<DwellPoint[]> {
  const [points, open] = await Promise.all([series(scope, bucket), openSessions(scope)]);
  const size = bucket === "hour" ? 3_600_000 : 86_400_000;
  const openMs = new Map<number, number>();
  for (const s of open) {
    const start = s.createdAt - mod(s.createdAt + scope.range.offsetMs, size);
    openMs.set(start, (openMs.get(start) ?? 0) + s.dwellMs);
  }
  return points.map((r) => ({ time: r.time, dwellTime: toSeconds(r.dwellMs + (openMs.get(r.time) ?? 0)) }));
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** footfall per hour or day. */
export async function footfallSeries(scope: AnalyticsScope, bucket: Bucket): Promise<FootfallPoint[]> {
  return (await series(scope, bucket)).map((r) => ({ time: r.time, footfall: r.footfall }));
}

/** aggregateUsageSummary: the summary cards. */
export async function aggregateUsage(scope: AnalyticsScope): Promise<UsageTotals> {
  const [totals, customers, open] = await Promise.all([
    daily(scope).select(sums).executeTakeFirstOrThrow(),
    customerCounts(scope),
    openSessions(scope),
  ]);
  // Sums over no rows are NULL.
  const zero = (v: unknown) => Number(v ?? 0);
  const connections = zero(totals.connections);
  return toTotals(
    {
      footfall: zero(totals.footfall),
      connections,
      upload: zero(totals.upload),
      download: zero(totals.download),
      dwellMs: zero(totals.dwellMs) + open.reduce((sum, s) => sum + s.dwellMs, 0),
    },
    customers,
  );
}

/**
 * Authorized connections of the window still open, with their time so far (now − authorization, never
 * below 0): the roll-ups hold the dwell of ended connections only, so the open sessions' is added from
 * the rows. They are few and have their own partial index (connections_online: organisation,
 * created_at). The venue is filtered here, not in the WHERE, so the planner keeps to that index.
 */
async function openSessions(scope: AnalyticsScope, now = Date.now()): Promise<{ createdAt: number; dwellMs: number }[]> {
  const { startMs, endMs } = windowOf(scope);
  const venues = venuesOf(scope);
  const rows = await db
    .selectFrom("connections")
    .where("organization_id", "=", scope.organizationId)
    .where("authorized_at", "is not", null)
    .where("ended_at", "is", null)
    .where("created_at", ">=", startMs)
    .where("created_at", "<", endMs)
    .select(["created_at", "authorized_at", "venue_id"])
    .execute();
  const chosen = venues ? new Set(venues.map(Number)) : null;
  return rows
    .filter((r) => !chosen || (r.venue_id !== null && chosen.has(Number(r.venue_id))))
    .map((r) => ({ createdAt: Number(r.created_at), dwellMs: Math.max(0, now - Number(r.authorized_at)) }));
}

/** venueUsageSummary: top venues by bandwidth (then name); connections whose venue was deleted are left out. */
export async function venueUsage(scope: AnalyticsScope, limit = 5): Promise<VenueUsage[]> {
  const { startMs, endMs } = windowOf(scope);
  // From the organisation's venues into their daily rows: one index range per venue.
  let query = db
    .selectFrom("venues")
    .innerJoin("usage_daily as u", (join) =>
      join
        .onRef("u.venue_id", "=", "venues.id")
        .on("u.organization_id", "=", scope.organizationId)
        .on("u.day_start", ">=", startMs)
        .on("u.day_start", "<", endMs),
    )
    .where("venues.organization_id", "=", scope.organizationId);
  const venues = venuesOf(scope);
  if (venues) query = query.where("venues.id", "in", venues);
  const rows = await query
    .select([
      "venues.id as venueId",
      "venues.name as venueName",
      footfall.as("footfall"),
      sql<number>`sum(u.connections)`.as("connections"),
      bandwidth.as("bandwidth"),
    ])
    .groupBy(["venues.id", "venues.name"])
    .having(footfall, ">", 0)
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

/** accessPointUsageSummary: top access points by bandwidth (then name); deleted access points are left out. */
export async function accessPointUsage(scope: AnalyticsScope, limit = 5): Promise<AccessPointUsage[]> {
  const { startMs, endMs } = windowOf(scope);
  let perAccessPoint = db
    .selectFrom("usage_daily_ap as u")
    .where("u.organization_id", "=", scope.organizationId)
    .where("u.day_start", ">=", startMs)
    .where("u.day_start", "<", endMs)
    .where("u.access_point_id", "<>", 0);
  const venues = venuesOf(scope);
  if (venues) perAccessPoint = perAccessPoint.where("u.venue_id", "in", venues);
  const totals = perAccessPoint
    .select(["u.access_point_id", footfall.as("footfall"), sql<number>`sum(u.connections)`.as("connections"), bandwidth.as("bandwidth")])
    .groupBy("u.access_point_id")
    .having(footfall, ">", 0)
    .as("t");
  const rows = await db
    .selectFrom(totals)
    .innerJoin("access_points", "access_points.id", "t.access_point_id")
    .leftJoin("venues", "venues.id", "access_points.venue_id")
    .select([
      "access_points.id as accessPointId",
      "access_points.name as apName",
      "venues.name as venueName",
      "access_points.mac_address as accessPointMac",
      "t.footfall",
      "t.connections",
      "t.bandwidth",
    ])
    .orderBy("t.bandwidth", "desc")
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

/** aggregateAuthModeSummary: authorized connections by authorization mode, most first. */
export async function authModeSummary(scope: AnalyticsScope): Promise<AuthModeUsage[]> {
  const connections = sql<number>`sum(d.connections)`;
  const rows = await dimension(scope, "mode")
    .select(["d.value as mode", connections.as("connections")])
    .groupBy("d.value")
    .having(connections, ">", 0)
    .orderBy("connections", "desc")
    .orderBy("d.value")
    .execute();
  return rows.map((r) => ({ mode: r.mode, connections: Number(r.connections) }));
}

/** aggregateDeviceSummary: by a property of the device (its current value); brand top 5 and browser top 10 unless a limit is given. */
export async function deviceSummary(scope: AnalyticsScope, name: DeviceDimension, limit?: number): Promise<DeviceUsage[]> {
  const rows = await dimension(scope, name)
    .select(["d.value as key", sql<number>`sum(d.connections)`.as("connections"), sql<number>`sum(d.footfall)`.as("footfall")])
    .groupBy("d.value")
    .execute();
  return toDeviceUsage(rows, name, limit);
}

/** Traffic flow: footfall by weekday and hour of day (the organisation's). */
export async function trafficHeatmap(scope: AnalyticsScope): Promise<TrafficCell[]> {
  const { offsetMs } = windowOf(scope);
  const weekday = weekdayOf(sql.ref("u.hour_start"), offsetMs);
  const hour = hourOfDay(sql.ref("u.hour_start"), offsetMs);
  const rows = await hourly(scope)
    .select([weekday.as("weekday"), hour.as("hour"), footfall.as("footfall")])
    .groupBy([weekday, hour])
    .having(footfall, ">", 0)
    .orderBy(weekday)
    .orderBy(hour)
    .execute();
  return rows.map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), footfall: Number(r.footfall) }));
}

/**
 * Distinct customers with an authorized connection in the window, and how many of them are new
 * (first authorized connection in the organisation inside the window); repeat = distinct − new.
 */
async function distinctAndNew(scope: AnalyticsScope): Promise<{ customers: number; newCustomers: number }> {
  const { organizationId } = scope;
  const { startMs, endMs } = windowOf(scope);
  const venues = venuesOf(scope);
  if (venues && venues.length > 1) return distinctAndNewAtVenues(scope, venues);
  const venueKey = venues ? venues[0] : 0;
  // A customer present in [start, end) has exactly one visit day there whose next visit is at or after the end.
  const present = db
    .selectFrom("customer_gaps")
    .where("organization_id", "=", organizationId)
    .where("venue_key", "=", venueKey)
    .where("next_day", ">=", endMs)
    .where("day_start", ">=", startMs)
    .where("day_start", "<", endMs)
    .select(sql<number>`coalesce(sum(customers), 0)`.as("n"))
    .executeTakeFirstOrThrow();
  // New: first day in the organisation at or after the start, first day at the venue before the end.
  const fresh = db
    .selectFrom("customer_first_days")
    .where("organization_id", "=", organizationId)
    .where("venue_key", "=", venueKey)
    .where("org_first_day", ">=", startMs)
    .where("venue_first_day", "<", endMs)
    .select(sql<number>`coalesce(sum(customers), 0)`.as("n"))
    .executeTakeFirstOrThrow();
  const [p, f] = await Promise.all([present, fresh]);
  return { customers: Number(p.n), newCustomers: Number(f.n) };
}

/**
 * Several venues: a customer may have visited more than one, so the customers are collected and
 * counted: at each venue, the customer's last visit day in the window (the one whose next visit is
 * at or after the end), one range per venue of a partial index that also holds the customer's
 * first day in the organisation (new when it is not before the start).
 */
async function distinctAndNewAtVenues(scope: AnalyticsScope, venues: number[]): Promise<{ customers: number; newCustomers: number }> {
  const { organizationId } = scope;
  const { startMs, endMs } = windowOf(scope);
  const lastVisits = venues.map((venueId) =>
    db
      .selectFrom("customer_visit_days as v")
      .select(["v.customer_id", "v.org_first_day"])
      .where("v.organization_id", "=", organizationId)
      .where(sql<boolean>`v.venue_key <> 0`) // literally the partial index's condition, so it serves the query
      .where("v.venue_key", "=", venueId)
      .where("v.day_start", ">=", startMs)
      .where("v.day_start", "<", endMs)
      .where("v.next_day", ">=", endMs),
  );
  // One row per customer (their first day in the organisation is the same on every row).
  const customers = db
    .selectFrom(
      lastVisits
        .slice(1)
        .reduce((all, query) => all.unionAll(query), lastVisits[0])
        .as("visits"),
    )
    .select(["visits.customer_id", (eb) => eb.fn.max("visits.org_first_day").as("org_first_day")])
    .groupBy("visits.customer_id")
    .as("customers");
  const row = await db
    .selectFrom(customers)
    .select((eb) => [
      eb.fn.countAll<number>().as("customers"),
      eb.fn.sum<number>(eb.case().when("customers.org_first_day", ">=", startMs).then(1).else(0).end()).as("newCustomers"),
    ])
    .executeTakeFirstOrThrow();
  return { customers: Number(row.customers), newCustomers: Number(row.newCustomers ?? 0) };
}

/** New and repeat customers of the window. */
export async function customerCounts(scope: AnalyticsScope): Promise<{ newCustomers: number; repeatCustomers: number }> {
  const { customers, newCustomers } = await distinctAndNew(scope);
  return { newCustomers, repeatCustomers: customers - newCustomers };
}

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
