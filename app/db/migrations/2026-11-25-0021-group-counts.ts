import { type Kysely } from "kysely";

// A customer group's last member count, for the groups list: counting ten groups over 200,000
// customers and 5,000,000 connections on every load of the list took seconds (the groups benchmark). The
// group's own page always counts live, and stores what it counted.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("customer_groups").addColumn("customers_count", "integer").execute();
  await db.schema.alterTable("customer_groups").addColumn("counted_at", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("customer_groups").dropColumn("counted_at").execute();
  await db.schema.alterTable("customer_groups").dropColumn("customers_count").execute();
}
