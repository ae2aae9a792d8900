// A gateway hands a guest over: find the network by portal key, let its make's
// adapter read the redirect, find the access point, the device and its customer, record the visit
// (footfall) with a fresh token, and send the browser to the connect page. An unknown access point
// is still served, attributed to the network and kept as an unregistered MAC: a guest is never stranded.
import UAParser from "ua-parser-js";
import { db } from "~/db/db.server";
import { retryDeadlocks } from "~/db/sql.server";
import { hashToken, randomToken } from "../crypto.server";
import { gatewayFor } from "./gateways/index.server";
import { mac, param } from "./gateways/params";
import type { GatewayAdapter } from "./gateways/types";
import { networkByPortalKey, networksByAccessPoint, type PortalNetwork } from "./network.server";

/** A connect token authorizes for this long; then the guest reconnects for a new one. */
export const TOKEN_TTL_MS = 30 * 60_000;
/** An access point's last_seen_at is written at most this often (one write per guest would be waste). */
const SEEN_EVERY_MS = 60_000;

export type EntryOutcome = { ok: true; token: string; connectionId: number } | { ok: false; status: number; message: string };

export const ENTRY_MESSAGES = {
  unknownMake: "This gateway type is not supported. Supported: meraki, opennds, unifi, mlango, mikrotik, cisco, ruckus.",
  unknownNetwork: "This Wi-Fi network is not set up in Mlango. Ask the venue's staff for help.",
  replayed: "This sign-in link has already been used: open any web page to try again.",
  unifiNoAp:
    "The Wi-Fi controller did not say which access point you are on, so Mlango cannot tell which network this is. Ask the venue's staff for help.",
  unifiBadAp: "The Wi-Fi controller sent an access point address that is not a MAC address. Ask the venue's staff for help.",
  unifiUnknownAp: (apMac: string) =>
    `This access point (${apMac}) is not registered in Mlango, so Mlango cannot tell which network this is. Ask the venue's staff to add it to their network.`,
  unifiAmbiguousAp: (apMac: string) =>
    `This access point (${apMac}) is registered by more than one organisation in Mlango, so Mlango cannot tell which network this is. Ask the venue's staff to remove it from the network it no longer belongs to, or to use the network's own portal address.`,
} as const;

/** Thrown inside the entry's transaction when its nonce was seen before: nothing of the visit is written. */
class ReplayedEntry extends Error {}

interface DeviceFacts {
  name: string | null;
  os: string | null;
  os_version: string | null;
  brand: string | null;
  browser: string | null;
  is_mobile: 0 | 1;
}

export function deviceFacts(userAgent: string | null): DeviceFacts {
  const ua = new UAParser(userAgent?.slice(0, 512) ?? "").getResult();
  const type = ua.device.type;
  const brand = ua.device.vendor ?? null;
  return {
    name: [brand, ua.device.model].filter(Boolean).join(" ") || null,
    os: ua.os.name ?? null,
    os_version: ua.os.version ?? null,
    brand,
    browser: ua.browser.name ?? null,
    is_mobile: type === "mobile" || type === "tablet" ? 1 : 0,
  };
}

export async function enterFromGateway(input: {
  make: string;
  portalKey: string;
  rest: string;
  query: URLSearchParams;
  userAgent: string | null;
  now?: number;
}): Promise<EntryOutcome> {
  const adapter = gatewayFor(input.make);
  if (!adapter) return { ok: false, status: 404, message: ENTRY_MESSAGES.unknownMake };
  const network = await networkByPortalKey(input.portalKey);
  if (!network) return { ok: false, status: 404, message: ENTRY_MESSAGES.unknownNetwork };
  return enterNetwork(adapter, network, input);
}

/**
 * GET /guest/s/{site}/?ap=&id=&t=&url=&ssid=: a UniFi controller's External Portal Server sends
 * guests to the portal's host with no portal key, so the network is the one of the access point
 * `ap` among the organisations that registered that MAC. An unknown MAC, or one that more than one
 * organisation registered, is refused with a page that says so (no guess across organisations).
 */
export async function enterFromUnifiSite(input: {
  site: string;
  query: URLSearchParams;
  userAgent: string | null;
  now?: number;
}): Promise<EntryOutcome> {
  const apParam = param(input.query, "ap");
  const apMac = mac(apParam);
  if (!apMac) return { ok: false, status: 400, message: apParam ? ENTRY_MESSAGES.unifiBadAp : ENTRY_MESSAGES.unifiNoAp };
  const networks = await networksByAccessPoint(apMac);
  if (networks.length === 0) return { ok: false, status: 404, message: ENTRY_MESSAGES.unifiUnknownAp(apMac) };
  if (networks.length > 1) return { ok: false, status: 409, message: ENTRY_MESSAGES.unifiAmbiguousAp(apMac) };
  return enterNetwork(gatewayFor("unifi")!, networks[0]!, { ...input, rest: `guest/s/${input.site}/` });
}

async function enterNetwork(
  adapter: GatewayAdapter,
  network: PortalNetwork,
  input: { rest: string; query: URLSearchParams; userAgent: string | null; now?: number },
): Promise<EntryOutcome> {
  const now = input.now ?? Date.now();
  const parsed = adapter.parseEntry(input.query, input.rest, network, now);
  if (!parsed.ok) return { ok: false, status: 400, message: parsed.message };
  const { entry } = parsed;
  const orgId = network.organizationId;
  const token = randomToken(24);

  const facts = deviceFacts(input.userAgent);
  // The roll-up triggers lock shared rows; PostgreSQL may abort one of two racing visits (deadlock).
  const connectionId = await retryDeadlocks(() =>
    db.transaction().execute(async (trx) => {
      if (entry.nonce) {
        const fresh = await trx
          .insertInto("gateway_nonces")
          .values({ venue_id: network.id, nonce: entry.nonce.value, expires_at: entry.nonce.expiresAt })
          .onConflict((oc) => oc.doNothing())
          .returning("nonce")
          .executeTakeFirst();
        if (!fresh) throw new ReplayedEntry();
      }
      const ap = entry.apMac
        ? await trx
            .selectFrom("access_points")
            .select(["id", "venue_id", "last_seen_at"])
            .where("organization_id", "=", orgId)
            .where("mac_address", "=", entry.apMac)
            .executeTakeFirst()
        : undefined;
      if (ap && (ap.last_seen_at === null || Number(ap.last_seen_at) < now - SEEN_EVERY_MS)) {
        // Conditional, so visits that queued behind another's write of the same minute skip it.
        await trx
          .updateTable("access_points")
          .set({ last_seen_at: now })
          .where("id", "=", ap.id)
          .where((eb) => eb.or([eb("last_seen_at", "is", null), eb("last_seen_at", "<", now - SEEN_EVERY_MS)]))
          .execute();
      }

      const device = await trx
        .insertInto("devices")
        .values({
          organization_id: orgId,
          customer_id: null,
          mac_address: entry.clientMac,
          ...facts,
          blocked_at: null,
          last_seen_at: now,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["organization_id", "mac_address"]).doUpdateSet({ last_seen_at: now }))
        // The row as it is now, inserted or updated (both engines return it in either case).
        .returning(["id", "customer_id"])
        .executeTakeFirstOrThrow();
      let customerId = device.customer_id;
      if (customerId === null) {
        // A device's first visit: a customer without details yet (sign-up fills them in or merges it).
        const customer = await trx
          .insertInto("customers")
          .values({ organization_id: orgId, identity: entry.clientMac, created_at: now, updated_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        customerId = customer.id;
        await trx.updateTable("devices").set({ customer_id: customerId, updated_at: now }).where("id", "=", device.id).execute();
      }

      const connection = await trx
        .insertInto("connections")
        .values({
          organization_id: orgId,
          venue_id: ap?.venue_id ?? network.id,
          access_point_id: ap?.id ?? null,
          access_point_mac: entry.apMac,
          customer_id: customerId,
          device_id: device.id,
          ssid: entry.ssid,
          token: hashToken(token),
          token_expires_at: now + TOKEN_TTL_MS,
          client_ip: entry.clientIp,
          gateway: adapter.make,
          // network_id: the network whose portal key and gateway credentials grant (the access point may be filed under another).
          gateway_context: JSON.stringify({
            ...entry.context,
            network_id: String(network.id),
            ...(entry.continueUrl ? { continue_url: entry.continueUrl } : {}),
          }),
          created_at: now,
          upload: 0,
          download: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(connection.id);
    }),
  ).catch((error: unknown) => {
    if (error instanceof ReplayedEntry) return null;
    throw error;
  });
  if (connectionId === null) return { ok: false, status: 400, message: ENTRY_MESSAGES.replayed };
  return { ok: true, token, connectionId };
}

/** Drops the nonces of entries whose signature window has passed (the daily prune job): they can no longer be replayed anyway. */
export async function pruneGatewayNonces(now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("gateway_nonces").where("expires_at", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
