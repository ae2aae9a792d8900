// Pausing and rebuilding the analytics roll-ups. Triggers keep them current on every write
// (migration 0004); a bulk load pauses its organisation, loads, and rebuilds in one pass, which is
// many times faster than rolling up row by row.
import { sql } from "kysely";
import { rollupRebuildStatements } from "./rollups-rebuild.server";
import { db, dialect } from "./db.server";

/** The triggers skip this organisation's writes until rebuildRollups runs for it. */
export async function pauseRollups(organizationId: number): Promise<void> {
  await db
    .insertInto("analytics_paused")
    .values({ organization_id: organizationId })
    .onConflict((oc) => oc.column("organization_id").doNothing())
    .execute();
}

/**
 * Recomputes the roll-ups of one organisation (all when omitted) from its connections and resumes
 * the triggers. `first` runs in the same transaction before the rebuild (a new time zone).
 */
export async function rebuildRollups(organizationId?: number, first?: (trx: typeof db) => Promise<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // No connection or device may change meanwhile (SQLite's write transaction already excludes that).
    if (dialect() === "postgres") await sql`lock table connections, devices in share mode`.execute(trx);
    // Paused while rebuilding, so inserting visit days does not run the chain triggers.
    if (organizationId === undefined) {
      await sql`insert into analytics_paused (organization_id) select id from organizations where true on conflict (organization_id) do nothing`.execute(
        trx,
      );
    } else {
      await trx
        .insertInto("analytics_paused")
        .values({ organization_id: organizationId })
        .onConflict((oc) => oc.column("organization_id").doNothing())
        .execute();
    }
    if (first) await first(trx);
    for (const statement of rollupRebuildStatements(organizationId ?? null)) await sql.raw(statement).execute(trx);
    let resume = trx.deleteFrom("analytics_paused");
    if (organizationId !== undefined) resume = resume.where("organization_id", "=", organizationId);
    await resume.execute();
  });
}
