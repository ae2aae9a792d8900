import { sql, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { LOCAL_BUCKETS } from "./frozen/analytics-triggers-v1/sql";
import { analyticsTriggers, switchTriggers } from "./frozen/analytics-triggers-v1/triggers";

// Customer totals: each customer's visit days and authorized
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
  for (const statement of REBUILD) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, WITH_TOTALS, WITHOUT_TOTALS);
  await db.schema.dropTable("customer_totals").execute();
}

// customer_totals of every organisation from its visit days.
const REBUILD = [
  `delete from customer_totals where true`,
  `insert into customer_totals (organization_id, customer_id, days, connections)
     select organization_id, customer_id, count(*), sum(connections) from customer_visit_days where true and venue_key = 0
     group by organization_id, customer_id`,
];
