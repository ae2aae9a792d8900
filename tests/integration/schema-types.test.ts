// app/db/schema.ts is written by hand; the migrations build the real tables. After migrating this
// engine, the tables, their columns and which columns may be null must be exactly what schema.ts
// says, so the types the code is checked against cannot drift from the database it runs on.
import path from "node:path";
import ts from "typescript";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, dialect } from "~/db/db.server";

interface DeclaredColumn {
  nullable: boolean;
}

/** Tables and columns as `interface DB` in schema.ts declares them, read with the TypeScript compiler. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const file = path.resolve("app/db/schema.ts");
  const program = ts.createProgram([file], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const dbInterface = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "DB");
  if (!dbInterface) throw new Error("schema.ts has no interface DB");
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getTypeAtLocation(dbInterface).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    for (const column of checker.getTypeOfSymbolAtLocation(table, dbInterface).getProperties()) {
      // Kysely's Generated<T> and ColumnType<S, I, U> carry the selected type in __select__.
      let type = checker.getTypeOfSymbolAtLocation(column, dbInterface);
      const selected = type.getProperty("__select__");
      if (selected) type = checker.getTypeOfSymbolAtLocation(selected, dbInterface);
      const parts = type.isUnion() ? type.types : [type];
      columns.set(column.name, { nullable: parts.some((t) => t.flags & ts.TypeFlags.Null) });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** Kysely's own bookkeeping. */
const INTERNAL_TABLE = /^(kysely_migration|kysely_migration_lock)$/;
/**
 * Columns the database computes (the lists' search text: a generated column, stored on PostgreSQL and
 * virtual, so unlisted, on SQLite); the code never reads or writes them through Kysely's types.
 */
const GENERATED_COLUMN = new Set(["search_text"]);
/**
 * Where the column allows null but the type says it never holds one, and why that is true. Each entry
 * is a promise the code keeps; add one only with its reason.
 */
const NEVER_NULL = new Set([
  // Added to existing rows, filled for each of them in the same migration, and written on every insert.
  "venues.portal_key",
]);

async function migratedTables(): Promise<Map<string, Map<string, DeclaredColumn>>> {
  const primaryKeys = await sqlitePrimaryKeys();
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of await db.introspection.getTables()) {
    if (table.isView || INTERNAL_TABLE.test(table.name)) continue;
    const columns = new Map<string, DeclaredColumn>();
    for (const column of table.columns) {
      // SQLite reports a primary key's columns as nullable unless they also say NOT NULL; the code
      // never stores null there (an integer primary key cannot hold one at all).
      if (GENERATED_COLUMN.has(column.name)) continue;
      const key = primaryKeys.has(`${table.name}.${column.name}`);
      const neverNull = NEVER_NULL.has(`${table.name}.${column.name}`);
      columns.set(column.name, { nullable: column.isNullable && !key && !neverNull });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

async function sqlitePrimaryKeys(): Promise<Set<string>> {
  if (dialect() !== "sqlite") return new Set();
  const { rows } = await sql<{ name: string; column: string }>`
    select m.name as name, p.name as "column" from sqlite_master m join pragma_table_info(m.name) p
    where m.type = 'table' and p.pk > 0`.execute(db);
  return new Set(rows.map((r) => `${r.name}.${r.column}`));
}

/** SQLite's full-text tables (a virtual table and its shadow tables) are the search index, not data. */
async function fullTextTables(): Promise<Set<string>> {
  if (dialect() !== "sqlite") return new Set();
  const { rows } = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master where type = 'table'`.execute(db);
  const virtual = rows.filter((r) => /^create virtual table/i.test(r.sql ?? "")).map((r) => r.name);
  return new Set(rows.map((r) => r.name).filter((name) => virtual.some((v) => name === v || name.startsWith(`${v}_`))));
}

describe("app/db/schema.ts", () => {
  it("declares exactly the tables and columns the migrations build, with the same nullability", async () => {
    const declared = declaredTables();
    const ignored = await fullTextTables();
    const built = await migratedTables();
    for (const name of ignored) built.delete(name);

    const describeTables = (tables: Map<string, Map<string, DeclaredColumn>>) =>
      Object.fromEntries(
        [...tables.keys()]
          .sort()
          .map((name) => [
            name,
            Object.fromEntries(
              [...tables.get(name)!.entries()]
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([column, c]) => [column, c.nullable ? "null" : "not null"]),
            ),
          ]),
      );
    expect(describeTables(built)).toEqual(describeTables(declared));
  });
});
