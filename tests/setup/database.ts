import fs from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, beforeEach } from "vitest";

// Every worker of every run gets its own database (tests/setup/global.ts names the run and
// drops its databases at the end); every test starts from empty tables.
const run = process.env.MLANGO_TEST_RUN ?? String(process.ppid);
const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? "1";
const pgAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

if (process.env.TEST_DB === "postgres") {
  const name = `mlango_test_${run}_w${worker}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`create database "${name}"`).catch(ignoreDuplicate);
  // A throwaway database: commits need not wait for the disk (a crash loses the last moments, never
  // consistency). Tests commit thousands of times; this is the test database's setting only.
  await admin.query(`alter database "${name}" set synchronous_commit = off`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
} else {
  fs.mkdirSync(`data/test/run-${run}`, { recursive: true });
  process.env.DATABASE_URL = `file:data/test/run-${run}/sqlite-w${worker}.db`;
}

function ignoreDuplicate(error: { code?: string }) {
  if (error.code !== "42P04") throw error; // another file of this worker created it first
}

const { db, dialect, migrateToLatest, closeDatabase, rawSqlite } = await import("~/db/db.server");

// Every table but the migration bookkeeping and the permission catalogue (filled by migrate).
const KEEP = new Set(["permissions", "kysely_migration", "kysely_migration_lock"]);

let emptyingStatement: string | undefined;

async function emptyAllTables() {
  if (dialect() === "postgres") {
    // DELETE, not TRUNCATE: truncating ~60 tables (new files for each, cascades) took 0.6–1 s per test,
    // deleting their few rows takes milliseconds. As replica, the session fires no trigger (no roll-up
    // work for rows going away) and checks no foreign key; sequences start again at 1 as TRUNCATE's
    // RESTART IDENTITY did. The statements go in one round trip (a query without parameters may hold several).
    emptyingStatement ??= await postgresEmptyingStatement();
    // A write the previous test left running (an ad impression is written after its page is sent)
    // can deadlock with the emptying: try again once it has finished.
    for (let attempt = 1; ; attempt++) {
      try {
        await db.transaction().execute(async (trx) => {
          await sql`set local session_replication_role = replica`.execute(trx);
          await sql.raw(emptyingStatement!).execute(trx);
        });
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "40P01" || attempt === 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
    return;
  }
  const sqlite = rawSqlite()!;
  const all = sqlite.prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as {
    name: string;
    sql: string;
  }[];
  // Full-text (FTS5) tables are emptied with their own command; their shadow tables are theirs.
  const virtual = all.filter((t) => /^create virtual table/i.test(t.sql)).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = all.map((t) => t.name).filter((t) => !KEEP.has(t) && !virtual.includes(t) && !shadow(t));
  sqlite.pragma("foreign_keys = OFF");
  sqlite.transaction(() => {
    for (const t of tables) sqlite.prepare(`delete from "${t}"`).run();
    for (const v of virtual) sqlite.prepare(`insert into "${v}" ("${v}") values ('delete-all')`).run();
  })();
  sqlite.pragma("foreign_keys = ON");
}

async function postgresEmptyingStatement() {
  const { rows: tables } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(
    db,
  );
  const emptied = tables.map((t) => t.name).filter((t) => !KEEP.has(t));
  const { rows: sequences } = await sql<{ name: string }>`
    select s.relname as name from pg_class s
    join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    where s.relkind = 'S' and t.relname in (${sql.join(emptied)})`.execute(db);
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return [
    ...emptied.map((t) => `delete from ${quote(t)}`),
    sequences.length
      ? `select setval(s, 1, false) from unnest(array[${sequences.map((s) => `'${quote(s.name)}'::regclass`).join(", ")}]) s`
      : "",
  ]
    .filter(Boolean)
    .join(";\n");
}

beforeAll(async () => {
  await migrateToLatest();
});

beforeEach(async () => {
  await emptyAllTables();
});

afterAll(async () => {
  await closeDatabase();
});
