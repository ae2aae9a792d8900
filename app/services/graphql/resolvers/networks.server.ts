// Networks (venues) and access points (docs/guide/networks.md, docs/guide/api.md#queries).
// A network's or access point's id and name are shown to every member (the
// dashboard's network filter, the top lists); everything else needs view_networks, as the network
// pages do. Parents carry the guard's context, so nested fields need no second lookup.
import type { DateRange } from "~/lib/date-range";
import { storedPolygons } from "~/lib/layout";
import { getAccessPoint, listAccessPoints, type AccessPointCounts } from "../../access-points.server";
import { requirePermission, type OrgContext } from "../../guard.server";
import { getVenue, listVenueRows, type VenueCounts } from "../../venues.server";
import { checkOrder, oneId, pageOf, recordId, windowOf, type PageArgs, type WindowArgs } from "../args.server";
import type { GraphQLContext } from "../context.server";
import type { AccessPointRecord, VenueRecord } from "../loaders.server";
import { iso, type Resolver, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "A network (venue). id and name need membership only; the other fields need view_networks."
  type Venue {
    id: ID!
    name: String!
    organization_id: ID!
    address: String
    email: String
    phone_number: String
    custom_splash_url: String
    success_url: String
    more_info: String
    layout_image: String
    "JSON: a list of polygons, each a list of {lat, lng}."
    layout_polygon: String!
    map_zoom: Float
    lat: Float
    lng: Float
    created_at: String!
    updated_at: String!
    accessPointsCount: Int!
    "Distinct customers with an authorized connection here, ever."
    customersCount: Int!
    "Authorized connections here, ever."
    connectionsCount: Int!
    onlineConnectionsCount: Int!
    "The network's access points by name (at most 250), counts within the window when one is given."
    accessPoints(startDate: String, endDate: String, limit: Int = 50): [AccessPoint!]! @complexity(value: 1, multipliers: ["limit"])
  }

  "Whether an access point works now."
  type AccessPointStatus {
    "online when it was seen, or a guest connected through it, in the last 15 minutes (the dashboard's rule); else offline."
    status: String!
  }

  "An access point. id, name and mac_address need membership only; the other fields need view_networks. (The spec's capsUsersCount is not served: the specs do not define it.)"
  type AccessPoint {
    id: ID!
    name: String!
    mac_address: String!
    make: String
    serial_number: String
    custom_splash_url: String
    success_url: String
    custom_success_url: String
    description: String
    venue_id: ID
    venue: Venue
    lat: Float
    lng: Float
    created_at: String
    updated_at: String
    status: AccessPointStatus!
    "Distinct devices with an authorized connection through it (within the window when one is given)."
    devicesCount: Int!
    customersCount: Int!
    connectionsCount: Int!
    onlineConnectionsCount: Int!
  }

  extend type Query {
    "view_networks."
    venue(id: ID!): Venue!
    "The organization's networks by name."
    venues(limit: Int = 10, offset: Int = 0, order: String = "name asc", search: String): [Venue!]! @complexity(value: 1, multipliers: ["limit"])
    "view_networks."
    accessPoint(id: ID!): AccessPoint!
    "view_networks. At most one id in venues."
    accessPoints(venues: [ID!], startDate: String, endDate: String, limit: Int = 10, offset: Int = 0, search: String): [AccessPoint!]!
      @complexity(value: 1, multipliers: ["limit"])
  }
`;

type Range = Pick<DateRange, "startMs" | "endMs">;

export interface VenueParent {
  ctx: OrgContext;
  id: number;
  name: string;
  row?: VenueRecord;
  counts?: VenueCounts;
}

export interface AccessPointParent {
  ctx: OrgContext;
  id: number;
  name: string;
  mac_address: string;
  row?: AccessPointRecord;
  counts?: AccessPointCounts;
  range?: Range;
}

export const venueParent = (ctx: OrgContext, row: VenueRecord, counts?: VenueCounts): VenueParent => ({
  ctx,
  id: row.id,
  name: row.name,
  row,
  counts,
});
export const accessPointParent = (
  ctx: OrgContext,
  row: AccessPointRecord,
  extra: { counts?: AccessPointCounts; range?: Range } = {},
): AccessPointParent => ({
  ctx,
  id: row.id,
  name: row.name,
  mac_address: row.mac_address,
  row,
  ...extra,
});

async function venueRow(p: VenueParent, context: GraphQLContext): Promise<VenueRecord> {
  requirePermission(p.ctx, "view_networks");
  return p.row ?? (p.row = (await context.loaders(p.ctx).venues.load(p.id))!);
}

async function apRow(p: AccessPointParent, context: GraphQLContext): Promise<AccessPointRecord> {
  requirePermission(p.ctx, "view_networks");
  return p.row ?? (p.row = (await context.loaders(p.ctx).accessPoints.load(p.id))!);
}

const venueField =
  (read: (row: VenueRecord) => unknown): Resolver =>
  async (p: VenueParent, _args, context) =>
    read(await venueRow(p, context));

const venueCount =
  (key: keyof VenueCounts): Resolver =>
  async (p: VenueParent, _args, context) => {
    requirePermission(p.ctx, "view_networks");
    const loaders = context.loaders(p.ctx);
    return (p.counts ?? (await (key === "customersCount" ? loaders.venueCustomers : loaders.venueCounts).load(p.id)))[key];
  };

const apField =
  (read: (row: AccessPointRecord) => unknown): Resolver =>
  async (p: AccessPointParent, _args, context) =>
    read(await apRow(p, context));

const apCount =
  (key: keyof AccessPointCounts): Resolver =>
  async (p: AccessPointParent, _args, context) => {
    requirePermission(p.ctx, "view_networks");
    return (p.counts ?? (await context.loaders(p.ctx).accessPointCounts(p.range).load(p.mac_address)))[key];
  };

/** venues(limit, offset, order 'name asc', search): Query.venues and Organization.venues. */
export async function venues(ctx: OrgContext, args: PageArgs & { order?: string }) {
  checkOrder(args.order, "name asc");
  const { rows } = await listVenueRows(ctx, pageOf(args));
  return rows.map((row) => venueParent(ctx, row));
}

/** accessPoints(venues, startDate, endDate, limit, offset, search): Query.accessPoints and Organization.accessPoints. */
export async function accessPoints(ctx: OrgContext, args: PageArgs & WindowArgs) {
  requirePermission(ctx, "view_networks");
  const venueId = oneId(args.venues, "venues");
  const page = pageOf(args);
  const range =
    args.startDate || args.endDate ? (await windowOf(ctx, { startDate: args.startDate, endDate: args.endDate })).range : undefined;
  if (venueId !== undefined) await getVenue(ctx, venueId); // another organisation's network is not found
  const { accessPoints: rows } = await listAccessPoints(ctx, { venueId }, page, range);
  return rows.map(({ customersCount, connectionsCount, onlineConnectionsCount, ...row }) =>
    accessPointParent(ctx, row, { counts: { customersCount, connectionsCount, onlineConnectionsCount }, range }),
  );
}

export const resolvers: Resolvers = {
  Query: {
    async venue(_, args: { id: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_networks");
      return venueParent(ctx, await getVenue(ctx, recordId(args.id)));
    },
    venues: async (_, args, context) => venues(await context.org(), args),
    async accessPoint(_, args: { id: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_networks");
      return accessPointParent(ctx, await getAccessPoint(ctx, recordId(args.id)));
    },
    accessPoints: async (_, args, context) => accessPoints(await context.org(), args),
  },
  Venue: {
    organization_id: (p: VenueParent) => p.ctx.org.id,
    address: venueField((r) => r.address),
    email: venueField((r) => r.email),
    phone_number: venueField((r) => r.phone_number),
    custom_splash_url: venueField((r) => r.custom_splash_url),
    success_url: venueField((r) => r.success_url),
    more_info: venueField((r) => r.more_info),
    layout_image: venueField((r) => r.layout_image),
    layout_polygon: venueField((r) => JSON.stringify(storedPolygons(r.layout_polygon))),
    map_zoom: venueField((r) => r.map_zoom),
    lat: venueField((r) => r.lat),
    lng: venueField((r) => r.lng),
    created_at: venueField((r) => iso(r.created_at)),
    updated_at: venueField((r) => iso(r.updated_at)),
    accessPointsCount: venueCount("accessPointsCount"),
    customersCount: venueCount("customersCount"),
    connectionsCount: venueCount("connectionsCount"),
    onlineConnectionsCount: venueCount("onlineConnectionsCount"),
    async accessPoints(p: VenueParent, args: { startDate?: string; endDate?: string; limit?: number }, context) {
      requirePermission(p.ctx, "view_networks");
      const { pageSize } = pageOf({ limit: args.limit });
      const range = args.startDate || args.endDate ? (await windowOf(p.ctx, args)).range : undefined;
      const rows = await context.loaders(p.ctx).venueAccessPoints(pageSize).load(p.id);
      return rows.map((row) => accessPointParent(p.ctx, row, { range }));
    },
  },
  AccessPoint: {
    make: apField((r) => r.make),
    serial_number: apField((r) => r.serial_number),
    custom_splash_url: apField((r) => r.custom_splash_url),
    success_url: apField((r) => r.success_url),
    custom_success_url: apField((r) => r.success_url),
    description: apField((r) => r.description),
    venue_id: apField((r) => r.venue_id),
    venue: async (p: AccessPointParent, _args, context) => {
      const row = await apRow(p, context);
      return { ctx: p.ctx, id: row.venue_id, name: row.venue_name } satisfies VenueParent;
    },
    lat: apField((r) => r.lat),
    lng: apField((r) => r.lng),
    created_at: apField((r) => iso(r.created_at)),
    updated_at: apField((r) => iso(r.updated_at)),
    status: async (p: AccessPointParent, _args, context) => {
      requirePermission(p.ctx, "view_networks");
      return { status: await context.loaders(p.ctx).accessPointStatus.load(p.id) };
    },
    devicesCount: async (p: AccessPointParent, _args, context) => {
      requirePermission(p.ctx, "view_networks");
      return context.loaders(p.ctx).accessPointDevices(p.range).load(p.mac_address);
    },
    customersCount: apCount("customersCount"),
    connectionsCount: apCount("connectionsCount"),
    onlineConnectionsCount: apCount("onlineConnectionsCount"),
  },
};
