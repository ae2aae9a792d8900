import type { Kysely } from "kysely";
import { LOCAL_BUCKETS, UTC_BUCKETS } from "./frozen/analytics-triggers-v1/sql";
import { analyticsTriggers, switchTriggers } from "./frozen/analytics-triggers-v1/triggers";

// Organisation time zones (decision 0023): an IANA name for display and its fixed
// offset from UTC, which the analytics triggers now bucket hours and days by. Existing
// organisations keep UTC (offset 0), so their roll-up rows are already right and nothing is rebuilt.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("organizations")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
  await db.schema
    .alterTable("organizations")
    .addColumn("utc_offset_ms", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await switchTriggers(db, analyticsTriggers(UTC_BUCKETS), analyticsTriggers(LOCAL_BUCKETS));
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, analyticsTriggers(LOCAL_BUCKETS), analyticsTriggers(UTC_BUCKETS));
  await db.schema.alterTable("organizations").dropColumn("utc_offset_ms").execute();
  await db.schema.alterTable("organizations").dropColumn("time_zone").execute();
}
