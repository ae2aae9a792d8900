// The little SQL that differs between SQLite and PostgreSQL lives here.
import { sql, type Expression, type SqlBool } from "kysely";
import { likePattern } from "~/lib/pagination";
import { dialect } from "./db.server";

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
