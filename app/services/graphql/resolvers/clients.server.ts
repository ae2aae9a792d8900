// Guests and their traffic (docs/guide/connections-devices-customers.md#customers-list,
// docs/guide/api.md#data-api-graphql): connections, customers, devices, closeConnection and blockDevice. Names
// and contacts of guests need view_clients wherever they appear (PERSONAL_DATA_PERMISSION), as on the
// connections, customers and devices pages. Nested customers, devices, networks and access points of a page
// are batched (loaders.server.ts).
import type { ConnectionFilter, ConnectionRow } from "~/lib/connections";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import type { DeviceRow, RecordFilter } from "~/lib/records";
import { getAccessPoint } from "../../access-points.server";
import { connectionTimeline } from "../../connection-timeline.server";
import { closeConnection, listConnections } from "../../connections.server";
import { getCustomer, listCustomers, type CustomerFilter } from "../../customers.server";
import { findDeviceByMac, listDevices, setDeviceBlocked } from "../../devices.server";
import { requirePermission, type OrgContext } from "../../guard.server";
import { getVenueHeader } from "../../venues.server";
import { done, mutation, refused } from "../errors.server";
import { checkOrder, macOf, oneId, pageOf, recordId, searchOf, windowOf, type PageArgs } from "../args.server";
import type { GraphQLContext } from "../context.server";
import type { CustomerRecord, DeviceRecord, DeviceStats } from "../loaders.server";
import { iso, type Resolver, type Resolvers } from "./common.server";
import type { AccessPointParent, VenueParent } from "./networks.server";

const connectionFilters = `venues: [ID!], customers: [ID!], devices: [ID!], accessPoints: [ID!], online: Boolean, authorized: Boolean, startDate: String, endDate: String, search: String`;
const customerFilters = `venues: [ID!], devices: [ID!], accessPoints: [ID!], online: Boolean, authorized: Boolean, startDate: String, endDate: String, search: String`;
const deviceFilters = `venues: [ID!], accessPoints: [ID!], customers: [ID!], startDate: String, endDate: String, search: String`;

export const typeDefs = /* GraphQL */ `
  type Connection {
    id: ID!
    "Authorized and not ended."
    isOnline: Boolean!
    "Online or Offline."
    status: String!
    access_point_mac: String
    customer: Customer
    device: Device
    "Seconds authorized (until now while online)."
    duration: Int!
    "Bytes, upload + download."
    usage: Float!
    upload: Float!
    download: Float!
    ssid: String
    venue: Venue
    accessPoint: AccessPoint
    authorized_at: String
    created_at: String!
    end_time: String
    authorization_mode: String
  }

  "One event of a connection's timeline (decision 0081): entry, payment, sign-in, grant, accounting, close sent, the gateway's answer, end."
  type ConnectionEvent {
    "ISO 8601, UTC."
    at: String!
    "entry, payment, authorized, grant, grant_failed, accounting, revoke, revoke_answer, radius_message or ended."
    kind: String!
    summary: String!
    "What was sent and answered, as JSON."
    detail: String
  }

  "A guest."
  type Customer {
    id: ID!
    identity: String!
    name: String!
    first_name: String
    middle_name: String
    last_name: String
    phone_number: String
    email_address: String
    facebook: String
    twitter: String
    more_info: String
    "Authorized connections, ever."
    connectionsCount: Int!
    devicesCount: Int!
  }

  type Device {
    id: ID!
    name: String
    mac_address: String!
    os: String
    os_version: String
    brand: String
    browser: String
    is_mobile: Boolean!
    "Mobile or Desktop."
    type: String!
    blocked: Boolean!
    customer: Customer
    "Authorized connections (within the list's network, access point and window)."
    connectionsCount: Int!
    "Bytes of those connections."
    usage: Float!
    last_seen: String
    isOnline: Boolean!
  }

  extend type Query {
    "view_clients. Filters take one id each. The customers with a connection through the network or access point, online (authorized, not ended) or authorized, within the window when one is given (a window alone does not filter; false does not filter); the owner of the device."
    customers(${customerFilters}, limit: Int = 10, offset: Int = 0, order: String = "created_at desc"): [Customer!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_clients. Counted up to 10,000 (1,000 with a search, network, access point, device, online or authorized), like the list's pages."
    customersCount(${customerFilters}): Int! @complexity(value: 10)
    "view_clients."
    customer(id: ID!): Customer!
    "view_clients. The connection's timeline, oldest first: what reached the gateway and what it answered."
    connectionTimeline(id: ID!): [ConnectionEvent!]!
    "view_clients. Filters take one id each."
    devices(${deviceFilters}, limit: Int = 10, offset: Int = 0, order: String = "created_at desc"): [Device!]! @complexity(value: 1, multipliers: ["limit"])
    "view_clients. Counted up to 10,000 (1,000 with a search or a network or access point)."
    devicesCount(${deviceFilters}): Int! @complexity(value: 10)
  }

  extend type Mutation {
    "edit_connections. Ends an online connection and tells its gateway where the make allows."
    closeConnection(id: ID!): MutationResult!
    "edit_clients. Blocks the organization's device with this MAC address."
    blockDevice(mac_address: String!): MutationResult!
  }
`;

export const CONNECTION_ARGS = `${connectionFilters}, limit: Int = 10, offset: Int = 0, order: String = "created_at desc"`;
export const CONNECTION_COUNT_ARGS = connectionFilters;

interface FilterArgs {
  venues?: string[] | null;
  customers?: string[] | null;
  devices?: string[] | null;
  accessPoints?: string[] | null;
  online?: boolean | null;
  authorized?: boolean | null;
  startDate?: string | null;
  endDate?: string | null;
  search?: string | null;
}

type ConnectionParent = ConnectionRow & { ctx: OrgContext };

/** The MAC address of an access point id (the lists filter access points by MAC); another organisation's is not found. */
async function apMac(ctx: OrgContext, ids: string[] | null | undefined): Promise<string | undefined> {
  const id = oneId(ids, "accessPoints");
  return id === undefined ? undefined : (await getAccessPoint(ctx, id)).mac_address;
}

async function windowMs(ctx: OrgContext, args: FilterArgs) {
  if (!args.startDate && !args.endDate) return {};
  const { range } = await windowOf(ctx, { startDate: args.startDate, endDate: args.endDate });
  return { startMs: range.startMs, endMs: range.endMs };
}

async function connectionFilter(ctx: OrgContext, args: FilterArgs): Promise<ConnectionFilter> {
  return {
    venueId: oneId(args.venues, "venues"),
    customerId: oneId(args.customers, "customers"),
    deviceId: oneId(args.devices, "devices"),
    accessPointMac: await apMac(ctx, args.accessPoints),
    online: args.online ?? undefined,
    authorized: args.authorized ?? undefined,
    ...(await windowMs(ctx, args)),
  };
}

/** A network filter of the customers and devices lists: another organisation's network is not found (the pages check it first too). */
async function venueOf(ctx: OrgContext, ids: string[] | null | undefined): Promise<number | undefined> {
  const id = oneId(ids, "venues");
  return id === undefined ? undefined : (await getVenueHeader(ctx, id)).id;
}

async function recordFilter(ctx: OrgContext, args: FilterArgs, extra: Partial<RecordFilter> = {}): Promise<RecordFilter> {
  return {
    venueId: await venueOf(ctx, args.venues),
    accessPointMac: await apMac(ctx, args.accessPoints),
    ...extra,
    ...(await windowMs(ctx, args)),
  };
}

/** organization { connections(…) }: view_clients, newest first. */
export async function connections(ctx: OrgContext, args: FilterArgs & PageArgs & { order?: string }) {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  checkOrder(args.order, "created_at desc");
  const page = await listConnections(ctx, await connectionFilter(ctx, args), pageOf(args));
  return page.rows.map((row): ConnectionParent => ({ ...row, ctx }));
}

/** organization { connectionsCount(…) }: with filters, the list's count (capped like its pages). */
export async function connectionsCount(ctx: OrgContext, args: FilterArgs) {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  const page = await listConnections(ctx, await connectionFilter(ctx, args), { offset: 0, pageSize: 1, search: searchOf(args.search) });
  return page.total;
}

/** customers(…)'s filters: a network, access point and window, the owner of a device, online or authorized (`false` does not filter, as for connections). */
async function customerFilter(ctx: OrgContext, args: FilterArgs): Promise<CustomerFilter> {
  return {
    ...(await recordFilter(ctx, args)),
    deviceId: oneId(args.devices, "devices"),
    online: args.online ?? undefined,
    authorized: args.authorized ?? undefined,
  };
}

/** devices(…): Query.devices and Organization.devices. */
export async function devices(ctx: OrgContext, args: FilterArgs & PageArgs & { order?: string }) {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  checkOrder(args.order, "created_at desc");
  const page = await listDevices(ctx, await recordFilter(ctx, args, { customerId: oneId(args.customers, "customers") }), pageOf(args));
  return page.rows.map((row) => deviceFromRow(ctx, row));
}

/** Fields already known from the row that led here (a connection's customer name …), by GraphQL field name. */
type Known = Record<string, unknown>;

interface DeviceParent {
  ctx: OrgContext;
  id: number;
  row?: DeviceRecord;
  listed?: DeviceRow;
  known?: Known;
}

const deviceFromRow = (ctx: OrgContext, listed: DeviceRow): DeviceParent => ({ ctx, id: listed.id, listed });

interface CustomerParent {
  ctx: OrgContext;
  id: number;
  row?: CustomerRecord;
  counts?: { connectionsCount: number; devicesCount: number };
  known?: Known;
}

async function customerRow(p: CustomerParent, context: GraphQLContext): Promise<CustomerRecord> {
  return p.row ?? (p.row = (await context.loaders(p.ctx).customers.load(p.id))!);
}

/** A customer's field: known from the parent row when it is, else read in the page's batch. */
const customerField =
  (name: string, read: (row: CustomerRecord) => unknown): Resolver =>
  (p: CustomerParent, _args, context) => {
    if (p.row) return read(p.row);
    if (p.known?.[name] !== undefined) return p.known[name];
    return customerRow(p, context).then(read);
  };

const customerCount =
  (key: "connectionsCount" | "devicesCount"): Resolver =>
  async (p: CustomerParent, _args, context) =>
    (p.counts ?? (await context.loaders(p.ctx).customerCounts.load(p.id)))[key];

async function deviceRow(p: DeviceParent, context: GraphQLContext): Promise<DeviceRecord> {
  return p.row ?? (p.row = (await context.loaders(p.ctx).devices.load(p.id))!);
}

/** A device's field: from the list's row, else known from the parent row, else read in the page's batch. */
const deviceField =
  (name: string, fromListed: ((d: DeviceRow) => unknown) | undefined, fromRow: (r: DeviceRecord) => unknown): Resolver =>
  (p: DeviceParent, _args, context) => {
    if (p.listed && fromListed) return fromListed(p.listed);
    if (p.known?.[name] !== undefined) return p.known[name];
    if (p.row) return fromRow(p.row);
    return deviceRow(p, context).then(fromRow);
  };

/** Listed devices carry their stats; a device reached from a connection reads them in one batch. */
async function deviceStats(p: DeviceParent, context: GraphQLContext): Promise<Omit<DeviceStats, "lastAt"> & { lastSeen: number | null }> {
  if (p.listed)
    return {
      connections: p.listed.connectionsCount,
      usage: p.listed.usage,
      online: p.listed.online ? 1 : 0,
      lastSeen: p.listed.lastSeenAt,
    };
  const [row, stats] = await Promise.all([deviceRow(p, context), context.loaders(p.ctx).deviceStats.load(p.id)]);
  const lastSeen = Math.max(Number(row.last_seen_at ?? 0), stats?.lastAt ?? 0);
  return {
    connections: stats?.connections ?? 0,
    usage: stats?.usage ?? 0,
    online: stats?.online ?? 0,
    lastSeen: lastSeen > 0 ? lastSeen : null,
  };
}

export const resolvers: Resolvers = {
  Query: {
    async connectionTimeline(_, args: { id: string }, context) {
      const events = await connectionTimeline(await context.org(), recordId(args.id));
      return events.map((e) => ({
        at: iso(e.at),
        kind: e.kind,
        summary: e.summary,
        detail: e.detail === null ? null : JSON.stringify(e.detail),
      }));
    },
    async customers(_, args: FilterArgs & PageArgs & { order?: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, PERSONAL_DATA_PERMISSION);
      checkOrder(args.order, "created_at desc");
      const page = await listCustomers(ctx, await customerFilter(ctx, args), pageOf(args));
      return page.rows.map((c): CustomerParent => ({ ctx, id: c.id }));
    },
    async customersCount(_, args: FilterArgs, context) {
      const ctx = await context.org();
      requirePermission(ctx, PERSONAL_DATA_PERMISSION);
      return (await listCustomers(ctx, await customerFilter(ctx, args), { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async customer(_, args: { id: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, PERSONAL_DATA_PERMISSION);
      const c = await getCustomer(ctx, recordId(args.id));
      return { ctx, id: c.id, counts: { connectionsCount: c.connectionsCount, devicesCount: c.devicesCount } } satisfies CustomerParent;
    },
    devices: async (_, args, context) => devices(await context.org(), args),
    async devicesCount(_, args: FilterArgs, context) {
      const ctx = await context.org();
      requirePermission(ctx, PERSONAL_DATA_PERMISSION);
      const filter = await recordFilter(ctx, args, { customerId: oneId(args.customers, "customers") });
      return (await listDevices(ctx, filter, { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
  },
  Mutation: {
    closeConnection: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await closeConnection(await context.org(), recordId(args.id));
        return outcome.ok ? done(outcome.message, args.id) : refused(409, outcome.message, args.id);
      }),
    blockDevice: (_, args: { mac_address: string }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, "edit_clients");
        const device = await findDeviceByMac(ctx, macOf(args.mac_address));
        const outcome = await setDeviceBlocked(ctx, device.id, true);
        return outcome.ok ? done(outcome.message, device.id) : refused(409, outcome.message, device.id);
      }),
  },
  Connection: {
    isOnline: (p: ConnectionParent) => p.online,
    status: (p: ConnectionParent) => (p.online ? "Online" : "Offline"),
    access_point_mac: (p: ConnectionParent) => p.accessPoint?.macAddress ?? null,
    customer: (p: ConnectionParent) =>
      p.customer
        ? ({
            ctx: p.ctx,
            id: p.customer.id,
            known: { identity: p.customer.identity, name: p.customer.name, phone_number: p.customer.phoneNumber },
          } satisfies CustomerParent)
        : null,
    device: (p: ConnectionParent) =>
      p.device
        ? ({
            ctx: p.ctx,
            id: p.device.id,
            // The row's label is the name, or the MAC address when the device has none.
            known: { mac_address: p.device.macAddress, name: p.device.label !== p.device.macAddress ? p.device.label : undefined },
          } satisfies DeviceParent)
        : null,
    duration: (p: ConnectionParent) => p.durationSeconds,
    venue: (p: ConnectionParent) => (p.venue ? ({ ctx: p.ctx, id: p.venue.id, name: p.venue.name } satisfies VenueParent) : null),
    accessPoint: (p: ConnectionParent) =>
      p.accessPoint?.id != null
        ? ({
            ctx: p.ctx,
            id: p.accessPoint.id,
            name: p.accessPoint.name ?? "",
            mac_address: p.accessPoint.macAddress ?? "",
          } satisfies AccessPointParent)
        : null,
    authorized_at: (p: ConnectionParent) => iso(p.authorizedAt),
    created_at: (p: ConnectionParent) => iso(p.createdAt),
    end_time: (p: ConnectionParent) => iso(p.endedAt),
    authorization_mode: (p: ConnectionParent) => p.authorizationMode,
  },
  Customer: {
    identity: customerField("identity", (r) => r.identity),
    name: customerField("name", (r) => r.name),
    first_name: customerField("first_name", (r) => r.firstName),
    middle_name: customerField("middle_name", (r) => r.middleName),
    last_name: customerField("last_name", (r) => r.lastName),
    phone_number: customerField("phone_number", (r) => r.phoneNumber),
    email_address: customerField("email_address", (r) => r.emailAddress),
    facebook: customerField("facebook", (r) => r.facebook),
    twitter: customerField("twitter", (r) => r.twitter),
    more_info: customerField("more_info", (r) => r.moreInfo),
    connectionsCount: customerCount("connectionsCount"),
    devicesCount: customerCount("devicesCount"),
  },
  Device: {
    name: deviceField(
      "name",
      (d) => d.name,
      (r) => r.name,
    ),
    mac_address: deviceField(
      "mac_address",
      (d) => d.macAddress,
      (r) => r.mac_address,
    ),
    os: deviceField(
      "os",
      (d) => d.os,
      (r) => r.os,
    ),
    os_version: deviceField(
      "os_version",
      (d) => d.osVersion,
      (r) => r.os_version,
    ),
    brand: deviceField("brand", undefined, (r) => r.brand),
    browser: deviceField("browser", undefined, (r) => r.browser),
    is_mobile: deviceField(
      "is_mobile",
      (d) => d.type === "Mobile",
      (r) => r.is_mobile === 1,
    ),
    type: deviceField(
      "type",
      (d) => d.type,
      (r) => (r.is_mobile === 1 ? "Mobile" : "Desktop"),
    ),
    blocked: deviceField(
      "blocked",
      (d) => d.blocked,
      (r) => r.blocked_at !== null,
    ),
    async customer(p: DeviceParent, _args, context) {
      if (p.listed)
        return p.listed.customer
          ? ({ ctx: p.ctx, id: p.listed.customer.id, known: { name: p.listed.customer.name } } satisfies CustomerParent)
          : null;
      const customerId = (await deviceRow(p, context)).customer_id;
      return customerId === null ? null : ({ ctx: p.ctx, id: customerId } satisfies CustomerParent);
    },
    connectionsCount: async (p: DeviceParent, _args, context) => (await deviceStats(p, context)).connections,
    usage: async (p: DeviceParent, _args, context) => (await deviceStats(p, context)).usage,
    last_seen: async (p: DeviceParent, _args, context) => iso((await deviceStats(p, context)).lastSeen),
    isOnline: async (p: DeviceParent, _args, context) => (await deviceStats(p, context)).online > 0,
  },
};
