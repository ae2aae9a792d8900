// A network (venue) as the guest path sees it: found by its portal key or gateway secret, with its
// gateway credentials decrypted for the adapters. Server-side only: nothing here goes to a browser.
import { db } from "~/db/db.server";
import { hashToken } from "../crypto.server";
import { readSecret } from "../secrets.server";
import type { GatewayNetwork } from "./gateways/types";

export interface PortalNetwork extends GatewayNetwork {
  name: string;
  organizationName: string;
  successUrl: string | null;
  sessionMinutes: number;
  guestSignup: boolean;
  termsUrl: string | null;
  privacyUrl: string | null;
  /** The guest pages' default language (en, sw; decision 0079). */
  language: string;
}

/** Portal keys are 24 URL-safe characters; anything else is not looked up. */
const PORTAL_KEY = /^[A-Za-z0-9_-]{16,64}$/;

const networkQuery = () =>
  db
    .selectFrom("venues")
    .innerJoin("organizations", "organizations.id", "venues.organization_id")
    .select([
      "venues.id",
      "venues.organization_id",
      "venues.name",
      "organizations.name as organization_name",
      "venues.portal_key",
      "venues.gateway_secret",
      "venues.opennds_faskey",
      "venues.unifi_url",
      "venues.unifi_username",
      "venues.unifi_password",
      "venues.unifi_fingerprint",
      "venues.success_url",
      "venues.session_minutes",
      "venues.guest_signup",
      "venues.terms_url",
      "venues.privacy_url",
      "venues.guest_language",
    ]);

type NetworkRow = NonNullable<Awaited<ReturnType<ReturnType<typeof networkQuery>["executeTakeFirst"]>>>;

function toNetwork(row: NetworkRow): PortalNetwork {
  const unifiPassword = readSecret(row.unifi_password);
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    organizationName: row.organization_name,
    portalKey: row.portal_key,
    gatewaySecret: readSecret(row.gateway_secret),
    openndsFaskey: readSecret(row.opennds_faskey),
    unifi:
      row.unifi_url && row.unifi_username && unifiPassword
        ? { url: row.unifi_url, username: row.unifi_username, password: unifiPassword, fingerprint: row.unifi_fingerprint ?? null }
        : null,
    successUrl: row.success_url,
    sessionMinutes: Number(row.session_minutes),
    guestSignup: Number(row.guest_signup) === 1,
    termsUrl: row.terms_url,
    privacyUrl: row.privacy_url,
    language: row.guest_language,
  };
}

export async function networkByPortalKey(portalKey: string): Promise<PortalNetwork | null> {
  if (!PORTAL_KEY.test(portalKey)) return null;
  const row = await networkQuery().where("venues.portal_key", "=", portalKey).executeTakeFirst();
  return row ? toNetwork(row) : null;
}

export async function networkById(venueId: number): Promise<PortalNetwork | null> {
  const row = await networkQuery().where("venues.id", "=", venueId).executeTakeFirst();
  return row ? toNetwork(row) : null;
}

/**
 * The networks of the access point with this MAC (normalised), one per organisation that registered
 * it; at most two are read: one is the answer, two are too many.
 */
export async function networksByAccessPoint(apMac: string): Promise<PortalNetwork[]> {
  const rows = await networkQuery()
    .innerJoin("access_points", "access_points.venue_id", "venues.id")
    .where("access_points.mac_address", "=", apMac)
    .limit(2)
    .execute();
  return rows.map(toNetwork);
}

/** The network whose gateway secret this is (accounting, revocation polling), or null. */
export async function networkByGatewaySecret(secret: string): Promise<PortalNetwork | null> {
  if (secret.length < 16 || secret.length > 256) return null;
  const row = await networkQuery().where("venues.gateway_secret_hash", "=", hashToken(secret)).executeTakeFirst();
  return row ? toNetwork(row) : null;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | undefined | null): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match ? match[1]! : null;
}
