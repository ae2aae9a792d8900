import { type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// M-Pesa: an organisation's Daraja credentials, and the one OAuth token per
// credential that every instance shares (Daraja invalidates the previous token on each new one).
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("mpesa_settings"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().unique().references("organizations.id")))
      .addColumn("environment", "text", (c) => c.notNull()) // sandbox | production
      .addColumn("consumer_key", "text", (c) => c.notNull())
      .addColumn("consumer_secret", "text", (c) => c.notNull()) // ciphertext (encryptSecret)
      .addColumn("shortcode", "text", (c) => c.notNull()) // BusinessShortCode
      .addColumn("passkey", "text", (c) => c.notNull()) // ciphertext (encryptSecret)
      .addColumn("type", "text", (c) => c.notNull()) // paybill | till
      .addColumn("party_b", "text", (c) => c.notNull()) // the paybill or till number
      .addColumn("callback_key", "text", (c) => c.notNull().unique()), // path segment of /hotspot/mpesa/{callback_key}
  ).execute();

  await db.schema
    .createTable("daraja_tokens")
    .addColumn("key_hash", "text", (c) => c.primaryKey()) // sha256 of the Daraja address and consumer key
    .addColumn("token", "text") // ciphertext (encryptSecret)
    .addColumn("token_hash", "text") // sha256 of the token: which one Daraja refused
    .addColumn("expires_at", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0)) // an instance is fetching a new token until then
    .addColumn("lease_id", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("daraja_tokens").ifExists().execute();
  await db.schema.dropTable("mpesa_settings").ifExists().execute();
}
