import type { Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// "Paid without the prompt" (issue 34 item 4, decision 0088): a guest types the M-Pesa receipt of a
// paybill/till payment (C2B) or of a prompt that never came back, and Mlango checks it (a C2B
// confirmation already received, else Daraja's Transaction Status). One row per receipt, ever: the
// unique index is what makes a receipt give a plan once, whichever instance or connection asks.
// A claim M-Pesa did not confirm (status refused) may be made again; any other status holds the receipt.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("mpesa_receipt_claims"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("receipt", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("connection_id", "bigint") // no key: connections are pruned
      .addColumn("device_id", "integer", (c) => c.references("devices.id").onDelete("set null"))
      .addColumn("subscription_id", "integer", (c) => c.references("subscriptions.id").onDelete("set null"))
      .addColumn("amount", "integer")
      .addColumn("phone_number", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("conversation_id", "text")
      .addColumn("result", "text"),
  ).execute();
  await db.schema.createIndex("mpesa_receipt_claims_receipt").on("mpesa_receipt_claims").column("receipt").unique().execute();
  await db.schema.createIndex("mpesa_receipt_claims_conversation").on("mpesa_receipt_claims").column("conversation_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mpesa_receipt_claims").execute();
}
