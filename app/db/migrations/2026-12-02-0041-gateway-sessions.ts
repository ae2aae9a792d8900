import type { Kysely } from "kysely";

// Real gateways (issue 36). A UniFi controller with its default self-signed certificate is trusted
// by the SHA-256 fingerprint the operator pinned (hex, no separators), never by turning
// verification off. A RADIUS session is named in Disconnect and CoA as RouterOS matches it
// (RFC 5176 §3; RouterOS manual, RADIUS → incoming): the NAS's Acct-Session-Id and the guest's
// Framed-IP-Address, kept from accounting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("venues").addColumn("unifi_fingerprint", "text").execute();
  await db.schema.alterTable("connections").addColumn("nas_session_id", "text").execute();
  await db.schema.alterTable("connections").addColumn("framed_ip", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("connections").dropColumn("framed_ip").execute();
  await db.schema.alterTable("connections").dropColumn("nas_session_id").execute();
  await db.schema.alterTable("venues").dropColumn("unifi_fingerprint").execute();
}
