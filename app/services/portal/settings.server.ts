// A network's guest portal settings: its portal key, each gateway make's URL and
// set-up steps, and the gateway credentials. Secrets are write-only: what leaves this module says
// whether a secret is set, never the secret (nor its ciphertext).
import dns from "node:dns/promises";
import net from "node:net";
import type { SqlBool, Updateable } from "kysely";
import { db } from "~/db/db.server";
import type { GatewayMake, VenuesTable } from "~/db/schema";
import { isUniqueViolation } from "~/db/sql.server";
import { GATEWAY_SETTINGS_MESSAGES, type GatewaySettingsChanges } from "~/lib/schemas/gateway-settings";
import { signupFieldRule, type SignupFieldRule } from "~/lib/schemas/portal";
import { hashToken, newPortalKey } from "../crypto.server";
import { publicOrigin } from "../email.server";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { formatFingerprint, normaliseFingerprint, outboundUrlProblem } from "../outbound.server";
import { encryptSecret } from "../secrets.server";
import { GATEWAYS } from "./gateways/index.server";
import type { Revocation } from "./gateways/types";
import { testController, type ControllerKind } from "./gateways/unifi.server";
import { networkById } from "./network.server";

export interface GatewaySetup {
  make: GatewayMake;
  label: string;
  /** The exact URL to paste into the gateway. */
  url: string;
  steps: string[];
  revocation: Revocation;
}

export interface GatewaySettings {
  portal_key: string;
  urls: Record<GatewayMake, string>;
  gateways: GatewaySetup[];
  gateway_secret_set: boolean;
  opennds_faskey_set: boolean;
  unifi_url: string | null;
  unifi_username: string | null;
  unifi_password_set: boolean;
  /** The controller certificate's SHA-256 the operator trusts (AA:BB:…), or null. */
  unifi_fingerprint: string | null;
  session_minutes: number;
  guest_signup: boolean;
  /** The guest pages' default language (en, sw). */
  guest_language: string;
  /** Which sign-up fields guests are asked, and which they must fill in. */
  signup_phone: SignupFieldRule;
  signup_email: SignupFieldRule;
  signup_names: SignupFieldRule;
  terms_url: string | null;
  privacy_url: string | null;
  /** The network's own splash page (null: the built-in page), and the published pages to choose from. */
  splash_page_id: number | null;
  splash_pages: { id: number; name: string }[];
}

export type GatewayUpdateResult = { ok: true } | { ok: false; errors: Record<string, string[]> };

type VenueChanges = Updateable<VenuesTable>;

/** Both engines answer a comparison differently: 1/0 (SQLite), true/false (PostgreSQL). */
const isTrue = (value: SqlBool) => Boolean(Number(value));

async function settingsRow(ctx: OrgContext, venueId: number | null) {
  if (venueId === null) notFound();
  const row = await db
    .selectFrom("venues")
    .select((eb) => [
      "id",
      "name",
      "portal_key",
      "unifi_url",
      "unifi_username",
      "unifi_fingerprint",
      "session_minutes",
      "guest_signup",
      "guest_language",
      "signup_phone",
      "signup_email",
      "signup_names",
      "terms_url",
      "privacy_url",
      "splash_page_id",
      eb("gateway_secret", "is not", null).as("gateway_secret_set"),
      eb("opennds_faskey", "is not", null).as("opennds_faskey_set"),
      eb("unifi_password", "is not", null).as("unifi_password_set"),
    ])
    .where("id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) notFound();
  return {
    ...row,
    gateway_secret_set: isTrue(row.gateway_secret_set),
    opennds_faskey_set: isTrue(row.opennds_faskey_set),
    unifi_password_set: isTrue(row.unifi_password_set),
  };
}

/** The gateway URLs come from PUBLIC_URL, never from the request: a forged Host must not end up in a gateway. */
function origin(): string {
  return publicOrigin().replace(/\/+$/, "");
}

/**
 * The IPv4 address PUBLIC_URL's host name has, for openNDS's fasremoteip (openNDS opens its firewall
 * to that address only); null when it has none or the lookup takes longer than a second.
 */
async function originIpv4(): Promise<string | null> {
  const host = new URL(origin()).hostname;
  if (net.isIP(host.replace(/^\[|\]$/g, ""))) return null;
  const lookup = dns.lookup(host, { family: 4 }).then(
    (found) => found.address,
    () => null,
  );
  const timeout = new Promise<null>((resolve) => setTimeout(resolve, 1000, null).unref());
  return Promise.race([lookup, timeout]);
}

async function gatewaySetups(portalKey: string): Promise<GatewaySetup[]> {
  const network = { portalKey, originIpv4: await originIpv4() };
  return Object.values(GATEWAYS).map((adapter) => ({
    make: adapter.make,
    label: adapter.label,
    ...adapter.setup(origin(), network),
    revocation: adapter.revocation,
  }));
}

/** GET venues/{id}/gateway (view_networks). */
export async function getGatewaySettings(ctx: OrgContext, venueId: number | null): Promise<GatewaySettings> {
  requirePermission(ctx, "view_networks");
  const row = await settingsRow(ctx, venueId);
  const gateways = await gatewaySetups(row.portal_key);
  return {
    portal_key: row.portal_key,
    urls: Object.fromEntries(gateways.map((g) => [g.make, g.url])) as Record<GatewayMake, string>,
    gateways,
    gateway_secret_set: row.gateway_secret_set,
    opennds_faskey_set: row.opennds_faskey_set,
    unifi_url: row.unifi_url,
    unifi_username: row.unifi_username,
    unifi_password_set: row.unifi_password_set,
    unifi_fingerprint: row.unifi_fingerprint ? formatFingerprint(row.unifi_fingerprint) : null,
    session_minutes: Number(row.session_minutes),
    guest_signup: Number(row.guest_signup) === 1,
    guest_language: row.guest_language,
    signup_phone: signupFieldRule(row.signup_phone),
    signup_email: signupFieldRule(row.signup_email),
    signup_names: signupFieldRule(row.signup_names),
    terms_url: row.terms_url,
    privacy_url: row.privacy_url,
    splash_page_id: row.splash_page_id,
    splash_pages: await publishedSplashPages(ctx.org.id),
  };
}

function publishedSplashPages(organizationId: number) {
  return db
    .selectFrom("splash_pages")
    .select(["id", "name"])
    .where("organization_id", "=", organizationId)
    .where("published_revision", "is not", null)
    .orderBy("name")
    .execute();
}

/** The columns an update writes; a field left out (undefined) is not touched. */
function columnChanges(input: GatewaySettingsChanges): VenueChanges {
  const set: VenueChanges = {};
  if (input.gateway_secret) {
    set.gateway_secret = encryptSecret(input.gateway_secret);
    set.gateway_secret_hash = hashToken(input.gateway_secret);
  }
  if (input.clear_opennds_faskey) set.opennds_faskey = null;
  else if (input.opennds_faskey) set.opennds_faskey = encryptSecret(input.opennds_faskey);
  if (input.clear_unifi) {
    Object.assign(set, { unifi_url: null, unifi_username: null, unifi_password: null, unifi_fingerprint: null });
  } else {
    if (input.unifi_url !== undefined) set.unifi_url = input.unifi_url;
    if (input.unifi_username !== undefined) set.unifi_username = input.unifi_username;
    if (input.unifi_password) set.unifi_password = encryptSecret(input.unifi_password);
  }
  if (input.session_minutes !== undefined) set.session_minutes = input.session_minutes;
  if (input.guest_signup !== undefined) set.guest_signup = input.guest_signup ? 1 : 0;
  if (input.guest_language !== undefined) set.guest_language = input.guest_language;
  if (input.signup_phone !== undefined) set.signup_phone = input.signup_phone;
  if (input.signup_email !== undefined) set.signup_email = input.signup_email;
  if (input.signup_names !== undefined) set.signup_names = input.signup_names;
  if (input.terms_url !== undefined) set.terms_url = input.terms_url;
  if (input.privacy_url !== undefined) set.privacy_url = input.privacy_url;
  if (input.splash_page_id !== undefined) set.splash_page_id = input.splash_page_id;
  return set;
}

/** The adapter can only call a controller it has all three of: address, username and password. */
function unifiErrors(current: { unifi_url: string | null; unifi_username: string | null; unifi_password_set: boolean }, set: VenueChanges) {
  const url = set.unifi_url !== undefined ? set.unifi_url : current.unifi_url;
  const username = set.unifi_username !== undefined ? set.unifi_username : current.unifi_username;
  const password = set.unifi_password !== undefined ? set.unifi_password !== null : current.unifi_password_set;
  const errors: Record<string, string[]> = {};
  if (!url && !username && !password) return errors;
  if (!url) errors.unifi_url = [GATEWAY_SETTINGS_MESSAGES.unifiUrlMissing];
  if (!username) errors.unifi_username = [GATEWAY_SETTINGS_MESSAGES.unifiUsernameMissing];
  if (!password) errors.unifi_password = [GATEWAY_SETTINGS_MESSAGES.unifiPasswordMissing];
  return errors;
}

/** The hash finds the network of an accounting request, so two networks cannot share a secret. */
async function secretTaken(venueId: number, hash: string): Promise<boolean> {
  const other = await db
    .selectFrom("venues")
    .select("id")
    .where("gateway_secret_hash", "=", hash)
    .where("id", "<>", venueId)
    .executeTakeFirst();
  return other !== undefined;
}

/**
 * PUT venues/{id}/gateway (edit_networks). Secrets: empty or absent keeps the stored one, a value
 * replaces it (encrypted), the clear flags remove them. Field errors come back, not thrown.
 */
export async function updateGatewaySettings(
  ctx: OrgContext,
  venueId: number | null,
  input: GatewaySettingsChanges,
): Promise<GatewayUpdateResult> {
  requirePermission(ctx, "edit_networks");
  const current = await settingsRow(ctx, venueId);
  const set = columnChanges(input);
  // A certificate trusted for one controller says nothing about another address.
  if (set.unifi_url !== undefined && set.unifi_url !== current.unifi_url) set.unifi_fingerprint = null;
  const errors = unifiErrors(current, set);
  if (input.gateway_secret && (await secretTaken(current.id, hashToken(input.gateway_secret)))) {
    errors.gateway_secret = [GATEWAY_SETTINGS_MESSAGES.secretTaken];
  }
  if (set.splash_page_id != null && !(await publishedSplashPages(ctx.org.id)).some((p) => p.id === set.splash_page_id)) {
    errors.splash_page_id = [GATEWAY_SETTINGS_MESSAGES.splashPageInvalid];
  }
  // The server calls the controller with its credentials: never an address inside its own network.
  const controllerProblem = set.unifi_url ? await outboundUrlProblem(set.unifi_url) : null;
  if (controllerProblem) errors.unifi_url = [controllerProblem];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  try {
    await db
      .updateTable("venues")
      .set({ ...set, updated_at: Date.now() })
      .where("id", "=", current.id)
      .where("organization_id", "=", ctx.org.id)
      .execute();
  } catch (error) {
    // Another network took the same secret since the check (gateway_secret_hash is unique).
    if (isUniqueViolation(error)) return { ok: false, errors: { gateway_secret: [GATEWAY_SETTINGS_MESSAGES.secretTaken] } };
    throw error;
  }
  return { ok: true };
}

export type UnifiTestResult =
  { ok: true; message: string } | { ok: false; message: string } | { ok: false; trust: { fingerprint: string; question: string } };

const KIND_LABELS: Record<ControllerKind, string> = {
  "unifi-os": "a UniFi OS console (UDM, Cloud Key Gen2+ or UniFi OS Server)",
  classic: "a UniFi Network controller",
};

/** The question before trusting a certificate that no authority vouches for. */
export function trustQuestion(fingerprint: string): string {
  return (
    `The controller presented a certificate with SHA-256 fingerprint ${formatFingerprint(fingerprint)}: trust it? ` +
    "Say yes only if it is your controller's: compare it with the certificate your browser shows for the controller's address " +
    "(or `openssl x509 -noout -fingerprint -sha256` on the controller). Mlango will then call this controller only while it presents this certificate."
  );
}

/**
 * "Test connection" (edit_networks): signs in to the saved controller and asks its network API. A
 * self-signed certificate comes back as the question to trust its fingerprint, never as a switch
 * that turns verification off.
 */
export async function testUnifiConnection(ctx: OrgContext, venueId: number | null): Promise<UnifiTestResult> {
  requirePermission(ctx, "edit_networks");
  const current = await settingsRow(ctx, venueId);
  const controller = (await networkById(current.id))?.unifi;
  if (!controller) return { ok: false, message: "Save the controller's address, username and password first, then test the connection." };
  const result = await testController(current.id, controller);
  if (result.ok) return { ok: true, message: `Connected: Mlango signed in to ${KIND_LABELS[result.kind]} and can let guests through.` };
  if ("untrusted" in result) {
    if (controller.fingerprint) {
      return {
        ok: false,
        message: `The controller now presents another certificate (SHA-256 ${formatFingerprint(result.untrusted.fingerprint)}) than the one trusted. If it was renewed, remove the trusted certificate and test again.`,
      };
    }
    return { ok: false, trust: { fingerprint: result.untrusted.fingerprint, question: trustQuestion(result.untrusted.fingerprint) } };
  }
  return { ok: false, message: result.message };
}

export const UNIFI_TRUST_MESSAGES = {
  invalid: "That is not a SHA-256 fingerprint: 64 hexadecimal digits, with or without colons.",
} as const;

/** Trusts the certificate with this fingerprint for the network's controller (edit_networks); false: not a fingerprint. */
export async function trustUnifiCertificate(ctx: OrgContext, venueId: number | null, fingerprint: string): Promise<boolean> {
  requirePermission(ctx, "edit_networks");
  const current = await settingsRow(ctx, venueId);
  const hex = normaliseFingerprint(fingerprint);
  if (!hex) return false;
  await db
    .updateTable("venues")
    .set({ unifi_fingerprint: hex, updated_at: Date.now() })
    .where("id", "=", current.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return true;
}

/** Stops trusting the pinned certificate (edit_networks): only a CA-signed one is accepted again. */
export async function forgetUnifiCertificate(ctx: OrgContext, venueId: number | null): Promise<void> {
  requirePermission(ctx, "edit_networks");
  const current = await settingsRow(ctx, venueId);
  await db
    .updateTable("venues")
    .set({ unifi_fingerprint: null, updated_at: Date.now() })
    .where("id", "=", current.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
}

/** The question asked before a new portal key: every URL pasted into a gateway stops working. */
export function regenerateQuestion(networkName: string): string {
  return `Make a new portal key for ${networkName}? Its current gateway URLs stop working at once: guests are not let in until every gateway of this network has the new URL.`;
}

/** A new portal key (edit_networks): the old URLs answer 404 from now on. */
export async function regeneratePortalKey(ctx: OrgContext, venueId: number | null): Promise<{ name: string; portal_key: string }> {
  requirePermission(ctx, "edit_networks");
  const current = await settingsRow(ctx, venueId);
  const portalKey = newPortalKey();
  await db
    .updateTable("venues")
    .set({ portal_key: portalKey, updated_at: Date.now() })
    .where("id", "=", current.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return { name: current.name, portal_key: portalKey };
}
