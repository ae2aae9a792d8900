// connections.csv (spec 1 §9, spec 2 §9: every matching record, newest first). Rows are read in
// batches by keyset on (created_at, id), through the same filters and index choice as the list,
// and written with csv-stringify as the client reads, so memory does not grow with the row count.
import { stringify } from "csv-stringify/sync";
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

/** The CSV as a byte stream: the header, then one batch per read (pull-based, so it waits for the reader). */
export async function connectionsCsvStream(
  ctx: OrgContext,
  filter: ConnectionFilter,
  search: string,
  batchSize = EXPORT_BATCH,
): Promise<ReadableStream<Uint8Array>> {
  // Ownership of the filter's ids is checked before the response starts, so a foreign id is a 404.
  await assertFilterOwned(ctx, filter);
  const batches = connectionBatches(ctx, filter, search, batchSize);
  const encoder = new TextEncoder();
  let n = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([CSV_HEADER])));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(stringify(next.value.map((row) => csvRecord(++n, row)))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
