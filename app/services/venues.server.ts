// Networks (venues) of an organisation (docs/guide/networks.md#networks-list, #network-form,
// #network-profile, docs/guide/api.md#account-service). Every function takes the guard's context
// first and filters by ctx.org.id itself; a venue of another organisation, a missing one or a
// malformed id is a 404. Mutations check their permission here too, so the pages and the API refuse
// alike.
import { db } from "~/db/db.server";
import { containsText } from "~/db/sql.server";
import { dateRange, type DateRange } from "~/lib/date-range";
import type { ListParams } from "~/lib/pagination";
import type { VenueInput } from "~/lib/schemas/venues";
import { uniqueCustomers, venueUsage } from "./analytics.server";
import { newPortalKey } from "./crypto.server";
import { notFound, requirePermission, type OrgContext } from "./guard.server";
import type { OrgClock } from "~/lib/time-zone";

const VENUE_COLUMNS = [
  "id",
  "name",
  "address",
  "email",
  "phone_number",
  "custom_splash_url",
  "success_url",
  "more_info",
  "layout_image",
  "layout_polygon",
  "map_zoom",
  "lat",
  "lng",
  "created_at",
  "updated_at",
] as const;

export interface VenueCounts {
  accessPointsCount: number;
  /** Distinct customers with an authorized connection at the venue, ever. */
  customersCount: number;
  /** Authorized connections at the venue, ever (docs/glossary.md#analytics-definitions: "connections" are authorized ones). */
  connectionsCount: number;
  /** Authorized and not ended. */
  onlineConnectionsCount: number;
}

const NO_COUNTS: VenueCounts = { accessPointsCount: 0, customersCount: 0, connectionsCount: 0, onlineConnectionsCount: 0 };

/** The organisation's venue with every column the settings form and the API show, or a 404. */
export async function getVenue(ctx: OrgContext, venueId: number | null) {
  if (venueId === null) notFound();
  const row = await db
    .selectFrom("venues")
    .select([...VENUE_COLUMNS])
    .where("id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/** The profile header: name, email and phone of the organisation's venue, or a 404. */
export async function getVenueHeader(ctx: OrgContext, venueId: number | null) {
  if (venueId === null) notFound();
  const row = await db
    .selectFrom("venues")
    .select(["id", "name", "email", "phone_number"])
    .where("id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/**
 * Where the organisation's connections online now (authorized, not ended) are: one row per online
 * connection, counted by the caller. The query names nothing but the organisation and the online
 * conditions, so both engines read the small connections_online partial index; a venue or MAC
 * condition, a GROUP BY or an ORDER BY here lets SQLite's planner (which has no statistics) walk a
 * broader index of all history instead, seconds at millions of rows.
 */
export async function onlineNow(organizationId: number): Promise<{ venue_id: number | null; access_point_mac: string | null }[]> {
  return db
    .selectFrom("connections")
    .select(["venue_id", "access_point_mac"])
    .where("organization_id", "=", organizationId)
    .where("authorized_at", "is not", null)
    .where("ended_at", "is", null)
    .execute();
}

/** How many of these rows share each key. */
export function countBy<T>(rows: readonly T[], key: (row: T) => string | number | null): Map<string | number | null, number> {
  const counts = new Map<string | number | null, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return counts;
}

/** All history up to the end of today, as a window of whole local days (the analytics roll-ups answer it). */
function allHistory(clock: OrgClock): Pick<DateRange, "startMs" | "endMs" | "offsetMs"> {
  return { startMs: -clock.offsetMs, endMs: dateRange(null, null, Date.now(), clock.offsetMs).endMs, offsetMs: clock.offsetMs };
}

/**
 * The all-time counts of the given venues (all of the organisation's): access points (one grouped
 * query); authorized connections and distinct clients from the analytics roll-ups, so a venue with
 * millions of connections costs a few thousand roll-up rows; online now from the online index.
 */
export async function venueCounts(
  org: Pick<OrgContext["org"], "id" | "clock">,
  venueIds: readonly number[],
  /** customers: false leaves customersCount at 0 and saves its roll-up reads (two per venue). */
  { customers = true }: { customers?: boolean } = {},
): Promise<Map<number, VenueCounts>> {
  const counts = new Map<number, VenueCounts>(venueIds.map((id) => [id, { ...NO_COUNTS }]));
  if (venueIds.length === 0) return counts;
  const ids = [...venueIds];
  const organizationId = org.id;
  const range = allHistory(org.clock);
  const [accessPoints, usage, clients, online] = await Promise.all([
    db
      .selectFrom("access_points")
      .select(["venue_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("organization_id", "=", organizationId)
      .where("venue_id", "in", ids)
      .groupBy("venue_id")
      .execute(),
    venueUsage({ organizationId, venueIds: ids, range }, ids.length),
    Promise.all(ids.map((id) => (customers ? uniqueCustomers({ organizationId, venueIds: [id], range }) : 0))),
    onlineNow(organizationId),
  ]);
  for (const r of accessPoints) counts.get(r.venue_id)!.accessPointsCount = Number(r.n);
  for (const r of usage) {
    const c = counts.get(r.venueId);
    if (c) c.connectionsCount = r.connections;
  }
  ids.forEach((id, i) => (counts.get(id)!.customersCount = clients[i]));
  const onlineByVenue = countBy(online, (r) => r.venue_id);
  for (const [id, c] of counts) c.onlineConnectionsCount = onlineByVenue.get(id) ?? 0;
  return counts;
}

/** venues(order 'name asc', search): one page of the organisation's venues with their counts. */
export async function listVenues(ctx: OrgContext, params: Pick<ListParams, "offset" | "pageSize" | "search">) {
  const { rows, total } = await listVenueRows(ctx, params);
  const counts = await venueCounts(
    ctx.org,
    rows.map((r) => r.id),
  );
  return { venues: rows.map((r) => ({ ...r, ...counts.get(r.id)! })), total };
}

/** One page of the organisation's venues by name, without counts (the data API reads them only when asked). */
export async function listVenueRows(ctx: OrgContext, params: Pick<ListParams, "offset" | "pageSize" | "search">) {
  let query = db.selectFrom("venues").where("organization_id", "=", ctx.org.id);
  if (params.search) {
    query = query.where((eb) => eb.or([containsText("name", params.search), containsText("address", params.search)]));
  }
  const [rows, count] = await Promise.all([
    query
      .select([...VENUE_COLUMNS])
      .orderBy("name", "asc")
      .orderBy("id", "asc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The organisation's venues as choices (the access point form's network select), by name. */
export async function venueOptions(ctx: OrgContext): Promise<{ value: string; label: string }[]> {
  const rows = await db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name", "asc")
    .orderBy("id", "asc")
    .limit(5000)
    .execute();
  return rows.map((r) => ({ value: String(r.id), label: r.name }));
}

/** POST venues. */
export async function createVenue(ctx: OrgContext, input: VenueInput): Promise<{ id: number; name: string }> {
  requirePermission(ctx, "create_networks");
  const now = Date.now();
  return db
    .insertInto("venues")
    .values({
      organization_id: ctx.org.id,
      ...input,
      layout_image: null,
      layout_polygon: null,
      map_zoom: null,
      lat: null,
      lng: null,
      portal_key: newPortalKey(),
      created_at: now,
      updated_at: now,
    })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

/** PUT venues/{id} with the settings form's fields (layout and map fields are left alone). */
export async function updateVenue(ctx: OrgContext, venueId: number | null, input: VenueInput): Promise<void> {
  requirePermission(ctx, "edit_networks");
  const venue = await getVenueHeader(ctx, venueId);
  await db
    .updateTable("venues")
    .set({ ...input, updated_at: Date.now() })
    .where("id", "=", venue.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
}

/** The confirmation question of deleting a venue: what is lost and what is kept. */
export function venueDeleteQuestion(name: string, accessPoints: number): string {
  const aps =
    accessPoints === 0
      ? "It has no access points."
      : `Its ${accessPoints === 1 ? "access point is" : `${accessPoints} access points are`} deleted with it.`;
  return `Are you sure you want to delete the network ${name}? ${aps} Its connection history is kept, no longer linked to a network.`;
}

export async function countVenueAccessPoints(ctx: OrgContext, venueId: number): Promise<number> {
  const row = await db
    .selectFrom("access_points")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * DELETE venues/{id}. The catalogue has no permission for deleting networks; edit_networks (the
 * settings page's own permission) guards it. The foreign keys do the rest: access points
 * cascade; connections keep their rows with venue_id and access_point_id set to null (their
 * access_point_mac stays, so an access point's history can still be found by MAC).
 */
export async function deleteVenue(ctx: OrgContext, venueId: number | null): Promise<{ name: string; accessPoints: number }> {
  requirePermission(ctx, "edit_networks");
  const venue = await getVenueHeader(ctx, venueId);
  return db.transaction().execute(async (trx) => {
    const aps = await trx
      .deleteFrom("access_points")
      .where("organization_id", "=", ctx.org.id)
      .where("venue_id", "=", venue.id)
      .executeTakeFirst();
    await trx.deleteFrom("venues").where("id", "=", venue.id).where("organization_id", "=", ctx.org.id).execute();
    return { name: venue.name, accessPoints: Number(aps.numDeletedRows) };
  });
}

/** The organisation's venues with these ids (others' and missing ids are left out), for the data API's batches. */
export async function venuesByIds(ctx: OrgContext, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("venues")
    .select([...VENUE_COLUMNS])
    .where("organization_id", "=", ctx.org.id)
    .where("id", "in", [...ids])
    .execute();
}
