/**
 * A fake UniFi Network controller for tests, the demo and the gateway simulator.
 *
 * It follows the community's reference for the controller API, the ubntwiki page "UniFi Controller
 * API" (ubntwiki.com/products/software/unifi-controller/api), not Mlango's code:
 * - Every network API answer is the envelope {"meta": {"rc": "ok" | "error", "msg"?}, "data": […]};
 *   "rc" says whether the call worked, whatever the HTTP status (`refuse` makes stamgr answer
 *   200 with rc "error", as a controller does for a command it cannot carry out).
 * - Two kinds ("UDM Pro API" section): a classic controller (the Network application on its own,
 *   port 8443) logs in at POST /api/login and serves /api/s/{site}/…; a UniFi OS console (UDM,
 *   Cloud Key Gen2+, UniFi OS Server) logs in at POST /api/auth/login, answers with the TOKEN cookie
 *   and an X-CSRF-Token header that every write must send back, and prefixes the network API with
 *   /proxy/network. As the community's clients detect them (Art-of-WiFi UniFi-API-client,
 *   check_unifi_os), GET / answers 200 on UniFi OS and redirects (302 to /manage) on a classic one.
 * - The hotspot commands (ubntwiki, "Callable Commands" → stamgr): authorize-guest with mac and the
 *   optional limits minutes, up and down (kbit/s), bytes (the data allowance in MB) and ap_mac, each
 *   a positive integer when sent; unauthorize-guest with mac. GET …/api/self answers the signed-in
 *   admin.
 * - Where the controller sends a guest (Ubiquiti, "UniFi Controller User Guide", chapter 3 "Using the
 *   UniFi Controller Software", Settings → Guest Control → "Authentication > External Portal Server":
 *   the Custom Portal is an IP address or host name, with "Portal URL Hostname" for a name): the
 *   access point's redirector sends the pending guest to http://{that host}/guest/s/{site}/ with the
 *   guest's MAC as id, the access point's MAC as ap, the time as t, the page asked for as url and the
 *   SSID as ssid (`portalRedirect`; the guide names the host only, the path and query are the
 *   controller's own portal's, as the community's reference and Ubiquiti's portal-customization
 *   variables mac, ap_mac and ssid show). No port, no path of the operator's own: only the host.
 * - `https: true` serves TLS with a self-signed certificate made for the run, as controllers do out
 *   of the box; its SHA-256 is `fingerprint`.
 * node:http(s) only; listens on 127.0.0.1. Run it on its own with
 *   npx tsx scripts/fakes/unifi-controller.ts --port 8443 [--unifi-os] [--https]
 */
import { execFileSync } from "node:child_process";
import { randomBytes, X509Certificate } from "node:crypto";
import fs from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readBody } from "./read-body";

export type UnifiKind = "classic" | "unifi-os";

export interface FakeUnifi {
  url: string;
  kind: UnifiKind;
  /** https: SHA-256 of the self-signed certificate, lower-case hex without separators; null over http. */
  fingerprint: string | null;
  /** every valid stamgr command received, in order */
  commands: Array<{
    site: string;
    cmd: string;
    mac: string;
    minutes?: number;
    up?: number;
    down?: number;
    bytes?: number;
    ap_mac?: string;
  }>;
  /** MACs currently authorized per site, "site|mac" keys (MACs lower case, colon separated) */
  authorized: Set<string>;
  /** every request's method and path, in order (what a test asserts the client called) */
  requests: string[];
  /** set true to make every call answer 500 (tests of a failing controller) */
  failing: boolean;
  /** set to an api.err.* message: stamgr answers HTTP 200 with meta.rc "error" and that msg */
  refuse: string | null;
  close(): Promise<void>;
}

/**
 * The address an access point's redirector sends a pending guest to, for a portal on `portalHost`
 * (see the header: the External Portal Server is a host, the path and query are the controller's).
 */
export function portalRedirect(
  portalOrigin: string,
  guest: { site?: string; clientMac: string; apMac: string; url?: string; ssid?: string; t?: number },
): string {
  const query = new URLSearchParams({
    id: guest.clientMac,
    ap: guest.apMac,
    t: String(guest.t ?? Math.floor(Date.now() / 1000)),
    url: guest.url ?? "http://example.com/",
    ssid: guest.ssid ?? "Guest",
  });
  return `${portalOrigin.replace(/\/+$/, "")}/guest/s/${guest.site ?? "default"}/?${query.toString()}`;
}

export interface FakeUnifiOptions {
  port?: number;
  username?: string;
  password?: string;
  kind?: UnifiKind;
  https?: boolean;
}

type Command = FakeUnifi["commands"][number];
type Payload = Record<string, unknown>;

const MAC = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$/i;
const STAMGR = /^\/api\/s\/([^/]+)\/cmd\/stamgr$/;
const SELF = /^\/api\/(?:s\/[^/]+\/)?self$/;

const ok = (data: unknown[] = []) => ({ meta: { rc: "ok" }, data });
const error = (msg: string) => ({ meta: { rc: "error", msg }, data: [] });

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function parseJson(body: Buffer): Payload | null {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Payload) : null;
  } catch {
    return null;
  }
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const normaliseMac = (mac: string) => mac.toLowerCase().replaceAll("-", ":");
const isMac = (value: unknown): value is string => typeof value === "string" && MAC.test(value);
const token = () => randomBytes(16).toString("hex");

/** A self-signed certificate for 127.0.0.1 (as a controller makes for itself), with openssl. */
function selfSignedCertificate(): { key: string; cert: string; fingerprint: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-unifi-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=UniFi"].concat([
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ]),
      { stdio: "ignore" },
    );
    const pem = fs.readFileSync(cert, "utf8");
    const fingerprint = new X509Certificate(pem).fingerprint256.replace(/:/g, "").toLowerCase();
    return { key: fs.readFileSync(key, "utf8"), cert: pem, fingerprint };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFakeUnifi(options: FakeUnifiOptions = {}): Promise<FakeUnifi> {
  const { port = 0, username = "admin", password = "unifi-fake-password", kind = "classic" } = options;
  const unifiOs = kind === "unifi-os";
  /** session cookie → its CSRF token (UniFi OS checks it on writes) */
  const sessions = new Map<string, string>();
  const sessionCookie = unifiOs ? "TOKEN" : "unifises";
  const prefix = unifiOs ? "/proxy/network" : "";

  function login(res: ServerResponse, payload: Payload): void {
    if (payload.username !== username || payload.password !== password) {
      // UniFi OS answers its own error shape (not the network API's envelope); classic the envelope.
      return unifiOs
        ? send(res, 401, { code: "AUTHENTICATION_FAILED_INVALID_CREDENTIALS", message: "Invalid username or password" })
        : send(res, 400, error("api.err.Invalid"));
    }
    const session = token();
    const csrf = token();
    sessions.set(session, csrf);
    if (unifiOs) {
      send(
        res,
        200,
        { unique_id: "fake-admin", username, isOwner: false },
        {
          "Set-Cookie": [`TOKEN=${session}; path=/; samesite=none; secure; httponly`],
          "X-CSRF-Token": csrf,
        },
      );
    } else {
      send(res, 200, ok(), { "Set-Cookie": [`unifises=${session}; Path=/; HttpOnly`, `csrf_token=${csrf}; Path=/`] });
    }
  }

  function stamgr(res: ServerResponse, site: string, payload: Payload): void {
    const { cmd, mac, ap_mac } = payload;
    if (cmd !== "authorize-guest" && cmd !== "unauthorize-guest") {
      return send(res, 400, error("api.err.UnknownCommand"));
    }
    const counts = (["minutes", "up", "down", "bytes"] as const).filter((name) => payload[name] !== undefined);
    const validCounts = counts.every((name) => Number.isInteger(payload[name]) && (payload[name] as number) > 0);
    if (!isMac(mac) || !validCounts || (ap_mac !== undefined && !isMac(ap_mac))) {
      return send(res, 400, error("api.err.InvalidPayload"));
    }
    if (fake.refuse) return send(res, 200, error(fake.refuse));
    const command: Command = { site, cmd, mac: normaliseMac(mac) };
    if (cmd === "authorize-guest") {
      for (const name of counts) command[name] = payload[name] as number;
      if (ap_mac !== undefined) command.ap_mac = normaliseMac(ap_mac);
      fake.authorized.add(`${site}|${command.mac}`);
    } else {
      fake.authorized.delete(`${site}|${command.mac}`);
    }
    fake.commands.push(command);
    send(res, 200, ok(cmd === "authorize-guest" ? [{ mac: command.mac }] : []));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://unifi.invalid").pathname;
    fake.requests.push(`${req.method} ${path}`);
    if (fake.failing) return send(res, 500, error("api.err.ServerError"));
    if (req.method === "GET" && path === "/") {
      // UniFi OS serves its web application; a classic controller sends the browser to /manage.
      if (unifiOs) return void res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>UniFi OS</title>");
      return void res.writeHead(302, { Location: "/manage" }).end();
    }
    const loginPath = unifiOs ? "/api/auth/login" : "/api/login";
    const logoutPath = unifiOs ? "/api/auth/logout" : "/api/logout";
    const network = path.startsWith(prefix) ? path.slice(prefix.length) : null;
    const site = network === null ? undefined : STAMGR.exec(network)?.[1];
    const self = network !== null && SELF.test(network);

    const session = cookie(req, sessionCookie);
    const csrf = session === undefined ? undefined : sessions.get(session);
    const loggedIn = csrf !== undefined;
    if (req.method === "GET" && self)
      return loggedIn ? send(res, 200, ok([{ name: username }])) : send(res, 401, error("api.err.LoginRequired"));

    const known = path === loginPath || path === logoutPath || site !== undefined;
    if (req.method !== "POST" || !known) return send(res, 404, error("api.err.NotFound"));

    const body = await readBody(req);
    if (body === null) return send(res, 413, error("api.err.PayloadTooLarge"));

    // UniFi OS refuses a write without the session's CSRF token.
    const csrfOk = !unifiOs || req.headers["x-csrf-token"] === csrf;
    if (path === logoutPath) {
      if (session !== undefined && csrfOk) sessions.delete(session);
      return send(res, 200, ok(), { "Set-Cookie": [`${sessionCookie}=; Path=/; HttpOnly; Max-Age=0`] });
    }
    if (site !== undefined && !loggedIn) return send(res, 401, error("api.err.LoginRequired"));
    if (site !== undefined && !csrfOk) return send(res, 403, error("api.err.InvalidCSRFToken"));

    const payload = parseJson(body);
    if (payload === null) return send(res, 400, error("api.err.InvalidPayload"));
    if (site === undefined) return login(res, payload);
    let siteName: string;
    try {
      siteName = decodeURIComponent(site);
    } catch {
      return send(res, 404, error("api.err.NotFound"));
    }
    stamgr(res, siteName, payload);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, error("api.err.ServerError"));
      else res.destroy();
    });
  };
  const certificate = options.https ? selfSignedCertificate() : null;
  const server = certificate ? createHttpsServer({ key: certificate.key, cert: certificate.cert }, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });

  const fake: FakeUnifi = {
    url: `${certificate ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    kind,
    fingerprint: certificate?.fingerprint ?? null,
    commands: [],
    authorized: new Set(),
    requests: [],
    failing: false,
    refuse: null,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string", default: "8443" }, "unifi-os": { type: "boolean" }, https: { type: "boolean" } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Bad --port: ${values.port}`);
  const fake = await startFakeUnifi({ port, kind: values["unifi-os"] ? "unifi-os" : "classic", https: values.https });
  console.log(
    `Fake UniFi ${fake.kind} controller at ${fake.url} (admin / unifi-fake-password)${fake.fingerprint ? `, certificate SHA-256 ${fake.fingerprint}` : ""}`,
  );
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
