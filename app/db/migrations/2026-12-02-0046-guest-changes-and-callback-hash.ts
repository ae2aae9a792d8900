import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";

// Issue 34 (decision 0078).
// - A guest may cancel a pending M-Pesa purchase (or start again with another number): the
//   purchase is marked cancelled_at and stays open until Daraja's final answer (a PIN entered on the
//   old prompt still pays, and is recorded), so the one-pending-purchase-per-connection index leaves
//   cancelled ones out.
// - Daraja's callback key is looked up by its SHA-256 (callback_key_hash) and then compared in
//   constant time, never by the key itself (an index lookup on the secret answers faster or slower
//   by how much of it matches).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mpesa_transactions").addColumn("cancelled_at", "bigint").execute();
  await db.schema.dropIndex("mpesa_transactions_one_pending").execute();
  await db.schema
    .createIndex("mpesa_transactions_one_pending")
    .on("mpesa_transactions")
    .column("connection_id")
    .unique()
    .where(sql<boolean>`status = 0 and cancelled_at is null`)
    .execute();

  await db.schema.alterTable("mpesa_settings").addColumn("callback_key_hash", "text").execute();
  const rows = await db.selectFrom("mpesa_settings").select(["id", "callback_key"]).execute();
  for (const row of rows) {
    await db
      .updateTable("mpesa_settings")
      .set({ callback_key_hash: crypto.createHash("sha256").update(String(row.callback_key)).digest("hex") })
      .where("id", "=", row.id)
      .execute();
  }
  await db.schema.createIndex("mpesa_settings_callback_key_hash").on("mpesa_settings").column("callback_key_hash").unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("mpesa_settings_callback_key_hash").execute();
  await db.schema.alterTable("mpesa_settings").dropColumn("callback_key_hash").execute();
  await db.schema.dropIndex("mpesa_transactions_one_pending").execute();
  await db.schema
    .createIndex("mpesa_transactions_one_pending")
    .on("mpesa_transactions")
    .column("connection_id")
    .unique()
    .where(sql.ref("status"), "=", sql.lit(0))
    .execute();
  await db.schema.alterTable("mpesa_transactions").dropColumn("cancelled_at").execute();
}
