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
      const marked = () => trx.selectFrom("organizations").select("name").where("id", "=", org.id).modifyEnd(PREPARED).executeTakeFirstOrThrow();
      expect((await marked()).name).toBe("Prepared Café");
      expect((await marked()).name).toBe("Prepared Café");
      expect((await trx.selectFrom("organizations").select("id").where("name", "=", "Prepared Café").executeTakeFirstOrThrow()).id).toBe(org.id);
      if (dialect() !== "postgres") return;
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
      const ours = rows.filter((r) => r.statement.includes('from "organizations"'));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.name).toMatch(/^mlango_\d+$/);
      expect(ours[0]!.statement).toContain('select "name" from "organizations" where "id" = $1');
    });
  });
});
