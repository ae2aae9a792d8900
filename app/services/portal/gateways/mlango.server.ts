// Mlango's own make: a small signed protocol for custom firmware and the simulator (README,
// "Mlango gateways"). Every message is signed with HMAC-SHA256 under the network's gateway secret:
// - entry: GET /hotspot/mlango/{key}?ap_mac&client_mac&client_ip&grant_url&continue_url&ts&signature,
//   signature = hex HMAC of the six values in that order joined by "\n" (absent values as ""), ts
//   in Unix seconds, accepted for 5 minutes;
// - grant: the browser goes to grant_url?token&duration&expires[&up&down&bytes]&signature
//   (duration in seconds; expires: Unix seconds, 5 minutes on). Without limits (v1, unchanged):
//   up, down and bytes are absent and signature = hex HMAC of "{token}\n{duration}\n{expires}".
//   With a plan's limits (v2): all three are present, each a decimal integer or empty for "no
//   limit" (up/down: kbit/s to and from the Internet; bytes: data left, both directions together),
//   and signature = hex HMAC of
//   "mlango-grant-v2\n{token}\n{duration}\n{expires}\n{up}\n{down}\n{bytes}".
//   The gateway picks the message by whether any of up/down/bytes is in the query, so dropping,
//   adding or editing a limit breaks the signature; the two messages cannot collide (3 lines that
//   start with the token vs 7 that start with the tag) as long as no value holds a newline, so the
//   gateway first checks every value's form: token URL-safe base64 ([A-Za-z0-9_-]), duration and
//   expires digits, up/down/bytes digits or empty (else a v2 message could be replayed as a v1 one
//   with the limits folded into the token). Firmware that knows only v1 refuses grants with limits
//   rather than ignoring them;
// - revoke: the gateway polls GET /hotspot/mlango/{key}/revocations?after={id} with the secret as
//   bearer token and cuts those clients off.
import crypto from "node:crypto";
import { grantLimits, hasLimits, httpUrl, ip, mac, param, short } from "./params";
import { GatewayError, type GatewayAdapter, type GrantLimits } from "./types";

export const SIGNATURE_WINDOW_S = 300;
const ENTRY_FIELDS = ["ap_mac", "client_mac", "client_ip", "grant_url", "continue_url", "ts"] as const;
const LIMIT_FIELDS = ["up", "down", "bytes"] as const;
export const GRANT_V2 = "mlango-grant-v2";

export function hmac(secret: string, message: string): string {
  return crypto.createHmac("sha256", secret).update(message).digest("hex");
}

export function entryMessage(values: Partial<Record<(typeof ENTRY_FIELDS)[number], string>>): string {
  return ENTRY_FIELDS.map((f) => values[f] ?? "").join("\n");
}

/** The signed message of a grant (header): v1 without limits, v2 with them (whole numbers, as grantLimits gives). */
export function grantMessage(token: string, duration: number, expires: number, limits?: GrantLimits): string {
  const v1 = `${token}\n${duration}\n${expires}`;
  if (!limits || !hasLimits(limits)) return v1;
  const text = (n: number | null) => (n === null ? "" : String(n));
  return [GRANT_V2, v1, text(limits.upKbps), text(limits.downKbps), text(limits.bytes)].join("\n");
}

/** The message a gateway checks a grant against, read from the grant's query (the gateway's side of the header's rule). */
export function grantMessageOf(query: URLSearchParams): string {
  const v1 = ["token", "duration", "expires"].map((f) => query.get(f) ?? "").join("\n");
  if (!LIMIT_FIELDS.some((f) => query.has(f))) return v1;
  return [GRANT_V2, v1, ...LIMIT_FIELDS.map((f) => query.get(f) ?? "")].join("\n");
}

/**
 * What a Mlango gateway does with a grant: every value has its form (so none holds a newline), the
 * signature matches under its secret and the grant has not expired.
 */
export function grantIsValid(secret: string, query: URLSearchParams, now = Date.now()): boolean {
  const well = (field: string, form: RegExp) => form.test(query.get(field) ?? "");
  if (
    !well("token", /^[A-Za-z0-9_-]+$/) ||
    !well("duration", /^\d+$/) ||
    !well("expires", /^\d+$/) ||
    !LIMIT_FIELDS.every((f) => well(f, /^\d*$/))
  )
    return false;
  const signature = query.get("signature") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(signature) || !sameSignature(hmac(secret, grantMessageOf(query)), signature.toLowerCase())) return false;
  const expires = Number(query.get("expires"));
  return Number.isInteger(expires) && expires > now / 1000;
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "hex");
  const b = Buffer.from(given, "hex");
  return given.length === expected.length && a.length === b.length && crypto.timingSafeEqual(a, b);
}

export const mlango: GatewayAdapter = {
  make: "mlango",
  label: "Mlango gateway (custom firmware)",
  revocation: "poll",
  parseEntry(query, _rest, network, now) {
    if (!network.gatewaySecret) return { ok: false, message: "This network has no gateway secret yet: create one in its settings." };
    const values = Object.fromEntries(ENTRY_FIELDS.map((f) => [f, query.get(f) ?? ""]));
    const signature = param(query, "signature") ?? "";
    if (!/^[0-9a-f]{64}$/i.test(signature) || !sameSignature(hmac(network.gatewaySecret, entryMessage(values)), signature.toLowerCase())) {
      return { ok: false, message: "The gateway's signature does not match this network." };
    }
    const ts = Number(values.ts);
    if (!Number.isInteger(ts) || Math.abs(now / 1000 - ts) > SIGNATURE_WINDOW_S)
      return { ok: false, message: "The gateway's request has expired: open any web page to try again." };
    const grantUrl = httpUrl(param(query, "grant_url"));
    if (!grantUrl) return { ok: false, message: "The gateway did not send a valid grant_url." };
    const clientMac = mac(param(query, "client_mac"));
    if (!clientMac) return { ok: false, message: "The gateway did not send a valid client_mac." };
    const apParam = param(query, "ap_mac");
    const apMac = mac(apParam);
    if (apParam && !apMac) return { ok: false, message: "The gateway sent an ap_mac that is not a MAC address." };
    return {
      ok: true,
      entry: {
        apMac,
        clientMac,
        clientIp: ip(param(query, "client_ip")),
        ssid: short(param(query, "ssid")),
        continueUrl: httpUrl(param(query, "continue_url")),
        context: { grant_url: grantUrl },
      },
    };
  },
  async grant({ network, context, token, seconds, limits }) {
    if (!network.gatewaySecret) throw new GatewayError("This network has no gateway secret.");
    const expires = Math.floor(Date.now() / 1000) + SIGNATURE_WINDOW_S;
    const limited = grantLimits(limits);
    const url = new URL(context.grant_url!);
    url.searchParams.set("token", token);
    url.searchParams.set("duration", String(seconds));
    url.searchParams.set("expires", String(expires));
    // up/down/bytes select the v2 message, so a grant_url that carried them must not keep them.
    for (const field of LIMIT_FIELDS) url.searchParams.delete(field);
    if (hasLimits(limited)) {
      url.searchParams.set("up", limited.upKbps === null ? "" : String(limited.upKbps));
      url.searchParams.set("down", limited.downKbps === null ? "" : String(limited.downKbps));
      url.searchParams.set("bytes", limited.bytes === null ? "" : String(limited.bytes));
    }
    url.searchParams.set("signature", hmac(network.gatewaySecret, grantMessage(token, seconds, expires, limited)));
    return url.href;
  },
  // The console records the revocation (gateway_revocations); the gateway polls for it.
  async revoke() {},
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/mlango/${portalKey}`,
      steps: [
        "Give the gateway the URL above and the gateway secret saved in this network's guest portal settings.",
        "The gateway signs each redirect (ap_mac, client_mac, client_ip, grant_url, continue_url, ts) and checks the signature of the grant; see the README, “Mlango gateways”.",
        "It sends accounting to /hotspot/accounting and polls /hotspot/mlango/{key}/revocations with the secret as bearer token.",
      ],
    };
  },
};
