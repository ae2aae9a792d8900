// Named prepared statements go only through the explicit executor (`executePrepared`,
// app/db/db.server.ts, decision 0069): the same answers on both engines, named on PostgreSQL;
// every other statement stays unnamed (the pg driver is not patched).
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, dialect, executePrepared } from "~/db/db.server";
import { makeOrg } from "../fixtures";

describe("executePrepared", () => {
  it("answers as an ordinary statement does and, on PostgreSQL, prepares it once under its name; other statements stay unnamed", async () => {
    const { org } = await makeOrg("Prepared Café");
    const compiled = db.selectFrom("organizations").select("name").where("id", "=", 0).compile();
    const read = async () => (await executePrepared<{ name: string }>("test_organization_name", compiled, [org.id]))[0];
    expect((await read())?.name).toBe("Prepared Café");
    expect((await read())?.name).toBe("Prepared Café");
    expect((await db.selectFrom("organizations").select("id").where("name", "=", "Prepared Café").executeTakeFirstOrThrow()).id).toBe(
      org.id,
    );
    if (dialect() !== "postgres") return;
    // The pool hands back its most recently idle connection: the one that ran both statements.
    const { rows } = await db
      .connection()
      .execute((c) => sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(c));
    const named = rows.filter((r) => r.statement.includes('from "organizations"'));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named.map((r) => r.name))).toEqual(new Set(["test_organization_name"]));
  });

  it("still answers outside a transaction after a migration changed the type of a column it reads (PostgreSQL's 0A000: run unnamed)", async () => {
    if (dialect() !== "postgres") return; // SQLite cannot change a column's type, and re-prepares by itself
    const table = `prepared_${process.pid}_${Date.now()}`;
    await sql`create table ${sql.table(table)} (id integer, v integer)`.execute(db);
    try {
      await sql`insert into ${sql.table(table)} values (1, 7)`.execute(db);
      const compiled = sql<{ v: string | number }>`select v from ${sql.table(table)} where id = ${1}`.compile(db);
      // One at a time, so the pool hands the same idle connection back and its prepared statement is met again.
      const read = async () => (await executePrepared<{ v: string | number }>(`test_${table}`, compiled, [1]))[0]?.v;
      expect(await read()).toBe(7);
      expect(await read()).toBe(7);
      await sql`alter table ${sql.table(table)} alter column v type text`.execute(db);
      expect(await read()).toBe("7");
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  });
});
