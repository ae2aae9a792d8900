// Mlango's own make: a small signed protocol for custom firmware and the simulator (README,
// "Mlango gateways"). Every message is signed with HMAC-SHA256 under the network's gateway secret:
// - entry: GET /hotspot/mlango/{key}?ap_mac&client_mac&client_ip&grant_url&continue_url&ts&signature,
//   signature = hex HMAC of the six values in that order joined by "\n" (absent values as ""), ts
//   in Unix seconds, accepted for 5 minutes;
// - grant: the browser goes to grant_url?token&duration&expires&signature, signature = hex HMAC of
//   "{token}\n{duration}\n{expires}" (expires: Unix seconds, 5 minutes on);
// - revoke: the gateway polls GET /hotspot/mlango/{key}/revocations?after={id} with the secret as
//   bearer token and cuts those clients off.
import crypto from "node:crypto";
import { httpUrl, ip, mac, param, short } from "./params";
import { GatewayError, type GatewayAdapter } from "./types";

export const SIGNATURE_WINDOW_S = 300;
const ENTRY_FIELDS = ["ap_mac", "client_mac", "client_ip", "grant_url", "continue_url", "ts"] as const;

export function hmac(secret: string, message: string): string {
  return crypto.createHmac("sha256", secret).update(message).digest("hex");
}

export function entryMessage(values: Partial<Record<(typeof ENTRY_FIELDS)[number], string>>): string {
  return ENTRY_FIELDS.map((f) => values[f] ?? "").join("\n");
}

export function grantMessage(token: string, duration: number, expires: number): string {
  return `${token}\n${duration}\n${expires}`;
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
    if (!Number.isInteger(ts) || Math.abs(now / 1000 - ts) > SIGNATURE_WINDOW_S) return { ok: false, message: "The gateway's request has expired: open any web page to try again." };
    const grantUrl = httpUrl(param(query, "grant_url"));
    if (!grantUrl) return { ok: false, message: "The gateway did not send a valid grant_url." };
    const clientMac = mac(param(query, "client_mac"));
    if (!clientMac) return { ok: false, message: "The gateway did not send a valid client_mac." };
    const apParam = param(query, "ap_mac");
    const apMac = mac(apParam);
    if (apParam && !apMac) return { ok: false, message: "The gateway sent an ap_mac that is not a MAC address." };
    return {
      ok: true,
      entry: { apMac, clientMac, clientIp: ip(param(query, "client_ip")), ssid: short(param(query, "ssid")), continueUrl: httpUrl(param(query, "continue_url")), context: { grant_url: grantUrl } },
    };
  },
  async grant({ network, context, token, seconds }) {
    if (!network.gatewaySecret) throw new GatewayError("This network has no gateway secret.");
    const expires = Math.floor(Date.now() / 1000) + SIGNATURE_WINDOW_S;
    const url = new URL(context.grant_url!);
    url.searchParams.set("token", token);
    url.searchParams.set("duration", String(seconds));
    url.searchParams.set("expires", String(expires));
    url.searchParams.set("signature", hmac(network.gatewaySecret, grantMessage(token, seconds, expires)));
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
