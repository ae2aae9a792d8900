// Devices (docs/guide/connections-devices-customers.md#devices-list, #block,
// docs/guide/api.md#mutations): the list shown on the venue and access point Devices tabs and the
// customer profile, and Block / Unblock. Devices "of" a venue or access point are those with a
// connection there (in the window given).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import { unindexed, unindexedText } from "~/db/sql.server";
import type { DB } from "~/db/schema";
import type { ListParams } from "~/lib/pagination";
import { DEVICE_MESSAGES, type DeviceRow, type RecordFilter, type RecordPage } from "~/lib/records";
import { recordSearch } from "./connections-search.server";
import { customerName } from "./connections.server";
import { cappedTotal, COUNT_CAP, NARROW_COUNT_CAP, olderThan } from "./list-count.server";
import { notFound, requirePermission, type OrgContext } from "./guard.server";
import { cutOffDevice, type GatewayNote } from "./portal/revoke.server";

/**
 * Connections that tie a record to the filter's venue or access point, within its window. The
 * record's own index (device or customer) drives; venue and MAC are tested row by row.
 */
export function connectionScope(filter: RecordFilter) {
  return (eb: ExpressionBuilder<DB, "connections">): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [];
    if (filter.venueId !== undefined) and.push(eb(unindexed("connections.venue_id"), "=", filter.venueId));
    if (filter.accessPointMac !== undefined) and.push(eb(unindexedText("connections.access_point_mac"), "=", filter.accessPointMac));
    if (filter.startMs !== undefined) and.push(eb("connections.created_at", ">=", filter.startMs));
    if (filter.endMs !== undefined) and.push(eb("connections.created_at", "<", filter.endMs));
    return eb.and(and);
  };
}

export const scopedToPlace = (filter: RecordFilter) => filter.venueId !== undefined || filter.accessPointMac !== undefined;

/** The device of the organisation, or a 404. */
export async function findDevice(ctx: OrgContext, deviceId: number | null) {
  if (deviceId === null) notFound();
  const row = await db
    .selectFrom("devices")
    .select(["id", "name", "mac_address", "blocked_at", "customer_id"])
    .where("id", "=", deviceId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/** devices(venues, accessPoints, customers, limit, offset, search), newest first, with a capped count. */
export async function listDevices(
  ctx: OrgContext,
  filter: RecordFilter,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<RecordPage<DeviceRow>> {
  const orgId = ctx.org.id;
  if (filter.customerId !== undefined) {
    const customer = await db
      .selectFrom("customers")
      .select("id")
      .where("id", "=", filter.customerId)
      .where("organization_id", "=", orgId)
      .executeTakeFirst();
    if (!customer) notFound();
  }
  const search = params.search ? await recordSearch("devices", orgId, params.search) : null;
  if (search?.kind === "none") return { rows: [], total: 0, capped: false };
  // The index that drives: the matching ids, else the customer's devices, else the organisation's.
  const byIds = search?.kind === "ids";
  const byCustomer = !byIds && filter.customerId !== undefined;
  const where = (eb: ExpressionBuilder<DB, "devices">): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [
      byIds || byCustomer ? eb(unindexed("devices.organization_id"), "=", orgId) : eb("devices.organization_id", "=", orgId),
    ];
    if (filter.customerId !== undefined) {
      and.push(byIds ? eb(unindexed("devices.customer_id"), "=", filter.customerId) : eb("devices.customer_id", "=", filter.customerId));
    }
    if (search) and.push(search.condition);
    if (scopedToPlace(filter)) {
      and.push(
        eb.exists(
          eb
            .selectFrom("connections")
            .select(sql`1`.as("one"))
            .whereRef("connections.device_id", "=", "devices.id")
            .where(connectionScope(filter)),
        ),
      );
    }
    return eb.and(and);
  };
  const page = await db
    .selectFrom("devices")
    .leftJoin("customers", "customers.id", "devices.customer_id")
    .select([
      "devices.id",
      "devices.created_at",
      "devices.name",
      "devices.mac_address",
      "devices.os",
      "devices.os_version",
      "devices.is_mobile",
      "devices.blocked_at",
      "devices.last_seen_at",
      "customers.id as customer_id",
      "customers.identity as customer_identity",
      "customers.first_name as customer_first_name",
      "customers.last_name as customer_last_name",
    ])
    .where(where)
    .orderBy("devices.created_at", "desc")
    .orderBy("devices.id", "desc")
    .limit(params.pageSize)
    .offset(params.offset)
    .execute();
  const cap = search || scopedToPlace(filter) ? NARROW_COUNT_CAP : COUNT_CAP;
  const counted = await cappedTotal(page, params, cap, async (after, limit) => {
    let matching = db
      .selectFrom("devices")
      .select(sql<number>`1`.as("one"))
      .where(where);
    if (after) matching = matching.where(olderThan("devices", after));
    const row = await db
      .selectFrom(matching.limit(limit).as("matching"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  const stats = await deviceStats(
    orgId,
    page.map((d) => d.id),
    filter,
  );
  return {
    ...counted,
    rows: page.map((d) => {
      const s = stats.get(d.id);
      const lastSeen = Math.max(Number(d.last_seen_at ?? 0), s?.lastAt ?? 0);
      return {
        id: d.id,
        name: d.name,
        macAddress: d.mac_address,
        os: d.os,
        osVersion: d.os_version,
        type: d.is_mobile ? "Mobile" : "Desktop",
        customer:
          d.customer_id === null
            ? null
            : {
                id: d.customer_id,
                name: customerName({
                  first_name: d.customer_first_name,
                  last_name: d.customer_last_name,
                  identity: d.customer_identity ?? "",
                }),
              },
        connectionsCount: s?.connections ?? 0,
        lastSeenAt: lastSeen > 0 ? lastSeen : null,
        usage: s?.usage ?? 0,
        online: (s?.online ?? 0) > 0,
        blocked: d.blocked_at !== null,
      } satisfies DeviceRow;
    }),
  };
}

/** Per device of a page: authorized connections, usage, last visit and whether one is online (within the filter). */
export async function deviceStats(orgId: number, deviceIds: number[], filter: RecordFilter) {
  const stats = new Map<number, { connections: number; usage: number; lastAt: number; online: number }>();
  if (deviceIds.length === 0) return stats;
  const rows = await db
    .selectFrom("connections")
    .select((eb) => [
      "connections.device_id",
      eb.fn.sum<number>(eb.case().when("connections.authorized_at", "is not", null).then(1).else(0).end()).as("connections"),
      eb.fn.sum<number>(sql`connections.upload + connections.download`).as("usage"),
      eb.fn.max("connections.created_at").as("last_at"),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("connections.authorized_at", "is not", null), eb("connections.ended_at", "is", null)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("online"),
    ])
    .where("connections.device_id", "in", deviceIds)
    .where(unindexed("connections.organization_id"), "=", orgId)
    .where(connectionScope(filter))
    .groupBy("connections.device_id")
    .execute();
  for (const r of rows) {
    stats.set(Number(r.device_id), {
      connections: Number(r.connections ?? 0),
      usage: Number(r.usage ?? 0),
      lastAt: Number(r.last_at ?? 0),
      online: Number(r.online ?? 0),
    });
  }
  return stats;
}

/** gateways: what each gateway of the device's live connections was told (Block cuts the device off now). */
export type BlockOutcome = { ok: boolean; message: string; gateways?: GatewayNote[] };

/**
 * blockDevice / unblock: needs edit_clients (the old client had no check; the server enforces one).
 * A blocked device stays blocked (blocked_at) until unblocked. Another organisation's device is a 404.
 */
export async function setDeviceBlocked(ctx: OrgContext, deviceId: number | null, blocked: boolean): Promise<BlockOutcome> {
  requirePermission(ctx, "edit_clients");
  const device = await findDevice(ctx, deviceId);
  if (blocked && device.blocked_at !== null) return { ok: false, message: DEVICE_MESSAGES.alreadyBlocked };
  if (!blocked && device.blocked_at === null) return { ok: false, message: DEVICE_MESSAGES.notBlocked };
  let notes: GatewayNote[] = [];
  try {
    const now = Date.now();
    notes = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("devices")
        .set({ blocked_at: blocked ? now : null, updated_at: now })
        .where("id", "=", device.id)
        .where("organization_id", "=", ctx.org.id)
        .execute();
      // Blocking cuts the device off now: its live connections end and their gateways are told.
      return blocked ? cutOffDevice(trx, ctx.org.id, device.id, now) : [];
    });
  } catch (error) {
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "device_block_failed", deviceId: device.id, error: String(error) }),
    );
    return { ok: false, message: blocked ? DEVICE_MESSAGES.blockFailed : DEVICE_MESSAGES.unblockFailed };
  }
  if (!blocked) return { ok: true, message: DEVICE_MESSAGES.unblocked };
  return { ok: true, message: [DEVICE_MESSAGES.blocked, ...notes.map((n) => n.note)].join(" "), gateways: notes };
}

const DEVICE_COLUMNS = [
  "id",
  "name",
  "mac_address",
  "os",
  "os_version",
  "brand",
  "browser",
  "is_mobile",
  "blocked_at",
  "last_seen_at",
  "customer_id",
  "created_at",
] as const;

/** The organisation's devices with these ids (others' and missing ids are left out), for the data API's batches. */
export async function devicesByIds(ctx: OrgContext, ids: readonly number[]) {
  if (ids.length === 0) return [];
  // The ids drive (primary key); with the organisation indexable SQLite walks its index instead.
  return db
    .selectFrom("devices")
    .select(DEVICE_COLUMNS)
    .where(unindexed("organization_id"), "=", ctx.org.id)
    .where("id", "in", [...ids])
    .execute();
}

/** The organisation's device with this MAC address (already normalised), or a 404 (blockDevice(mac_address)). */
export async function findDeviceByMac(ctx: OrgContext, mac: string | null) {
  if (mac === null) notFound();
  const row = await db
    .selectFrom("devices")
    .select(DEVICE_COLUMNS)
    .where("organization_id", "=", ctx.org.id)
    .where("mac_address", "=", mac)
    .executeTakeFirst();
  return row ?? notFound();
}
