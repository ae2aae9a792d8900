import { sql, type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Subscriptions: a customer's right to the internet under a plan, from the free plan today and from
// vouchers and M-Pesa later. The plan's limits are copied at the start, so editing or deleting a plan
// never changes what a guest already has. Statuses: docs/decisions/0017-plans-and-subscriptions.md.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("subscriptions"), true)
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("customer_id", "integer", (c) => cascade(c.references("customers.id")))
      .addColumn("device_id", "integer", (c) => c.references("devices.id").onDelete("set null"))
      .addColumn("service_plan_id", "integer", (c) => c.references("service_plans.id").onDelete("set null"))
      .addColumn("plan_name", "text", (c) => c.notNull())
      .addColumn("price_cents", "integer", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull()) // free | voucher | mpesa
      .addColumn("status", "text", (c) => c.notNull()) // Pending | Active | Exhausted | Cancelled (Expired is read from expires_on)
      .addColumn("started_on", "bigint")
      .addColumn("expires_on", "bigint")
      .addColumn("time_limit_minutes", "integer")
      .addColumn("usage_limit_bytes", "bigint")
      .addColumn("simultaneous_connections", "integer", (c) => c.notNull())
      .addColumn("used_bytes", "bigint", (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema.createIndex("subscriptions_org").on("subscriptions").columns(["organization_id", "created_at"]).execute();
  // The free plan's "once a day per device": a device's newest subscriptions of a source.
  await db.schema.createIndex("subscriptions_device").on("subscriptions").columns(["device_id", "source", "started_on"]).execute();
  await db.schema.createIndex("subscriptions_customer").on("subscriptions").columns(["customer_id", "started_on"]).execute();
  await db.schema.alterTable("connections").addColumn("subscription_id", "bigint").execute();
  // A subscription's usage is the sum of its connections' bytes (accounting adds it up).
  await db.schema
    .createIndex("connections_subscription")
    .on("connections")
    .column("subscription_id")
    .where(sql.ref("subscription_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_subscription").ifExists().execute();
  await db.schema.alterTable("connections").dropColumn("subscription_id").execute();
  await db.schema.dropTable("subscriptions").ifExists().execute();
}
