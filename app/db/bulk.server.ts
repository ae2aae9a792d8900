// Bulk inserts for the demo generator and benchmarks: the fastest path each engine offers
// without extra dependencies. Rows arrive in batches from a generator, so memory holds a
// few batches at most, whatever the total.
import { sql, type Transaction } from "kysely";
import { db, dialect, rawSqlite } from "./db.server";
import type { DB } from "./schema";

type Table = "venues" | "access_points" | "customers" | "devices" | "connections" | "subscriptions" | "vouchers";
type Row = Record<string, unknown>;

// SQLite: a commit writes every page the transaction dirtied, and two of the connections
// indexes (customer, device) take rows in random order, so small transactions write the same
// index pages again and again. For 5M connections, 50k-row transactions wrote 22 GB and ran
// at 40k rows/s; 200k-row transactions with a cache that holds their pages wrote 8 GB and ran
// at 64k rows/s.
const SQLITE_BATCHES_PER_TRANSACTION = 40;
/** SQLite page cache while loading (KiB); restored afterwards. */
const SQLITE_LOAD_CACHE_KIB = 196_608;
/** A batch is one statement on PostgreSQL. */
const POSTGRES_BATCHES_PER_TRANSACTION = 10;
/** Concurrent transactions when loading rows whose ids are not needed (PostgreSQL). */
const POSTGRES_WRITERS = 2;

export interface InsertOptions {
  /** Collect the new ids, in row order. */
  returnIds?: boolean;
  onBatch?: (rowsSoFar: number) => void;
}

/** Inserts every batch, several batches per transaction; returns the new ids when asked. */
export async function insertBatches(table: Table, batches: Iterable<Row[]>, options: InsertOptions = {}): Promise<number[]> {
  return dialect() === "postgres" ? insertPostgres(table, batches, options) : insertSqlite(table, batches, options);
}

function insertSqlite(table: Table, batches: Iterable<Row[]>, { returnIds, onBatch }: InsertOptions): number[] {
  const sqlite = rawSqlite()!;
  const ids: number[] = [];
  // For this connection only and restored below: every id the generator uses comes from a row
  // it has just inserted, so checking foreign keys would only cost time (a fifth of the load).
  const settings = {
    foreign_keys: sqlite.pragma("foreign_keys", { simple: true }),
    cache_size: sqlite.pragma("cache_size", { simple: true }),
  };
  sqlite.pragma("foreign_keys = OFF");
  sqlite.pragma(`cache_size = -${SQLITE_LOAD_CACHE_KIB}`);
  let statement: ReturnType<typeof sqlite.prepare> | undefined;
  let rows = 0;
  let inTransaction = 0;
  try {
    for (const batch of batches) {
      if (!batch.length) continue;
      // Named parameters, so the statement binds the builder's row objects as they are.
      statement ??= sqlite.prepare(
        `insert into "${table}" (${Object.keys(batch[0])
          .map((c) => `"${c}"`)
          .join(", ")}) values (${Object.keys(batch[0])
          .map((c) => `@${c}`)
          .join(", ")})`,
      );
      if (inTransaction === 0) sqlite.exec("begin");
      for (const row of batch) {
        const result = statement.run(row);
        if (returnIds) ids.push(Number(result.lastInsertRowid));
      }
      rows += batch.length;
      if (++inTransaction === SQLITE_BATCHES_PER_TRANSACTION) {
        sqlite.exec("commit");
        inTransaction = 0;
      }
      onBatch?.(rows);
    }
    if (inTransaction > 0) sqlite.exec("commit");
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("rollback");
    throw error;
  } finally {
    sqlite.pragma(`foreign_keys = ${settings.foreign_keys}`);
    sqlite.pragma(`cache_size = ${settings.cache_size}`);
  }
  return ids;
}

async function insertPostgres(table: Table, batches: Iterable<Row[]>, { returnIds, onBatch }: InsertOptions): Promise<number[]> {
  const ids: number[] = [];
  const iterator = batches[Symbol.iterator]();
  let rows = 0;
  let done = false;

  // One transaction at a time per writer; each takes the next batches from the shared generator.
  const writer = async () => {
    while (!done) {
      await db.transaction().execute(async (trx) => {
        // Build the next batch while the previous statement runs, so Node and PostgreSQL
        // work at the same time.
        let inFlight: Promise<void> = Promise.resolve();
        for (let i = 0; i < POSTGRES_BATCHES_PER_TRANSACTION && !done; i++) {
          const next = iterator.next();
          await inFlight;
          if (next.done) {
            done = true;
            break;
          }
          const batch = next.value;
          if (!batch.length) continue;
          inFlight = insertPostgresBatch(trx, table, batch, returnIds).then((batchIds) => {
            ids.push(...batchIds);
            rows += batch.length;
            onBatch?.(rows);
          });
          // Awaited on the next turn; this only stops Node reporting a failure before that.
          inFlight.catch(() => {});
          // Let the query reach the socket before the next batch is built.
          await new Promise((resolve) => setImmediate(resolve));
        }
        await inFlight;
      });
    }
  };
  // Foreign-key checks make PostgreSQL the bottleneck; two backends use both cores (measured
  // 1.7× on two cores). Ids are only collected in row order with a single writer.
  const writers = Array.from({ length: returnIds ? 1 : POSTGRES_WRITERS }, () =>
    writer().catch((error: unknown) => {
      done = true; // the other writers stop after their current transaction
      throw error;
    }),
  );
  const failed = (await Promise.allSettled(writers)).find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return ids;
}

/**
 * One statement per batch whatever its size: the rows travel as a single JSON parameter
 * (no 65,535 bind-parameter limit) and PostgreSQL maps them to the table's column types.
 * WITH ORDINALITY keeps the insert, and so the returned ids, in the rows' order.
 */
async function insertPostgresBatch(trx: Transaction<DB>, table: Table, batch: Row[], returnIds = false): Promise<number[]> {
  const columns = sql.join(Object.keys(batch[0]).map((c) => sql.ref(c)));
  const source = sql`json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(batch)}::json) with ordinality as r`;
  if (!returnIds) {
    await sql`insert into ${sql.table(table)} (${columns}) select ${columns} from ${source} order by r.ordinality`.execute(trx);
    return [];
  }
  const result = await sql<{
    id: number;
  }>`insert into ${sql.table(table)} (${columns}) select ${columns} from ${source} order by r.ordinality returning id`.execute(trx);
  return result.rows.map((r) => r.id);
}
