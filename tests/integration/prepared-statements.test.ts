// Statements marked PREPARED (app/db/db.server.ts, decision 0027): named prepared statements on
// PostgreSQL, the same answers on both engines; unmarked statements stay unnamed.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, dialect, PREPARED } from "~/db/db.server";
import { makeOrg } from "../fixtures";

describe("statements marked PREPARED", () => {
  it("answer as before and, on PostgreSQL, are prepared once on the connection under a name of ours", async () => {
    const { org } = await makeOrg("Prepared Café");
    await db.transaction().execute(async (trx) => {
      const marked = () =>
        trx.selectFrom("organizations").select("name").where("id", "=", org.id).modifyEnd(PREPARED).executeTakeFirstOrThrow();
      expect((await marked()).name).toBe("Prepared Café");
      expect((await marked()).name).toBe("Prepared Café");
      expect((await trx.selectFrom("organizations").select("id").where("name", "=", "Prepared Café").executeTakeFirstOrThrow()).id).toBe(
        org.id,
      );
      if (dialect() !== "postgres") return;
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
      const ours = rows.filter((r) => r.statement.includes('from "organizations"'));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.name).toMatch(/^mlango_\d+$/);
      expect(ours[0]!.statement).toContain('select "name" from "organizations" where "id" = $1');
    });
  });

  it("still answer outside a transaction after a migration changed the type of a column they read (PostgreSQL's 0A000: run unnamed)", async () => {
    if (dialect() !== "postgres") return; // SQLite cannot change a column's type, and re-prepares by itself
    const table = `prepared_${process.pid}_${Date.now()}`;
    await sql`create table ${sql.table(table)} (id integer, v integer)`.execute(db);
    try {
      await sql`insert into ${sql.table(table)} values (1, 7)`.execute(db);
      // One at a time, so the pool hands the same idle connection back and its prepared statement is met again.
      const read = () =>
        db
          .selectFrom(sql.table(table).as("t") as never)
          .select(sql<string | number>`v`.as("v"))
          .where(sql<boolean>`id = ${1}`)
          .modifyEnd(PREPARED)
          .executeTakeFirstOrThrow();
      expect((await read()).v).toBe(7);
      expect((await read()).v).toBe(7);
      await sql`alter table ${sql.table(table)} alter column v type text`.execute(db);
      expect((await read()).v).toBe("7");
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  });
});
