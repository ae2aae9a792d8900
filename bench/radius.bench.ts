// RADIUS benchmark: Access-Requests and Accounting-Requests through
// the real FreeRADIUS (radius/radiusd.conf, rest module) and Mlango, on SQLite and — with
// BENCH_POSTGRES_URL (npm run bench -- radius --pg) — PostgreSQL, each engine in a child process:
//   - Mlango's portal router (where /radius/* lives) runs in a process of its own (bench/radius-server.ts);
//   - FreeRADIUS runs with the repository's config (scripts/radius/freeradius.ts);
//   - this process plays one MikroTik (a NAS on 127.77.0.1) with the `radius` package over several
//     UDP sockets: open-loop at the target rates after 2 s unmeasured (500 Access-Requests/s, PAP and CHAP; 2,000
//     Interim-Updates/s) and closed-loop (64 in flight) for the most each path takes.
// The database: one organisation, one network, its NAS, CONNECTIONS authorized guests (devices and
// connections made directly); each request names a different guest, round robin.
// Targets: ≥ 500 Access-Requests/s and ≥ 2,000 Accounting-Requests/s with p95 < 20 ms.
//   tsx bench/radius.bench.ts [--seconds 10] [--connections 20000] [--only pap,chap,interim] [--profile]
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import dgram from "node:dgram";
import { parseArgs } from "node:util";
import radius from "radius";
import { startFreeRadius } from "../scripts/radius/freeradius";
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    connections: { type: "string" },
    only: { type: "string" },
    profile: { type: "boolean" },
    engine: { type: "string" },
    rebuild: { type: "boolean" },
  },
});
// The engine's child gets the options through the environment (runChild passes only --engine).
process.env.RADIUS_BENCH_SECONDS = values.seconds ?? process.env.RADIUS_BENCH_SECONDS ?? "10";
process.env.RADIUS_BENCH_CONNECTIONS = values.connections ?? process.env.RADIUS_BENCH_CONNECTIONS ?? "20000";
process.env.RADIUS_BENCH_ONLY = values.only ?? process.env.RADIUS_BENCH_ONLY ?? "pap,chap,interim";
if (values.profile) process.env.RADIUS_BENCH_PROFILE = "1";
const SECONDS = Number(process.env.RADIUS_BENCH_SECONDS);
const WARMUP_SECONDS = 2;
/** --only pap,chap,interim: the cases to run (all by default). */
const ONLY = new Set(process.env.RADIUS_BENCH_ONLY.split(","));
const CONNECTIONS = Number(process.env.RADIUS_BENCH_CONNECTIONS);
const NAS_ADDRESS = "127.77.0.1";
const NAS_SECRET = "radius-bench-nas-secret-0123";
const API_SECRET = "radius-bench-api-secret-0123456789";
const SECRETS_KEY = "7".repeat(64);
const SERVER_PORT = 3250;
const AUTH_PORT = 18250;
const ACCT_PORT = 18251;

interface Row {
  engine: Engine;
  name: string;
  offered: string;
  sent: number;
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  ok: number;
  target: string;
}

async function runEngine(engine: Engine): Promise<Row[]> {
  process.env.SECRETS_KEY = SECRETS_KEY;
  await useBenchDatabase(engine, { sqliteFile: "data/bench/radius.db", postgresDatabase: "mlango_bench_radius" }, true);
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  await migrateToLatest();
  const guests = await seed(engine);
  await closeDatabase();

  const server = await startServer();
  process.on("exit", () => server.kill("SIGTERM"));
  const freeradius = await startFreeRadius({
    mlangoUrl: `http://127.0.0.1:${SERVER_PORT}`,
    apiSecret: API_SECRET,
    authPort: AUTH_PORT,
    acctPort: ACCT_PORT,
  });
  const nas = await Nas.open(8);
  try {
    // The first packet from a new NAS makes FreeRADIUS ask Mlango for its secret (and is dropped).
    for (let i = 0; i < 5 && (await nas.send(authPacket(guests[0]!, false), AUTH_PORT)).code !== "Access-Accept"; i++);
    const rows: Row[] = [];
    let next = 0;
    const guest = () => guests[next++ % guests.length]!;
    const octets = new Map<number, number>();
    const interim = () => {
      const g = guest();
      const used = (octets.get(g.id) ?? 0) + 1000 + Math.floor(Math.random() * 50_000);
      octets.set(g.id, used);
      return acctPacket(g, used);
    };
    const add = (name: string, offered: string, target: string, r: Measured) => {
      rows.push({ engine, name, offered, target, ...r });
      console.log(`  ${name} (${offered}): ${r.rate.toFixed(0)}/s, p95 ${r.p95.toFixed(1)} ms, ok ${r.ok.toFixed(1)} %`);
    };
    if (ONLY.has("pap"))
      add(
        "Access-Request PAP",
        "1 in flight",
        "latency alone",
        await closedLoop(nas, AUTH_PORT, 1, () => authPacket(guest(), false), "Access-Accept"),
      );
    if (ONLY.has("chap"))
      add(
        "Access-Request CHAP",
        "1 in flight",
        "latency alone",
        await closedLoop(nas, AUTH_PORT, 1, () => authPacket(guest(), true), "Access-Accept"),
      );
    if (ONLY.has("pap"))
      add(
        "Access-Request PAP",
        "500/s",
        "p95 < 20 ms",
        await openLoop(nas, AUTH_PORT, 500, () => authPacket(guest(), false), "Access-Accept"),
      );
    if (ONLY.has("chap"))
      add(
        "Access-Request CHAP",
        "500/s",
        "p95 < 20 ms",
        await openLoop(nas, AUTH_PORT, 500, () => authPacket(guest(), true), "Access-Accept"),
      );
    if (ONLY.has("interim"))
      add("Accounting Interim-Update", "2,000/s", "p95 < 20 ms", await openLoop(nas, ACCT_PORT, 2000, interim, "Accounting-Response"));
    if (ONLY.has("pap"))
      add(
        "Access-Request PAP",
        "64 in flight",
        "≥ 500/s",
        await closedLoop(nas, AUTH_PORT, 64, () => authPacket(guest(), false), "Access-Accept"),
      );
    if (ONLY.has("interim"))
      add("Accounting Interim-Update", "64 in flight", "≥ 2,000/s", await closedLoop(nas, ACCT_PORT, 64, interim, "Accounting-Response"));
    return rows;
  } finally {
    nas.close();
    if (process.env.RADIUS_BENCH_LOG) (await import("node:fs")).writeFileSync(process.env.RADIUS_BENCH_LOG, freeradius.output());
    await freeradius.stop();
    server.kill("SIGTERM");
  }
}

interface Guest {
  id: number;
  username: string;
  password: string;
  mac: string;
}

/** One organisation, network and NAS, and CONNECTIONS guests online for a day. */
async function seed(engine: Engine): Promise<Guest[]> {
  const { db } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const { insertBatches } = await import("~/db/bulk.server");
  const { buildVenue, insertUser } = await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const { pauseRollups, rebuildRollups } = await import("~/db/rollups.server");
  const { encryptSecret } = await import("~/services/secrets.server");
  const { hashToken } = await import("~/services/crypto.server");
  const { radiusPassword, radiusUsername } = await import("~/services/radius/login.server");
  const started = performance.now();
  const owner = await insertUser({ email: `radius-bench-${Date.now()}@example.com`, phone_number: "+254799000077" });
  const org = await createOrganization(owner.id, { name: "RADIUS bench" });
  const venue = await db
    .insertInto("venues")
    .values(buildVenue(org.id, { name: "Bench hotspot" }))
    .returning("id")
    .executeTakeFirstOrThrow();
  const now = Date.now();
  await db
    .insertInto("radius_clients")
    .values({
      organization_id: org.id,
      venue_id: venue.id,
      name: "Bench router",
      make: "mikrotik",
      ip_address: NAS_ADDRESS,
      secret: encryptSecret(NAS_SECRET),
      coa_port: 3799,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const macs = Array.from(
    { length: CONNECTIONS },
    (_, i) => `02:00:${[i >> 24, (i >> 16) & 255, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, "0")).join(":")}`,
  );
  const batches = <T>(rows: T[], size = 1000) =>
    Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  const deviceIds = await insertBatches(
    "devices",
    batches(
      macs.map((mac) => ({
        organization_id: org.id,
        customer_id: null,
        name: null,
        mac_address: mac,
        os: "Android",
        os_version: "14",
        brand: "Tecno",
        browser: "Chrome",
        is_mobile: 1,
        blocked_at: null,
        last_seen_at: now,
        created_at: now,
        updated_at: now,
      })),
    ),
    { returnIds: true },
  );
  const tokens = macs.map(() => hashToken(crypto.randomBytes(24).toString("base64url")));
  // As the bulk loader does: no roll-up work row by row, one rebuild at the end.
  await pauseRollups(org.id);
  const connectionIds = await insertBatches(
    "connections",
    batches(
      macs.map((_, i) => ({
        organization_id: org.id,
        venue_id: venue.id,
        access_point_id: null,
        access_point_mac: null,
        customer_id: null,
        device_id: deviceIds[i],
        ssid: null,
        authorization_mode: "CLICK_THROUGH",
        token: tokens[i],
        token_expires_at: now + 1_800_000,
        gateway: "mikrotik",
        gateway_context: JSON.stringify({ network_id: String(venue.id) }),
        created_at: now,
        authorized_at: now,
        session_expires_at: now + 86_400_000,
        ended_at: null,
        upload: 0,
        download: 0,
      })),
    ),
    { returnIds: true },
  );
  await rebuildRollups(org.id);
  if (engine === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  console.log(`  ${CONNECTIONS.toLocaleString("en-US")} guests made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return connectionIds.map((id, i) => ({
    id,
    username: radiusUsername(id),
    password: radiusPassword(id, tokens[i]!),
    mac: macs[i]!.toUpperCase().replace(/:/g, "-"),
  }));
}

/** Mlango's portal router alone, in a process of its own, on the engine's database. */
async function startServer(): Promise<ChildProcess> {
  // --profile: a CPU profile of Mlango's process, written when it stops (data/bench/radius-profile/).
  const profile = process.env.RADIUS_BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=data/bench/radius-profile"] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, "bench/radius-server.ts"], {
    env: {
      ...process.env,
      PORT: String(SERVER_PORT),
      RADIUS_API_SECRET: API_SECRET,
      SECRETS_KEY,
      SESSION_SECRET: "radius-bench-session-secret-0123456789",
      PUBLIC_URL: `http://127.0.0.1:${SERVER_PORT}`,
      NODE_ENV: "production",
      JOBS_WORKER: "off",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return child;
}

const CHAP_ID = Buffer.from([7]);
const CHALLENGE = crypto.randomBytes(16);

function authPacket(g: Guest, chap: boolean): (id: number) => Buffer {
  const attributes: unknown[] = [
    ["User-Name", g.username],
    ["NAS-IP-Address", NAS_ADDRESS],
    ["Calling-Station-Id", g.mac],
    ["Service-Type", "Login-User"],
  ];
  if (chap) {
    const response = crypto
      .createHash("md5")
      .update(Buffer.concat([CHAP_ID, Buffer.from(g.password), CHALLENGE]))
      .digest();
    attributes.push(["CHAP-Password", Buffer.concat([CHAP_ID, response])], ["CHAP-Challenge", CHALLENGE]);
  } else {
    attributes.push(["User-Password", g.password]);
  }
  return (identifier) => radius.encode({ code: "Access-Request", secret: NAS_SECRET, identifier, attributes });
}

function acctPacket(g: Guest, used: number): (id: number) => Buffer {
  const attributes: unknown[] = [
    ["Acct-Status-Type", "Interim-Update"],
    ["User-Name", g.username],
    ["Acct-Session-Id", `s${g.id}`],
    ["NAS-IP-Address", NAS_ADDRESS],
    ["Calling-Station-Id", g.mac],
    ["Acct-Input-Octets", used],
    ["Acct-Output-Octets", used * 4],
    ["Acct-Session-Time", 60],
  ];
  return (identifier) => radius.encode({ code: "Accounting-Request", secret: NAS_SECRET, identifier, attributes });
}

/** A NAS: UDP sockets on its address, each with 256 identifiers; answers matched by socket and identifier. */
class Nas {
  private constructor(private sockets: { socket: dgram.Socket; free: number[]; waiting: Map<number, (packet: Buffer) => void> }[]) {}

  static async open(count: number): Promise<Nas> {
    const sockets = [];
    for (let i = 0; i < count; i++) {
      const socket = dgram.createSocket("udp4");
      await new Promise<void>((resolve) => socket.bind(0, NAS_ADDRESS, resolve));
      const waiting = new Map<number, (packet: Buffer) => void>();
      socket.on("message", (packet) => waiting.get(packet[1]!)?.(packet));
      sockets.push({ socket, free: Array.from({ length: 256 }, (_, n) => n), waiting });
    }
    return new Nas(sockets);
  }

  private turn = 0;

  /** Sends once (no retry: a lost answer counts as a failure), resolving with the code and milliseconds. */
  send(make: (identifier: number) => Buffer, port: number): Promise<{ code: string; ms: number }> {
    for (let tries = 0; tries < this.sockets.length; tries++) {
      const s = this.sockets[this.turn++ % this.sockets.length]!;
      const identifier = s.free.pop();
      if (identifier === undefined) continue;
      const packet = make(identifier);
      const started = performance.now();
      return new Promise((resolve) => {
        const done = (code: string) => {
          clearTimeout(timer);
          s.waiting.delete(identifier);
          s.free.push(identifier);
          resolve({ code, ms: performance.now() - started });
        };
        const timer = setTimeout(() => done("timeout"), 3000);
        s.waiting.set(identifier, (answer) => done(radius.decode({ packet: answer, secret: NAS_SECRET }).code));
        s.socket.send(packet, port, "127.0.0.1");
      });
    }
    return Promise.resolve({ code: "no-identifier", ms: 0 });
  }

  close() {
    for (const s of this.sockets) s.socket.close();
  }
}

interface Measured {
  sent: number;
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  ok: number;
}

function measure(results: { code: string; ms: number }[], expected: string, seconds: number): Measured {
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const ok = results.filter((r) => r.code === expected).length;
  return {
    sent: results.length,
    rate: ok / seconds,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    ok: (100 * ok) / results.length,
  };
}

/** Requests at a steady rate for SECONDS, whatever the answers take (latency under a given load). */
async function openLoop(
  nas: Nas,
  port: number,
  perSecond: number,
  next: () => (id: number) => Buffer,
  expected: string,
): Promise<Measured> {
  // Unmeasured first: FreeRADIUS's threads and its connections to Mlango open as the load needs them
  // (a server in service has them), and a cold start's queue would take the whole run to drain.
  await offer(nas, port, perSecond, WARMUP_SECONDS, next);
  const started = performance.now();
  const results = await offer(nas, port, perSecond, SECONDS, next);
  return measure(results, expected, (performance.now() - started) / 1000);
}

/** `perSecond` requests a second for `seconds`, whatever the answers; every answer (or timeout). */
async function offer(nas: Nas, port: number, perSecond: number, seconds: number, next: () => (id: number) => Buffer) {
  const pending: Promise<{ code: string; ms: number }>[] = [];
  const started = performance.now();
  const total = Math.round(perSecond * seconds);
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond));
      while (pending.length < due) pending.push(nas.send(next(), port));
      if (pending.length >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 2);
  });
  return Promise.all(pending);
}

/** As many requests as answers allow, `inFlight` at a time, for SECONDS (the most the path takes). */
async function closedLoop(
  nas: Nas,
  port: number,
  inFlight: number,
  next: () => (id: number) => Buffer,
  expected: string,
): Promise<Measured> {
  const results: { code: string; ms: number }[] = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) results.push(await nas.send(next(), port));
    }),
  );
  return measure(results, expected, (performance.now() - started) / 1000);
}

// Last: the classes above are initialised by the time the benchmark runs.
if (values.engine) {
  process.send!(await runEngine(values.engine as Engine));
  process.exit(0);
} else {
  const rows: Row[] = [];
  for (const engine of benchEngines()) {
    console.log(`\n== ${engine}`);
    rows.push(...(await runChild<Row[]>(import.meta.url, engine)));
  }
  const table = [["engine", "case", "offered", "sent", "answered/s", "p50 ms", "p95 ms", "p99 ms", "ok %", "target"]];
  for (const r of rows)
    table.push([
      r.engine,
      r.name,
      r.offered,
      String(r.sent),
      r.rate.toFixed(0),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.p99.toFixed(1),
      r.ok.toFixed(1),
      r.target,
    ]);
  printTable(table);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- radius --pg) to benchmark PostgreSQL too.");
}
