import { sql, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { totalsRebuildStatements } from "./_analytics-rebuild";
import { LOCAL_BUCKETS } from "./_analytics-sql";
import { analyticsTriggers, switchTriggers } from "./_analytics-triggers";

// Customer totals (issue [marketing], group counts): each customer's visit days and authorized
// connections in the whole organisation, kept by triggers on customer_visit_days, so a group rule
// "more than 5 connections" reads one row per customer instead of summing their visit days.
const WITH_TOTALS = analyticsTriggers(LOCAL_BUCKETS, { presence: true, totals: true });
// Migration 0034's triggers, which down() restores.
const WITHOUT_TOTALS = analyticsTriggers(LOCAL_BUCKETS, { presence: true });

export async function up(db: Kysely<any>): Promise<void> {
  await clustered(
    db,
    db.schema
      .createTable("customer_totals")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("customer_id", "integer", (c) => c.notNull())
      .addColumn("days", "bigint", (c) => c.notNull())
      .addColumn("connections", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_totals_pk", ["organization_id", "customer_id"]),
  ).execute();
  await switchTriggers(db, WITHOUT_TOTALS, WITH_TOTALS);
  for (const statement of totalsRebuildStatements(null)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, WITH_TOTALS, WITHOUT_TOTALS);
  await db.schema.dropTable("customer_totals").execute();
}
