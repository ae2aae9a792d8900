// connections.csv (spec 1 §9, spec 2 §9: every matching record, newest first). Rows are read in
// batches by keyset on (created_at, id), through the same filters and index choice as the list,
// and written as the client reads, so memory does not grow with the row count.
import { db } from "~/db/db.server";
import type { ConnectionFilter } from "~/lib/connections";
import { csvLine, plainText } from "~/lib/csv-line";
import { formatBytes, formatClock } from "~/lib/format";
import { formatUtcDateTime } from "~/lib/time";
import { resolveSearch } from "./connections-search.server";
import { assertFilterOwned, connectionConditions, customerName } from "./connections.server";
import type { OrgContext } from "./guard.server";
import { olderThan, type Cursor } from "./list-count.server";

/** Rows per read: small enough that a batch's objects die young (flat memory), large enough to amortise a query. */
export const EXPORT_BATCH = 1_000;
/** Batches requested ahead of the reader. */
const READ_AHEAD = 2;

export const CSV_HEADER = [
  "#",
  "Connected At (UTC)",
  "Customer",
  "Phone Number",
  "Device",
  "Device MAC",
  "Network",
  "Access Point",
  "Access Point MAC",
  "Auth Mode",
  "Duration",
  "Upload (bytes)",
  "Download (bytes)",
  "Consumption",
  "Status",
];

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
async function placeNames(orgId: number) {
  const [venues, accessPoints] = await Promise.all([
    db.selectFrom("venues").select(["id", "name"]).where("organization_id", "=", orgId).execute(),
    db.selectFrom("access_points").select(["id", "name"]).where("organization_id", "=", orgId).execute(),
  ]);
  return { venues: new Map(venues.map((v) => [v.id, v.name])), accessPoints: new Map(accessPoints.map((a) => [a.id, a.name])) };
}

/** One CSV line, straight from the flat row (no list row objects: exports are millions of rows). */
function csvRecord(n: number, r: ExportRow, places: Awaited<ReturnType<typeof placeNames>>, now: number): string {
  const authorizedAt = r.authorized_at === null ? null : Number(r.authorized_at);
  const seconds = authorizedAt === null ? 0 : Math.max(0, (Number(r.ended_at ?? now) - authorizedAt) / 1000);
  const upload = Number(r.upload);
  const download = Number(r.download);
  return csvLine([
    n,
    formatUtcDateTime(Number(r.created_at)),
    r.identity === null ? "" : plainText(customerName({ first_name: r.first_name, last_name: r.last_name, identity: r.identity })),
    r.phone_number ?? "",
    plainText(r.device_name || r.device_mac || ""),
    r.device_mac ?? "",
    (r.venue_id !== null && places.venues.get(r.venue_id)) || "",
    (r.access_point_id !== null && places.accessPoints.get(r.access_point_id)) || "",
    r.access_point_mac ?? "",
    r.authorization_mode ?? "",
    formatClock(seconds),
    upload,
    download,
    formatBytes(upload + download),
    authorizedAt !== null && r.ended_at === null ? "Online" : "Offline",
  ]);
}

/**
 * The CSV lines of the matching connections in batches, newest first. Each batch is one query: the
 * list's index read below the last (created_at, id) seen (an index range, however deep the
 * export is), with each row's customer and device by primary key.
 * The caller has checked the filter's ids (assertFilterOwned).
 */
async function* recordBatches(ctx: OrgContext, filter: ConnectionFilter, search: string, batchSize: number) {
  const match = search ? await resolveSearch(ctx, search) : null;
  if (match?.none) return;
  const where = connectionConditions(ctx.org.id, filter, match);
  const places = await placeNames(ctx.org.id);
  let cursor: Cursor | null = null;
  let numbered = 0;
  for (;;) {
    let query = db
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
      .where(where);
    if (cursor) query = query.where(olderThan("connections", cursor));
    const rows: ExportRow[] = await query.orderBy("connections.created_at", "desc").orderBy("connections.id", "desc").limit(batchSize).execute();
    if (rows.length === 0) return;
    const now = Date.now();
    let chunk = "";
    for (const r of rows) chunk += csvRecord(++numbered, r, places, now);
    yield chunk;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: Number(last.created_at), id: Number(last.id) };
  }
}

/**
 * The CSV as a byte stream: the header, then one chunk per batch, produced when the
 * reader asks for it (pull), so rows leave the database only as fast as the client takes them.
 * The next batches are already being read while a chunk is handed over (the database works meanwhile).
 */
export async function connectionsCsvStream(
  ctx: OrgContext,
  filter: ConnectionFilter,
  search: string,
  batchSize = EXPORT_BATCH,
): Promise<ReadableStream<Uint8Array>> {
  // Ownership of the filter's ids is checked before the response starts, so a foreign id is a 404.
  await assertFilterOwned(ctx, filter);
  const batches = recordBatches(ctx, filter, search, batchSize);
  const encoder = new TextEncoder();
  // Requested ahead: the generator reads them while earlier chunks are being written.
  const ahead: ReturnType<typeof batches.next>[] = [];
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        for (let i = 0; i < READ_AHEAD; i++) ahead.push(batches.next());
        controller.enqueue(encoder.encode(csvLine(CSV_HEADER)));
        return;
      }
      const { value: chunk, done } = await ahead.shift()!;
      if (done) {
        controller.close();
        return;
      }
      ahead.push(batches.next());
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await Promise.allSettled(ahead);
      await batches.return(undefined);
    },
  });
}
