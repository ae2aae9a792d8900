import type { Kysely } from "kysely";
import { withId } from "./_dialect";

// Real gateways (issue 36, decision 0081).
// - A UniFi controller's External Portal Server sends guests to /guest/s/{site}/?ap=… on the portal's
//   host, with no portal key: the network is found from the access point's MAC across the
//   organisations that registered it, so access points are looked up by MAC alone.
// - A connection's timeline: what was sent to the gateway and what it answered (grant, revoke,
//   Disconnect's ACK/NAK), beside what the connection row already says (entry, sign-up, accounting).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("access_points_mac").on("access_points").column("mac_address").execute();
  await withId(db, db.schema.createTable("connection_events"), true)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("connection_id", "bigint", (c) => c.notNull().references("connections.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("connection_events_connection").on("connection_events").columns(["connection_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("connection_events").execute();
  await db.schema.dropIndex("access_points_mac").execute();
}
