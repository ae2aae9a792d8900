import { type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// RADIUS: the gateways (NAS clients) registered per network, each with its own
// RADIUS secret (encrypted: FreeRADIUS needs it back to check packets), and what the Disconnect
// and CoA messages sent to them answered, for the operator to see.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("radius_clients"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("venue_id", "integer", (c) => cascade(c.notNull().references("venues.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("make", "text", (c) => c.notNull()) // mikrotik | cisco | ruckus
      .addColumn("ip_address", "text", (c) => c.notNull()) // the source address its packets come from
      .addColumn("secret", "text", (c) => c.notNull()) // encryptSecret(...)
      .addColumn("coa_port", "integer", (c) => c.notNull()), // where it takes Disconnect and CoA (RFC 5176: 3799)
  ).execute();
  // One NAS per source address across all organisations: FreeRADIUS knows a client by its address.
  await db.schema.createIndex("radius_clients_ip").on("radius_clients").column("ip_address").unique().execute();
  await db.schema.createIndex("radius_clients_venue").on("radius_clients").columns(["venue_id"]).execute();

  // The NAS that accepted the guest's login: Disconnect and CoA go to it.
  await db.schema.alterTable("connections").addColumn("radius_client_id", "integer").execute();

  await withId(db, db.schema.createTable("radius_messages"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("radius_client_id", "integer", (c) => cascade(c.notNull().references("radius_clients.id")))
    .addColumn("connection_id", "bigint", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull()) // Disconnect | CoA
    .addColumn("outcome", "text", (c) => c.notNull()) // ACK | NAK | timeout
    .addColumn("detail", "text") // the NAK's Error-Cause, or what went wrong
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("radius_messages_client").on("radius_messages").columns(["radius_client_id", "created_at"]).execute();
  await db.schema.createIndex("radius_messages_connection").on("radius_messages").columns(["connection_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("radius_messages").execute();
  await db.schema.alterTable("connections").dropColumn("radius_client_id").execute();
  await db.schema.dropTable("radius_clients").execute();
}
