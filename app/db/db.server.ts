import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, type CompiledQuery } from "kysely";
import pg from "pg";
import { getEnv } from "~/env.server";
import { PERMISSIONS } from "~/lib/permissions";
import { migrations } from "./migrations";
import { dropPerValueStatistics, SharedSqliteDialect } from "./sqlite-dialect.server";
import type { DB } from "./schema";

export type Dialect = "sqlite" | "postgres";

interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The raw better-sqlite3 handle, for bulk loading only (null on PostgreSQL). */
  sqlite: SQLite.Database | null;
  /** The pg pool, for named prepared statements only (null on SQLite). */
  pool: pg.Pool | null;
}

// pg returns int8 (bigint columns, count(*)) as strings; our integers fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** `DATABASE_URL` unset or `file:…`/`sqlite:…`: SQLite. `postgres://…`: PostgreSQL. */
export function openDatabase(url: string | undefined): Database {
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    // JIT compilation costs ~100 ms per query when the planner overestimates a small partial index
    // ("online now") and buys nothing for the short queries of a console; it is off for our sessions.
    const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c jit=off" });
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect: "postgres", sqlite: null, pool };
  }
  const file = url ? url.replace(/^(file|sqlite):(\/\/)?/, "") : path.join(getEnv().DATA_DIR, "mlango.db");
  if (file !== ":memory:") {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    dropPerValueStatistics(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("temp_store = MEMORY");
  // Several processes may share the file: BEGIN IMMEDIATE, and busy waits that keep the event loop free.
  return { db: new Kysely<DB>({ dialect: new SharedSqliteDialect(sqlite) }), dialect: "sqlite", sqlite, pool: null };
}

// One instance per process; kept on globalThis so development rebuilds do not leak connections.
const globalStore = globalThis as unknown as { __mlangoDatabase?: Database };

function database(): Database {
  globalStore.__mlangoDatabase ??= openDatabase(getEnv().DATABASE_URL);
  return globalStore.__mlangoDatabase;
}

export const db: Kysely<DB> = new Proxy({} as Kysely<DB>, {
  get(_target, property) {
    const instance = database().db;
    const value = Reflect.get(instance, property, instance);
    return typeof value === "function" ? value.bind(instance) : value;
  },
});

export function dialect(): Dialect {
  return database().dialect;
}

export function rawSqlite(): SQLite.Database | null {
  return database().sqlite;
}

/**
 * Runs a named statement. "cached plan must not change result type" (0A000: a migration changed a
 * table under a statement this connection prepared before) runs it unnamed instead; the connection's
 * statement stays stale until it closes. Inside a transaction the error has already aborted it, so
 * there the retry fails too and the transaction's caller sees the error.
 */
async function queryNamed<R extends pg.QueryResultRow>(
  run: (config: pg.QueryConfig) => Promise<pg.QueryResult<R>>,
  config: pg.QueryConfig & { name: string },
): Promise<pg.QueryResult<R>> {
  try {
    return await run(config);
  } catch (error) {
    if ((error as { code?: string }).code !== "0A000") throw error;
    return run({ text: config.text, values: config.values });
  }
}

/**
 * A hot read (the guest's connect page) as a prepared statement: on PostgreSQL a named statement,
 * planned once per connection instead of on every call (a join of five tables plans in ~0.3 ms, as
 * long as it runs); on SQLite every statement is kept prepared already (sqlite-dialect.server.ts).
 * `compiled` must be the same SQL for every call with this name; only the parameters change.
 */
export async function executePrepared<R>(name: string, compiled: CompiledQuery, parameters: readonly unknown[]): Promise<R[]> {
  const { pool } = database();
  if (pool)
    return (await queryNamed<R & pg.QueryResultRow>((config) => pool.query(config), { name, text: compiled.sql, values: [...parameters] }))
      .rows;
  return (await database().db.executeQuery<R>({ ...compiled, parameters })).rows;
}

export async function closeDatabase(): Promise<void> {
  const current = globalStore.__mlangoDatabase;
  globalStore.__mlangoDatabase = undefined;
  if (current) await current.db.destroy();
}

export async function migrateToLatest(target: Kysely<DB> = database().db): Promise<void> {
  const migrator = new Migrator({ db: target, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`migration ${result.migrationName} failed`);
  }
  if (error) throw error;
  await syncPermissionCatalogue(target);
}

/** The permissions table mirrors the catalogue in app/lib/permissions.ts (insert new, refresh names). */
async function syncPermissionCatalogue(target: Kysely<DB>): Promise<void> {
  for (const p of PERMISSIONS) {
    await target
      .insertInto("permissions")
      .values({ identifier: p.identifier, name: p.name, description: p.description })
      .onConflict((oc) => oc.column("identifier").doUpdateSet({ name: p.name, description: p.description }))
      .execute();
  }
}
