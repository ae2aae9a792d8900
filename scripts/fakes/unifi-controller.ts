/**
 * A fake UniFi Network controller for tests, the demo and the gateway simulator.
 *
 * Mimics the classic controller API that a captive portal uses: POST /api/login (session cookie),
 * POST /api/s/{site}/cmd/stamgr (authorize-guest / unauthorize-guest) and POST /api/logout.
 * authorize-guest takes the controller's optional limits as it names them: minutes, up and down
 * (kbit/s), bytes (the data allowance in MB) and ap_mac; each must be a positive integer when sent.
 * node:http only; listens on 127.0.0.1. Run it on its own with
 *   npx tsx scripts/fakes/unifi-controller.ts --port 8443
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readBody } from "./read-body";

export interface FakeUnifi {
  url: string;
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
  /** set true to make every call answer 500 (tests of a failing controller) */
  failing: boolean;
  close(): Promise<void>;
}

export interface FakeUnifiOptions {
  port?: number;
  username?: string;
  password?: string;
}

type Command = FakeUnifi["commands"][number];
type Payload = Record<string, unknown>;

const MAC = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$/i;
const STAMGR = /^\/api\/s\/([^/]+)\/cmd\/stamgr$/;

const ok = (data: unknown[] = []) => ({ meta: { rc: "ok" }, data });
const error = (msg: string) => ({ meta: { rc: "error", msg }, data: [] });

function send(res: ServerResponse, status: number, body: unknown, cookies: string[] = []): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...(cookies.length > 0 ? { "Set-Cookie": cookies } : {}),
  });
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

export async function startFakeUnifi(options: FakeUnifiOptions = {}): Promise<FakeUnifi> {
  const { port = 0, username = "admin", password = "unifi-fake-password" } = options;
  const sessions = new Set<string>();

  function login(res: ServerResponse, payload: Payload): void {
    if (payload.username !== username || payload.password !== password) {
      return send(res, 400, error("api.err.Invalid"));
    }
    const session = token();
    sessions.add(session);
    send(res, 200, ok(), [`unifises=${session}; Path=/; HttpOnly`, `csrf_token=${token()}; Path=/`]);
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
    if (fake.failing) return send(res, 500, error("api.err.ServerError"));
    const path = new URL(req.url ?? "/", "http://unifi.invalid").pathname;
    const site = STAMGR.exec(path)?.[1];
    const known = path === "/api/login" || path === "/api/logout" || site !== undefined;
    if (req.method !== "POST" || !known) return send(res, 404, error("api.err.NotFound"));

    const body = await readBody(req);
    if (body === null) return send(res, 413, error("api.err.PayloadTooLarge"));

    const session = cookie(req, "unifises");
    const loggedIn = session !== undefined && sessions.has(session);
    if (path === "/api/logout") {
      if (session !== undefined) sessions.delete(session);
      return send(res, 200, ok(), ["unifises=; Path=/; HttpOnly; Max-Age=0"]);
    }
    if (site !== undefined && !loggedIn) return send(res, 401, error("api.err.LoginRequired"));

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

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, error("api.err.ServerError"));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });

  const fake: FakeUnifi = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    commands: [],
    authorized: new Set(),
    failing: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", default: "8443" } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Bad --port: ${values.port}`);
  const fake = await startFakeUnifi({ port });
  console.log(`Fake UniFi controller at ${fake.url} (admin / unifi-fake-password)`);
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
