import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";
import { totalsRebuildStatements } from "./_analytics-rebuild";
import { LOCAL_BUCKETS } from "./_analytics-sql";
import { analyticsTriggers, postgresTriggerDdl, sqliteTriggerDdl } from "./_analytics-triggers";

// Customer totals (issue [marketing], group counts): each customer's visit days and authorized
// connections in the whole organisation, kept by triggers on customer_visit_days, so a group rule
// "more than 5 connections" reads one row per customer instead of summing their visit days.
const WITH_TOTALS = analyticsTriggers(LOCAL_BUCKETS, { presence: true, totals: true });
// Migration 0034's triggers, which down() restores.
const WITHOUT_TOTALS = analyticsTriggers(LOCAL_BUCKETS, { presence: true });

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const clustered = <T extends string>(table: CreateTableBuilder<T, any>) => (postgres ? table : table.modifyEnd(sql`without rowid`));
  await clustered(
    db.schema
      .createTable("customer_totals")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("customer_id", "integer", (c) => c.notNull())
      .addColumn("days", "bigint", (c) => c.notNull())
      .addColumn("connections", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_totals_pk", ["organization_id", "customer_id"]),
  ).execute();
  await replaceTriggers(db, WITH_TOTALS);
  for (const statement of totalsRebuildStatements(null)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await replaceTriggers(db, WITHOUT_TOTALS);
  const kept = new Set(WITHOUT_TOTALS.map((t) => t.name));
  for (const trigger of WITH_TOTALS.filter((t) => !kept.has(t.name))) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${trigger.name}()`).execute(db);
  }
  await db.schema.dropTable("customer_totals").execute();
}

async function replaceTriggers(db: Kysely<any>, triggers: ReturnType<typeof analyticsTriggers>): Promise<void> {
  const postgres = isPostgres(db);
  for (const trigger of triggers) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    for (const statement of postgres ? postgresTriggerDdl(trigger) : [sqliteTriggerDdl(trigger)]) await sql.raw(statement).execute(db);
  }
}
