// Access points (hotspots) of an organisation (docs/guide/access-points.md#access-points-list,
// #access-point-details, #access-point-form, docs/guide/api.md#account-service). Every function
// takes the guard's context first and filters by ctx.org.id; an access point or network of another
// organisation, a missing one or a malformed id is a 404. Connections name their access point by
// MAC address (access_point_mac), so the counts and the details' tabs filter by MAC.
import { db } from "~/db/db.server";
import { containsText, isForeignKeyViolation, isUniqueViolation } from "~/db/sql.server";
import type { DateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import type { Outcome } from "~/lib/outcome";
import type { ListParams } from "~/lib/pagination";
import type { AccessPointInput } from "~/lib/schemas/access-points";
import { notFound, requirePermission, type OrgContext } from "./guard.server";
import { countBy, onlineNow } from "./venues.server";

export const ACCESS_POINT_REFUSALS = {
  macTaken: (name: string) => `This MAC address is already used by the access point ${name} in this organization.`,
  macTakenRace: "This MAC address is already used by another access point in this organization.",
} as const;

const AP_COLUMNS = [
  "access_points.id",
  "access_points.name",
  "access_points.make",
  "access_points.mac_address",
  "access_points.serial_number",
  "access_points.custom_splash_url",
  "access_points.success_url",
  "access_points.description",
  "access_points.venue_id",
  "access_points.lat",
  "access_points.lng",
  "access_points.layout_x",
  "access_points.layout_y",
  "access_points.created_at",
  "access_points.updated_at",
] as const;

export interface AccessPointCounts {
  /** Distinct customers with an authorized connection through the access point. */
  customersCount: number;
  /** Authorized connections. */
  connectionsCount: number;
  /** Authorized and not ended, now (whatever the range). */
  onlineConnectionsCount: number;
}

/** The organisation's access point with its network's name, or a 404. */
export async function getAccessPoint(ctx: OrgContext, apId: number | null) {
  if (apId === null) notFound();
  const row = await db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .select([...AP_COLUMNS, "venues.name as venue_name"])
    .where("access_points.id", "=", apId)
    .where("access_points.organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/** The organisation's network of a form's or URL's venue_id, or a 404. */
export async function findVenueForAccessPoint(ctx: OrgContext, rawVenueId: unknown) {
  const venueId = parseId(rawVenueId);
  if (venueId === null) notFound();
  const venue = await db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return venue ?? notFound();
}

/**
 * Connections, clients and online figures of the given MAC addresses (one organisation), in the
 * range when given: authorized ones on the connections_org_ap_mac_created index, online ones on the
 * online index.
 */
export async function accessPointCounts(
  organizationId: number,
  macs: readonly string[],
  range?: Pick<DateRange, "startMs" | "endMs">,
): Promise<Map<string, AccessPointCounts>> {
  const counts = new Map<string, AccessPointCounts>(
    macs.map((m) => [m, { customersCount: 0, connectionsCount: 0, onlineConnectionsCount: 0 }]),
  );
  if (macs.length === 0) return counts;
  let authorized = db
    .selectFrom("connections")
    .select([
      "access_point_mac",
      (eb) => eb.fn.countAll<number>().as("n"),
      (eb) => eb.fn.count<number>("customer_id").distinct().as("customers"),
    ])
    .where("organization_id", "=", organizationId)
    .where("access_point_mac", "in", [...macs])
    .where("authorized_at", "is not", null);
  if (range) authorized = authorized.where("created_at", ">=", range.startMs).where("created_at", "<", range.endMs);
  const [connections, online] = await Promise.all([authorized.groupBy("access_point_mac").execute(), onlineNow(organizationId)]);
  for (const r of connections) {
    const c = counts.get(r.access_point_mac!);
    if (c) {
      c.connectionsCount = Number(r.n);
      c.customersCount = Number(r.customers);
    }
  }
  const onlineByMac = countBy(online, (r) => r.access_point_mac);
  for (const [mac, c] of counts) c.onlineConnectionsCount = onlineByMac.get(mac) ?? 0;
  return counts;
}

export interface AccessPointFilter {
  venueId?: number;
}

/** accessPoints: one page of the organisation's (or one network's) access points by name, with counts. */
export async function listAccessPoints(
  ctx: OrgContext,
  filter: AccessPointFilter,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
  range?: Pick<DateRange, "startMs" | "endMs">,
) {
  let query = db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .where("access_points.organization_id", "=", ctx.org.id);
  if (filter.venueId !== undefined) query = query.where("access_points.venue_id", "=", filter.venueId);
  if (params.search) {
    const term = params.search;
    query = query.where((eb) =>
      eb.or([
        containsText("access_points.name", term),
        containsText("access_points.mac_address", term),
        containsText("access_points.serial_number", term),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select([...AP_COLUMNS, "venues.name as venue_name"])
      .orderBy("access_points.name", "asc")
      .orderBy("access_points.id", "asc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  const counts = await accessPointCounts(
    ctx.org.id,
    rows.map((r) => r.mac_address),
    range,
  );
  return { accessPoints: rows.map((r) => ({ ...r, ...counts.get(r.mac_address)! })), total: Number(count.total) };
}

/**
 * Distinct devices with an authorized connection through each of the given MAC addresses (one
 * organisation), in the range when given, as the details' overview card counts them: one grouped
 * query on the connections_org_ap_mac_created index (the data API's devicesCount).
 */
export async function accessPointDeviceCounts(
  organizationId: number,
  macs: readonly string[],
  range?: Pick<DateRange, "startMs" | "endMs">,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(macs.map((m) => [m, 0]));
  if (macs.length === 0) return counts;
  let query = db
    .selectFrom("connections")
    .select(["access_point_mac", (eb) => eb.fn.count<number>("device_id").distinct().as("devices")])
    .where("organization_id", "=", organizationId)
    .where("access_point_mac", "in", [...macs])
    .where("authorized_at", "is not", null);
  if (range) query = query.where("created_at", ">=", range.startMs).where("created_at", "<", range.endMs);
  for (const r of await query.groupBy("access_point_mac").execute()) {
    if (counts.has(r.access_point_mac!)) counts.set(r.access_point_mac!, Number(r.devices));
  }
  return counts;
}

/**
 * The details' overview cards over the window (one year on the page): authorized connections, the
 * distinct devices and clients that made them, and who is online now.
 */
export async function accessPointOverview(ctx: OrgContext, mac: string, range: Pick<DateRange, "startMs" | "endMs">) {
  const [seen, online] = await Promise.all([
    db
      .selectFrom("connections")
      .select([
        (eb) => eb.fn.count<number>("device_id").distinct().as("devices"),
        (eb) => eb.fn.count<number>("customer_id").distinct().as("customers"),
        (eb) => eb.fn.countAll<number>().as("connections"),
      ])
      .where("organization_id", "=", ctx.org.id)
      .where("access_point_mac", "=", mac)
      .where("authorized_at", "is not", null)
      .where("created_at", ">=", range.startMs)
      .where("created_at", "<", range.endMs)
      .executeTakeFirstOrThrow(),
    onlineNow(ctx.org.id),
  ]);
  return {
    devices: Number(seen.devices),
    uniqueClients: Number(seen.customers),
    totalConnections: Number(seen.connections),
    online: online.filter((r) => r.access_point_mac === mac).length,
  };
}

/** Another access point of the organisation holding this MAC address (not `exceptId`). */
async function macHolder(ctx: OrgContext, mac: string, exceptId?: number) {
  let query = db
    .selectFrom("access_points")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .where("mac_address", "=", mac);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return query.executeTakeFirst();
}

function row(input: AccessPointInput, venueId: number) {
  return {
    name: input.name,
    make: input.make,
    mac_address: input.mac_address,
    serial_number: input.serial_number,
    custom_splash_url: input.custom_splash_url,
    success_url: input.success_url,
    description: input.description,
    venue_id: venueId,
    lat: input.lat,
    lng: input.lng,
    layout_x: input.layout_x,
    layout_y: input.layout_y,
  };
}

/** A MAC address is unique in an organisation: a clear message first, the unique index for races (a network deleted meanwhile is a 404). */
async function guardMac<T>(
  ctx: OrgContext,
  mac: string,
  exceptId: number | undefined,
  write: () => Promise<T>,
): Promise<Outcome<{ value: T }>> {
  const holder = await macHolder(ctx, mac, exceptId);
  if (holder) return { ok: false, fieldErrors: { mac_address: [ACCESS_POINT_REFUSALS.macTaken(holder.name)] } };
  try {
    return { ok: true, value: await write() };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { mac_address: [ACCESS_POINT_REFUSALS.macTakenRace] } };
    // The network was deleted between the check and the write.
    if (isForeignKeyViolation(error)) notFound();
    throw error;
  }
}

/** POST access_points: the network must be the organisation's (else 404). */
export async function createAccessPoint(ctx: OrgContext, input: AccessPointInput): Promise<Outcome<{ id: number }>> {
  requirePermission(ctx, "create_ap");
  const venue = await findVenueForAccessPoint(ctx, input.venue_id);
  const now = Date.now();
  const outcome = await guardMac(ctx, input.mac_address, undefined, () =>
    db
      .insertInto("access_points")
      .values({ organization_id: ctx.org.id, ...row(input, venue.id), last_seen_at: null, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow(),
  );
  return outcome.ok ? { ok: true, id: outcome.value.id } : outcome;
}

/** PUT access_points/{id}: every field replaced; moving to another network of the organisation is allowed. */
export async function updateAccessPoint(ctx: OrgContext, apId: number | null, input: AccessPointInput): Promise<Outcome> {
  requirePermission(ctx, "edit_ap");
  const ap = await getAccessPoint(ctx, apId);
  const venue = await findVenueForAccessPoint(ctx, input.venue_id);
  const outcome = await guardMac(ctx, input.mac_address, ap.id, () =>
    db
      .updateTable("access_points")
      .set({ ...row(input, venue.id), updated_at: Date.now() })
      .where("id", "=", ap.id)
      .where("organization_id", "=", ctx.org.id)
      .execute(),
  );
  return outcome.ok ? { ok: true } : outcome;
}

/** The confirmation question of deleting an access point: what goes and what stays. */
export function accessPointDeleteQuestion(name: string): string {
  return `Are you sure you want to delete the access point ${name}? Its connection history is kept.`;
}

/** DELETE access_points/{id}. Connections keep their rows (access_point_id becomes null, the MAC stays). */
export async function deleteAccessPoint(ctx: OrgContext, apId: number | null): Promise<{ name: string; venueId: number }> {
  requirePermission(ctx, "delete_ap");
  const ap = await getAccessPoint(ctx, apId);
  await db.deleteFrom("access_points").where("id", "=", ap.id).where("organization_id", "=", ctx.org.id).execute();
  return { name: ap.name, venueId: ap.venue_id };
}

/** The organisation's access points with these ids (others' and missing ids are left out), for the data API's batches. */
export async function accessPointsByIds(ctx: OrgContext, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .select([...AP_COLUMNS, "venues.name as venue_name"])
    .where("access_points.organization_id", "=", ctx.org.id)
    .where("access_points.id", "in", [...ids])
    .execute();
}

/** The first `limitPerVenue` access points by name of each of several of the organisation's networks, in one query. */
export async function accessPointsOfVenues(ctx: OrgContext, venueIds: readonly number[], limitPerVenue: number) {
  if (venueIds.length === 0) return [];
  const ranked = db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .select([
      ...AP_COLUMNS,
      "venues.name as venue_name",
      (eb) =>
        eb.fn
          .agg<number>("row_number")
          .over((ob) => ob.partitionBy("access_points.venue_id").orderBy("access_points.name", "asc").orderBy("access_points.id", "asc"))
          .as("rank"),
    ])
    .where("access_points.organization_id", "=", ctx.org.id)
    .where("access_points.venue_id", "in", [...venueIds]);
  const rows = await db
    .selectFrom(ranked.as("ranked"))
    .selectAll()
    .where("ranked.rank", "<=", limitPerVenue)
    .orderBy("ranked.venue_id")
    .orderBy("ranked.rank")
    .execute();
  return rows.map(({ rank: _rank, ...ap }) => ap);
}
