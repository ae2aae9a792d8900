// The little SQL that differs between SQLite and PostgreSQL lives here.
import DataLoader from "dataloader";
import { sql, type CompiledQuery, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { likePattern } from "~/lib/pagination";
import { db, dialect, executePrepared } from "./db.server";
import type { DB } from "./schema";

/** Case-insensitive "contains" for a list's search box; wildcards in the term are literal. */
export function containsText(column: Expression<unknown> | string, search: string): Expression<SqlBool> {
  const ref = typeof column === "string" ? sql.ref(column) : column;
  const pattern = likePattern(search);
  return dialect() === "postgres" ? sql<SqlBool>`${ref} ilike ${pattern} escape '\\'` : sql<SqlBool>`${ref} like ${pattern} escape '\\'`;
}

/**
 * `column` is one of `ids`, sent as one parameter however many there are (a JSON array read by
 * json_each on SQLite, an array on PostgreSQL, typed like the column: `bigint` for a bigint column,
 * because PostgreSQL hashes the array only when both sides have the same type). `indexed: false`
 * writes `column + 0`, so the ids are tested row by row instead of looked up through an index.
 */
export function inIds(column: string, ids: readonly number[], { indexed = true, bigint = false } = {}): Expression<SqlBool> {
  const ref = indexed ? sql.ref(column) : sql`${sql.ref(column)} + 0`;
  if (dialect() !== "postgres") return sql<SqlBool>`${ref} in (select value from json_each(${JSON.stringify(ids)}))`;
  return bigint ? sql<SqlBool>`${ref} = any(${ids}::int8[])` : sql<SqlBool>`${ref} = any(${ids}::int4[])`;
}

/** A unique (or primary key) constraint refused the write: PostgreSQL 23505, SQLite's UNIQUE/PRIMARYKEY codes. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** A foreign key refused the write (the row it names was deleted meanwhile): PostgreSQL 23503, SQLite's FOREIGNKEY code. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

/** PostgreSQL aborted the transaction to break a deadlock (40P01); running it again is safe. */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "40P01";
}

/**
 * Runs a transaction again when PostgreSQL broke a deadlock by aborting it. The roll-up triggers of
 * concurrent writes (guests arriving and authorizing, accounting, the idle job, a console close)
 * lock the same hour's and day's rows; they take them in one order (decision 0014), but a customer's
 * lock and a batch's rows can still cross. SQLite has one writer at a time and never deadlocks.
 */
export async function retryDeadlocks<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Engine differences the services use. Each helper says in one line why the engines differ; no
// file outside app/db asks which engine runs (tests/unit/structure.test.ts).

/** Locks the rows read for a read-modify-write: PostgreSQL locks rows; a SQLite write transaction already holds the one write lock. */
export function lockedForUpdate<D, T extends keyof D, O>(query: SelectQueryBuilder<D, T, O>): SelectQueryBuilder<D, T, O> {
  return dialect() === "postgres" ? query.forUpdate() : query;
}

/**
 * Rows a worker may claim: on PostgreSQL locked, skipping rows another transaction holds (so
 * instances take different rows); SQLite has one writer at a time, so there is nothing to skip.
 */
export function claimable<D, T extends keyof D, O>(query: SelectQueryBuilder<D, T, O>): SelectQueryBuilder<D, T, O> {
  return dialect() === "postgres" ? query.forUpdate().skipLocked() : query;
}

/**
 * The column compared row by row where an index would mislead the plan (SQLite only): SQLite,
 * without statistics, would otherwise pick an index that gives no order (`col + 0`). PostgreSQL
 * plans from its statistics, which the expression would blind, so there the column stays as it is.
 */
export function unindexed(column: string): Expression<number> {
  return dialect() === "postgres" ? sql.ref(column) : sql<number>`${sql.ref(column)} + 0`;
}

/** `unindexed` for a text column (`col || ''` on SQLite). */
export function unindexedText(column: string): Expression<string> {
  return dialect() === "postgres" ? sql.ref(column) : sql<string>`${sql.ref(column)} || ''`;
}

/**
 * The integer column kept out of the index choice on both engines (`col + 0`): another condition's
 * index finds the rows and this one is only checked on them (decision 0030).
 */
export function checkedPerRow(column: string): Expression<number> {
  return sql<number>`${sql.ref(column)} + 0`;
}

/** The database's clock in epoch milliseconds: each engine has its own date functions. */
export function databaseNowMs(): RawBuilder<number> {
  return dialect() === "postgres" ? sql<number>`(extract(epoch from now()) * 1000)::bigint` : sql<number>`(strftime('%s', 'now') * 1000)`;
}

/** The aggregate joining a text column's values with commas: `string_agg` on PostgreSQL, `group_concat` on SQLite. */
export function commaJoined(column: string): RawBuilder<string | null> {
  return dialect() === "postgres"
    ? sql<string | null>`string_agg(${sql.ref(column)}, ',')`
    : sql<string | null>`group_concat(${sql.ref(column)}, ',')`;
}

/** A top-level key of a JSON text column, as text: each engine has its own JSON operators. */
export function jsonText(column: string, key: string): RawBuilder<string | null> {
  return dialect() === "postgres"
    ? sql<string | null>`(${sql.ref(column)}::json ->> ${sql.lit(key)})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/** The larger of two values: `greatest` on PostgreSQL; SQLite's scalar `max` with two arguments. */
export function greatest(a: Expression<unknown>, b: Expression<unknown>): RawBuilder<number> {
  return dialect() === "postgres" ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`;
}

/** A bigint parameter in a VALUES list: PostgreSQL cannot infer a VALUES column's type from parameters; SQLite needs no type. */
export function bigintValue(value: number | null): RawBuilder<number | null> {
  return dialect() === "postgres" ? sql<number | null>`${value}::int8` : sql<number | null>`${value}`;
}

/** A text parameter in a VALUES list (see `bigintValue`). */
export function textValue(value: string | null): RawBuilder<string | null> {
  return dialect() === "postgres" ? sql<string | null>`${value}::text` : sql<string | null>`${value}`;
}

/** A–Z folded to a–z and nothing else: PostgreSQL's `lower` follows the database's locale, SQLite's folds ASCII only. */
export function foldAsciiCase(text: Expression<string>): RawBuilder<string> {
  return dialect() === "postgres"
    ? sql<string>`translate(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`
    : sql<string>`lower(${text})`;
}

/**
 * Rows before (at, id) in the order (at desc, id desc), written so each engine reads on down the
 * index from that row: PostgreSQL with a row value, SQLite with an OR (a row value there sorts every
 * remaining row).
 */
export function before(atColumn: string, idColumn: string, at: number, id: number): RawBuilder<SqlBool> {
  const [a, i] = [sql.ref(atColumn), sql.ref(idColumn)];
  return dialect() === "postgres"
    ? sql<SqlBool>`(${a}, ${i}) < (${at}, ${id})`
    : sql<SqlBool>`(${a} < ${at} or (${a} = ${at} and ${i} < ${id}))`;
}

/**
 * Waits for the other transactions holding this (key, id) lock: PostgreSQL's transaction-scoped
 * advisory lock; SQLite's write transaction already excludes every other writer.
 */
export async function serializeOn(trx: Kysely<DB>, key: number, id: number): Promise<void> {
  if (dialect() === "postgres") await sql`select pg_advisory_xact_lock(${key}, ${id})`.execute(trx);
}

/**
 * Runs a write whose loss in a crash costs nothing (a counted impression): on PostgreSQL in a
 * transaction that does not wait for the WAL to reach the disk; SQLite's commit is already not
 * synced per write (synchronous = NORMAL in WAL mode).
 */
export async function writeWithoutFlush(write: (executor: Kysely<DB>) => Promise<unknown>): Promise<void> {
  if (dialect() !== "postgres") {
    await write(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`set local synchronous_commit = off`.execute(trx);
    await write(trx);
  });
}

/**
 * Rows that name each other written in one round trip where the engine allows: on PostgreSQL
 * `together` (one data-modifying WITH statement: a round trip costs about the statement's work,
 * decision 0025); on SQLite `apart` (statements run in this process, and it has no data-modifying
 * WITH). Both forms run in the same integration tests.
 */
export function writeTogether<T>(forms: { together: () => Promise<T>; apart: () => Promise<T> }): Promise<T> {
  return dialect() === "postgres" ? forms.together() : forms.apart();
}

/** Whether several reads run side by side: PostgreSQL's pool has several connections; SQLite runs one statement at a time. */
export function parallelReads(): boolean {
  return dialect() === "postgres";
}

/**
 * Whether "contains" searches read the FTS5 trigram tables (`<table>_search`, SQLite): PostgreSQL's
 * planner uses the pg_trgm index for LIKE by itself, so there the plain LIKE is the fast form.
 */
export function hasTrigramTables(): boolean {
  return dialect() !== "postgres";
}

/**
 * A hot lookup of one row by a text key (the guest's connect page), compiled once, its SQL the
 * same for every key. On PostgreSQL the lookups of one turn of the event loop go as one statement
 * (`key = any($1)`, decision 0026): each round trip wakes a backend that takes the CPU from this
 * process on a busy machine. SQLite answers in this process, so there is nothing to gather. Both
 * run through `executePrepared` (the explicit executor for named statements). No cache: every load
 * reads the database.
 */
export function keyedLookup<R>(
  name: string,
  query: (condition: Expression<SqlBool>) => { compile(): CompiledQuery },
  keyColumn: string,
  keyOf: (row: R) => string,
): (key: string) => Promise<R | undefined> {
  let one: CompiledQuery | undefined;
  let many: CompiledQuery | undefined;
  const batches = new DataLoader<string, R | null>(
    async (keys) => {
      many ??= query(sql<SqlBool>`${sql.ref(keyColumn)} = any(${sql.val([])}::text[])`).compile();
      const rows = await executePrepared<R>(`${name}_many`, many, [keys]);
      const byKey = new Map(rows.map((row) => [keyOf(row), row]));
      return keys.map((key) => byKey.get(key) ?? null);
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch), maxBatchSize: 100 },
  );
  return async (key) => {
    if (dialect() === "postgres") return (await batches.load(key)) ?? undefined;
    one ??= query(sql<SqlBool>`${sql.ref(keyColumn)} = ${""}`).compile();
    return (await executePrepared<R>(name, one, [key]))[0];
  };
}
