import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// The guest path: gateways hand guests to /hotspot/{make}/{portal_key}; the connect
// page authorizes them; accounting keeps usage and online state. Secret columns hold ciphertext of
// app/services/secrets.server.ts, never plain text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("venues")
    // In every gateway URL: unguessable, so nobody can make connections for another network.
    .addColumn("portal_key", "text")
    .execute();
  for (const [column, type] of [
    // Bearer secret of accounting and revocation polling, and HMAC key of Mlango's own make (ciphertext).
    ["gateway_secret", "text"],
    // sha256 of the gateway secret: finds the network of an accounting request.
    ["gateway_secret_hash", "text"],
    ["opennds_faskey", "text"], // ciphertext
    ["unifi_url", "text"],
    ["unifi_username", "text"],
    ["unifi_password", "text"], // ciphertext
    ["terms_url", "text"],
    ["privacy_url", "text"],
  ] as const) {
    await db.schema.alterTable("venues").addColumn(column, type).execute();
  }
  await db.schema
    .alterTable("venues")
    // Minutes a guest stays online after authorization (Meraki's duration, UniFi's minutes, the idle job).
    .addColumn("session_minutes", "integer", (c) => c.notNull().defaultTo(60))
    .execute();
  // 1: guests without name, e-mail and phone fill in the sign-up form; 0: one Connect button.
  await db.schema
    .alterTable("venues")
    .addColumn("guest_signup", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  const venues = await db.selectFrom("venues").select("id").execute();
  for (const venue of venues) {
    await db
      .updateTable("venues")
      .set({ portal_key: crypto.randomBytes(18).toString("base64url") })
      .where("id", "=", venue.id)
      .execute();
  }
  await db.schema.createIndex("venues_portal_key").on("venues").column("portal_key").unique().execute();
  await db.schema.createIndex("venues_gateway_secret_hash").on("venues").column("gateway_secret_hash").unique().execute();

  for (const [column, type] of [
    ["token_expires_at", "bigint"], // the token authorizes only until then
    ["client_ip", "text"],
    ["gateway", "text"], // the make that handed the guest over: meraki | opennds | unifi | mlango
    ["gateway_context", "text"], // JSON the adapter needs to grant and revoke (grant URL, site, …)
    ["session_expires_at", "bigint"], // authorized_at + the network's session length
    ["accounted_at", "bigint"], // the newest accounting record; null: the gateway sends none
    ["terminate_cause", "text"],
  ] as const) {
    await db.schema.alterTable("connections").addColumn(column, type).execute();
  }
  // The idle-end job reads online connections only (connections_online is per organisation).
  await db.schema
    .createIndex("connections_open_sessions")
    .on("connections")
    .columns(["session_expires_at"])
    .where(sql.ref("authorized_at"), "is not", null)
    .where(sql.ref("ended_at"), "is", null)
    .execute();

  await db.schema.alterTable("customers").addColumn("terms_accepted_at", "bigint").execute();
  // Broadcasts reach only customers who opted in (null: never, or withdrawn).
  await db.schema.alterTable("customers").addColumn("marketing_opt_in_at", "bigint").execute();

  // The consent record (Kenya Data Protection Act 2019): what the guest was shown and chose, when.
  await withId(db, db.schema.createTable("customer_consents"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("customer_id", "integer", (c) => cascade(c.notNull().references("customers.id")))
    .addColumn("connection_id", "bigint")
    .addColumn("venue_id", "integer")
    .addColumn("kind", "text", (c) => c.notNull()) // terms | marketing
    .addColumn("granted", "integer", (c) => c.notNull())
    .addColumn("wording_version", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("customer_consents_customer").on("customer_consents").columns(["customer_id", "created_at"]).execute();

  // Social sign-in of guests, configured per organisation (client secrets are ciphertext).
  await withTimestamps(
    withId(db, db.schema.createTable("oauth_providers"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("provider", "text", (c) => c.notNull()) // fb | google | twitter | linkedin | ajira
      .addColumn("client_id", "text", (c) => c.notNull())
      .addColumn("client_secret", "text", (c) => c.notNull())
      .addColumn("settings", "text") // JSON: endpoints of providers without fixed ones (ajira)
      .addUniqueConstraint("oauth_providers_org_provider", ["organization_id", "provider"]),
  ).execute();

  // Closing a connection of Mlango's own make: the gateway polls this list and cuts the client off.
  await withId(db, db.schema.createTable("gateway_revocations"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("venue_id", "integer", (c) => cascade(c.notNull().references("venues.id")))
    .addColumn("connection_id", "bigint", (c) => c.notNull())
    .addColumn("client_mac", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("gateway_revocations_venue").on("gateway_revocations").columns(["venue_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("gateway_revocations").ifExists().execute();
  await db.schema.dropTable("oauth_providers").ifExists().execute();
  await db.schema.dropTable("customer_consents").ifExists().execute();
  await db.schema.alterTable("customers").dropColumn("marketing_opt_in_at").execute();
  await db.schema.alterTable("customers").dropColumn("terms_accepted_at").execute();
  await db.schema.dropIndex("connections_open_sessions").ifExists().execute();
  for (const column of [
    "token_expires_at",
    "client_ip",
    "gateway",
    "gateway_context",
    "session_expires_at",
    "accounted_at",
    "terminate_cause",
  ]) {
    await db.schema.alterTable("connections").dropColumn(column).execute();
  }
  await db.schema.dropIndex("venues_gateway_secret_hash").ifExists().execute();
  await db.schema.dropIndex("venues_portal_key").ifExists().execute();
  for (const column of [
    "portal_key",
    "gateway_secret",
    "gateway_secret_hash",
    "opennds_faskey",
    "unifi_url",
    "unifi_username",
    "unifi_password",
    "session_minutes",
    "guest_signup",
    "terms_url",
    "privacy_url",
  ]) {
    await db.schema.alterTable("venues").dropColumn(column).execute();
  }
}
