// Browser-test data for the guest path: an organisation with its owner, a network
// with gateway settings (secrets encrypted with the e2e server's SECRETS_KEY, fixtures.ts sets the
// env first) and a named access point, plus the gateway redirects each make sends and the reads the
// tests check the database with. Every test makes its own organisation: tests run in parallel.
import crypto from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Insertable } from "kysely";
import type { OAuthProviderName, VenuesTable } from "~/db/schema";
import { makeOrg, makeUser } from "./fixtures";

const { db } = await import("~/db/db.server");
const { buildAccessPoint, buildVenue } = await import("~/tools/factories.server");
const { encryptSecret } = await import("~/services/secrets.server");
const { hashToken } = await import("~/services/crypto.server");

export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
export const hmac = (secret: string, message: string) => crypto.createHmac("sha256", secret).update(message).digest("hex");

/** A random, locally administered MAC address, lower case and colon separated (as Mlango stores them). */
export function randomMac(): string {
  const bytes = crypto.randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(":");
}

/** The same MAC in Cisco's dotted notation, upper case (aabb.ccdd.eeff). */
export const dottedMac = (mac: string) => mac.replaceAll(":", "").toUpperCase().match(/..../g)!.join(".");
/** The same MAC dash separated, upper case (AA-BB-CC-DD-EE-FF). */
export const dashedMac = (mac: string) => mac.toUpperCase().replaceAll(":", "-");

export interface PortalSetup {
  owner: { id: number };
  orgId: number;
  orgName: string;
  venue: { id: number; name: string; portalKey: string };
  ap: { id: number; name: string; mac: string };
  gatewaySecret: string;
  faskey: string;
}

let counter = 0;

/**
 * An organisation (its owner as admin), one network with every make's gateway settings (a gateway
 * secret, an openNDS faskey and, when given, a UniFi controller) and one named access point.
 */
export async function makePortal(
  options: { venue?: Partial<Insertable<VenuesTable>>; unifi?: { url: string; username: string; password: string } } = {},
): Promise<PortalSetup> {
  const n = `${process.pid}-${++counter}`;
  const owner = await makeUser();
  const orgName = `Kahawa ${n}`;
  const org = await makeOrg(owner.id, orgName);
  const gatewaySecret = crypto.randomBytes(24).toString("base64url");
  const faskey = crypto.randomBytes(16).toString("hex");
  const venue = await db
    .insertInto("venues")
    .values(
      buildVenue(org.id, {
        name: `Kahawa Lounge ${n}`,
        gateway_secret: encryptSecret(gatewaySecret),
        gateway_secret_hash: sha256(gatewaySecret),
        opennds_faskey: encryptSecret(faskey),
        session_minutes: 90,
        ...(options.unifi
          ? { unifi_url: options.unifi.url, unifi_username: options.unifi.username, unifi_password: encryptSecret(options.unifi.password) }
          : {}),
        ...options.venue,
      }),
    )
    .returning(["id", "name", "portal_key"])
    .executeTakeFirstOrThrow();
  const mac = randomMac();
  const ap = await db
    .insertInto("access_points")
    .values(buildAccessPoint(org.id, venue.id, { name: `Lobby AP ${n}`, mac_address: mac, make: "Cisco Meraki" }))
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  return {
    owner,
    orgId: org.id,
    orgName,
    venue: { id: venue.id, name: venue.name, portalKey: venue.portal_key },
    ap: { id: ap.id, name: ap.name, mac },
    gatewaySecret,
    faskey,
  };
}

/** A customer with first and last name, e-mail and phone, and their device (a returning guest). */
export async function makeKnownGuest(orgId: number, clientMac: string, options: { blocked?: boolean; complete?: boolean } = {}) {
  const now = Date.now();
  const complete = options.complete ?? true;
  const phone = `+2547${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const customer = await db
    .insertInto("customers")
    .values({
      organization_id: orgId,
      identity: phone,
      first_name: "Baraka",
      last_name: "Mwangi",
      email_address: complete ? `baraka.${crypto.randomBytes(4).toString("hex")}@example.com` : null,
      phone_number: phone,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const device = await db
    .insertInto("devices")
    .values({
      organization_id: orgId,
      customer_id: customer.id,
      name: "Baraka's phone",
      mac_address: clientMac,
      os: "Android",
      os_version: "14",
      brand: null,
      browser: null,
      is_mobile: 1,
      blocked_at: options.blocked ? now - 60_000 : null,
      last_seen_at: now - 86_400_000,
      created_at: now - 86_400_000,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { customerId: customer.id, deviceId: device.id };
}

/** Configures a social provider for the organisation (client of the fake provider, secret encrypted). */
export async function addOAuthProvider(orgId: number, provider: OAuthProviderName) {
  const now = Date.now();
  await db
    .insertInto("oauth_providers")
    .values({
      organization_id: orgId,
      provider,
      client_id: "mlango-demo",
      client_secret: encryptSecret("mlango-demo-secret"),
      settings: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The connection a connect token belongs to, with its device and customer. */
export async function connectionByToken(token: string) {
  return db
    .selectFrom("connections")
    .leftJoin("customers", "customers.id", "connections.customer_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "connections.venue_id",
      "connections.access_point_id",
      "connections.access_point_mac",
      "connections.authorized_at",
      "connections.authorization_mode",
      "connections.session_expires_at",
      "connections.client_ip",
      "connections.gateway",
      "connections.subscription_id",
      "customers.id as customer_id",
      "customers.first_name",
      "customers.last_name",
      "customers.email_address",
      "customers.phone_number",
      "customers.terms_accepted_at",
      "customers.marketing_opt_in_at",
      "devices.mac_address as device_mac",
    ])
    .where("connections.token", "=", hashToken(token))
    .executeTakeFirstOrThrow();
}

/** How many of the organisation's connections are authorized (and how many there are). */
export async function connectionCounts(orgId: number) {
  const rows = await db.selectFrom("connections").select(["authorized_at"]).where("organization_id", "=", orgId).execute();
  return { total: rows.length, authorized: rows.filter((r) => r.authorized_at !== null).length };
}

export async function customerCount(orgId: number) {
  const rows = await db.selectFrom("customers").select("id").where("organization_id", "=", orgId).execute();
  return rows.length;
}

export async function consentsOf(connectionId: number) {
  return db
    .selectFrom("customer_consents")
    .select(["kind", "granted", "wording_version"])
    .where("connection_id", "=", connectionId)
    .orderBy("kind")
    .execute();
}

export async function accessPointLastSeen(apId: number) {
  const row = await db.selectFrom("access_points").select("last_seen_at").where("id", "=", apId).executeTakeFirstOrThrow();
  return row.last_seen_at === null ? null : Number(row.last_seen_at);
}

export async function blockDevice(orgId: number, mac: string) {
  await db
    .updateTable("devices")
    .set({ blocked_at: Date.now() })
    .where("organization_id", "=", orgId)
    .where("mac_address", "=", mac)
    .execute();
}

export async function expireToken(token: string) {
  await db
    .updateTable("connections")
    .set({ token_expires_at: Date.now() - 60_000 })
    .where("token", "=", hashToken(token))
    .execute();
}

// ---- A gateway's grant endpoint and what each make's gateway sends -----------------------------

export interface FakeGateway {
  /** http://127.0.0.1:{port}: stands for the access point or router the grant sends the browser to. */
  origin: string;
  /** host:port, as openNDS names its gateway address. */
  address: string;
  /** Every request the browser made to it, in order. */
  grants: URL[];
  close(): Promise<void>;
}

/**
 * The gateway's side of a grant, on this machine: answers any GET with a tiny "granted" page and
 * records the URL. (Playwright's routes do not see the hops of a redirect chain, so the grant
 * redirects after the sign-up POST go to a real local server instead of an intercepted host.)
 */
export async function startFakeGateway(): Promise<FakeGateway> {
  const grants: URL[] = [];
  const server = createServer((req, res) => {
    grants.push(new URL(req.url ?? "/", gateway.origin));
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end("<!doctype html><title>Gateway</title><h1>granted</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const gateway: FakeGateway = {
    origin: `http://127.0.0.1:${port}`,
    address: `127.0.0.1:${port}`,
    grants,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return gateway;
}

export const merakiGrantUrl = (gateway: FakeGateway) => `${gateway.origin}/splash/grant`;

export function merakiEntry(
  portalKey: string,
  gateway: FakeGateway,
  at: { apMac: string; clientMac: string; continueUrl?: string },
): string {
  const query = new URLSearchParams({
    base_grant_url: merakiGrantUrl(gateway),
    user_continue_url: at.continueUrl ?? "http://neverssl.test/",
    node_mac: at.apMac,
    client_mac: at.clientMac,
    client_ip: "10.0.4.23",
    node_id: "149624921787028",
    gateway_id: "149624921787028",
  });
  return `/hotspot/meraki/${portalKey}?${query}`;
}

export function openndsEntry(portalKey: string, gateway: FakeGateway, at: { gatewayMac: string; clientMac: string; hid: string }): string {
  const fields = [
    "clientip=192.168.8.44",
    `clientmac=${at.clientMac}`,
    "client_type=cpd_can",
    "gatewayname=Kahawa%20Guest",
    `gatewayurl=${encodeURIComponent(`http://${gateway.address}`)}`,
    "version=10.2.0",
    `hid=${at.hid}`,
    `gatewayaddress=${gateway.address}`,
    `gatewaymac=${at.gatewayMac.replaceAll(":", "")}`,
    `originurl=${encodeURIComponent("http://connectivitycheck.gstatic.test/generate_204")}`,
    "clientif=br-lan",
  ];
  return `/hotspot/opennds/${portalKey}?fas=${encodeURIComponent(Buffer.from(fields.join(", ")).toString("base64"))}`;
}

export function unifiEntry(portalKey: string, at: { site: string; apMac: string; clientMac: string; url: string }): string {
  const query = new URLSearchParams({
    ap: at.apMac,
    id: at.clientMac,
    t: String(Math.floor(Date.now() / 1000)),
    url: at.url,
    ssid: "Kahawa Guest",
  });
  return `/hotspot/unifi/${portalKey}/guest/s/${at.site}/?${query}`;
}

export const mlangoGrantUrl = (gateway: FakeGateway) => `${gateway.origin}/mlango/grant`;

/** Mlango's own make: the eight values after the version tag, signed with HMAC-SHA256 under the network's gateway secret (README, "Mlango gateways"). */
export function mlangoEntry(portalKey: string, gateway: FakeGateway, secret: string, at: { apMac: string; clientMac: string }): string {
  const values = {
    ap_mac: at.apMac,
    client_mac: at.clientMac,
    client_ip: "10.9.0.57",
    ssid: "Kahawa Guest",
    grant_url: mlangoGrantUrl(gateway),
    continue_url: "http://example.test/",
    ts: String(Math.floor(Date.now() / 1000)),
    nonce: crypto.randomBytes(12).toString("base64url"),
  };
  // Written from the README's description, not from the code that checks it.
  const message = [
    "mlango-entry-v2",
    values.ap_mac,
    values.client_mac,
    values.client_ip,
    values.ssid,
    values.grant_url,
    values.continue_url,
    values.ts,
    values.nonce,
  ];
  return `/hotspot/mlango/${portalKey}?${new URLSearchParams({ ...values, signature: hmac(secret, message.join("\n")) })}`;
}
