import { sql, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";
import { LOCAL_BUCKETS, UTC_BUCKETS, type Buckets } from "./_analytics-sql";
import { analyticsTriggers, postgresTriggerDdl, sqliteTriggerDdl } from "./_analytics-triggers";

// Organisation time zones (issue 17 §3, decision 0023): an IANA name for display and its fixed
// offset from UTC, which the analytics triggers now bucket hours and days by. Existing
// organisations keep UTC (offset 0), so their roll-up rows are already right and nothing is rebuilt.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("organizations").addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC")).execute();
  await db.schema.alterTable("organizations").addColumn("utc_offset_ms", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  await replaceTriggers(db, LOCAL_BUCKETS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceTriggers(db, UTC_BUCKETS);
  await db.schema.alterTable("organizations").dropColumn("utc_offset_ms").execute();
  await db.schema.alterTable("organizations").dropColumn("time_zone").execute();
}

async function replaceTriggers(db: Kysely<any>, buckets: Buckets): Promise<void> {
  const postgres = isPostgres(db);
  for (const trigger of analyticsTriggers(buckets)) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    for (const statement of postgres ? postgresTriggerDdl(trigger) : [sqliteTriggerDdl(trigger)]) await sql.raw(statement).execute(db);
  }
}
