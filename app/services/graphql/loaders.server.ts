// DataLoaders of one request and organisation: nested fields (a page of connections' customers,
// devices, networks and access points; networks' access points; roles' permissions; plans' policies) are collected
// while a level resolves and read with one service call per kind, so a query costs the same number
// of database round trips whatever its page size (tests/integration/graphql-n-plus-one.test.ts).
import DataLoader from "dataloader";
import type { DateRange } from "~/lib/date-range";
import type { Permission } from "~/lib/permissions";
import {
  accessPointCounts,
  accessPointDeviceCounts,
  accessPointsByIds,
  accessPointsOfVenues,
  type AccessPointCounts,
} from "../access-points.server";
import { customerCountsByIds, customersByIds } from "../customers.server";
import { accessPointStatuses } from "../dashlets.server";
import { deviceStats, devicesByIds } from "../devices.server";
import type { OrgContext } from "../guard.server";
import { policiesByIds } from "../prepaid/policies.server";
import { rolePermissionsByIds } from "../roles.server";
import { venueCounts, venuesByIds, type VenueCounts } from "../venues.server";

type Row<F extends (...args: never[]) => Promise<readonly unknown[]>> = Awaited<ReturnType<F>>[number];
export type CustomerRecord = Row<typeof customersByIds>;
export type DeviceRecord = Row<typeof devicesByIds>;
export type VenueRecord = Row<typeof venuesByIds>;
export type AccessPointRecord = Row<typeof accessPointsByIds>;
export type PolicyRecord = Row<typeof policiesByIds>;
export type DeviceStats = NonNullable<ReturnType<Awaited<ReturnType<typeof deviceStats>>["get"]>>;

/** Rows in the order of the keys, null for a key the organisation has no row for. */
function byId<T extends { id: number }>(load: (ids: readonly number[]) => Promise<T[]>) {
  return new DataLoader<number, T | null>(async (ids) => {
    const rows = new Map((await load(ids)).map((r) => [r.id, r]));
    return ids.map((id) => rows.get(id) ?? null);
  });
}

function fromMap<K, V>(load: (keys: readonly K[]) => Promise<Map<K, V>>, fallback: V) {
  return new DataLoader<K, V>(async (keys) => {
    const found = await load(keys);
    return keys.map((k) => found.get(k) ?? fallback);
  });
}

/** One loader per extra argument (a date range, a page size), made when first asked for. */
function perArgument<A, L>(make: (arg: A) => L): (arg: A) => L {
  const made = new Map<string, L>();
  return (arg) => {
    const key = JSON.stringify(arg ?? null);
    let loader = made.get(key);
    if (!loader) made.set(key, (loader = make(arg)));
    return loader;
  };
}

const NO_AP_COUNTS: AccessPointCounts = { customersCount: 0, connectionsCount: 0, onlineConnectionsCount: 0 };
const NO_VENUE_COUNTS: VenueCounts = { accessPointsCount: 0, customersCount: 0, connectionsCount: 0, onlineConnectionsCount: 0 };

export function createLoaders(ctx: OrgContext) {
  const orgId = ctx.org.id;
  return {
    customers: byId((ids) => customersByIds(ctx, ids)),
    customerCounts: fromMap((ids: readonly number[]) => customerCountsByIds(ctx, ids), { connectionsCount: 0, devicesCount: 0 }),
    devices: byId((ids) => devicesByIds(ctx, ids)),
    deviceStats: fromMap((ids: readonly number[]) => deviceStats(orgId, [...ids], {}), null as DeviceStats | null),
    venues: byId((ids) => venuesByIds(ctx, ids)),
    /** Access points, connections and online now of networks: a fixed number of queries for any number. */
    venueCounts: fromMap((ids: readonly number[]) => venueCounts(ctx.org, ids, { customers: false }), NO_VENUE_COUNTS),
    /** Distinct customers of networks: two roll-up reads per network (venues.server.ts venueCounts). */
    venueCustomers: fromMap((ids: readonly number[]) => venueCounts(ctx.org, ids), NO_VENUE_COUNTS),
    accessPoints: byId((ids) => accessPointsByIds(ctx, ids)),
    /** Counts by MAC address, all time or within a range. */
    accessPointCounts: perArgument((range: Pick<DateRange, "startMs" | "endMs"> | undefined) =>
      fromMap((macs: readonly string[]) => accessPointCounts(orgId, macs, range), NO_AP_COUNTS),
    ),
    /** Distinct devices by MAC address, all time or within a range (asked for apart: a count distinct more). */
    accessPointDevices: perArgument((range: Pick<DateRange, "startMs" | "endMs"> | undefined) =>
      fromMap((macs: readonly string[]) => accessPointDeviceCounts(orgId, macs, range), 0),
    ),
    /** Online or offline now, by id. */
    accessPointStatus: fromMap((ids: readonly number[]) => accessPointStatuses(orgId, ids), "offline" as "online" | "offline"),
    /** A network's access points by name, the first `limit` of each. */
    venueAccessPoints: perArgument(
      (limit: number) =>
        new DataLoader<number, AccessPointRecord[]>(async (venueIds) => {
          const rows = await accessPointsOfVenues(ctx, venueIds, limit);
          return venueIds.map((id) => rows.filter((r) => r.venue_id === id));
        }),
    ),
    rolePermissions: fromMap((ids: readonly number[]) => rolePermissionsByIds(ctx, ids), [] as Permission[]),
    /** Bandwidth policies of a page of service plans. */
    bandwidthPolicies: byId((ids) => policiesByIds(ctx, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
