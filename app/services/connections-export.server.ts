// connections.csv (docs/guide/connections-devices-customers.md#connections-table: every
// matching record, newest first). Rows are read in batches by keyset on (created_at, id),
// through the same filters and index choice as the list, and written as the client reads, so
// memory does not grow with the row count.
import { db } from "~/db/db.server";
import { parallelReads } from "~/db/sql.server";
import type { ConnectionFilter } from "~/lib/connections";
import { csvCell, csvHeader } from "~/lib/csv-line";
import { authModeLabel } from "~/lib/auth-modes";
import { formatDateTime, withZone } from "~/lib/time";
import { resolveSearch } from "./connections-search.server";
import { assertFilterOwned, connectionConditions, customerName, type KeyRange } from "./connections.server";
import type { OrgContext } from "./guard.server";
import type { Cursor } from "./list-count.server";

/**
 * Rows per read, measured on 1,000,000-row exports: SQLite reads one batch after another (5,000
 * was faster, but the heap then grew past 100 MB); PostgreSQL reads several at once, and small
 * ones keep memory flat while the database and this process overlap.
 */
const BATCH = { sequential: 2_000, parallel: 1_000 } as const;
/** PostgreSQL batches being read at once. */
const IN_FLIGHT = 3;

/** The header; times are on the organisation's clock (`offsetMs` from UTC), named in the column. */
export const csvHeaderAt = (offsetMs: number) => [
  "#",
  withZone("Connected At", offsetMs),
  "Customer",
  "Phone Number",
  "Device",
  "Device MAC",
  "Network",
  "Access Point",
  "Access Point MAC",
  "Auth Mode",
  "Duration (seconds)",
  "Upload (bytes)",
  "Download (bytes)",
  "Consumption (bytes)",
  "Status",
];

/** What every line needs besides its row: place names and the organisation's offset from UTC. */
type Places = { venues: Map<number, string>; accessPoints: Map<number, string>; offsetMs: number };

type ExportRow = {
  id: number;
  created_at: number;
  authorized_at: number | null;
  ended_at: number | null;
  upload: number;
  download: number;
  authorization_mode: string | null;
  access_point_mac: string | null;
  venue_id: number | null;
  access_point_id: number | null;
  identity: string | null;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  device_name: string | null;
  device_mac: string | null;
};

/** Names of the organisation's venues and access points, read once per export instead of joined per row. */
async function placeNames(orgId: number, offsetMs: number): Promise<Places> {
  const [venues, accessPoints] = await Promise.all([
    db.selectFrom("venues").select(["id", "name"]).where("organization_id", "=", orgId).execute(),
    db.selectFrom("access_points").select(["id", "name"]).where("organization_id", "=", orgId).execute(),
  ]);
  return {
    venues: new Map(venues.map((v) => [v.id, v.name])),
    accessPoints: new Map(accessPoints.map((a) => [a.id, a.name])),
    offsetMs,
  };
}

/** "DD-MM-YYYY HH:mm" of consecutive rows is mostly the same minute: formatted once per minute. */
function minuteFormatter(offsetMs: number) {
  let minute = Number.NaN;
  let text = "";
  return (ms: number) => {
    const m = Math.floor(ms / 60_000);
    if (m !== minute) {
      minute = m;
      text = formatDateTime(ms, offsetMs);
    }
    return text;
  };
}

/**
 * One CSV line, straight from the flat row: no list row objects and no cell arrays, because exports
 * are millions of rows (see the decision record).
 */
function csvRecord(n: number, r: ExportRow, places: Places, now: number, time: (ms: number) => string): string {
  const authorizedAt = r.authorized_at === null ? null : Number(r.authorized_at);
  const seconds = authorizedAt === null ? 0 : Math.max(0, (Number(r.ended_at ?? now) - authorizedAt) / 1000);
  const upload = Number(r.upload);
  const download = Number(r.download);
  const customer = r.identity === null ? "" : customerName({ first_name: r.first_name, last_name: r.last_name, identity: r.identity });
  const venue = r.venue_id === null ? "" : (places.venues.get(r.venue_id) ?? "");
  const accessPoint = r.access_point_id === null ? "" : (places.accessPoints.get(r.access_point_id) ?? "");
  return (
    `${n},${time(Number(r.created_at))},${csvCell(customer)},${csvCell(r.phone_number)},` +
    `${csvCell(r.device_name || r.device_mac || "")},${csvCell(r.device_mac)},${csvCell(venue)},${csvCell(accessPoint)},` +
    `${csvCell(r.access_point_mac)},${r.authorization_mode === null ? "" : csvCell(authModeLabel(r.authorization_mode))},${Math.round(seconds)},` +
    `${upload},${download},${upload + download},${authorizedAt !== null && r.ended_at === null ? "Online" : "Offline"}\n`
  );
}

/** The export's conditions for a keyset range. */
type Where = (range: KeyRange) => ReturnType<typeof connectionConditions>;

/** Matching rows with their customer and device, newest first, after `from`: down to `to`, or the next `limit`. */
function readRows(where: Where, from: Cursor | null, to: Cursor | null, limit?: number): Promise<ExportRow[]> {
  const query = db
    .selectFrom("connections")
    .leftJoin("customers", "customers.id", "connections.customer_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.created_at",
      "connections.authorized_at",
      "connections.ended_at",
      "connections.upload",
      "connections.download",
      "connections.authorization_mode",
      "connections.access_point_mac",
      "connections.venue_id",
      "connections.access_point_id",
      "customers.identity",
      "customers.first_name",
      "customers.last_name",
      "customers.phone_number",
      "devices.name as device_name",
      "devices.mac_address as device_mac",
    ])
    .where(where({ after: from, through: to }))
    .orderBy("connections.created_at", "desc")
    .orderBy("connections.id", "desc");
  return (limit ? query.limit(limit) : query).execute();
}

const cursorOf = (row: { created_at: number; id: number }): Cursor => ({ createdAt: Number(row.created_at), id: Number(row.id) });

function linesOf(rows: ExportRow[], first: number, places: Places): string {
  const now = Date.now();
  const time = minuteFormatter(places.offsetMs);
  let chunk = "";
  for (let i = 0; i < rows.length; i++) chunk += csvRecord(first + i, rows[i], places, now, time);
  return chunk;
}

/** SQLite (one connection, queries run one after another anyway): each batch continues below the last row of the previous one. */
async function* sequentialBatches(where: Where, places: Places, batchSize: number) {
  let from: Cursor | null = null;
  let numbered = 0;
  for (;;) {
    const rows = await readRows(where, from, null, batchSize);
    if (rows.length === 0) return;
    yield linesOf(rows, numbered + 1, places);
    numbered += rows.length;
    if (rows.length < batchSize) return;
    from = cursorOf(rows[rows.length - 1]);
  }
}

/**
 * PostgreSQL: each batch's last row is found first in the list's index; the rows down to it are
 * then read on another connection while the next batches are located and earlier ones written,
 * so the database and this process work at the same time.
 */
async function* concurrentBatches(where: Where, places: Places, batchSize: number) {
  const pending: Promise<string>[] = [];
  let from: Cursor | null = null;
  let numbered = 0;
  let more = true;
  try {
    for (;;) {
      while (more && pending.length < IN_FLIGHT) {
        const last: { id: number; created_at: number } | undefined = await db
          .selectFrom("connections")
          .select(["connections.id", "connections.created_at"])
          .where(where({ after: from }))
          .orderBy("connections.created_at", "desc")
          .orderBy("connections.id", "desc")
          .offset(batchSize - 1)
          .limit(1)
          .executeTakeFirst();
        const to: Cursor | null = last ? cursorOf(last) : null; // none: fewer than a batch remain, read them all
        const first = numbered + 1;
        const lines = readRows(where, from, to).then((rows) => linesOf(rows, first, places));
        lines.catch(() => undefined); // awaited in order below; this only keeps Node from reporting it early
        pending.push(lines);
        numbered += batchSize;
        from = to;
        more = to !== null;
      }
      const next = pending.shift();
      if (!next) return;
      const chunk = await next;
      if (chunk) yield chunk;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}

/** The CSV lines of the matching connections in batches, newest first. The caller has checked the filter's ids. */
async function* lineBatches(ctx: OrgContext, filter: ConnectionFilter, search: string, batchSize: number) {
  const match = search ? await resolveSearch(ctx, search) : null;
  if (match?.none) return;
  // Connections that arrive during the export are left out, so every batch holds exactly its share.
  const window = { ...filter, endMs: Math.min(filter.endMs ?? Infinity, Date.now() + 1) };
  const where: Where = (range) => connectionConditions(ctx.org.id, window, match, range);
  const places = await placeNames(ctx.org.id, ctx.org.clock.offsetMs);
  yield* parallelReads() ? concurrentBatches(where, places, batchSize) : sequentialBatches(where, places, batchSize);
}

/**
 * The CSV as a byte stream: the header, then one chunk per batch, produced when the
 * reader asks for it (pull), so rows leave the database only as fast as the client takes them.
 * The next batch is already being prepared while a chunk is handed over.
 */
export async function connectionsCsvStream(
  ctx: OrgContext,
  filter: ConnectionFilter,
  search: string,
  batchSize: number = parallelReads() ? BATCH.parallel : BATCH.sequential,
): Promise<ReadableStream<Uint8Array>> {
  // Ownership of the filter's ids is checked before the response starts, so a foreign id is a 404.
  await assertFilterOwned(ctx, filter);
  const batches = lineBatches(ctx, filter, search, batchSize);
  const encoder = new TextEncoder();
  let next: ReturnType<typeof batches.next> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next === null) {
        next = batches.next();
        controller.enqueue(encoder.encode(csvHeader(csvHeaderAt(ctx.org.clock.offsetMs))));
        return;
      }
      const { value: chunk, done } = await next;
      if (done) {
        controller.close();
        return;
      }
      next = batches.next();
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await next?.catch(() => undefined);
      await batches.return(undefined);
    },
  });
}
