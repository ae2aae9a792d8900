// The layout designer and the network map (docs/guide/networks.md#layout-designer,
// #network-map): a venue's floor-plan image, where its access points sit on the plan (canvas
// pixels) and on the map (lat/lng), the map's centre and zoom, the layout polygon and the
// zones. Every write needs edit_network_layout; every query is scoped to the organisation, and
// a venue, access point or zone of another one is a 404.
import { json } from "@remix-run/node";
import { db } from "~/db/db.server";
import type { DateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import type { ImageExtension } from "~/lib/image-type";
import { MAX_ZONES_PER_VENUE, storedPolygons, zoneSquare, type LatLng, type Polygon } from "~/lib/layout";
import type { Outcome } from "~/lib/outcome";
import { notFound, requirePermission, type OrgContext } from "./guard.server";
import { assetStore, newAssetKey, type StoredAsset } from "./storage.server";

/** Enough for any real venue; the pages say so when a venue has more. */
export const MAX_ACCESS_POINTS_SHOWN = 1000;

export const ZONE_MESSAGES = {
  tooMany: `A network can have at most ${MAX_ZONES_PER_VENUE} zones.`,
} as const;

const VENUE_NOT_FOUND = "Network not found.";
const AP_NOT_FOUND = "Access point not found.";

export interface VenueLayout {
  id: number;
  name: string;
  layoutImage: string | null;
  polygons: Polygon[];
  mapZoom: number | null;
  lat: number | null;
  lng: number | null;
}

/** A venue id from the URL; anything that is not one is a 404. */
export function venueIdParam(raw: string | undefined): number {
  const id = parseId(raw);
  if (id === null) notFound(VENUE_NOT_FOUND);
  return id;
}

export async function getVenueLayout(ctx: OrgContext, venueId: number): Promise<VenueLayout> {
  const venue = await db
    .selectFrom("venues")
    .select(["id", "name", "layout_image", "layout_polygon", "map_zoom", "lat", "lng"])
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", venueId)
    .executeTakeFirst();
  if (!venue) notFound(VENUE_NOT_FOUND);
  return {
    id: venue.id,
    name: venue.name,
    layoutImage: venue.layout_image,
    polygons: storedPolygons(venue.layout_polygon),
    mapZoom: venue.map_zoom,
    lat: venue.lat,
    lng: venue.lng,
  };
}

export interface PlacedAccessPoint {
  id: number;
  name: string;
  macAddress: string;
  layoutX: number | null;
  layoutY: number | null;
  lat: number | null;
  lng: number | null;
}

/** The venue's access points by name (at most MAX_ACCESS_POINTS_SHOWN + 1, so callers can tell there are more). */
export async function listVenueAccessPoints(ctx: OrgContext, venueId: number): Promise<PlacedAccessPoint[]> {
  const rows = await db
    .selectFrom("access_points")
    .select(["id", "name", "mac_address", "layout_x", "layout_y", "lat", "lng"])
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .orderBy("name")
    .orderBy("id")
    .limit(MAX_ACCESS_POINTS_SHOWN + 1)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    macAddress: r.mac_address,
    layoutX: r.layout_x,
    layoutY: r.layout_y,
    lat: r.lat,
    lng: r.lng,
  }));
}

// ---------------------------------------------------------------------------------------------
// Floor-plan image

/** Where the page shows the image: the org-scoped image route, versioned by the stored key. */
export function layoutImageUrl(orgId: number, venueId: number, key: string): string {
  return `/${orgId}/venues/${venueId}/layout-image?v=${layoutImageVersion(key)}`;
}

/** The random part of a stored key: new with every upload. */
export function layoutImageVersion(key: string): string {
  return key.match(/-([0-9a-f]+)\.[a-z]+$/)?.[1] ?? "0";
}

/** Stores a checked image as the venue's floor plan and removes the one it replaces. */
export async function saveLayoutImage(ctx: OrgContext, venueId: number, image: { bytes: Uint8Array; extension: ImageExtension }) {
  requirePermission(ctx, "edit_network_layout");
  const venue = await getVenueLayout(ctx, venueId);
  const store = assetStore();
  const key = newAssetKey(`floor-plans/${ctx.org.id}`, `venue-${venue.id}`, image.extension);
  await store.put(key, image.bytes);
  try {
    await db
      .updateTable("venues")
      .set({ layout_image: key, updated_at: Date.now() })
      .where("organization_id", "=", ctx.org.id)
      .where("id", "=", venue.id)
      .execute();
  } catch (error) {
    await store.delete(key).catch(() => undefined);
    throw error;
  }
  if (venue.layoutImage && venue.layoutImage !== key) await removeLayoutImageFile(venue.layoutImage);
  return { key, url: layoutImageUrl(ctx.org.id, venue.id, key) };
}

/**
 * Removes a floor-plan file whose venue row no longer points at it (replaced, or the venue deleted:
 * call it after the delete commits). A failure is logged, not thrown: the database is already right.
 */
export async function removeLayoutImageFile(key: string | null) {
  if (!key) return;
  try {
    await assetStore().delete(key);
  } catch (error) {
    console.error(JSON.stringify({ at: new Date().toISOString(), event: "asset_delete_failed", key, error: String(error) }));
  }
}

/** The venue's floor-plan image, or a 404 when it has none (or its file is gone). */
export async function openLayoutImage(ctx: OrgContext, venueId: number): Promise<{ key: string; asset: StoredAsset }> {
  const venue = await getVenueLayout(ctx, venueId);
  if (!venue.layoutImage) notFound("This network has no layout plan.");
  const asset = await assetStore().get(venue.layoutImage);
  if (!asset) notFound("This network has no layout plan.");
  return { key: venue.layoutImage, asset };
}

/** Every floor plan of the organisation's networks, as GET assets lists them (name {venueId}_floor_plan). */
export async function listFloorPlans(ctx: OrgContext): Promise<{ name: string; path: string }[]> {
  const rows = await db
    .selectFrom("venues")
    .select(["id", "layout_image"])
    .where("organization_id", "=", ctx.org.id)
    .where("layout_image", "is not", null)
    .orderBy("id")
    .limit(MAX_ACCESS_POINTS_SHOWN)
    .execute();
  return rows.map((r) => ({ name: `${r.id}_floor_plan`, path: layoutImageUrl(ctx.org.id, r.id, r.layout_image!) }));
}

// ---------------------------------------------------------------------------------------------
// Access point positions

/** Throws a 404 unless every id is an access point of this venue in this organisation. */
async function requireVenueAccessPoints(ctx: OrgContext, venueId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await db
    .selectFrom("access_points")
    .select("id")
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .where("id", "in", unique)
    .execute();
  if (found.length !== unique.length) notFound(AP_NOT_FOUND);
}

export interface FloorPositionInput {
  id: number;
  layout_x?: number;
  layout_y?: number;
}

/** Saves floor-plan positions (pixels of the 1310 × 700 canvas); a row without x and y takes the access point off the plan. */
export async function setFloorPositions(ctx: OrgContext, venueId: number, rows: FloorPositionInput[]): Promise<void> {
  requirePermission(ctx, "edit_network_layout");
  await getVenueLayout(ctx, venueId);
  await requireVenueAccessPoints(
    ctx,
    venueId,
    rows.map((r) => r.id),
  );
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .updateTable("access_points")
        .set({ layout_x: row.layout_x ?? null, layout_y: row.layout_y ?? null, updated_at: now })
        .where("organization_id", "=", ctx.org.id)
        .where("id", "=", row.id)
        .execute();
    }
  });
}

export interface MapPositionInput {
  id: number;
  lat?: number;
  lng?: number;
}

/** Saves map positions of a venue's access points; a row without lat and lng takes it off the map. */
export async function setMapPositions(ctx: OrgContext, venueId: number, rows: MapPositionInput[]): Promise<void> {
  requirePermission(ctx, "edit_network_layout");
  await getVenueLayout(ctx, venueId);
  await requireVenueAccessPoints(
    ctx,
    venueId,
    rows.map((r) => r.id),
  );
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .updateTable("access_points")
        .set({ lat: row.lat ?? null, lng: row.lng ?? null, updated_at: now })
        .where("organization_id", "=", ctx.org.id)
        .where("id", "=", row.id)
        .execute();
    }
  });
}

/** PUT access_points/map/{id}: one access point of any venue of the organisation. */
export async function setAccessPointMapPosition(ctx: OrgContext, apId: number, position: LatLng) {
  requirePermission(ctx, "edit_network_layout");
  const updated = await db
    .updateTable("access_points")
    .set({ lat: position.lat, lng: position.lng, updated_at: Date.now() })
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", apId)
    .returning(["id", "name", "venue_id", "lat", "lng"])
    .executeTakeFirst();
  if (!updated) notFound(AP_NOT_FOUND);
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Map centre, zoom and layout polygon

export interface VenueMapUpdate {
  lat?: number;
  lng?: number;
  map_zoom?: number;
  /** Undefined: unchanged; an empty list clears the polygon. */
  layout_polygon?: Polygon[];
}

export async function updateVenueMap(ctx: OrgContext, venueId: number, input: VenueMapUpdate): Promise<VenueLayout> {
  requirePermission(ctx, "edit_network_layout");
  await getVenueLayout(ctx, venueId);
  const changes: { lat?: number; lng?: number; map_zoom?: number; layout_polygon?: string | null } = {};
  if (input.lat !== undefined && input.lng !== undefined) Object.assign(changes, { lat: input.lat, lng: input.lng });
  if (input.map_zoom !== undefined) changes.map_zoom = input.map_zoom;
  if (input.layout_polygon !== undefined) {
    changes.layout_polygon = input.layout_polygon.length ? JSON.stringify(input.layout_polygon) : null;
  }
  if (Object.keys(changes).length > 0) {
    await db
      .updateTable("venues")
      .set({ ...changes, updated_at: Date.now() })
      .where("organization_id", "=", ctx.org.id)
      .where("id", "=", venueId)
      .execute();
  }
  return getVenueLayout(ctx, venueId);
}

// ---------------------------------------------------------------------------------------------
// Zones

export interface Zone {
  id: number;
  polygon: Polygon;
  createdAt: number;
}

export async function listZones(ctx: OrgContext, venueId: number): Promise<Zone[]> {
  const rows = await db
    .selectFrom("venue_zones")
    .select(["id", "polygon", "created_at"])
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .orderBy("id")
    .limit(MAX_ZONES_PER_VENUE)
    .execute();
  return rows.map((r) => ({ id: r.id, polygon: storedPolygons(r.polygon)[0] ?? [], createdAt: Number(r.created_at) }));
}

/** Adds a zone: the 0.001° square whose south-west corner is `corner`. */
export async function addZone(ctx: OrgContext, venueId: number, corner: LatLng): Promise<Outcome<{ zone: Zone }>> {
  requirePermission(ctx, "edit_network_layout");
  await getVenueLayout(ctx, venueId);
  const { count } = await db
    .selectFrom("venue_zones")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_ZONES_PER_VENUE) return { ok: false, formErrors: [ZONE_MESSAGES.tooMany] };
  const polygon = zoneSquare(corner);
  const created = await db
    .insertInto("venue_zones")
    .values({ organization_id: ctx.org.id, venue_id: venueId, polygon: JSON.stringify(polygon), created_at: Date.now() })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
  return { ok: true, zone: { id: created.id, polygon, createdAt: Number(created.created_at) } };
}

export async function removeZone(ctx: OrgContext, venueId: number, zoneId: number): Promise<void> {
  requirePermission(ctx, "edit_network_layout");
  const removed = await db
    .deleteFrom("venue_zones")
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .where("id", "=", zoneId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) notFound("Zone not found.");
}

// ---------------------------------------------------------------------------------------------
// Heatmap

/** Authorized connections per access point of the venue in the range (the heatmap's intensity). */
export async function connectionsPerAccessPoint(ctx: OrgContext, venueId: number, range: Pick<DateRange, "startMs" | "endMs">) {
  const rows = await db
    .selectFrom("connections")
    .select(["access_point_id", (eb) => eb.fn.countAll<number>().as("connections")])
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .where("created_at", ">=", range.startMs)
    .where("created_at", "<", range.endMs)
    .where("authorized_at", "is not", null)
    .where("access_point_id", "is not", null)
    .groupBy("access_point_id")
    .execute();
  return new Map(rows.map((r) => [r.access_point_id as number, Number(r.connections)]));
}

// ---------------------------------------------------------------------------------------------
// Fetcher answers

export type SaveResult = { ok: true } | { ok: false; message: string };

/**
 * Runs a save posted by a fetcher (a dropped marker, Update Layout, a zone click) and answers as
 * data: a refusal (403) or a missing record (404) thrown by the guard or the service becomes
 * { ok: false, message } with its status, for the page to show instead of replacing itself.
 */
export async function fetcherSave(work: () => Promise<SaveResult>) {
  try {
    const result = await work();
    return json(result, { status: result.ok ? 200 : 400 });
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status >= 500 || thrown.status < 400) throw thrown;
    const body = (await thrown.json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === "string" ? body.message : "The change could not be saved.";
    return json({ ok: false, message } satisfies SaveResult, { status: thrown.status });
  }
}

/** The first message of a failed submission, for a fetcher's answer. */
export function firstError(error: Record<string, string[] | null> | null | undefined): string {
  return (
    Object.values(error ?? {})
      .flat()
      .find(Boolean) ?? "The change could not be read."
  );
}
