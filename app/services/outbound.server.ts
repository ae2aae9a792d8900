// Calls from the server to addresses an operator typed (a UniFi controller, Ajira Digital's OAuth
// endpoints, and through the same function every social provider's token and user-info calls). An
// operator's setting must not turn the server into a proxy into its own network: loopback,
// private, link-local (cloud metadata at 169.254.169.254), CGNAT, unique-local, multicast and
// reserved addresses are refused, whatever spelling the URL uses (the WHATWG parser turns
// "0177.0.0.1", "2130706433" and "0x7f.1" into 127.0.0.1; IPv4-mapped and NAT64 IPv6 addresses are
// judged by the IPv4 address they carry).
//
// Twice: when the setting is saved (`outboundUrlProblem`, a readable form error) and on every call
// (`outboundFetch`), because a name's DNS answer can change after it was saved. The call resolves the
// name itself, checks every address and connects to the one it checked (node:http's `lookup`
// hook), so a second DNS answer cannot slip in between the check and the connection. It never
// follows a redirect: a 3xx is handed back as it is (a 307 would repeat the POST, secrets included).
//
// A deployment whose controllers sit on its own network lists them in OUTBOUND_ALLOW: host names
// (matched exactly; any address they resolve to is accepted) and addresses or CIDR ranges.
//
// https is verified as usual (a CA-signed certificate for the host). A controller that can only
// show its own self-signed certificate (a UniFi controller's default) is trusted by the SHA-256
// fingerprint the operator pinned after being shown it (`pinnedCertificate`), never by turning
// verification off; a certificate that is neither answers UntrustedCertificateError, carrying its
// fingerprint for that question. The request is only written once the certificate was accepted.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";
import tls from "node:tls";
import { getEnv } from "~/env.server";
import { parseAllowList } from "~/lib/outbound-allow.mjs";

export const OUTBOUND_MESSAGES = {
  notHttp: "Enter a full address starting with http:// or https://.",
  internal: (host: string) =>
    `${host} is a loopback, private, link-local or other internal address, which Mlango does not call. ` +
    "To use a server on your own network, the server's administrator must list it in OUTBOUND_ALLOW.",
} as const;

/** A call refused before any connection was made. */
export class OutboundRefusedError extends Error {
  override name = "OutboundRefusedError";
}

/** The server's certificate is neither valid for the host nor the pinned one; nothing was sent. */
export class UntrustedCertificateError extends Error {
  override name = "UntrustedCertificateError";
  constructor(
    /** SHA-256 of the certificate the server presented: lower-case hex, no separators. */
    readonly fingerprint: string,
    readonly reason: string,
  ) {
    super(`The server presented a certificate that is not trusted (${reason}).`);
  }
}

/** A SHA-256 fingerprint as typed or shown (AA:BB:…, aabb…), in the stored form, or null when it is not one. */
export function normaliseFingerprint(value: string): string | null {
  const hex = value.trim().replace(/[:\s]/g, "").toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** The stored form as certificates are usually shown: AA:BB:CC:… */
export function formatFingerprint(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(":");
}

// Ranges no operator setting may reach (IANA special-purpose registries, the parts that are not
// globally reachable or that reach this host).
const REFUSED_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 reaches the host itself
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
const REFUSED_V6: [string, number][] = [
  ["::", 96], // unspecified, loopback and the old IPv4-compatible addresses
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];
/** IPv6 prefixes that carry an IPv4 address in their last 32 bits: judged by that address. */
const CARRIES_V4: [string, number][] = [
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
];

function blockList(v4: [string, number][], v6: [string, number][]): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix] of v4) list.addSubnet(address, prefix, "ipv4");
  for (const [address, prefix] of v6) list.addSubnet(address, prefix, "ipv6");
  return list;
}

const REFUSED = blockList(REFUSED_V4, REFUSED_V6);
const CARRIERS = blockList([], CARRIES_V4);

/** The 16 bytes of an IPv6 address (net.isIPv6 must hold). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** True when an IP address is one an operator's setting may not reach. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return REFUSED.check(address, "ipv4");
  if (family !== 6) return true; // not an address: nothing to connect to
  const bare = address.replace(/%.*$/, ""); // a zone index names a local interface
  if (bare !== address) return true;
  if (CARRIERS.check(bare, "ipv6")) return isInternalAddress(ipv6Bytes(bare).slice(12).join("."));
  if (REFUSED.check(bare, "ipv6")) return true;
  const bytes = ipv6Bytes(bare);
  // 6to4 (2002::/16) carries an IPv4 address in bits 16–48.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return isInternalAddress(bytes.slice(2, 6).join("."));
  return false;
}

// ---- The deployment's allow-list (OUTBOUND_ALLOW, read by ~/lib/outbound-allow) ----

interface AllowList {
  hosts: Set<string>;
  addresses: net.BlockList;
}

let cached: { value: string | undefined; list: AllowList } | undefined;
function allowList(): AllowList {
  const value = getEnv().OUTBOUND_ALLOW;
  if (cached === undefined || cached.value !== value) {
    const list: AllowList = { hosts: new Set(), addresses: new net.BlockList() };
    const parsed = parseAllowList(value);
    // The environment is validated at start (app/config.server.mjs), so a bad entry here allows nothing.
    for (const entry of parsed.ok ? parsed.entries : []) {
      if (entry.kind === "host") list.hosts.add(entry.name);
      else list.addresses.addSubnet(entry.address, entry.prefix, entry.family);
    }
    cached = { value, list };
  }
  return cached.list;
}

function allowedAddress(address: string, allow: AllowList): boolean {
  const family = net.isIP(address);
  return family !== 0 && allow.addresses.check(address, family === 4 ? "ipv4" : "ipv6");
}

function refusedAddress(address: string, allow: AllowList): boolean {
  return isInternalAddress(address) && !allowedAddress(address, allow);
}

/** The URL's host as DNS and net see it: brackets off an IPv6 literal, no trailing dot, lower case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

function parseHttpUrl(value: string | URL): URL | null {
  const url = typeof value === "string" ? (URL.canParse(value) ? new URL(value) : null) : value;
  return url && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : null;
}

const SAVE_LOOKUP_MS = 3_000;

/**
 * Why the server may not call this address, as a form message, or null. A name that does not
 * resolve now is accepted (the call checks again); one that resolves to any refused address is not.
 */
export async function outboundUrlProblem(value: string): Promise<string | null> {
  const url = parseHttpUrl(value);
  if (!url) return OUTBOUND_MESSAGES.notHttp;
  const allow = allowList();
  const host = hostOf(url);
  if (allow.hosts.has(host)) return null;
  if (net.isIP(host)) return refusedAddress(host, allow) ? OUTBOUND_MESSAGES.internal(url.hostname) : null;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => setTimeout(() => resolve([]), SAVE_LOOKUP_MS).unref()),
  ]);
  return addresses.some((a) => refusedAddress(a.address, allow)) ? OUTBOUND_MESSAGES.internal(url.hostname) : null;
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  signal?: AbortSignal;
  /** https: trust the server's certificate only if its SHA-256 is this (see normaliseFingerprint), instead of a CA's signature. */
  pinnedCertificate?: string | null;
}

/**
 * The TLS connection of an https call, handed to the request only once its certificate is accepted:
 * valid for the host, or exactly the pinned one. Until then no byte of the request is written.
 */
function verifiedTlsConnection(url: URL, lookup: net.LookupFunction, pinned: string | null, signal: AbortSignal | undefined) {
  const host = hostOf(url);
  return (_options: unknown, done: (error: Error | null, socket?: net.Socket) => void) => {
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      servername: net.isIP(host) ? undefined : host,
      lookup,
      // Checked below, before the request is handed the socket: a pinned certificate is accepted by
      // its fingerprint alone, any other must be valid for the host (socket.authorized).
      rejectUnauthorized: false,
    });
    const abort = () => socket.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal?.addEventListener("abort", abort, { once: true });
    socket.once("error", (error) => done(error));
    socket.once("secureConnect", () => {
      signal?.removeEventListener("abort", abort);
      const fingerprint = socket.getPeerCertificate().fingerprint256?.replace(/:/g, "").toLowerCase() ?? "";
      const reason = pinned
        ? fingerprint === pinned
          ? null
          : "it is not the certificate whose fingerprint was pinned"
        : socket.authorized
          ? null
          : String(socket.authorizationError ?? "not verified");
      if (reason === null) return done(null, socket);
      socket.destroy();
      done(new UntrustedCertificateError(fingerprint, reason));
    });
  };
}

/**
 * fetch for operator-aimed addresses: refuses internal addresses before connecting (see the top of
 * this file) and never follows redirects. Answers a standard Response.
 */
export function outboundFetch(target: string | URL, init: OutboundInit = {}): Promise<Response> {
  const url = parseHttpUrl(target);
  if (!url) return Promise.reject(new OutboundRefusedError(OUTBOUND_MESSAGES.notHttp));
  const allow = allowList();
  const host = hostOf(url);
  const hostAllowed = allow.hosts.has(host);
  const refusal = () => new OutboundRefusedError(OUTBOUND_MESSAGES.internal(url.hostname));
  // Node connects to an address literal without calling `lookup`, so literals are judged here.
  if (net.isIP(host) && !hostAllowed && refusedAddress(host, allow)) return Promise.reject(refusal());
  let refused = false;
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      if (!hostAllowed && addresses.some((a) => refusedAddress(a.address, allow))) {
        refused = true;
        return callback(refusal(), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
  const body = init.body === undefined ? undefined : String(init.body);
  const headers: Record<string, string> = {
    ...init.headers,
    ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
  };
  if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["Content-Type"] = "application/x-www-form-urlencoded;charset=UTF-8";
  }
  const connection: http.RequestOptions =
    url.protocol === "https:"
      ? // No agent: every call connects through verifiedTlsConnection (and its lookup) itself.
        { createConnection: verifiedTlsConnection(url, lookup, init.pinnedCertificate ?? null, init.signal) as never }
      : // agent: false — a pooled socket would skip the lookup (and its check) for the next call.
        { lookup, agent: false };
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers, signal: init.signal, ...connection }, (res) => {
      const answer = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      const status = res.statusCode ?? 502;
      const noBody = status === 204 || status === 205 || status === 304 || init.method === "HEAD";
      if (noBody) res.resume();
      resolve(
        new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage,
          headers: answer,
        }),
      );
    });
    req.on("error", (error) => reject(refused ? refusal() : error));
    req.end(body);
  });
}
