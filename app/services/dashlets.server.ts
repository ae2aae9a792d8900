// The data of each dashlet of the home dashboard (docs/guide/dashboard.md#dashlets). A loader per dashlet
// key; the page runs only those of the dashlets in the user's layout, all at once. Figures come
// from the analytics service; connections from the connections service.
import { sql, type ExpressionBuilder } from "kysely";
import type { DashletDataMap } from "~/lib/dashlet-data";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { bucketFor, fillBuckets } from "~/lib/analytics";
import type { DashletKey } from "~/lib/dashboard-layout";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import {
  accessPointUsage,
  authModeSummary,
  deviceSummary,
  dwellTimeSeries,
  footfallSeries,
  trafficHeatmap,
  usageSeries,
  venueUsage,
} from "./analytics.server";
import { campaignSummary } from "./ads/figures.server";
import { listConnections, type ConnectionFilter } from "./connections.server";
import type { DashboardFilters } from "./dashboard.server";
import { notFound, type OrgContext } from "./guard.server";
import { getVenueLayout, layoutImageUrl, listVenueAccessPoints, MAX_ACCESS_POINTS_SHOWN } from "./layout.server";
import { organizationCounts } from "./organizations.server";
import { onlineNow } from "./venues.server";

export interface DashletRequest {
  ctx: OrgContext;
  filters: DashboardFilters;
  url: URL;
}

/** Dashboard connection dashlets show 5 rows a page (docs/guide/dashboard.md#dashlets). */
const DASHLET_PAGE_SIZES = [5] as const;
/** Top lists: 5 by bandwidth; brands 5, browsers 10 (docs/guide/dashboard.md#dashlets). */
export const TOP_LIMIT = 5;
export const BRAND_LIMIT = 5;
export const BROWSER_LIMIT = 10;
export const OS_LIMIT = 10;

/**
 * An access point is online when it was seen (last_seen_at) or a guest reached the portal through it
 * in the last 15 minutes: controllers report in, and a connection proves the access point works.
 */
export const AP_ONLINE_WINDOW_MINUTES = 15;
const MAX_HEATMAP_TABS = 30;

/** Connections of the dashboard's venue filter: the connections list filters by one venue, so several chosen venues show all. */
function connectionsFilter(filters: DashboardFilters, extra: ConnectionFilter): ConnectionFilter {
  return filters.venueIds.length === 1 ? { ...extra, venueId: filters.venueIds[0] } : extra;
}

async function connectionsDashlet(req: DashletRequest, prefix: string, extra: ConnectionFilter) {
  if (!req.ctx.permissions.has("view_clients")) return { allowed: false as const };
  const params = parseListParams(req.url.searchParams, DASHLET_PAGE_SIZES, 5, prefix);
  const page = await listConnections(req.ctx, connectionsFilter(req.filters, extra), params);
  return { allowed: true as const, page, params };
}

/**
 * status { status } of several of the organisation's access points (the data API), by the access
 * point status dashlet's rule below (seen, or a guest connected through it, in the last
 * AP_ONLINE_WINDOW_MINUTES, or a guest online through it now): two queries for any number; others' and missing ids are "offline".
 */
export async function accessPointStatuses(orgId: number, ids: readonly number[]): Promise<Map<number, "online" | "offline">> {
  const statuses = new Map<number, "online" | "offline">(ids.map((id) => [id, "offline"]));
  if (ids.length === 0) return statuses;
  const online = await db
    .selectFrom("access_points")
    .select("access_points.id")
    .where("access_points.organization_id", "=", orgId)
    .where("access_points.id", "in", [...ids])
    .where(accessPointOnline(orgId, Date.now() - AP_ONLINE_WINDOW_MINUTES * 60_000, await onlineMacsOf(orgId)))
    .execute();
  for (const r of online) statuses.set(Number(r.id), "online");
  return statuses;
}

/**
 * The access point was seen, or a guest reached the portal through it, since `cutoff`, or a guest is
 * online through it now (`onlineMacs`, from onlineNow: a guest who connected an hour ago and is still
 * online proves the access point works as well as a new one, and "Online now" counts them).
 */
function accessPointOnline(orgId: number, cutoff: number, onlineMacs: readonly string[]) {
  return (eb: ExpressionBuilder<DB, "access_points">) =>
    eb.or([
      eb("access_points.last_seen_at", ">=", cutoff),
      ...(onlineMacs.length ? [eb("access_points.mac_address", "in", [...onlineMacs])] : []),
      eb.exists(
        eb
          .selectFrom("connections")
          .select(sql<number>`1`.as("one"))
          .where("connections.organization_id", "=", orgId)
          .whereRef("connections.access_point_mac", "=", "access_points.mac_address")
          .where("connections.created_at", ">=", cutoff),
      ),
    ]);
}

/** The MAC addresses of the access points guests are online through now (few: one per busy access point). */
async function onlineMacsOf(orgId: number): Promise<string[]> {
  const macs = new Set<string>();
  for (const r of await onlineNow(orgId)) if (r.access_point_mac) macs.add(r.access_point_mac);
  return [...macs];
}

async function accessPointStatus(req: DashletRequest): Promise<DashletDataMap["access_point_status"]> {
  const orgId = req.ctx.org.id;
  const cutoff = Date.now() - AP_ONLINE_WINDOW_MINUTES * 60_000;
  const { page, pageSize, offset } = parseListParams(req.url.searchParams, DASHLET_PAGE_SIZES, 5, "aps_");
  let base = db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .where("access_points.organization_id", "=", orgId);
  if (req.filters.venueIds.length) base = base.where("access_points.venue_id", "in", req.filters.venueIds);
  const isOnline = accessPointOnline(orgId, cutoff, await onlineMacsOf(orgId));
  const [total, onlineCount, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    base
      .where(isOnline)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    base
      .select((eb) => [
        "access_points.id",
        "access_points.name",
        "access_points.mac_address",
        "access_points.last_seen_at",
        "venues.name as venue_name",
        eb.case().when(isOnline(eb)).then(1).else(0).end().as("online"),
      ])
      .orderBy("access_points.name")
      .orderBy("access_points.id")
      .limit(pageSize)
      .offset(offset)
      .execute(),
  ]);
  return {
    total: Number(total.n),
    online: Number(onlineCount.n),
    windowMinutes: AP_ONLINE_WINDOW_MINUTES,
    page,
    pageSize,
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      macAddress: r.mac_address,
      venueName: r.venue_name,
      online: Number(r.online) === 1,
      lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
    })),
  };
}

async function indoorHeatmap(req: DashletRequest): Promise<DashletDataMap["indoor_heatmap"]> {
  const { ctx, filters, url } = req;
  let venuesQuery = db.selectFrom("venues").select(["id", "name"]).where("organization_id", "=", ctx.org.id);
  if (filters.venueIds.length) venuesQuery = venuesQuery.where("id", "in", filters.venueIds);
  const venues = await venuesQuery.orderBy("name").orderBy("id").limit(MAX_HEATMAP_TABS).execute();
  const raw = url.searchParams.get("heatmap_venue");
  const chosenId = raw ? (parseId(raw) ?? notFound()) : venues[0]?.id;
  if (chosenId === undefined) return { venues, venue: null };
  const scope = { ...filters.scope, venueIds: [chosenId] };
  // getVenueLayout is the 404 for another organisation's venue.
  const [layout, placed, usage, traffic] = await Promise.all([
    getVenueLayout(ctx, chosenId),
    listVenueAccessPoints(ctx, chosenId),
    accessPointUsage(scope, MAX_ACCESS_POINTS_SHOWN),
    trafficHeatmap(scope),
  ]);
  if (!venues.some((v) => v.id === layout.id)) venues.push({ id: layout.id, name: layout.name });
  const byId = new Map(usage.map((u) => [u.accessPointId, u]));
  return {
    venues,
    venue: {
      id: layout.id,
      name: layout.name,
      imageUrl: layout.layoutImage ? layoutImageUrl(ctx.org.id, layout.id, layout.layoutImage) : null,
      accessPoints: placed.slice(0, MAX_ACCESS_POINTS_SHOWN).map((ap) => ({
        id: ap.id,
        name: ap.name,
        x: ap.layoutX,
        y: ap.layoutY,
        footfall: byId.get(ap.id)?.footfall ?? 0,
        connections: byId.get(ap.id)?.connections ?? 0,
      })),
      traffic,
    },
  };
}

const LOADERS: { [K in DashletKey]: (req: DashletRequest) => Promise<DashletDataMap[K]> } = {
  organization_overview: ({ ctx }) => organizationCounts(ctx.org.id),
  who_is_online: (req) => connectionsDashlet(req, "online_", { online: true }),
  recent_connections: (req) =>
    connectionsDashlet(req, "recent_", { authorized: true, startMs: req.filters.range.startMs, endMs: req.filters.range.endMs }),
  connections_graph: async ({ filters }) => {
    const bucket = bucketFor(filters.range);
    const points = await usageSeries(filters.scope, bucket);
    return {
      bucket,
      points: fillBuckets(points, filters.range, bucket, (time) => ({ time, footfall: 0, connections: 0, upload: 0, download: 0 })),
    };
  },
  top_networks: ({ filters }) => venueUsage(filters.scope, TOP_LIMIT),
  top_access_points: ({ filters }) => accessPointUsage(filters.scope, TOP_LIMIT),
  auth_mode_pie: ({ filters }) => authModeSummary(filters.scope),
  device_type_pie: ({ filters }) => deviceSummary(filters.scope, "is_mobile"),
  os_doughnut: ({ filters }) => deviceSummary(filters.scope, "os", OS_LIMIT),
  device_brand_doughnut: ({ filters }) => deviceSummary(filters.scope, "brand", BRAND_LIMIT),
  browser_doughnut: ({ filters }) => deviceSummary(filters.scope, "browser", BROWSER_LIMIT),
  // The ads service is not part of this product yet (spec 3 describes it); the dashlet says so.
  campaign_summary: ({ ctx, filters }) => campaignSummary(ctx, filters.range),
  dwell_time: async ({ filters }) => {
    const bucket = bucketFor(filters.range);
    return {
      bucket,
      points: fillBuckets(await dwellTimeSeries(filters.scope, bucket), filters.range, bucket, (time) => ({ time, dwellTime: 0 })),
    };
  },
  footfall: async ({ filters }) => {
    const bucket = bucketFor(filters.range);
    return {
      bucket,
      points: fillBuckets(await footfallSeries(filters.scope, bucket), filters.range, bucket, (time) => ({ time, footfall: 0 })),
    };
  },
  access_point_status: accessPointStatus,
  indoor_heatmap: indoorHeatmap,
};

/** The data of the given dashlets, loaded concurrently. */
export async function loadDashlets(keys: readonly DashletKey[], req: DashletRequest): Promise<Partial<DashletDataMap>> {
  const entries = await Promise.all(keys.map(async (key) => [key, await LOADERS[key](req)] as const));
  return Object.fromEntries(entries) as Partial<DashletDataMap>;
}
