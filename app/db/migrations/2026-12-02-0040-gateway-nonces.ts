import type { Kysely } from "kysely";

// Mlango's own gateway make signs each entry with a nonce (decision 0074): a
// signed entry URL is good for one visit, so replaying one seen on the air makes no second
// connection. A nonce is kept until its entry's signature window has passed; the daily prune drops it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("gateway_nonces")
    .addColumn("venue_id", "integer", (c) => c.notNull().references("venues.id").onDelete("cascade"))
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("gateway_nonces_pkey", ["venue_id", "nonce"])
    .execute();
  await db.schema.createIndex("gateway_nonces_expiry").on("gateway_nonces").columns(["expires_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("gateway_nonces").execute();
}
