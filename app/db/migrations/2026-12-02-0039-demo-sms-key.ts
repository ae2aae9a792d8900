import crypto from "node:crypto";
import type { Kysely } from "kysely";

// Demo data loaded before this migration gave its organisation the SMS callback key
// "demo-sms-callbacks-0001", the same in every install: anyone could opt its customers out or forge
// delivery reports. That key becomes a random one (the demo's fake provider reports to the key
// scripts/demo.sh makes from now on).
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("sms_settings")
    .set({ callback_key: crypto.randomBytes(24).toString("base64url") })
    .where("callback_key", "=", "demo-sms-callbacks-0001")
    .execute();
}

export async function down(): Promise<void> {
  // The fixed key is not brought back.
}
