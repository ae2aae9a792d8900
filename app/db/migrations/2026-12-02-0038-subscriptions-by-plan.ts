import type { Kysely } from "kysely";

// The service plans list counts each plan's subscriptions; without this index every count would read
// the organisation's whole subscriptions table.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("subscriptions_plan").on("subscriptions").columns(["service_plan_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("subscriptions_plan").execute();
}
