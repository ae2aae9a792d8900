// Migrations are frozen (app/db/migrations/README.md): what each one builds on a fresh database —
// tables, columns, constraints, indexes, triggers and trigger functions — is recorded per engine in
// tests/integration/migrations-schema/<engine>.json, as the objects it adds, changes and removes.
// A changed migration (or a helper it uses) fails here even when a later migration replaces what it
// built. A new migration is recorded with
//   UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run tests/integration/migrations-schema.test.ts
// which only ever adds the migrations the file does not have yet: a recorded one never changes.
// Each migration's down() is recorded too where it does not give back exactly the schema before it
// (old migrations only: a new migration's down() must undo its up()).
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Migrator, sql, type Kysely, type RawBuilder } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { dialect, openDatabase } from "~/db/db.server";
import { migrations } from "~/db/migrations";

type Schema = Map<string, string>;
/** The objects a migration adds, changes and removes (definitions as lines, for readable diffs). */
interface Step {
  added?: Record<string, string[]>;
  changed?: Record<string, string[]>;
  removed?: string[];
  /** What its down() does, recorded only where that is not the exact undoing of its up(). */
  down?: Step;
}
type Snapshot = Record<string, Step>;

const SNAPSHOT_FILE = path.resolve(`tests/integration/migrations-schema/${dialect()}.json`);
const UPDATE = process.env.UPDATE_SCHEMA_SNAPSHOT === "1";

async function sqliteSchema(db: Kysely<any>): Promise<Schema> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name not like 'kysely_migration%' order by type, name`.execute(db);
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, r.sql ?? "(made by SQLite)"]));
}

async function postgresSchema(db: Kysely<any>): Promise<Schema> {
  const schema: Schema = new Map();
  const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db)).rows;
  const ours = sql`not like 'kysely_migration%'`;
  const columns = await rows<{ table: string; line: string }>(sql`
    select table_name as table,
      column_name || ' ' || udt_name
        || case when character_maximum_length is not null then '(' || character_maximum_length || ')' else '' end
        || case when is_nullable = 'NO' then ' not null' else '' end
        || case when column_default is not null then ' default ' || column_default else '' end
        || case when is_generated = 'ALWAYS' then ' generated always as ' || generation_expression else '' end as line
    from information_schema.columns where table_schema = current_schema() and table_name ${ours}
    order by table_name, ordinal_position`);
  for (const c of columns) schema.set(`table ${c.table}`, [schema.get(`table ${c.table}`), c.line].filter(Boolean).join("\n"));
  const definitions = await rows<{ key: string; definition: string }>(sql`
    select 'constraint ' || c.conrelid::regclass || '.' || c.conname as key, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c where c.connamespace = current_schema()::regnamespace and c.conrelid::regclass::text ${ours}
    union all
    select 'index ' || indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename ${ours}
    union all
    select 'trigger ' || t.tgrelid::regclass || '.' || t.tgname, pg_get_triggerdef(t.oid)
      from pg_trigger t join pg_class r on r.oid = t.tgrelid
      where not t.tgisinternal and r.relnamespace = current_schema()::regnamespace
    union all
    select 'function ' || p.oid::regprocedure, pg_get_functiondef(p.oid)
      from pg_proc p where p.pronamespace = current_schema()::regnamespace
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select 'sequence ' || sequence_name, data_type || ' start ' || start_value || ' increment ' || increment
      from information_schema.sequences where sequence_schema = current_schema() and sequence_name ${ours}
    union all
    select 'view ' || viewname, definition from pg_views where schemaname = current_schema()
    union all
    select 'extension ' || extname, 'installed' from pg_extension where extname <> 'plpgsql'`);
  for (const d of definitions) schema.set(d.key, d.definition);
  return new Map([...schema].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function difference(before: Schema, after: Schema): Step {
  const lines = (definition: string) => definition.split("\n");
  const step: Step = {};
  for (const [key, definition] of after) {
    const was = before.get(key);
    if (was === definition) continue;
    const kind = was === undefined ? "added" : "changed";
    step[kind] = { ...step[kind], [key]: lines(definition) };
  }
  const removed = [...before.keys()].filter((key) => !after.has(key));
  if (removed.length) step.removed = removed;
  return step;
}

/** A database of its own, next to this worker's test database, that nothing has migrated yet. */
async function freshDatabase(): Promise<{ db: Kysely<any>; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL!;
  if (dialect() === "sqlite") {
    const file = url.replace(/^file:/, "").replace(/\.db$/, "-fresh-schema.db");
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
    const { db } = openDatabase(`file:${file}`);
    return { db, drop: () => db.destroy() };
  }
  const freshUrl = new URL(url);
  const name = `${freshUrl.pathname.slice(1)}_fresh_schema`;
  freshUrl.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists "${name}" with (force)`);
  await admin(`create database "${name}"`);
  const { db } = openDatabase(freshUrl.toString());
  return {
    db,
    drop: async () => {
      await db.destroy();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

describe("migrations", () => {
  it("build on a fresh database exactly what they built when they were written, and their downs undo it", async () => {
    const snapshot: Snapshot = fs.existsSync(SNAPSHOT_FILE) ? JSON.parse(fs.readFileSync(SNAPSHOT_FILE, "utf8")) : {};
    const names = Object.keys(migrations);
    expect(
      Object.keys(snapshot).filter((name) => !names.includes(name)),
      "recorded migrations that no longer exist",
    ).toEqual([]);
    const built: Snapshot = {};
    const { db, drop } = await freshDatabase();
    try {
      const read = dialect() === "sqlite" ? sqliteSchema : postgresSchema;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const states: Schema[] = [await read(db)];
      for (const name of names) {
        const { error, results } = await migrator.migrateUp();
        if (error) throw error;
        expect(results?.map((r) => r.migrationName)).toEqual([name]);
        states.push(await read(db));
        built[name] = difference(states.at(-2)!, states.at(-1)!);
      }
      let current = states.at(-1)!;
      for (let i = names.length - 1; i >= 0; i--) {
        const { error, results } = await migrator.migrateDown();
        if (error) throw error;
        expect(results?.map((r) => r.migrationName)).toEqual([names[i]]);
        const after = await read(db);
        const down = difference(current, after);
        if (!isDeepStrictEqual(down, difference(states[i + 1], states[i]))) built[names[i]].down = down;
        current = after;
      }
    } finally {
      await drop();
    }

    const recorded = names.filter((name) => snapshot[name]);
    for (const name of recorded) {
      expect
        .soft(built[name], `${name} builds something else than it did: migrations are frozen, add a new one instead`)
        .toEqual(snapshot[name]);
    }
    const missing = names.filter((name) => !snapshot[name]);
    for (const name of missing) expect(built[name].down, `${name} down() must undo exactly what its up() built`).toBeUndefined();
    if (missing.length && UPDATE) {
      fs.writeFileSync(
        SNAPSHOT_FILE,
        `${JSON.stringify(Object.fromEntries(names.map((name) => [name, snapshot[name] ?? built[name]])), null, 2)}\n`,
      );
    } else {
      expect(
        missing,
        "migrations without a recorded schema: run UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run tests/integration/migrations-schema.test.ts",
      ).toEqual([]);
    }
  });
});
