// One adapter per gateway make behind one small interface: the connect flow knows nothing
// vendor-specific (docs/architecture.md#the-guest-path).
import type { GatewayMake } from "~/db/schema";
import type { LoginForm } from "../../radius/login.server";

/** What a gateway's redirect says about the guest, in our terms. */
export interface GatewayEntry {
  /** The access point (or gateway) the guest is on, normalised; null when the gateway does not say. */
  apMac: string | null;
  clientMac: string;
  clientIp: string | null;
  ssid: string | null;
  /** Where the guest was going (the gateway's continue URL), if it says. */
  continueUrl: string | null;
  /** What grant and revoke need later (stored as JSON on the connection). */
  context: Record<string, string>;
  /** A signed entry that may be used once (Mlango's make): its nonce, kept until the signature expires. */
  nonce?: { value: string; expiresAt: number };
}

export type ParsedEntry = { ok: true; entry: GatewayEntry } | { ok: false; message: string };

/** The network's gateway settings, with secrets already decrypted (server-side only). */
export interface GatewayNetwork {
  id: number;
  organizationId: number;
  portalKey: string;
  gatewaySecret: string | null;
  openndsFaskey: string | null;
  /** fingerprint: the SHA-256 (hex) of the controller's self-signed certificate the operator trusts, or null (a CA-signed one). */
  unifi: { url: string; username: string; password: string; fingerprint: string | null } | null;
}

/**
 * What a plan asks the gateway to enforce besides the session's length (docs/decisions/0017,
 * "Enforcement per make"); null = no limit. Each adapter carries what its make accepts.
 */
export interface GrantLimits {
  /** upload (to the Internet) in kilobits per second, from the plan's bandwidth policy */
  upKbps: number | null;
  /** download (from the Internet) in kilobits per second */
  downKbps: number | null;
  /** the data left in the subscription, upload and download together, in bytes */
  bytes: number | null;
}

export interface GrantRequest {
  network: GatewayNetwork;
  connectionId: number;
  token: string;
  clientMac: string;
  apMac: string | null;
  context: Record<string, string>;
  /** Absolute URL the guest lands on once online. */
  successUrl: string;
  /** How long the guest may stay online. */
  seconds: number;
  /** The plan's speed and data limits; absent = none. */
  limits?: GrantLimits;
}

export interface RevokeRequest {
  network: GatewayNetwork;
  connectionId: number;
  clientMac: string;
  context: Record<string, string>;
}

/**
 * How closing a connection in the console reaches the gateway:
 * - controller: the adapter calls the gateway's API (revoke);
 * - poll: the gateway fetches a revocation list from Mlango;
 * - none: the gateway cannot be told; the guest stays online until the session ends there.
 */
export type Revocation = "controller" | "poll" | "none";

export class GatewayError extends Error {}

/** What set-up steps know of a network: its portal key, and the IPv4 address PUBLIC_URL's host has (null: unknown). */
export type SetupNetwork = Pick<GatewayNetwork, "portalKey"> & { originIpv4?: string | null };

export interface GatewayAdapter {
  make: GatewayMake;
  label: string;
  revocation: Revocation;
  /**
   * Whether the client MAC of an entry is the device the gateway saw: signed (Mlango's make) or
   * checked at the grant against the NAS's Calling-Station-Id (RADIUS makes). False where the MAC
   * rides unsigned in the redirect (Meraki, openNDS at FAS level 1, UniFi): anyone can type another
   * device's, so it earns no personal data and no held plan (decision 0087).
   */
  identifiesDevice: boolean;
  /** Parses the gateway's redirect (query and the path after the portal key). */
  parseEntry(query: URLSearchParams, rest: string, network: GatewayNetwork, now: number): ParsedEntry;
  /** Lets the guest through: the URL to send the browser to. Throws GatewayError when the gateway refuses. */
  grant(request: GrantRequest): Promise<string>;
  revoke?(request: RevokeRequest): Promise<void>;
  /**
   * RADIUS makes: the form the guest's browser posts to the gateway's login address with the
   * connection's one-time credentials (the grant's page, app/guest/radius.ts).
   */
  loginForm?(context: Record<string, string>, credentials: { username: string; password: string }, successUrl: string): LoginForm;
  /** The URL to paste into the gateway, and short set-up steps (network settings page, README). */
  setup(origin: string, network: SetupNetwork): { url: string; steps: string[] };
}
