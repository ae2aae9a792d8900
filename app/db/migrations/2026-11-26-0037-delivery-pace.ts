import type { Kysely } from "kysely";

// A send job starts its pace from the messages that reached the provider in the last second
// (sent_at of its organisation's sending schedules), so a slice's first batch cannot crowd the
// previous slice's last one however long that one took to reach the provider (decision 0018).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("broadcast_deliveries_sent_at").on("broadcast_deliveries").columns(["schedule_id", "sent_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("broadcast_deliveries_sent_at").execute();
}
