/**
 * A fake MikroTik hotspot router for tests, the demo, the simulator and benchmarks: the router's
 * side of a RADIUS login, played against the real FreeRADIUS in front of Mlango. It follows the
 * RouterOS manual, not Mlango's code:
 *
 * - RADIUS client (RouterOS manual, "RADIUS" → "Supported RADIUS Attributes" → Access-Request and
 *   Accounting-Request): Calling-Station-Id is the client's MAC address in capital letters with
 *   colons (AA:BB:CC:DD:EE:FF), Framed-IP-Address the client's address, Acct-Session-Id a unique
 *   session id, NAS-Identifier the router's identity, Called-Station-Id the hotspot server's name.
 * - POST /login (its hotspot login address, `link-login-only`): takes username and password (PAP, or
 *   the CHAP response when it issued a challenge) and dst, sends an Access-Request from its own
 *   address, and on Access-Accept keeps the session, sends Accounting-Start and redirects to dst.
 *   On Access-Reject it answers as the manual's "Hotspot customisation" → "Serving Servlet Pages"
 *   says: flogin.html when the hotspot folder has one, otherwise login.html, with $(error) set to
 *   the reason (the Access-Reject's Reply-Message). Pages are filled in as RouterOS does
 *   ("Variables"): $(name), and $(if name) … $(else) … $(endif).
 * - UDP {coaPort} (`/radius incoming`, RFC 5176): Disconnect-Request and CoA-Request. A session is
 *   found by the identifying attributes the request carries (User-Name, Acct-Session-Id,
 *   Framed-IP-Address, Calling-Station-Id, compared as the router writes them); every one present
 *   must match. ACK for a session it holds (a Disconnect ends it), NAK with Error-Cause 503
 *   (Session-Context-Not-Found) otherwise; every message is kept.
 * - login(), account(): the same packets, for tests that drive the router directly.
 * Packets are encoded with the `radius` package, like Mlango's own CoA.
 */
import crypto from "node:crypto";
import dgram from "node:dgram";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import radius from "radius";
import { readBody } from "./read-body";

radius.add_dictionary(path.resolve(import.meta.dirname, "../../radius/dictionary.mlango"));

export interface FakeMikrotikOptions {
  /** The router's own address: FreeRADIUS knows the NAS by it (127.x.y.z: any loopback address works on Linux). */
  address: string;
  secret: string;
  radiusHost?: string;
  authPort: number;
  acctPort: number;
  /** 0: any free port */
  httpPort?: number;
  coaPort?: number;
}

export interface RadiusAnswer {
  code: string;
  attributes: Record<string, unknown>;
}

export interface FakeSession {
  username: string;
  mac: string;
  /** The guest's address (Framed-IP-Address). */
  ip: string;
  reply: Record<string, unknown>;
  /** Acct-Session-Id */
  sessionId: string;
  started: number;
}

/** What identifies a session in accounting: a login's session, or one a test makes up. */
export interface AccountedSession {
  username: string;
  mac: string;
  sessionId: string;
  ip?: string;
}

export interface FakeMikrotik {
  /** http://{address}:{port}/login — the router's link-login-only */
  loginUrl: string;
  coaPort: number;
  /** The MAC and address of the phone whose browser posts /login next (a real router knows them from its host table). */
  hostMac: string;
  hostIp: string;
  /** The CHAP id and challenge it shows in login.html ($(chap-id), $(chap-challenge)), as MikroTik writes them. */
  chap: { id: Buffer; challenge: Buffer; idText: string; challengeText: string };
  /** Whether /login answers with CHAP (as the router does when the hotspot profile allows http-chap). */
  useChap: boolean;
  sessions: Map<string, FakeSession>;
  messages: { code: string; attributes: Record<string, unknown>; answer: string }[];
  logins: { username: string; code: string; replyMessage: string | null }[];
  /** Set to stop answering Disconnect/CoA (a router that is down). */
  silent: boolean;
  /**
   * The hotspot's login.html (Mlango's download), served at GET /login.html with the router's
   * variables filled in, as RouterOS does: the page a phone sees first.
   */
  loginHtml: string | null;
  /** The hotspot folder's flogin.html, shown instead of login.html after a failed login when set. */
  floginHtml: string | null;
  /** The router's identity ($(identity)); an access point's MAC makes the guest's visits land on it. */
  identity: string;
  login(
    username: string,
    password: string,
    mac: string,
    options?: { chap?: boolean; setSecret?: string; ip?: string; withoutCallingStationId?: boolean },
  ): Promise<RadiusAnswer | null>;
  account(
    status: "Start" | "Interim-Update" | "Stop",
    session: AccountedSession,
    usage?: { input?: number; output?: number; time?: number; cause?: string },
  ): Promise<RadiusAnswer | null>;
  close(): Promise<void>;
}

const octal = (bytes: Buffer) => [...bytes].map((b) => "\\" + b.toString(8).padStart(3, "0")).join("");
/** RouterOS's Calling-Station-Id: the MAC in capital letters, colon separated. */
export const routerOsMac = (mac: string) => mac.toUpperCase().replace(/-/g, ":");

/** RouterOS's servlet page variables: $(if name) … $(else) … $(endif) (no nesting needed here), then $(name). */
export function fillServletPage(page: string, variables: Record<string, string>): string {
  const conditionals = page.replace(
    /\$\(if ([a-z-]+)\)([\s\S]*?)(?:\$\(else\)([\s\S]*?))?\$\(endif\)/g,
    (_whole, name: string, then: string, otherwise?: string) => (variables[name] ? then : (otherwise ?? "")),
  );
  return conditionals.replace(/\$\(([a-z-]+)\)/g, (whole, name: string) => variables[name] ?? whole);
}

export async function startFakeMikrotik(options: FakeMikrotikOptions): Promise<FakeMikrotik> {
  const radiusHost = options.radiusHost ?? "127.0.0.1";
  const client = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => client.bind(0, options.address, resolve));
  const coa = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => coa.bind(options.coaPort ?? 0, options.address, resolve));
  const waiting = new Map<number, (packet: Buffer) => void>();
  client.on("message", (packet) => waiting.get(packet[1]!)?.(packet));
  let nextId = 0;

  async function send(code: string, port: number, attributes: unknown[], secret = options.secret): Promise<RadiusAnswer | null> {
    const identifier = nextId++ % 256;
    const packet = radius.encode({ code, secret, identifier, attributes });
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await new Promise<Buffer | null>((resolve) => {
        const timer = setTimeout(() => (waiting.delete(identifier), resolve(null)), 500);
        waiting.set(identifier, (p) => {
          clearTimeout(timer);
          waiting.delete(identifier);
          resolve(p);
        });
        client.send(packet, port, radiusHost);
      });
      if (!answer) continue;
      if (!radius.verify_response({ response: answer, request: packet, secret })) return { code: "bad-authenticator", attributes: {} };
      const decoded = radius.decode({ packet: answer, secret });
      return { code: decoded.code, attributes: decoded.attributes };
    }
    return null;
  }

  const chapId = crypto.randomBytes(1);
  const challenge = crypto.randomBytes(16);
  const fake: FakeMikrotik = {
    loginUrl: "",
    coaPort: 0,
    hostMac: "02:00:00:00:00:01",
    hostIp: "10.5.50.23",
    chap: { id: chapId, challenge, idText: octal(chapId), challengeText: octal(challenge) },
    useChap: false,
    sessions: new Map(),
    messages: [],
    logins: [],
    silent: false,
    loginHtml: null,
    floginHtml: null,
    identity: "fake-mikrotik",
    async login(username, password, mac, { chap = false, setSecret, ip = fake.hostIp, withoutCallingStationId = false } = {}) {
      const sessionId = crypto.randomBytes(4).toString("hex");
      const attributes: unknown[] = [
        ["User-Name", username],
        ["NAS-Identifier", fake.identity],
        ["NAS-IP-Address", options.address],
        ["Called-Station-Id", "hotspot1"],
        ["Service-Type", "Login-User"],
        ["Acct-Session-Id", sessionId],
        ["Framed-IP-Address", ip],
      ];
      if (!withoutCallingStationId) attributes.push(["Calling-Station-Id", routerOsMac(mac)]);
      if (chap) {
        // What the router sends for an http-chap login: CHAP-Password = id + the page's md5 response.
        attributes.push(["CHAP-Password", Buffer.concat([chapId, Buffer.from(password, "hex")])], ["CHAP-Challenge", challenge]);
      } else {
        attributes.push(["User-Password", password]);
      }
      const answer = await send("Access-Request", options.authPort, attributes, setSecret);
      const replyMessage = answer?.attributes["Reply-Message"] ? String(answer.attributes["Reply-Message"]) : null;
      fake.logins.push({ username, code: answer?.code ?? "timeout", replyMessage });
      if (answer?.code === "Access-Accept") {
        fake.sessions.set(username, { username, mac, ip, reply: answer.attributes, sessionId, started: Date.now() });
      }
      return answer;
    },
    account(status, session, usage = {}) {
      const input = usage.input ?? 0;
      const output = usage.output ?? 0;
      const attributes: unknown[] = [
        ["Acct-Status-Type", status],
        ["User-Name", session.username],
        ["Acct-Session-Id", session.sessionId],
        ["NAS-IP-Address", options.address],
        ["NAS-Identifier", fake.identity],
        ["Calling-Station-Id", routerOsMac(session.mac)],
        ["Called-Station-Id", "hotspot1"],
        ["Framed-IP-Address", session.ip ?? fake.sessions.get(session.username)?.ip ?? fake.hostIp],
        ["Acct-Input-Octets", input % 2 ** 32],
        ["Acct-Input-Gigawords", Math.floor(input / 2 ** 32)],
        ["Acct-Output-Octets", output % 2 ** 32],
        ["Acct-Output-Gigawords", Math.floor(output / 2 ** 32)],
        ["Acct-Session-Time", usage.time ?? 0],
      ];
      if (usage.cause) attributes.push(["Acct-Terminate-Cause", usage.cause]);
      return send("Accounting-Request", options.acctPort, attributes);
    },
    async close() {
      client.close();
      coa.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };

  /** The session every identifying attribute of a Disconnect/CoA names (at least one must be sent). */
  function heldSession(attributes: Record<string, unknown>): FakeSession | null {
    const given = (name: string) => (attributes[name] === undefined ? null : String(attributes[name]));
    const identifying: [string | null, (s: FakeSession) => string][] = [
      [given("User-Name"), (s) => s.username],
      [given("Acct-Session-Id"), (s) => s.sessionId],
      [given("Framed-IP-Address"), (s) => s.ip],
      [given("Calling-Station-Id"), (s) => routerOsMac(s.mac)],
    ];
    if (identifying.every(([value]) => value === null)) return null;
    for (const session of fake.sessions.values()) {
      if (identifying.every(([value, of]) => value === null || value === of(session))) return session;
    }
    return null;
  }

  coa.on("message", (packet, from) => {
    if (fake.silent) return;
    let decoded;
    try {
      decoded = radius.decode({ packet, secret: options.secret });
    } catch {
      return;
    }
    const held = heldSession(decoded.attributes);
    const ack = decoded.code === "Disconnect-Request" ? "Disconnect-ACK" : "CoA-ACK";
    const nak = decoded.code === "Disconnect-Request" ? "Disconnect-NAK" : "CoA-NAK";
    const answer = held ? ack : nak;
    if (held && decoded.code === "Disconnect-Request") fake.sessions.delete(held.username);
    fake.messages.push({ code: decoded.code, attributes: decoded.attributes, answer });
    const response = radius.encode_response({
      packet: decoded,
      code: answer,
      secret: options.secret,
      attributes: held ? [] : [["Error-Cause", "Session-Context-Not-Found"]],
    });
    coa.send(response, from.port, from.address);
  });

  /** The servlet pages' variables for the phone on the host table (RouterOS manual, Hotspot customisation → Variables). */
  const variables = (error: string): Record<string, string> => ({
    mac: fake.hostMac.toUpperCase(),
    ip: fake.hostIp,
    "link-login-only": fake.loginUrl,
    "link-orig": "",
    "chap-id": fake.useChap ? fake.chap.idText : "",
    "chap-challenge": fake.useChap ? fake.chap.challengeText : "",
    identity: fake.identity,
    error,
  });

  const http: Server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/login.html" && fake.loginHtml) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(fillServletPage(fake.loginHtml, variables("")));
      return;
    }
    if (req.method !== "POST" || !req.url?.startsWith("/login")) {
      res.writeHead(404).end("not found");
      return;
    }
    const body = new URLSearchParams((await readBody(req))?.toString() ?? "");
    const username = body.get("username") ?? "";
    const answer = await fake.login(username, body.get("password") ?? "", fake.hostMac, { chap: fake.useChap });
    if (answer?.code === "Access-Accept") {
      const session = fake.sessions.get(username)!;
      await fake.account("Start", session);
      res.writeHead(302, { Location: body.get("dst") || "/status" }).end();
      return;
    }
    // RouterOS's own wording when the Access-Reject has no Reply-Message, or RADIUS does not answer.
    const reason = answer
      ? String(answer.attributes["Reply-Message"] ?? "invalid username or password")
      : "RADIUS server is not responding";
    const page = fake.floginHtml ?? fake.loginHtml;
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        page
          ? fillServletPage(page, variables(reason))
          : `<!doctype html><title>Login failed</title><p id="error">${reason.replace(/[<&>]/g, "")}</p>`,
      );
  });
  await new Promise<void>((resolve) => http.listen(options.httpPort ?? 0, options.address, resolve));
  fake.loginUrl = `http://${options.address}:${(http.address() as AddressInfo).port}/login`;
  fake.coaPort = (coa.address() as AddressInfo).port;
  return fake;
}
