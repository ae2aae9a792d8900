// Guest path benchmark, over HTTP against the production build
// (`npx remix build` first), SQLite and — with BENCH_POSTGRES_URL (npm run bench -- portal --pg) —
// PostgreSQL, side by side in one run:
//   1. autocannon (in-process, 64 connections, 10 s after a 2 s warm-up) on a bare node:http
//      hello-world server, the app's /healthz, the console's GET /login and the guest's
//      GET /connect?token=… (rotating over many valid pending tokens; every answer must be a 200),
//      on the built-in page and (target "splash") inside a published splash page
//      (the café template) chosen by a display rule of the guest's access point;
//   2. the whole guest flow (entry → connect page → sign-up → grant) with the simulator's guest
//      module (scripts/simulator/guest.ts), 2,000 new guests at concurrency 32;
//   3. gateway accounting over HTTP, batches of 100: start, interim (by token and by client_mac +
//      ap_mac) and stop for 20,000 online connections.
// Each engine gets a fresh database (data/bench/portal/<engine>/portal.db, or the PostgreSQL database
// mlango_bench_portal_<suffix>) seeded directly: one organisation, a network with two access points and
// gateway credentials, N pending connections (connect tokens) and M online ones.
// The server runs as a child process (NODE_ENV=production, JOBS_WORKER=off, request log to /dev/null,
// its stderr in data/bench/portal/<engine>/stderr.log).
//   tsx bench/portal.bench.ts [--duration 10] [--connections 64] [--pending 10000] [--online 20000]
//                             [--guests 2000] [--concurrency 32] [--in-flight 4] [--make meraki|opennds|mlango] [--workers 1] [--profile]
//                             [--only hello,healthz,login,connect,flow,accounting] [--baseline DIR]
// --baseline DIR compares this checkout with another one, DIR (bash scripts/bench-baseline.sh <commit>
// makes one): per engine, DIR's server runs beside this one, on a database of its own seeded by DIR's
// own bench/portal.bench.ts (data/bench/portal/baseline/<engine>/, PostgreSQL …_baseline); each part
// runs on both servers in turn (new first, then baseline first, …), and the summary gives new / baseline /
// new ÷ baseline.
// Ports: BENCH_PORT_BASE (default 3240) for the server, +1 the hello world, +2 the baseline's server.
// PostgreSQL database names end in BENCH_DB_SUFFIX, else a short hash of the checkout's path, so that
// checkouts benching at once never share one.
// --workers N runs the server as N web processes (WEB_CONCURRENCY, server/cluster.mjs): one Node
// process answers on one core, so on this 2-core machine a second one uses the other.
// --profile writes a CPU profile of each server (node --cpu-prof) to data/bench/portal/<engine>/;
// with --only it profiles just those parts.
// Targets: /connect ≥ half of /healthz's requests/s with p95 < 20 ms; ≥ 300 guests/s on SQLite;
// ≥ 2,000 interim updates/s on both engines.
// Besides rates and latencies it prints the server's CPU time per request, guest or record (Linux
// /proc; the Node process): on a shared machine rates follow the other load, CPU per unit of work
// much less. On PostgreSQL the load table adds its backends' CPU time per request.
// A server that dies during a part is reported and restarted.
import { fork, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  newSession,
  nextRecord,
  personMaker,
  playGuest,
  randomDevice,
  sendAccounting,
  STEPS,
  type AccountingRecord,
  type GuestResult,
  type Session,
} from "../scripts/simulator/guest";
import { HttpClient } from "../scripts/simulator/http";
import { BEHAVIOURS, isMake, type AccountingId, type Make, type SimNetwork } from "../scripts/simulator/makes";
import { fmt, percentile, pool, table } from "../scripts/simulator/report";
import { baselineCheckout, benchDatabaseName, comparisonTable, portBase, type Measure, type Side } from "./baseline";
import { databaseCpuMs, serverCpuMs } from "./engine-harness";

type Engine = "sqlite" | "postgres";

const PORT_BASE = portBase(3240);
const HELLO_PORT = PORT_BASE + 1;
const ROOT = "data/bench/portal";
const SECRETS_KEY = "5".repeat(64);
const GATEWAY_SECRET = "portal-bench-gateway-secret-0123456789abcdef";
const FASKEY = "portal-bench-faskey";
const SESSION_MINUTES = 60;
const WARMUP_S = 2;
const BATCH = 100;
const FLOW_WARMUP_GUESTS = 100;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    pending: { type: "string", default: "10000" },
    online: { type: "string", default: "20000" },
    guests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "32" },
    "in-flight": { type: "string", default: "4" },
    make: { type: "string", default: "meraki" },
    workers: { type: "string", default: "1" },
    profile: { type: "boolean", default: false },
    only: { type: "string", default: "hello,healthz,login,connect,splash,flow,accounting" },
    prepare: { type: "string" },
    baseline: { type: "string" },
  },
});
const number = (name: keyof typeof values) => {
  const n = Number(String(values[name]).replace(/_/g, ""));
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, got "${values[name]}".`);
  return n;
};
const settings = {
  duration: number("duration"),
  connections: number("connections"),
  pending: number("pending"),
  online: number("online"),
  guests: number("guests"),
  concurrency: number("concurrency"),
  /** Accounting batches in flight at once (gateways report concurrently). */
  inFlight: number("in-flight"),
  make: values.make as Make,
  /** The server's web processes (WEB_CONCURRENCY). */
  workers: number("workers"),
};
const LOAD_TARGETS = ["hello", "healthz", "login", "connect", "splash"] as const;
type LoadTarget = (typeof LOAD_TARGETS)[number];
const only = new Set(values.only!.split(","));
for (const part of only)
  if (![...LOAD_TARGETS, "flow", "accounting"].includes(part))
    throw new Error(`--only takes ${[...LOAD_TARGETS, "flow", "accounting"].join(", ")}, got "${part}".`);
if (!isMake(settings.make)) throw new Error(`--make must be meraki, opennds, unifi or mlango.`);

/** A checkout whose server the benchmark measures: this one and, with --baseline, the other. */
interface Checkout {
  side: Side;
  /** Its directory: its server.mjs, build/ and bench/portal.bench.ts (which seeds its databases). */
  dir: string;
  port: number;
  postgresDatabase: string;
}
const baselineDir = values.prepare ? null : baselineCheckout(values.baseline);
const CHECKOUTS: Checkout[] = [
  { side: "new", dir: process.cwd(), port: PORT_BASE, postgresDatabase: benchDatabaseName("mlango_bench_portal", "new") },
  ...(baselineDir
    ? [
        {
          side: "baseline" as const,
          dir: baselineDir,
          port: PORT_BASE + 2,
          postgresDatabase: benchDatabaseName("mlango_bench_portal", "baseline"),
        },
      ]
    : []),
];
/** A checkout's files for an engine (its SQLite database, its server's stderr and profiles), absolute. */
const filesOf = (checkout: { side: Side }, engine: Engine) => path.resolve(ROOT, checkout.side === "baseline" ? "baseline" : "", engine);
/** How the results name a checkout's run on an engine. */
const runName = (checkout: { side: Side }, engine: Engine) => (checkout.side === "baseline" ? `${engine} (baseline)` : engine);

// ---------------------------------------------------------------------------------------------
// Seeding (in a child process per engine: the database module reads DATABASE_URL once)

interface Prepared {
  portalKey: string;
  accessPointMacs: string[];
  pendingTokens: string[];
  /** Pending guests of a second network whose access point shows a published splash page. */
  splashTokens: string[];
  online: { token: string; clientMac: string; apMac: string }[];
}

async function prepare(databaseUrl: string): Promise<Prepared> {
  process.env.DATABASE_URL = databaseUrl;
  process.env.SECRETS_KEY = SECRETS_KEY;
  const { db, closeDatabase, dialect, migrateToLatest } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const { buildAccessPoint, buildConnection, buildCustomer, buildDevice, buildVenue, insertUser } =
    await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const { encryptSecret } = await import("~/services/secrets.server");
  const { hashToken, randomToken } = await import("~/services/crypto.server");
  await migrateToLatest();

  const owner = await insertUser({
    first_name: "Portal",
    last_name: "Bench",
    email: "portal-bench@example.com",
    password: "portal-bench-password",
  });
  const org = await createOrganization(owner.id, {
    name: "Portal benchmark",
    address: "Benchmark Road, Nairobi",
    email: null,
    phone_number: null,
    more_info: null,
  });
  const venue = await db
    .insertInto("venues")
    .values(
      buildVenue(org.id, {
        name: "Benchmark Lab",
        gateway_secret: encryptSecret(GATEWAY_SECRET),
        gateway_secret_hash: hashToken(GATEWAY_SECRET),
        opennds_faskey: encryptSecret(FASKEY),
        session_minutes: SESSION_MINUTES,
      }),
    )
    .returning(["id", "portal_key"])
    .executeTakeFirstOrThrow();
  const aps = await db
    .insertInto("access_points")
    .values([1, 2].map((n) => buildAccessPoint(org.id, venue.id, { name: `Benchmark Lab AP ${n}` })))
    .returning(["id", "mac_address"])
    .execute();

  // Guests who reached the portal (pending) and guests online: each a device with its customer.
  const now = Date.now();
  const pendingTokens: string[] = [];
  const online: Prepared["online"] = [];
  const total = settings.pending + settings.online;
  const CHUNK = 1000;
  for (let start = 0; start < total; start += CHUNK) {
    const size = Math.min(CHUNK, total - start);
    const customers = await db
      .insertInto("customers")
      .values(Array.from({ length: size }, () => buildCustomer(org.id, { phone_number: null })))
      .returning("id")
      .execute();
    const devices = await db
      .insertInto("devices")
      .values(customers.map((c) => buildDevice(org.id, { customer_id: c.id, last_seen_at: now })))
      .returning(["id", "mac_address"])
      .execute();
    const rows = devices.map((device, i) => {
      const ap = aps[(start + i) % aps.length]!;
      const token = randomToken(24);
      const isOnline = start + i >= settings.pending;
      const authorizedAt = now - ((start + i) % 1800) * 1000;
      if (isOnline) online.push({ token, clientMac: device.mac_address, apMac: ap.mac_address });
      else pendingTokens.push(token);
      return {
        ...buildConnection(org.id, {
          venue_id: venue.id,
          access_point_id: ap.id,
          access_point_mac: ap.mac_address,
          customer_id: customers[i]!.id,
          device_id: device.id,
          created_at: isOnline ? authorizedAt - 30_000 : now,
          authorized_at: isOnline ? authorizedAt : null,
          authorization_mode: isOnline ? "SIGNUP" : null,
          token: hashToken(token),
        }),
        // Valid for the whole run (the product's 30 minutes could run out during a long one).
        token_expires_at: now + 6 * 3_600_000,
        session_expires_at: isOnline ? authorizedAt + SESSION_MINUTES * 60_000 : null,
        client_ip: `10.0.${(start + i) % 250}.${2 + (i % 250)}`,
        gateway: isOnline ? ("mlango" as const) : ("meraki" as const),
        gateway_context: JSON.stringify(
          isOnline
            ? { grant_url: "http://127.0.20.1:2060/mlango/grant", network_id: String(venue.id) }
            : { base_grant_url: "https://n101.network-auth.com/splash/grant", network_id: String(venue.id) },
        ),
      };
    });
    await db.insertInto("connections").values(rows).execute();
  }

  // A second network whose access point shows the café template through an "On 1 Session" rule
  // (every pending guest's first session), published as the console publishes it.
  const { renderFrame } = await import("~/services/splash/render.server");
  const { TEMPLATES } = await import("~/services/splash/templates");
  const template = TEMPLATES[0]!;
  const splashVenue = await db
    .insertInto("venues")
    .values(buildVenue(org.id, { name: "Benchmark Café" }))
    .returning("id")
    .executeTakeFirstOrThrow();
  const splashAp = await db
    .insertInto("access_points")
    .values(buildAccessPoint(org.id, splashVenue.id, { name: "Café AP" }))
    .returning(["id", "mac_address"])
    .executeTakeFirstOrThrow();
  const page = {
    name: template.name,
    css_template: template.cssTemplate,
    html: template.html,
    css: template.css,
    custom_scripts: template.scripts,
  };
  const frame = await renderFrame(page, new Map(template.configs.map((c) => [c.name, c.defaultValue])));
  const published = await db
    .insertInto("splash_pages")
    .values({
      organization_id: org.id,
      ...page,
      type: 1,
      published_revision: 1,
      published_at: now,
      published_before: frame.before,
      published_after: frame.after,
      public_key: randomToken(18),
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rule = await db
    .insertInto("splash_display_settings")
    .values({
      organization_id: org.id,
      splash_page_id: published.id,
      factor: "On",
      factor_count: 1,
      factor_type: "Session",
      start_date: null,
      end_date: null,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("splash_display_setting_access_points")
    .values({ display_setting_id: rule.id, access_point_id: splashAp.id })
    .execute();
  const splashTokens = pendingTokens.splice(0, Math.min(2000, Math.floor(pendingTokens.length / 2)));
  for (let start = 0; start < splashTokens.length; start += CHUNK) {
    await db
      .updateTable("connections")
      .set({ venue_id: splashVenue.id, access_point_id: splashAp.id, access_point_mac: splashAp.mac_address })
      .where("token", "in", splashTokens.slice(start, start + CHUNK).map(hashToken))
      .execute();
  }
  // Statistics, as autovacuum would have them on a database in use: without them PostgreSQL reads a
  // device's sessions (the splash rules' step 2) through the organisation's whole authorized index.
  await sql.raw(dialect() === "postgres" ? "vacuum analyze" : "analyze").execute(db);
  await closeDatabase();
  return { portalKey: venue.portal_key, accessPointMacs: aps.map((a) => a.mac_address), pendingTokens, splashTokens, online };
}

/** Seeds with the checkout's own bench/portal.bench.ts (a baseline's schema may differ from this one's). */
function prepareInChild(databaseUrl: string, checkout: Checkout): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    let result: Prepared | undefined;
    // Only the options seeding reads: an older bench file may not know the others.
    const args = ["--pending", String(settings.pending), "--online", String(settings.online), "--prepare", databaseUrl];
    const file = checkout.side === "new" ? fileURLToPath(import.meta.url) : path.join(checkout.dir, "bench/portal.bench.ts");
    // In its directory, tsx reads its tsconfig.json: "~/…" is its app/.
    const child = fork(file, args, { cwd: checkout.dir, execArgv: process.execArgv });
    child.on("message", (message) => (result = message as Prepared));
    child.on("error", reject);
    child.on("exit", (code) => (result && code === 0 ? resolve(result) : reject(new Error(`seeding failed (exit code ${code})`))));
  });
}

async function freshDatabase(engine: Engine, checkout: Checkout): Promise<string> {
  const dir = filesOf(checkout, engine);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (engine === "sqlite") return `file:${dir}/portal.db`;
  const admin = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${checkout.postgresDatabase} with (force)`);
  await admin.query(`create database ${checkout.postgresDatabase}`);
  await admin.end();
  const url = new URL(process.env.BENCH_POSTGRES_URL!);
  url.pathname = `/${checkout.postgresDatabase}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Servers

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (code ${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`${what} did not start`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function startApp(engine: Engine, databaseUrl: string, checkout: Checkout): Promise<ChildProcess> {
  const dir = filesOf(checkout, engine);
  const stderr = fs.openSync(path.join(dir, "stderr.log"), "a");
  const profile = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  const server = spawn(process.execPath, [...profile, "server.mjs"], {
    cwd: checkout.dir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      PORT: String(checkout.port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${checkout.port}`,
      NODE_ENV: "production",
      SESSION_SECRET: "portal-benchmark-session-secret-0123456789abcdef",
      SECRETS_KEY,
      JOBS_WORKER: "off",
      REPORT_SCHEDULER: "off",
      WEB_CONCURRENCY: String(settings.workers),
    },
    stdio: ["ignore", "ignore", stderr],
  });
  await waitFor(`http://127.0.0.1:${checkout.port}/healthz`, server, `The app server (${runName(checkout, engine)})`);
  return server;
}

/** A bare node:http hello world in a child process: the ceiling of this machine and load tool. */
async function startHello(): Promise<ChildProcess> {
  const code = `require("node:http").createServer((q, s) => { s.writeHead(200, { "Content-Type": "text/plain" }); s.end("hello world"); }).listen(${HELLO_PORT}, "127.0.0.1");`;
  const hello = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "inherit"] });
  await waitFor(`http://127.0.0.1:${HELLO_PORT}/`, hello, "The hello-world server");
  return hello;
}

// ---------------------------------------------------------------------------------------------
// 1. Load with autocannon

interface AutocannonResult {
  requests: { average: number; total: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = ((options: Record<string, unknown>) => Promise<AutocannonResult> & NodeJS.EventEmitter) & {
  track?: unknown;
};
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

interface LoadRow {
  target: string;
  rps: number;
  /** Server CPU time per request, µs. */
  cpuUs: number;
  /** PostgreSQL's CPU time per request (its backends for the benchmark's database), µs; NaN on SQLite. */
  databaseCpuUs: number;
  p50: number;
  p95: number;
  p99: number;
  problems: string;
}

async function load(target: string, url: string, pid: number | undefined, database: string | null, paths?: () => string): Promise<LoadRow> {
  const options = (duration: number) => ({
    url,
    connections: settings.connections,
    duration,
    ...(paths
      ? { requests: [{ method: "GET", setupRequest: (request: Record<string, unknown>) => ({ ...request, path: paths() }) }] }
      : {}),
  });
  await autocannon(options(WARMUP_S));
  const latencies: number[] = [];
  const cpuBefore = serverCpuMs(pid);
  const databaseBefore = database ? databaseCpuMs(database) : NaN;
  const run = autocannon(options(settings.duration));
  run.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await run;
  const cpu = serverCpuMs(pid) - cpuBefore;
  const databaseCpu = database ? databaseCpuMs(database) - databaseBefore : NaN;
  const codes = Object.entries(result.statusCodeStats)
    .filter(([code]) => code !== "200")
    .map(([code, s]) => `${fmt(s.count)}× ${code}`);
  const problems = [...codes, ...(result.errors ? [`${fmt(result.errors)} errors`] : [])].join(", ");
  return {
    target,
    rps: result.requests.total / result.duration,
    cpuUs: (cpu * 1000) / result.requests.total,
    // Negative when a backend ended during the run (the pool closes idle ones): unknown then.
    databaseCpuUs: databaseCpu >= 0 ? (databaseCpu * 1000) / result.requests.total : NaN,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    problems: problems || "–",
  };
}

// ---------------------------------------------------------------------------------------------
// 2. The guest flow

interface FlowResult {
  guests: number;
  ok: number;
  guestsPerSecond: number;
  /** Server CPU time per guest, µs. */
  cpuUs: number;
  steps: Record<string, { p50: number; p95: number; p99: number }>;
  whole: { p50: number; p95: number; p99: number };
  firstFailure?: string;
}

async function guestFlow(prepared: Prepared, origin: string, pid: number | undefined): Promise<FlowResult> {
  const behaviour = BEHAVIOURS[settings.make];
  const network: SimNetwork = {
    entryPath: `/hotspot/${settings.make}/${prepared.portalKey}`,
    accessPoints: prepared.accessPointMacs.map((mac) => ({ mac, successUrl: null })),
    successUrl: null,
    gatewaySecret: GATEWAY_SECRET,
    faskey: FASKEY,
    sessionMinutes: SESSION_MINUTES,
  };
  if (settings.make === "unifi")
    throw new Error("The benchmark plays meraki, opennds or mlango guests (unifi needs a controller per network).");
  const client = new HttpClient(origin, settings.concurrency);
  const person = personMaker();
  const plan = () => ({ device: randomDevice(network.accessPoints.length), person: person(), expect: "SIGNUP" as const });
  await pool(Array.from({ length: FLOW_WARMUP_GUESTS }, plan), settings.concurrency, (p) => playGuest(client, behaviour, network, p));
  const plans = Array.from({ length: settings.guests }, plan);
  const started = performance.now();
  const cpuBefore = serverCpuMs(pid);
  const results: GuestResult[] = await pool(plans, settings.concurrency, (p) => playGuest(client, behaviour, network, p));
  const seconds = (performance.now() - started) / 1000;
  const cpu = serverCpuMs(pid) - cpuBefore;
  client.close();
  const ok = results.filter((r) => r.ok);
  const stats = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), p99: percentile(values, 0.99) });
  return {
    guests: results.length,
    ok: ok.length,
    guestsPerSecond: ok.length / seconds,
    cpuUs: (cpu * 1000) / results.length,
    steps: Object.fromEntries(STEPS.map((step) => [step, stats(ok.map((r) => r.steps[step]!.ms))])),
    whole: stats(ok.map((r) => STEPS.reduce((sum, step) => sum + r.steps[step]!.ms, 0))),
    firstFailure: results.find((r) => !r.ok)?.message,
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Accounting

interface AccountingRow {
  pass: string;
  records: number;
  accepted: number;
  perSecond: number;
  /** Server CPU time per record, µs. */
  cpuUs: number;
  p50: number;
  p95: number;
  p99: number;
  firstFailure?: string;
}

async function accounting(prepared: Prepared, origin: string, pid: number | undefined): Promise<AccountingRow[]> {
  const client = new HttpClient(origin, settings.inFlight);
  const byToken = prepared.online.map((o): Session => newSession({ token: o.token }));
  const byMac = prepared.online.map((o, i): { id: AccountingId; session: Session } => ({
    id: { client_mac: o.clientMac, ap_mac: o.apMac },
    session: byToken[i]!,
  }));
  const passes: [string, () => AccountingRecord[]][] = [
    ["start, by token", () => byToken.map((s) => nextRecord(s, "start"))],
    ["interim, by token", () => byToken.map((s) => nextRecord(s, "interim"))],
    [
      "interim, by client_mac + ap_mac",
      () =>
        byMac.map(({ id, session }) => {
          const { token: _token, ...record } = nextRecord(session, "interim");
          return { ...record, ...id };
        }),
    ],
    ["stop, by token", () => byToken.map((s) => nextRecord(s, "stop"))],
  ];
  const rows: AccountingRow[] = [];
  for (const [pass, records] of passes) {
    const batch = records();
    const started = performance.now();
    const cpuBefore = serverCpuMs(pid);
    const outcomes = await sendAccounting(client, GATEWAY_SECRET, batch, BATCH, settings.inFlight);
    const seconds = (performance.now() - started) / 1000;
    const cpu = serverCpuMs(pid) - cpuBefore;
    const accepted = outcomes.reduce((sum, o) => sum + o.accepted, 0);
    const ms = outcomes.map((o) => o.ms);
    rows.push({
      pass,
      records: batch.length,
      accepted,
      perSecond: accepted / seconds,
      cpuUs: (cpu * 1000) / batch.length,
      p50: percentile(ms, 0.5),
      p95: percentile(ms, 0.95),
      p99: percentile(ms, 0.99),
      firstFailure: outcomes.find((o) => !o.ok)?.message,
    });
    process.stdout.write(".");
  }
  client.close();
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The run

interface EngineResult {
  engine: Engine;
  side: Side;
  load: Partial<Record<LoadTarget, LoadRow>>;
  flow?: FlowResult;
  accounting?: AccountingRow[];
  /** Parts during which the server died (it is restarted for the next part). */
  crashes: string[];
}

/** A checkout's server on an engine, during the run. */
interface Running {
  checkout: Checkout;
  databaseUrl: string;
  prepared: Prepared;
  server: ChildProcess;
  origin: string;
  result: EngineResult;
}

/** One engine: each checkout's database and server; each part on each server in turn. */
async function benchEngine(engine: Engine): Promise<EngineResult[]> {
  const seeded: { checkout: Checkout; databaseUrl: string; prepared: Prepared }[] = [];
  for (const checkout of CHECKOUTS) {
    const databaseUrl = await freshDatabase(engine, checkout);
    process.stdout.write(
      `\n== ${runName(checkout, engine)}: seeding ${fmt(settings.pending)} pending and ${fmt(settings.online)} online connections… `,
    );
    seeded.push({ checkout, databaseUrl, prepared: await prepareInChild(databaseUrl, checkout) });
  }
  process.stdout.write("measuring");
  const hello = await startHello();
  const runs: Running[] = [];
  try {
    for (const s of seeded)
      runs.push({
        ...s,
        server: await startApp(engine, s.databaseUrl, s.checkout),
        origin: `http://127.0.0.1:${s.checkout.port}`,
        result: { engine, side: s.checkout.side, load: {}, crashes: [] },
      });
    /** A server that died during a part is reported with its last words and started again for the next part. */
    const survived = async (run: Running, part: string) => {
      await new Promise((r) => setTimeout(r, 200));
      if (run.server.exitCode === null && run.server.signalCode === null) return;
      const words = fs.readFileSync(path.join(filesOf(run.checkout, engine), "stderr.log"), "utf8");
      const error = /^(\w*Error|error): .*$/m.exec(words)?.[0] ?? words.trim().split("\n").at(-1) ?? "";
      run.result.crashes.push(`${part}: the server exited (${run.server.exitCode ?? run.server.signalCode}) — ${error}`);
      run.server = await startApp(engine, run.databaseUrl, run.checkout);
    };
    for (const { origin, prepared } of runs) {
      // Every token must give the connect page: check a few before timing them.
      for (const token of prepared.pendingTokens.slice(0, 3)) {
        const page = await fetch(`${origin}/connect?token=${token}`);
        if (page.status !== 200) throw new Error(`GET /connect answered ${page.status}`);
      }
      for (const token of prepared.splashTokens.slice(0, 3)) {
        const page = await fetch(`${origin}/connect?token=${token}`);
        if (page.status !== 200 || !(await page.text()).includes('class="mlango-form"'))
          throw new Error(`GET /connect (splash page) answered ${page.status} without the page`);
      }
    }
    const targets = (run: Running): Record<LoadTarget, [string, string, (() => string)?]> => {
      const { origin } = run;
      const { pendingTokens: tokens, splashTokens } = run.prepared;
      let next = 0;
      let nextSplash = 0;
      return {
        hello: ["bare node:http hello world", `http://127.0.0.1:${HELLO_PORT}/`],
        healthz: ["GET /healthz (Express + 1 query)", `${origin}/healthz`],
        login: ["GET /login (console page)", `${origin}/login`],
        connect: [
          `GET /connect?token= (${fmt(tokens.length)} tokens)`,
          `${origin}/connect`,
          () => `/connect?token=${tokens[next++ % tokens.length]}`,
        ],
        splash: [
          `GET /connect?token= in a splash page (${fmt(splashTokens.length)} tokens)`,
          `${origin}/connect`,
          () => `/connect?token=${splashTokens[nextSplash++ % splashTokens.length]}`,
        ],
      };
    };
    const targetsOf = new Map(runs.map((run) => [run, targets(run)]));
    // Each part on each checkout's server in turn, so that the machine's other load falls on all alike;
    // the order flips from part to part (new, baseline; baseline, new; …) so that neither always goes first.
    let parts = 0;
    const inTurn = () => (parts++ % 2 === 0 ? runs : [...runs].reverse());
    for (const key of LOAD_TARGETS) {
      if (!only.has(key)) continue;
      for (const run of key === "hello" ? runs : inTurn()) {
        const [label, url, paths] = targetsOf.get(run)![key];
        if (key === "hello") {
          // The machine's ceiling: the same for every checkout.
          if (run.checkout.side === "new") run.result.load.hello = await load(label, url, hello.pid, null);
          continue;
        }
        const database = engine === "postgres" ? run.checkout.postgresDatabase : null;
        run.result.load[key] = await load(label, url, run.server.pid, database, paths);
        process.stdout.write(".");
        await survived(run, label);
      }
      if (key === "hello") {
        process.stdout.write(".");
        await stop(hello);
      }
    }
    await stop(hello);
    if (only.has("flow"))
      for (const run of inTurn()) {
        run.result.flow = await guestFlow(run.prepared, run.origin, run.server.pid);
        await survived(run, "guest flow");
      }
    process.stdout.write(".");
    if (only.has("accounting"))
      for (const run of inTurn()) {
        run.result.accounting = await accounting(run.prepared, run.origin, run.server.pid);
        await survived(run, "accounting");
      }
    process.stdout.write("\n");
    return runs.map((run) => run.result);
  } finally {
    await stop(hello);
    for (const run of runs) await stop(run.server);
  }
}

function printEngine(r: EngineResult): void {
  const name = runName(r, r.engine);
  for (const crash of r.crashes) console.log(`\n${name}: ${crash} (see ${path.join(filesOf(r, r.engine), "stderr.log")})`);
  const load = Object.values(r.load);
  if (load.length) {
    console.log(`\n${name}: autocannon, ${settings.connections} connections, ${settings.duration} s after a ${WARMUP_S} s warm-up`);
    console.log(
      table([
        ["target", "req/s", "p50 ms", "p95 ms", "p99 ms", "server CPU µs/req", "database CPU µs/req", "not 200"],
        ...load.map((l) => [
          l.target,
          fmt(l.rps),
          fmt(l.p50, 2),
          fmt(l.p95, 2),
          fmt(l.p99, 2),
          fmt(l.cpuUs),
          fmt(l.databaseCpuUs),
          l.problems,
        ]),
      ]),
    );
    const { healthz, connect } = r.load;
    if (healthz && connect)
      console.log(
        `connect ÷ healthz: ${fmt(connect.rps / healthz.rps, 2)} (target ≥ 0.50); connect p95 ${fmt(connect.p95, 1)} ms (target < 20 ms)`,
      );
  }

  const f = r.flow;
  if (f) {
    console.log(
      `\n${name}: guest flow (${settings.make}, entry → connect → sign-up → grant), ${fmt(f.guests)} new guests at concurrency ${
        settings.concurrency
      } after ${FLOW_WARMUP_GUESTS} warm-up guests`,
    );
    console.log(
      table([
        ["step", "p50 ms", "p95 ms", "p99 ms"],
        ...STEPS.map((s) => [s, fmt(f.steps[s]!.p50, 1), fmt(f.steps[s]!.p95, 1), fmt(f.steps[s]!.p99, 1)]),
        ["whole visit", fmt(f.whole.p50, 1), fmt(f.whole.p95, 1), fmt(f.whole.p99, 1)],
      ]),
    );
    console.log(
      `${fmt(f.ok)} of ${fmt(f.guests)} guests online: ${fmt(f.guestsPerSecond)} guests/s, server CPU ${fmt(f.cpuUs / 1000, 2)} ms per guest${
        f.firstFailure ? `; first failure: ${f.firstFailure}` : ""
      }`,
    );
  }

  if (r.accounting) {
    console.log(
      `\n${name}: accounting over HTTP, batches of ${BATCH}, ${settings.inFlight} in flight, ${fmt(settings.online)} online connections`,
    );
    console.log(
      table([
        ["pass", "records", "accepted", "updates/s", "batch p50 ms", "batch p95 ms", "batch p99 ms", "server CPU µs/record"],
        ...r.accounting.map((a) => [
          a.pass,
          fmt(a.records),
          fmt(a.accepted),
          fmt(a.perSecond),
          fmt(a.p50, 1),
          fmt(a.p95, 1),
          fmt(a.p99, 1),
          fmt(a.cpuUs),
        ]),
      ]),
    );
    for (const a of r.accounting.filter((a) => a.firstFailure)) console.log(`${a.pass}: ${a.firstFailure}`);
  }
}

function printSummary(results: EngineResult[]): void {
  const mark = (ok: boolean) => (ok ? " ✓" : " ✗");
  const ratio = (r: EngineResult) => (r.load.connect && r.load.healthz ? r.load.connect.rps / r.load.healthz.rps : NaN);
  const interim = (r: EngineResult) => r.accounting?.find((a) => a.pass === "interim, by token");
  const rows: [string, (r: EngineResult) => string, string][] = [
    ["hello world req/s", (r) => fmt(r.load.hello?.rps), ""],
    ["/healthz req/s", (r) => fmt(r.load.healthz?.rps), ""],
    ["/login req/s (p50 ms)", (r) => (r.load.login ? `${fmt(r.load.login.rps)} (${fmt(r.load.login.p50, 0)})` : "–"), ""],
    ["/connect req/s", (r) => fmt(r.load.connect?.rps), ""],
    [
      "/connect in a splash page req/s (p95 ms)",
      (r) => (r.load.splash ? `${fmt(r.load.splash.rps)} (${fmt(r.load.splash.p95, 1)})` : "–"),
      "",
    ],
    ["server CPU µs/req: /healthz, /connect", (r) => `${fmt(r.load.healthz?.cpuUs)}, ${fmt(r.load.connect?.cpuUs)}`, ""],
    ["/connect ÷ /healthz", (r) => (Number.isNaN(ratio(r)) ? "–" : fmt(ratio(r), 2) + mark(ratio(r) >= 0.5)), "≥ 0.50"],
    [
      "/connect p50 / p95 / p99 ms",
      (r) =>
        r.load.connect
          ? `${fmt(r.load.connect.p50, 1)} / ${fmt(r.load.connect.p95, 1)} / ${fmt(r.load.connect.p99, 1)}` + mark(r.load.connect.p95 < 20)
          : "–",
      "p95 < 20",
    ],
    [
      "guest flow guests/s",
      (r) => (r.flow ? fmt(r.flow.guestsPerSecond) + (r.engine === "sqlite" ? mark(r.flow.guestsPerSecond >= 300) : "") : "–"),
      "≥ 300 (SQLite)",
    ],
    [
      "accounting interim updates/s",
      (r) => {
        const row = interim(r);
        return row ? fmt(row.perSecond) + mark(row.perSecond >= 2000 && row.accepted === row.records) : "–";
      },
      "≥ 2,000",
    ],
  ];
  console.log(
    `\nSummary (load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${os.cpus().length} CPUs)`,
  );
  console.log(
    table([
      ["measure", ...results.map((r) => r.engine), "target"],
      ...rows.map(([name, value, target]) => [name, ...results.map(value), target]),
    ]),
  );
}

/** With --baseline: per measure and engine, this checkout's figure, the baseline's and their ratio. */
function printComparison(results: EngineResult[]): void {
  const interim = (r: EngineResult) => r.accounting?.find((a) => a.pass === "interim, by token");
  const measures: Measure<EngineResult>[] = [
    { name: "/healthz req/s", value: (r) => r.load.healthz?.rps },
    { name: "/login req/s", value: (r) => r.load.login?.rps },
    { name: "/connect req/s", value: (r) => r.load.connect?.rps },
    { name: "/connect p95 ms", value: (r) => r.load.connect?.p95, digits: 1 },
    { name: "/connect in a splash page req/s", value: (r) => r.load.splash?.rps },
    { name: "server CPU µs/req /healthz", value: (r) => r.load.healthz?.cpuUs },
    { name: "server CPU µs/req /connect", value: (r) => r.load.connect?.cpuUs },
    { name: "database CPU µs/req /connect", value: (r) => r.load.connect?.databaseCpuUs },
    { name: "server CPU µs/req splash page", value: (r) => r.load.splash?.cpuUs },
    { name: "guest flow guests/s", value: (r) => r.flow?.guestsPerSecond },
    { name: "guest flow whole visit p95 ms", value: (r) => r.flow?.whole.p95, digits: 1 },
    { name: "guest flow server CPU ms/guest", value: (r) => (r.flow ? r.flow.cpuUs / 1000 : undefined), digits: 2 },
    { name: "accounting interim updates/s", value: (r) => interim(r)?.perSecond },
    { name: "accounting interim server CPU µs/record", value: (r) => interim(r)?.cpuUs },
  ];
  const pairs = [...new Set(results.map((r) => r.engine))].map((engine) => ({
    engine,
    current: results.find((r) => r.engine === engine && r.side === "new")!,
    baseline: results.find((r) => r.engine === engine && r.side === "baseline")!,
  }));
  console.log(`\nThis checkout (new) beside ${baselineDir} (baseline), part by part in turn`);
  console.log(comparisonTable(pairs, measures));
  console.log("Rates: higher is better; ms and CPU per unit: lower is better. CPU per unit moves least with the machine's other load.");
}

async function main(): Promise<void> {
  if (!fs.existsSync("build/index.js")) throw new Error("Build the app first: npx remix build");
  const engines: Engine[] = process.env.BENCH_POSTGRES_URL ? ["sqlite", "postgres"] : ["sqlite"];
  console.log(
    `Load average at the start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " ",
      )} (${os.cpus().length} CPUs): figures are only comparable on an idle machine. The server: ${settings.workers} web process${settings.workers === 1 ? "" : "es"} (--workers).`,
  );
  const results: EngineResult[] = [];
  for (const engine of engines) results.push(...(await benchEngine(engine)));
  for (const r of results) printEngine(r);
  printSummary(results.filter((r) => r.side === "new"));
  if (baselineDir) printComparison(results);
  if (!process.env.BENCH_POSTGRES_URL) console.log("\nAdd --pg (npm run bench -- portal --pg) to benchmark PostgreSQL too.");
}

// Seeding runs in a child process of its own (see prepare); the parent runs the benchmark.
if (values.prepare) {
  const prepared = await prepare(values.prepare);
  process.send!(prepared, () => process.exit(0));
} else {
  await main();
}
