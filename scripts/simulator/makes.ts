// What each gateway make does around a guest, as the simulator plays it: the redirect that hands the
// phone to Mlango (the make's entry URL and parameters), the check that Mlango's grant is what that
// gateway would act on, and how the gateway names the session in its accounting records.
// The formats mirror app/services/portal/gateways/*.server.ts and the README's gateway set-up.
import crypto from "node:crypto";
import type { FakeUnifi } from "../fakes/unifi-controller";

export const MAKES = ["meraki", "opennds", "unifi", "mlango"] as const;
export type Make = (typeof MAKES)[number];

/** A network as the simulator drives it: where its gateway sends guests, and the gateway's settings. */
export interface SimNetwork {
  /** Entry path of this make on the instance, e.g. /hotspot/meraki/{portalKey} (from the network's gateway URLs). */
  entryPath: string;
  accessPoints: { mac: string; successUrl: string | null }[];
  /** The network's own success URL (before the gateway's continue URL). */
  successUrl: string | null;
  gatewaySecret: string;
  faskey: string;
  sessionMinutes: number;
  /** The fake controller the network's UniFi settings point at (make unifi). */
  unifi?: FakeUnifi;
}

/**
 * A grant's length is the network's session, or less when a plan gives less time (the organisation's
 * free plan, say); a plan bought with M-Pesa gives its own time instead (`mostSeconds`). Anything from
 * a second up to that is right; more, none or garbage is not.
 */
const longestGrant = (check: GrantCheck) => check.mostSeconds ?? check.network.sessionMinutes * 60;

function durationProblem(seconds: string | null, check: GrantCheck): string | null {
  const most = longestGrant(check);
  return seconds !== null && /^\d+$/.test(seconds) && Number(seconds) > 0 && Number(seconds) <= most
    ? null
    : `duration is ${seconds}, expected 1 to ${most} seconds`;
}

/** The phone: its MAC and address on the Wi-Fi, its browser, and the access point it is on. */
export interface Device {
  clientMac: string;
  clientIp: string;
  userAgent: string;
  apIndex: number;
}

/** What the gateway knew when it redirected the phone, kept to check the grant. */
export type EntryState = Record<string, string>;

export interface GrantCheck {
  network: SimNetwork;
  device: Device;
  /** The connect token of this visit. */
  token: string;
  state: EntryState;
  /** Answer of the sign-up or click-through POST. */
  status: number;
  location: string | null;
  /** Index into the fake controller's command log before the POST (make unifi). */
  commandsBefore: number;
  /** The longest grant that is right, in seconds, when not the network's session: a bought plan's time. */
  mostSeconds?: number;
}

export type AccountingId = { token: string } | { client_mac: string; ap_mac: string };

export interface GatewayBehaviour {
  make: Make;
  /** The path and query the gateway redirects the phone to. */
  entry(network: SimNetwork, device: Device, now: number): { path: string; state: EntryState };
  /** null when the grant is what this gateway needs to let the guest through; else what is wrong. */
  checkGrant(check: GrantCheck): string | null;
  /** How the gateway names the session when it sends accounting. */
  accountingId(device: Device, network: SimNetwork, token: string): AccountingId;
}

const SITE = "default";
const CONTINUE_URLS = [
  "http://connectivitycheck.gstatic.com/generate_204",
  "http://captive.apple.com/hotspot-detect.html",
  "http://neverssl.com/",
  "http://www.msftconnecttest.com/redirect",
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
export const hmac = (secret: string, message: string) => crypto.createHmac("sha256", secret).update(message).digest("hex");

const apMac = (network: SimNetwork, device: Device) => network.accessPoints[device.apIndex]!.mac;

/** Where Mlango must send the guest once online: the access point's, else the network's, else the gateway's continue URL. */
function expectedSuccess(network: SimNetwork, device: Device, continueUrl: string): string {
  return network.accessPoints[device.apIndex]!.successUrl ?? network.successUrl ?? continueUrl;
}

const sameUrl = (a: string | null, b: string) => {
  try {
    return a !== null && new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

/** The redirect's URL, or a message when it is not the expected 303. */
function grantRedirect(check: GrantCheck): URL | string {
  if (check.status !== 303 || !check.location)
    return `expected a 303 grant redirect, got HTTP ${check.status}${check.location ? ` → ${check.location}` : ""}`;
  try {
    return new URL(check.location);
  } catch {
    return `the grant redirect is not a URL: ${check.location}`;
  }
}

const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params).toString()}`;

export const meraki: GatewayBehaviour = {
  make: "meraki",
  entry(network, device) {
    const node = 1 + device.apIndex;
    const state = {
      base_grant_url: `https://n${100 + node}.network-auth.com/splash/grant`,
      user_continue_url: pick(CONTINUE_URLS),
    };
    const path = withQuery(network.entryPath, {
      base_grant_url: state.base_grant_url,
      user_continue_url: state.user_continue_url,
      node_mac: apMac(network, device),
      client_ip: device.clientIp,
      client_mac: device.clientMac,
      node_id: String(881_000_000_000 + node),
      gateway_id: String(881_000_000_000 + node),
    });
    return { path, state };
  },
  checkGrant(check) {
    const url = grantRedirect(check);
    if (typeof url === "string") return url;
    if (`${url.origin}${url.pathname}` !== check.state.base_grant_url)
      return `the grant goes to ${url.origin}${url.pathname}, not base_grant_url ${check.state.base_grant_url}`;
    const success = expectedSuccess(check.network, check.device, check.state.user_continue_url!);
    if (!sameUrl(url.searchParams.get("continue_url"), success))
      return `continue_url is ${url.searchParams.get("continue_url")}, expected ${success}`;
    const long = durationProblem(url.searchParams.get("duration"), check);
    if (long) return long;
    return null;
  },
  accountingId: (device, network) => ({
    client_mac: device.clientMac,
    ap_mac: apMac(network, device),
  }),
};

export const opennds: GatewayBehaviour = {
  make: "opennds",
  // openNDS 9.10 with fas_secure_enabled 1 (docs/source/fas.rst, "Level 1"; src/http_microhttpd.c,
  // construct_querystring): `?fas=` then standard base64, not URL-escaped, of "key=value, key=value…"
  // in openNDS's order, originurl and gatewayurl URL-encoded, gatewaymac as bare hex.
  entry(network, device) {
    const gatewayAddress = `127.0.${10 + device.apIndex}.1:2050`;
    const hid = sha256(`${device.clientMac}${Date.now()}${Math.random()}`);
    const originUrl = pick(CONTINUE_URLS);
    const fields: [string, string][] = [
      ["hid", hid],
      ["clientip", device.clientIp],
      ["clientmac", device.clientMac],
      ["client_type", "cpd_can"],
      ["gatewayname", encodeURIComponent("Simulator Lab openNDS")],
      ["gatewayurl", encodeURIComponent(`http://${gatewayAddress.split(":")[0]}`)],
      ["version", "9.10.0"],
      ["gatewayaddress", gatewayAddress],
      ["gatewaymac", apMac(network, device).replace(/:/g, "")],
      ["originurl", encodeURIComponent(originUrl)],
      ["clientif", "br-lan"],
      ["themespec", "(null)"],
    ];
    const fas = Buffer.from(fields.map(([k, v]) => `${k}=${v}`).join(", ")).toString("base64");
    return {
      path: `${network.entryPath}?fas=${fas}`,
      state: { hid, gatewayaddress: gatewayAddress, originurl: originUrl },
    };
  },
  checkGrant(check) {
    const url = grantRedirect(check);
    if (typeof url === "string") return url;
    if (url.protocol !== "http:" || url.host !== check.state.gatewayaddress || url.pathname !== "/opennds_auth/")
      return `the grant goes to ${url.origin}${url.pathname}, not http://${check.state.gatewayaddress}/opennds_auth/`;
    const tok = sha256(check.state.hid! + check.network.faskey);
    if (url.searchParams.get("tok") !== tok) return `tok is ${url.searchParams.get("tok")}, not sha256(hid + faskey)`;
    const success = expectedSuccess(check.network, check.device, check.state.originurl!);
    if (!sameUrl(url.searchParams.get("redir"), success)) return `redir is ${url.searchParams.get("redir")}, expected ${success}`;
    return null;
  },
  accountingId: (device, network) => ({
    client_mac: device.clientMac,
    ap_mac: apMac(network, device),
  }),
};

export const unifi: GatewayBehaviour = {
  make: "unifi",
  entry(network, device, now) {
    const url = pick(CONTINUE_URLS);
    const path = withQuery(`${network.entryPath.replace(/\/+$/, "")}/guest/s/${SITE}/`, {
      ap: apMac(network, device),
      id: device.clientMac,
      t: String(Math.floor(now / 1000)),
      url,
      ssid: "Simulator Lab",
    });
    return { path, state: { url } };
  },
  checkGrant(check) {
    const url = grantRedirect(check);
    if (typeof url === "string") return url;
    const success = expectedSuccess(check.network, check.device, check.state.url!);
    if (!sameUrl(url.href, success)) return `the guest is sent to ${url.href}, expected ${success}`;
    const fake = check.network.unifi;
    if (!fake) return "no fake UniFi controller to check";
    const command = fake.commands.slice(check.commandsBefore).find((c) => c.cmd === "authorize-guest" && c.mac === check.device.clientMac);
    if (!command) return `the controller received no authorize-guest for ${check.device.clientMac}`;
    if (command.site !== SITE) return `authorize-guest went to site ${command.site}, not ${SITE}`;
    // Minutes are rounded up (the adapter's rule), so a grant of 90 s is 2 minutes.
    const mostMinutes = Math.ceil(longestGrant(check) / 60);
    if (!(command.minutes !== undefined && command.minutes > 0 && command.minutes <= mostMinutes))
      return `authorize-guest for ${command.minutes} minutes, expected 1 to ${mostMinutes}`;
    if (command.ap_mac !== apMac(check.network, check.device))
      return `authorize-guest names access point ${command.ap_mac}, expected ${apMac(check.network, check.device)}`;
    return null;
  },
  accountingId: (device, network) => ({
    client_mac: device.clientMac,
    ap_mac: apMac(network, device),
  }),
};

export const mlango: GatewayBehaviour = {
  make: "mlango",
  entry(network, device, now) {
    const values = {
      ap_mac: apMac(network, device),
      client_mac: device.clientMac,
      client_ip: device.clientIp,
      ssid: "Mlango Guest",
      grant_url: `http://127.0.${20 + device.apIndex}.1:2060/mlango/grant`,
      continue_url: pick(CONTINUE_URLS),
      ts: String(Math.floor(now / 1000)),
      nonce: crypto.randomBytes(12).toString("base64url"),
    };
    // The documented entry signature (README, "Mlango's own protocol"): hex HMAC-SHA256 of the tag and
    // the eight values, in this order, joined by "\n"; a new nonce for every entry.
    const message = ["mlango-entry-v2", ...Object.values(values)].join("\n");
    return {
      path: withQuery(network.entryPath, { ...values, signature: hmac(network.gatewaySecret, message) }),
      state: { grant_url: values.grant_url },
    };
  },
  checkGrant(check) {
    const url = grantRedirect(check);
    if (typeof url === "string") return url;
    if (`${url.origin}${url.pathname}` !== check.state.grant_url)
      return `the grant goes to ${url.origin}${url.pathname}, not grant_url ${check.state.grant_url}`;
    const q = url.searchParams;
    const fields = ["token", "client_mac", "duration", "expires", "up", "down", "bytes"] as const;
    const [token, clientMac, duration, expires] = fields.map((k) => q.get(k) ?? "");
    if (token !== check.token) return `the grant's token is not this connection's`;
    // The grant names the device it opens; the gateway lets no other through.
    if (clientMac !== check.device.clientMac) return `the grant names ${clientMac}, not the device ${check.device.clientMac}`;
    const long = durationProblem(duration, check);
    if (long) return long;
    if (!/^\d+$/.test(expires) || !(Number(expires) > Date.now() / 1000)) return `the grant expired at ${expires}`;
    const limits = ["up", "down", "bytes"] as const;
    if (!limits.every((k) => q.has(k) && /^\d*$/.test(q.get(k) ?? "")))
      return `the grant's limits are not whole numbers or empty: ${limits.map((k) => `${k}=${q.get(k)}`).join(" ")}`;
    // The documented grant signature: the tag and the seven values joined by "\n".
    const message = ["mlango-grant-v3", ...fields.map((k) => q.get(k) ?? "")].join("\n");
    if (q.get("signature") !== hmac(check.network.gatewaySecret, message))
      return "the grant's signature does not verify under the gateway secret";
    return null;
  },
  // Mlango's own firmware knows the token from the grant.
  accountingId: (_device, _network, token) => ({ token }),
};

export const BEHAVIOURS: Record<Make, GatewayBehaviour> = {
  meraki,
  opennds,
  unifi,
  mlango,
};

export function isMake(value: string): value is Make {
  return (MAKES as readonly string[]).includes(value);
}
