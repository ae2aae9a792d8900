// Connections (docs/guide/connections-devices-customers.md#connections-table,
// docs/guide/api.md#queries): the one list every screen shows (connections page, venue and access
// point tabs, customer profile, dashboard dashlets), closing an online connection, and the rows of
// the CSV export.
//
// Built for organisations with millions of connections (docs/decisions/0006-connections-at-scale.md):
// - every query reads one index in (created_at, id) order, chosen here rather than by the planner
//   (on SQLite the other filter columns are written `unindexed(col)` (app/db/sql.server.ts) so no other index is used);
// - totals are counted up to a cap (list-count.server.ts), never over millions;
// - a search term is first resolved to matching customers, devices, venues and access points through
//   their own tables, then connections are read by those ids (connections-search.server.ts).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { inIds, unindexed, unindexedText } from "~/db/sql.server";
import type { ConnectionFilter, ConnectionPage, ConnectionRow } from "~/lib/connections";
import { dateRange, isWholeDays } from "~/lib/date-range";
import type { ListParams } from "~/lib/pagination";
import { aggregateUsage } from "./analytics.server";
import { notFound, requirePermission, type OrgContext } from "./guard.server";
import { resolveSearch, type SearchMatch } from "./connections-search.server";
import { revokeAtGateway, type GatewayNote } from "./portal/revoke.server";
import { cappedTotal, COUNT_CAP, NARROW_COUNT_CAP, type Cursor } from "./list-count.server";

export type { ConnectionFilter, ConnectionPage, ConnectionRow };

type Builder = ExpressionBuilder<DB, "connections">;
type Driver = "online" | "customer" | "device" | "accessPoint" | "venue" | "search" | "organization";

/**
 * The index that drives a query (the most selective filter present), so a query never walks the
 * wrong index: e.g. a venue's connections read connections_venue_created, not the organisation's.
 * A search with few matches reads the customer and device indexes instead of a broad one.
 */
function driverOf(filter: ConnectionFilter, search: SearchMatch | null): Driver {
  if (filter.online) return "online";
  if (filter.customerId !== undefined) return "customer";
  if (filter.deviceId !== undefined) return "device";
  if (search?.sparse) return "search";
  if (filter.accessPointMac !== undefined) return "accessPoint";
  if (filter.venueId !== undefined) return "venue";
  return "organization";
}

/** Keyset bounds in the lists' order (created_at desc, id desc): rows after `after`, down to `through`. */
export interface KeyRange {
  after?: Cursor | null;
  through?: Cursor | null;
}

/**
 * The created_at window and the keyset bounds as ONE upper and ONE lower bound on created_at:
 * given two upper bounds SQLite ranges on the first one only, and scanned from the window's end
 * down to the cursor on every batch of a deep export.
 */
function createdRange(eb: Builder, filter: ConnectionFilter, range: KeyRange): Expression<SqlBool>[] {
  const bounds: Expression<SqlBool>[] = [];
  const { after, through } = range;
  if (after) {
    const upper = filter.endMs === undefined ? after.createdAt : Math.min(after.createdAt, filter.endMs - 1);
    bounds.push(eb("connections.created_at", "<=", upper));
    bounds.push(eb.or([eb("connections.created_at", "<", after.createdAt), eb("connections.id", "<", after.id)]));
  } else if (filter.endMs !== undefined) {
    bounds.push(eb("connections.created_at", "<", filter.endMs));
  }
  if (through) {
    bounds.push(eb("connections.created_at", ">=", Math.max(through.createdAt, filter.startMs ?? -Infinity)));
    bounds.push(eb.or([eb("connections.created_at", ">", through.createdAt), eb("connections.id", ">=", through.id)]));
  } else if (filter.startMs !== undefined) {
    bounds.push(eb("connections.created_at", ">=", filter.startMs));
  }
  return bounds;
}

/** The WHERE of a filtered list; a filter column may use its index only when it drives the query. */
export function connectionConditions(orgId: number, filter: ConnectionFilter, search: SearchMatch | null, range: KeyRange = {}) {
  const driver = driverOf(filter, search);
  const orgIndexed = driver === "online" || driver === "accessPoint" || driver === "organization";
  return (eb: Builder): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [
      orgIndexed ? eb("connections.organization_id", "=", orgId) : eb(unindexed("connections.organization_id"), "=", orgId),
    ];
    if (filter.online || filter.authorized) and.push(eb("connections.authorized_at", "is not", null));
    if (filter.online) and.push(eb("connections.ended_at", "is", null));
    const id = (column: "customer_id" | "device_id" | "venue_id", value: number | undefined, own: Driver) => {
      if (value === undefined) return;
      const ref = `connections.${column}` as const;
      and.push(driver === own ? eb(ref, "=", value) : eb(unindexed(ref), "=", value));
    };
    id("customer_id", filter.customerId, "customer");
    id("device_id", filter.deviceId, "device");
    id("venue_id", filter.venueId, "venue");
    if (filter.accessPointMac !== undefined) {
      and.push(
        driver === "accessPoint"
          ? eb("connections.access_point_mac", "=", filter.accessPointMac)
          : eb(unindexedText("connections.access_point_mac"), "=", filter.accessPointMac),
      );
    }
    and.push(...createdRange(eb, filter, range));
    if (search) and.push(search.condition(eb));
    return eb.and(and);
  };
}

/** Ids in a filter must be the organisation's: another organisation's id is a 404, not an empty list. */
export async function assertFilterOwned(ctx: OrgContext, filter: ConnectionFilter): Promise<void> {
  const owned = async (table: "venues" | "customers" | "devices", id: number | undefined) => {
    if (id === undefined) return;
    const row = await db.selectFrom(table).select("id").where("id", "=", id).where("organization_id", "=", ctx.org.id).executeTakeFirst();
    if (!row) notFound();
  };
  await Promise.all([owned("venues", filter.venueId), owned("customers", filter.customerId), owned("devices", filter.deviceId)]);
}

/**
 * connections(venues, customers, devices, accessPoints, online, authorized, startDate, endDate,
 * limit, offset, order 'created_at desc', search) with its count (capped, see ConnectionPage).
 */
export async function listConnections(
  ctx: OrgContext,
  filter: ConnectionFilter,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<ConnectionPage> {
  await assertFilterOwned(ctx, filter);
  const search = params.search ? await resolveSearch(ctx, params.search) : null;
  if (search?.none) return { rows: [], total: 0, capped: false };
  const where = connectionConditions(ctx.org.id, filter, search);
  const page = await db
    .selectFrom("connections")
    .select(["connections.id", "connections.created_at"])
    .where(where)
    .orderBy("connections.created_at", "desc")
    .orderBy("connections.id", "desc")
    .limit(params.pageSize)
    .offset(params.offset)
    .execute();
  const cap = search || filter.venueId !== undefined || filter.accessPointMac !== undefined ? NARROW_COUNT_CAP : COUNT_CAP;
  const counted = await cappedTotal(page, params, cap, async (after, limit) => {
    const matching = db
      .selectFrom("connections")
      .select(sql<number>`1`.as("one"))
      .where(connectionConditions(ctx.org.id, filter, search, { after }));
    const row = await db
      .selectFrom(matching.limit(limit).as("matching"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  const rows = await connectionDetails(
    ctx.org.id,
    page.map((r) => Number(r.id)),
  );
  const exact = counted.capped && !search ? await totalFromRollups(ctx, filter) : null;
  // Roll-ups behind the rows (being rebuilt) are no total: the capped count stands then.
  return { rows, ...(exact === null || exact < counted.total ? counted : { total: exact, capped: false }) };
}

/**
 * The exact total of a long list the roll-ups hold (decision 0009): every connection, or every authorized
 * one, of the organisation or one venue, in whole days of the organisation. The capped count said "more
 * than 10,000" beside the dashboard's exact figure, and its pages stopped at the cap. Null for any other
 * filter (an access point, a customer, a device, online, a window that is not whole days).
 */
async function totalFromRollups(ctx: OrgContext, filter: ConnectionFilter): Promise<number | null> {
  const { venueId, accessPointMac, customerId, deviceId, online, authorized, startMs, endMs } = filter;
  if (accessPointMac !== undefined || customerId !== undefined || deviceId !== undefined || online) return null;
  const { offsetMs } = ctx.org.clock;
  const allHistory = { startMs: -offsetMs, endMs: dateRange(null, null, Date.now(), offsetMs).endMs, offsetMs };
  const range =
    startMs === undefined && endMs === undefined
      ? allHistory
      : { startMs: startMs ?? allHistory.startMs, endMs: endMs ?? allHistory.endMs, offsetMs };
  if (!isWholeDays(range)) return null;
  const totals = await aggregateUsage({ organizationId: ctx.org.id, venueIds: venueId === undefined ? [] : [venueId], range });
  return authorized ? totals.connections : totals.footfall;
}

/** The rows behind these ids with their customer, device, venue and access point, in the ids' order. */
export async function connectionDetails(orgId: number, ids: number[], now = Date.now()): Promise<ConnectionRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("connections")
    .leftJoin("customers", "customers.id", "connections.customer_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .leftJoin("venues", "venues.id", "connections.venue_id")
    .leftJoin("access_points", "access_points.id", "connections.access_point_id")
    .select([
      "connections.id",
      "connections.created_at",
      "connections.authorized_at",
      "connections.ended_at",
      "connections.upload",
      "connections.download",
      "connections.authorization_mode",
      "connections.ssid",
      "connections.access_point_mac",
      "connections.access_point_id",
      "customers.id as customer_id",
      "customers.identity as customer_identity",
      "customers.first_name as customer_first_name",
      "customers.last_name as customer_last_name",
      "customers.phone_number as customer_phone",
      "devices.id as device_id",
      "devices.name as device_name",
      "devices.mac_address as device_mac",
      "venues.id as venue_id",
      "venues.name as venue_name",
      "access_points.name as access_point_name",
    ])
    // The ids drive (primary key); with the organisation indexable SQLite walked its index instead.
    .where(unindexed("connections.organization_id"), "=", orgId)
    .where(inIds("connections.id", ids, { bigint: true }))
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), toConnectionRow(r, now)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type DetailRow = {
  id: number;
  created_at: number;
  authorized_at: number | null;
  ended_at: number | null;
  upload: number;
  download: number;
  authorization_mode: string | null;
  ssid: string | null;
  access_point_mac: string | null;
  access_point_id: number | null;
  customer_id: number | null;
  customer_identity: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  customer_phone: string | null;
  device_id: number | null;
  device_name: string | null;
  device_mac: string | null;
  venue_id: number | null;
  venue_name: string | null;
  access_point_name: string | null;
};

export function customerName(c: { first_name: string | null; last_name: string | null; identity: string }): string {
  if (c.first_name && c.last_name) return `${c.first_name} ${c.last_name}`;
  return c.first_name || c.last_name || c.identity;
}

export function toConnectionRow(r: DetailRow, now: number): ConnectionRow {
  const createdAt = Number(r.created_at);
  const authorizedAt = r.authorized_at === null ? null : Number(r.authorized_at);
  const endedAt = r.ended_at === null ? null : Number(r.ended_at);
  const online = authorizedAt !== null && endedAt === null;
  const upload = Number(r.upload);
  const download = Number(r.download);
  return {
    id: Number(r.id),
    createdAt,
    authorizedAt,
    endedAt,
    online,
    durationSeconds: authorizedAt === null ? 0 : Math.max(0, Math.round(((endedAt ?? now) - authorizedAt) / 1000)),
    upload,
    download,
    usage: upload + download,
    authorizationMode: r.authorization_mode,
    ssid: r.ssid,
    customer:
      r.customer_id === null
        ? null
        : {
            id: r.customer_id,
            identity: r.customer_identity ?? "",
            name: customerName({ first_name: r.customer_first_name, last_name: r.customer_last_name, identity: r.customer_identity ?? "" }),
            phoneNumber: r.customer_phone,
          },
    device: r.device_id === null ? null : { id: r.device_id, label: r.device_name || r.device_mac || "", macAddress: r.device_mac ?? "" },
    venue: r.venue_id === null ? null : { id: r.venue_id, name: r.venue_name ?? "" },
    accessPoint:
      r.access_point_id === null && r.access_point_mac === null
        ? null
        : { id: r.access_point_id, name: r.access_point_name, macAddress: r.access_point_mac },
  };
}

export const CLOSE_MESSAGES = {
  closed: "Connection closed successfully.",
  alreadyClosed: "This connection has already been closed.",
  notOnline: "This connection was never authorized, so there is nothing to close.",
} as const;

export interface CloseOutcome {
  ok: boolean;
  message: string;
  /** What the guest's gateway was told (absent for a connection no gateway handed over). */
  gateway?: GatewayNote;
}

/**
 * closeConnection(id): ends an online connection now and tells its gateway where the make allows
 * (revoke.server.ts); the message says honestly what happens at the gateway. Needs
 * edit_connections; another organisation's or a missing connection is a 404; a connection that is
 * not online is a clear answer (ok: false), not an error. The UPDATE only touches a row still
 * open, so two people closing at once both get a sensible answer and the gateway is told once.
 */
export async function closeConnection(ctx: OrgContext, id: number | null): Promise<CloseOutcome> {
  requirePermission(ctx, "edit_connections");
  if (id === null) notFound();
  const row = await db
    .selectFrom("connections")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.venue_id",
      "connections.authorized_at",
      "connections.ended_at",
      "connections.gateway",
      "connections.gateway_context",
      "connections.session_expires_at",
      "devices.mac_address",
    ])
    .where("connections.id", "=", id)
    .where("connections.organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) notFound();
  if (row.authorized_at === null) return { ok: false, message: CLOSE_MESSAGES.notOnline };
  if (row.ended_at !== null) return { ok: false, message: CLOSE_MESSAGES.alreadyClosed };
  const now = Date.now();
  const closed = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("connections")
      .set({ ended_at: Math.max(now, Number(row.authorized_at)), terminate_cause: "Admin-Reset" })
      .where("id", "=", id)
      .where("organization_id", "=", ctx.org.id)
      .where("ended_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    const gateway = await revokeAtGateway(
      trx,
      {
        id,
        organizationId: ctx.org.id,
        venueId: row.venue_id,
        gateway: row.gateway,
        gatewayContext: row.gateway_context,
        clientMac: row.mac_address,
        sessionExpiresAt: row.session_expires_at === null ? null : Number(row.session_expires_at),
      },
      now,
    );
    return { gateway };
  });
  if (!closed) return { ok: false, message: CLOSE_MESSAGES.alreadyClosed };
  if (!closed.gateway) return { ok: true, message: CLOSE_MESSAGES.closed };
  return { ok: true, message: `${CLOSE_MESSAGES.closed} ${closed.gateway.note}`, gateway: closed.gateway };
}
