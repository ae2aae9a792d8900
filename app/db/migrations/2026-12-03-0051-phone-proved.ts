import { sql, type Kysely } from "kysely";

// When a customer proved owning their phone number (issue 35 items 1–2, issue 34 item 1; decision
// 0086): a one-time code answered, or an M-Pesa payment made from it. Only a proved customer is
// joined by another device that types the same number, and only after that device proves it too.
// Customers who already paid from their own number count as proved from that payment.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("customers").addColumn("phone_proved_at", "bigint").execute();
  // The plan a phone paid for is found by the payment's number (reconnect.server.ts).
  await db.schema
    .createIndex("mpesa_transactions_org_phone")
    .on("mpesa_transactions")
    .columns(["organization_id", "phone_number"])
    .execute();
  await sql`
    update customers set phone_proved_at = (
      select min(t.completed_at) from mpesa_transactions t
      join subscriptions s on s.id = t.subscription_id
      where s.customer_id = customers.id and t.status = 1 and '+' || t.phone_number = customers.phone_number
    )
    where phone_number is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("mpesa_transactions_org_phone").execute();
  await db.schema.alterTable("customers").dropColumn("phone_proved_at").execute();
}
