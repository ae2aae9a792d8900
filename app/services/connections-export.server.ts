// connections.csv (spec 1 §9, spec 2 §9: every matching record, newest first). Rows are read in
// batches by keyset on (created_at, id), through the same filters and index choice as the list,
// and written with csv-stringify as the client reads, so memory does not grow with the row count.
import { stringify } from "csv-stringify";
import { Readable } from "node:stream";
import { db } from "~/db/db.server";
import type { ConnectionFilter, ConnectionRow } from "~/lib/connections";
import { formatBytes, formatClock } from "~/lib/format";
import { formatUtcDateTime } from "~/lib/time";
import { resolveSearch } from "./connections-search.server";
import { assertFilterOwned, connectionConditions, connectionDetails } from "./connections.server";
import type { OrgContext } from "./guard.server";
import { olderThan } from "./list-count.server";

export const EXPORT_BATCH = 5_000;

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

function csvRecord(n: number, row: ConnectionRow): (string | number)[] {
  return [
    n,
    formatUtcDateTime(row.createdAt),
    row.customer?.name ?? "",
    row.customer?.phoneNumber ?? "",
    row.device?.label ?? "",
    row.device?.macAddress ?? "",
    row.venue?.name ?? "",
    row.accessPoint?.name ?? "",
    row.accessPoint?.macAddress ?? "",
    row.authorizationMode ?? "",
    formatClock(row.durationSeconds),
    row.upload,
    row.download,
    formatBytes(row.usage),
    row.online ? "Online" : "Offline",
  ];
}

/**
 * Batches of matching connections, newest first: each batch continues below the last
 * (created_at, id) seen, so every batch is an index range read, however deep the export is.
 * The caller has checked the filter's ids (assertFilterOwned).
 */
async function* connectionBatches(ctx: OrgContext, filter: ConnectionFilter, search: string, batchSize = EXPORT_BATCH) {
  const match = search ? await resolveSearch(ctx, search) : null;
  if (match?.none) return;
  const where = connectionConditions(ctx.org.id, filter, match);
  let after: { createdAt: number; id: number } | null = null;
  for (;;) {
    const cursor: { createdAt: number; id: number } | null = after;
    let query = db.selectFrom("connections").select(["connections.id", "connections.created_at"]).where(where);
    if (cursor) query = query.where(olderThan("connections", cursor));
    const keys = await query.orderBy("connections.created_at", "desc").orderBy("connections.id", "desc").limit(batchSize).execute();
    if (keys.length === 0) return;
    yield await connectionDetails(ctx.org.id, keys.map((k) => Number(k.id)));
    if (keys.length < batchSize) return;
    const last = keys[keys.length - 1];
    after = { createdAt: Number(last.created_at), id: Number(last.id) };
  }
}

/**
 * The CSV as a byte stream: csv-stringify's stream fed record by record, waiting whenever its
 * buffer is full, so rows are read from the database only as fast as the client takes them. The
 * next batch is already being read while one is written (the database works meanwhile).
 */
export async function connectionsCsvStream(
  ctx: OrgContext,
  filter: ConnectionFilter,
  search: string,
  batchSize = EXPORT_BATCH,
): Promise<ReadableStream<Uint8Array>> {
  // Ownership of the filter's ids is checked before the response starts, so a foreign id is a 404.
  await assertFilterOwned(ctx, filter);
  const batches = connectionBatches(ctx, filter, search, batchSize);
  const csv = stringify();
  // Until the buffer has room again, or the stream is gone (client left, or an error).
  const room = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        csv.off("drain", done);
        csv.off("close", done);
        resolve();
      };
      csv.on("drain", done);
      csv.on("close", done);
    });
  const write = async (record: (string | number)[]) => {
    if (!csv.write(record)) await room();
  };
  void (async () => {
    try {
      await write(CSV_HEADER);
      let n = 0;
      let next = batches.next();
      for (;;) {
        const { value: rows, done } = await next;
        if (done || csv.destroyed) break;
        next = batches.next();
        for (const row of rows) {
          if (csv.destroyed) break;
          await write(csvRecord(++n, row));
        }
      }
      await batches.return(undefined);
      if (!csv.destroyed) csv.end();
    } catch (error) {
      console.error(JSON.stringify({ at: new Date().toISOString(), event: "connections_export_failed", error: String(error) }));
      csv.destroy(error as Error);
    }
  })();
  return Readable.toWeb(csv) as ReadableStream<Uint8Array>;
}
