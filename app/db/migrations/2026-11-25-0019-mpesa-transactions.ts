import { sql, type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// M-Pesa payments: one row per STK push a guest starts on the connect page
// (pending until its callback or the reconciliation job's STK query says how it ended) and per C2B
// confirmation. A CheckoutRequestID and an M-Pesa receipt (TransID) are each recorded once.
// Subscriptions carry the speeds of their plan's bandwidth policy, for the gateway's grant.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("mpesa_transactions"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("source", "text", (c) => c.notNull()) // stk | c2b
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0)) // 0 pending, 1 completed, 2 failed
      .addColumn("connection_id", "bigint") // the connect page's connection (no key: connections are pruned)
      .addColumn("subscription_id", "integer", (c) => c.references("subscriptions.id").onDelete("set null"))
      .addColumn("service_plan_id", "integer", (c) => c.references("service_plans.id").onDelete("set null"))
      .addColumn("phone_number", "text", (c) => c.notNull()) // 2547XXXXXXXX
      .addColumn("amount", "integer", (c) => c.notNull()) // whole shillings
      .addColumn("short_code", "text", (c) => c.notNull())
      .addColumn("account_reference", "text")
      .addColumn("merchant_request_id", "text")
      .addColumn("checkout_request_id", "text")
      .addColumn("transaction_id", "text") // M-Pesa receipt (MpesaReceiptNumber / TransID)
      .addColumn("result_code", "integer")
      .addColumn("result_desc", "text")
      .addColumn("completed_at", "bigint")
      .addColumn("next_check_at", "bigint"), // pending STK: when the reconciliation job may query it next
  ).execute();
  await db.schema.createIndex("mpesa_transactions_org").on("mpesa_transactions").columns(["organization_id", "created_at", "id"]).execute();
  await db.schema.createIndex("mpesa_transactions_checkout").on("mpesa_transactions").column("checkout_request_id").unique().execute();
  await db.schema.createIndex("mpesa_transactions_receipt").on("mpesa_transactions").column("transaction_id").unique().execute();
  await db.schema.createIndex("mpesa_transactions_pending").on("mpesa_transactions").columns(["status", "next_check_at"]).execute();
  await db.schema.createIndex("mpesa_transactions_connection").on("mpesa_transactions").column("connection_id").execute();
  // One pending purchase per connection: "Pay" pressed twice at once must not push (and charge) twice.
  await db.schema
    .createIndex("mpesa_transactions_one_pending")
    .on("mpesa_transactions")
    .column("connection_id")
    .unique()
    .where(sql.ref("status"), "=", sql.lit(0))
    .execute();

  await db.schema.alterTable("subscriptions").addColumn("max_upload_kbps", "integer").execute();
  await db.schema.alterTable("subscriptions").addColumn("max_download_kbps", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("subscriptions").dropColumn("max_download_kbps").execute();
  await db.schema.alterTable("subscriptions").dropColumn("max_upload_kbps").execute();
  await db.schema.dropTable("mpesa_transactions").ifExists().execute();
}
