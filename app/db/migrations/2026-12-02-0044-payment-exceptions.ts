import type { Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// M-Pesa payments that need a person (issue 34 item 3, decision 0077): paid but not granted, late,
// a receipt used twice, an amount or phone different from the purchase, a result for a purchase we
// never started, a purchase M-Pesa never gave a final answer for. One row per (organisation, what
// happened), so a callback Daraja repeats records it once. The operator grants the plan or refunds
// through Daraja's Reversal API (its result arrives later at the ResultURL).
// The organisation's initiator (Daraja's Transaction Status and Reversal APIs need one): its name and
// its SecurityCredential (the initiator password encrypted with Safaricom's certificate), stored
// encrypted like the other secrets.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("payment_exceptions"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
      .addColumn("dedupe_key", "text", (c) => c.notNull())
      .addColumn("mpesa_transaction_id", "integer", (c) => c.references("mpesa_transactions.id").onDelete("set null"))
      .addColumn("connection_id", "bigint") // no key: connections are pruned
      .addColumn("subscription_id", "integer", (c) => c.references("subscriptions.id").onDelete("set null"))
      .addColumn("service_plan_id", "integer", (c) => c.references("service_plans.id").onDelete("set null"))
      .addColumn("receipt", "text")
      .addColumn("phone_number", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("amount", "integer")
      .addColumn("expected_amount", "integer")
      .addColumn("checkout_request_id", "text")
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("reversal_conversation_id", "text")
      .addColumn("reversal_result", "text")
      .addColumn("resolved_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("resolved_at", "bigint"),
  ).execute();
  await db.schema
    .createIndex("payment_exceptions_dedupe")
    .on("payment_exceptions")
    .columns(["organization_id", "dedupe_key"])
    .unique()
    .execute();
  await db.schema
    .createIndex("payment_exceptions_list")
    .on("payment_exceptions")
    .columns(["organization_id", "status", "created_at"])
    .execute();
  await db.schema.createIndex("payment_exceptions_reversal").on("payment_exceptions").column("reversal_conversation_id").execute();
  await db.schema
    .alterTable("mpesa_settings")
    .addColumn("initiator_name", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("mpesa_settings")
    .addColumn("security_credential", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mpesa_settings").dropColumn("security_credential").execute();
  await db.schema.alterTable("mpesa_settings").dropColumn("initiator_name").execute();
  await db.schema.dropTable("payment_exceptions").ifExists().execute();
}
