// Mlango's own make: a small signed protocol for custom firmware and the simulator (README,
// "Mlango gateways"; decisions 0057 and 0074). Every message is hex HMAC-SHA256 under the
// network's gateway secret, over its values joined by "\n" after a version tag; no value may hold a
// newline (so values cannot shift between fields), and the gateway checks each value's form first.
// - entry: GET /hotspot/mlango/{key}?ap_mac&client_mac&client_ip&ssid&grant_url&continue_url&ts&nonce&signature,
//   signature = HMAC of "mlango-entry-v2" and those eight values in that order (absent values as
//   ""); ts in Unix seconds, accepted for 5 minutes; nonce 16–64 URL-safe characters, new for every
//   entry: Mlango takes each signed URL once, so one seen on the air cannot be replayed.
// - grant: the browser goes to grant_url?token&client_mac&duration&expires&up&down&bytes&signature,
//   signature = HMAC of "mlango-grant-v3" and those seven values (duration in seconds; expires: Unix
//   seconds, 5 minutes on; up/down kbit/s to and from the Internet and bytes the data left, each a
//   decimal integer or empty for "no limit"). The gateway lets through only the device whose MAC is
//   client_mac: a grant taken to another device opens nothing.
// - revoke: the gateway polls GET /hotspot/mlango/{key}/revocations?after={id} with the secret as
//   bearer token and cuts those clients off.
// Entries without a nonce (the first version of the protocol, which signed neither the SSID nor a
// nonce) are refused with a message asking for newer firmware; so are grants of versions 1 and 2.
import crypto from "node:crypto";
import { grantLimits, httpUrl, ip, mac, param, short } from "./params";
import { GatewayError, type GatewayAdapter, type GrantLimits } from "./types";

export const SIGNATURE_WINDOW_S = 300;
export const ENTRY_V2 = "mlango-entry-v2";
export const GRANT_V3 = "mlango-grant-v3";
const ENTRY_FIELDS = ["ap_mac", "client_mac", "client_ip", "ssid", "grant_url", "continue_url", "ts", "nonce"] as const;
const GRANT_FIELDS = ["token", "client_mac", "duration", "expires", "up", "down", "bytes"] as const;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

export const MLANGO_MESSAGES = {
  oldFirmware: "This gateway speaks an older version of Mlango's protocol: update its firmware (README, “Mlango gateways”).",
  badSignature: "The gateway's signature does not match this network.",
  expired: "The gateway's request has expired: open any web page to try again.",
} as const;

export function hmac(secret: string, message: string): string {
  return crypto.createHmac("sha256", secret).update(message).digest("hex");
}

export type EntryValues = Partial<Record<(typeof ENTRY_FIELDS)[number], string>>;

/** The signed message of an entry (what the gateway signs, what Mlango checks). */
export function entryMessage(values: EntryValues): string {
  return [ENTRY_V2, ...ENTRY_FIELDS.map((f) => values[f] ?? "")].join("\n");
}

/** The values of a grant, limits as decimal text or "" for none. */
function grantValues(token: string, clientMac: string, duration: number, expires: number, limits?: GrantLimits): string[] {
  const limited = grantLimits(limits);
  const text = (n: number | null) => (n === null ? "" : String(n));
  return [token, clientMac, String(duration), String(expires), text(limited.upKbps), text(limited.downKbps), text(limited.bytes)];
}

/** The signed message of a grant (header): whole-number limits, as grantLimits gives. */
export function grantMessage(token: string, clientMac: string, duration: number, expires: number, limits?: GrantLimits): string {
  return [GRANT_V3, ...grantValues(token, clientMac, duration, expires, limits)].join("\n");
}

/** The message a gateway checks a grant against, read from the grant's query (the gateway's side of the header's rule). */
export function grantMessageOf(query: URLSearchParams): string {
  return [GRANT_V3, ...GRANT_FIELDS.map((f) => query.get(f) ?? "")].join("\n");
}

/**
 * What a Mlango gateway does with a grant presented by the device whose MAC it sees: every value has
 * its form (so none holds a newline), the grant names that device, the signature matches under its
 * secret and the grant has not expired.
 */
export function grantIsValid(secret: string, query: URLSearchParams, deviceMac: string, now = Date.now()): boolean {
  const well = (field: string, form: RegExp) => form.test(query.get(field) ?? "");
  if (
    !well("token", /^[A-Za-z0-9_-]+$/) ||
    !well("client_mac", /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/) ||
    !well("duration", /^\d+$/) ||
    !well("expires", /^\d+$/) ||
    !["up", "down", "bytes"].every((f) => well(f, /^\d*$/))
  )
    return false;
  if (query.get("client_mac") !== mac(deviceMac)) return false;
  const signature = query.get("signature") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(signature) || !sameSignature(hmac(secret, grantMessageOf(query)), signature.toLowerCase())) return false;
  return Number(query.get("expires")) > now / 1000;
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
  identifiesDevice: true,
  parseEntry(query, _rest, network, now) {
    if (!network.gatewaySecret) return { ok: false, message: "This network has no gateway secret yet: create one in its settings." };
    if (!query.has("nonce")) return { ok: false, message: MLANGO_MESSAGES.oldFirmware };
    const values = Object.fromEntries(ENTRY_FIELDS.map((f) => [f, query.get(f) ?? ""])) as EntryValues;
    const signature = param(query, "signature") ?? "";
    if (
      Object.values(values).some((value) => /[\r\n]/.test(value!)) ||
      !/^[0-9a-f]{64}$/i.test(signature) ||
      !sameSignature(hmac(network.gatewaySecret, entryMessage(values)), signature.toLowerCase())
    ) {
      return { ok: false, message: MLANGO_MESSAGES.badSignature };
    }
    const ts = Number(values.ts);
    if (!/^\d+$/.test(values.ts!) || Math.abs(now / 1000 - ts) > SIGNATURE_WINDOW_S) return { ok: false, message: MLANGO_MESSAGES.expired };
    if (!NONCE.test(values.nonce!)) return { ok: false, message: "The gateway sent a nonce that is not 16–64 URL-safe characters." };
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
        // Used once: the signed URL stays valid for its window either side of ts.
        nonce: { value: values.nonce!, expiresAt: (ts + SIGNATURE_WINDOW_S) * 1000 },
      },
    };
  },
  async grant({ network, context, token, clientMac, seconds, limits }) {
    if (!network.gatewaySecret) throw new GatewayError("This network has no gateway secret.");
    const expires = Math.floor(Date.now() / 1000) + SIGNATURE_WINDOW_S;
    const url = new URL(context.grant_url!);
    // Every signed field is set here, whatever grant_url carried.
    const values = grantValues(token, clientMac, seconds, expires, limits);
    GRANT_FIELDS.forEach((field, i) => url.searchParams.set(field, values[i]));
    url.searchParams.set("signature", hmac(network.gatewaySecret, [GRANT_V3, ...values].join("\n")));
    return url.href;
  },
  // The console records the revocation (gateway_revocations); the gateway polls for it.
  async revoke() {},
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/mlango/${portalKey}`,
      steps: [
        "Give the gateway the URL above and the gateway secret saved in this network's guest portal settings.",
        "The gateway signs each redirect (ap_mac, client_mac, client_ip, ssid, grant_url, continue_url, ts and a new nonce) and checks the grant's signature and that it names the device; see the README, “Mlango gateways”.",
        "It sends accounting to /hotspot/accounting and polls /hotspot/mlango/{key}/revocations with the secret as bearer token.",
      ],
    };
  },
};
