// Page benchmark: server time to first byte of whole pages, measured over HTTP against the
// production build (`npx remix build` first) on the analytics benchmark's data — one organisation
// with 5,000,000 connections over a year across 20 venues, 200,000 customers, 300,000 devices.
//   tsx bench/pages.bench.ts [--runs N] [--connections N] [--port N] [--only TEXT] [--profile]
//                                                           SQLite (data/bench/analytics-<N>.db)
//   BENCH_POSTGRES_URL=postgres://… tsx bench/pages.bench.ts   PostgreSQL too
// The data is built by `npm run bench -- analytics [--pg]` (`--connections N` for a
// smaller set); this script refuses to run without it rather than quietly timing an empty database.
// Beside the times, the bytes a browser would transfer (Accept-Encoding: br, gzip, as sent on the
// wire): the HTML plus every script and stylesheet it references, for a first visit (nothing cached)
// and a repeat visit (what is not cached as immutable, so in practice the HTML), and the same first
// visit uncompressed. Scripts a page imports later (maplibre on the map) are not counted.
// Beside the times, the server's CPU time per request (user + system, from /proc), printed under
// /healthz's in the same run: CPU time moves much less with the machine's other load than latency.
// --only TEXT times only the pages whose name contains TEXT (and /healthz); --port N moves the
// server (3190); --profile writes the server's CPU profiles (node --cpu-prof) to data/bench/pages/.
// Pages: the login page, the home dashboard with the default layout (1, 30, 365 days), every report (30 days),
// the network overview (30 days) and the connections list (page 1 and 1,000, with and without search).
import { fork, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { serverCpuMs } from "./engine-harness";

const ORGANIZATION = "Analytics benchmark";
const PORT_DEFAULT = 3190;
const DAY = 86_400_000;
const PROFILE_DIR = "data/bench/pages";

interface Timing {
  /** the server process's CPU time per request, ms */
  cpuMs: number;
  p50: number;
  p95: number;
  /** p95 of the whole response, body included. */
  fullP95: number;
  kb: number;
  status: number;
}

/** Bytes on the wire (compressed as the server chose) and decoded, in KB. */
interface Transfer {
  firstKb: number;
  repeatKb: number;
  firstRawKb: number;
}

interface Row extends Timing, Transfer {
  page: string;
}

interface Prepared {
  organizationId: number;
  venueId: number;
  token: string;
  lastDay: number;
}

// The database module reads DATABASE_URL once per process, so each engine is prepared in a child.
const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    prepare: { type: "string" },
    connections: { type: "string" },
    port: { type: "string" },
    only: { type: "string" },
    profile: { type: "boolean" },
  },
});
const PORT = Number(values.port ?? PORT_DEFAULT);
const runs = Number(values.runs ?? 20);
const CONNECTIONS = Number((values.connections ?? "5000000").replace(/_/g, ""));
if (!Number.isSafeInteger(CONNECTIONS) || CONNECTIONS < 1) throw new Error(`Not a positive whole number: ${values.connections}`);
const SQLITE_FILE = `data/bench/analytics-${CONNECTIONS}.db`;
const POSTGRES_DATABASE = `mlango_bench_analytics_${CONNECTIONS}`;
if (values.prepare) {
  const prepared = await prepare(values.prepare);
  process.send!(prepared, () => process.exit(0));
} else {
  await main();
}

async function main(): Promise<void> {
  if (!fs.existsSync("build/index.js")) throw new Error("Build the app first: npx remix build");

  const targets: { engine: string; url: string }[] = [];
  if (fs.existsSync(SQLITE_FILE)) targets.push({ engine: "sqlite", url: `file:${SQLITE_FILE}` });
  else console.log(`No ${SQLITE_FILE}: run npm run bench -- analytics first to build the data.`);
  if (process.env.BENCH_POSTGRES_URL) {
    const url = new URL(process.env.BENCH_POSTGRES_URL);
    url.pathname = `/${POSTGRES_DATABASE}`;
    if (await postgresHasData(url.toString())) targets.push({ engine: "postgres", url: url.toString() });
    else console.log(`No ${POSTGRES_DATABASE} with data: run npm run bench -- analytics --pg first.`);
  }
  if (targets.length === 0) {
    process.exitCode = 1;
    return;
  }

  for (const target of targets) {
    console.log(`\n== ${target.engine}`);
    const rows = await benchEngine(target.url);
    printTable(target.engine, rows);
  }
}

async function postgresHasData(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const found = await client.query("select 1 from organizations where name = $1", [ORGANIZATION]);
    return (found.rowCount ?? 0) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Signs a bench user into the organisation (a token, as a script would), starts the server, times the pages. */
async function benchEngine(databaseUrl: string): Promise<Row[]> {
  const { organizationId, venueId, token, lastDay } = await prepareInChild(databaseUrl);
  const server = await startServer(databaseUrl);
  try {
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const window = (days: number) => `start=${iso(lastDay - (days - 1) * DAY)}&end=${iso(lastDay)}`;
    const org = `/${organizationId}`;
    const pages: [string, string][] = [
      ["login page (signed out)", "/login"],
      ["dashboard, default layout, 1 day", `${org}?${window(1)}`],
      ["dashboard, default layout, 30 days", `${org}?${window(30)}`],
      ["dashboard, default layout, 365 days", `${org}?${window(365)}`],
      ...["overview", "new_visitors", "unique_visitors", "all_visitors", "repeat_visitors", "footfall"].map((report): [string, string] => [
        `report ${report}, 30 days`,
        `${org}/reports/${report}?${window(30)}`,
      ]),
      ["network overview, 30 days", `${org}/venues/${venueId}/overview?${window(30)}`],
      ["connections list, page 1", `${org}/connections`],
      ["connections list, page 1,000", `${org}/connections?page=1000`],
      ["connections list, page 1, search a venue", `${org}/connections?search=Kahawa`],
      ["connections list, page 1,000, search a venue", `${org}/connections?search=Kahawa&page=1000`],
    ];
    const chosen = pages.filter(([page]) => !values.only || page.includes(values.only));
    // /healthz first: the floor every request pays (Express, headers, one database query), measured
    // in the same run as the pages. Cheap, so more requests than a page gets: /proc counts in ticks.
    const rows: Row[] = [
      { page: "/healthz (the floor)", ...(await timePage("/healthz", "", server.pid, runs * 20)), ...(await transferOf("/healthz", "")) },
    ];
    for (const [page, path] of chosen) {
      const auth = path === "/login" ? "" : token; // the login page as a signed-out visitor sees it
      rows.push({ page, ...(await timePage(path, auth, server.pid)), ...(await transferOf(path, auth)) });
      process.stdout.write(".");
    }
    process.stdout.write("\n");
    return rows;
  } finally {
    // Waiting for the exit: a --cpu-prof profile is written then.
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
}

function prepareInChild(databaseUrl: string): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    let result: Prepared | undefined;
    const child = fork(fileURLToPath(import.meta.url), ["--prepare", databaseUrl], { execArgv: process.execArgv });
    child.on("message", (message) => (result = message as Prepared));
    child.on("error", reject);
    child.on("exit", (code) => (result && code === 0 ? resolve(result) : reject(new Error(`preparing failed (exit code ${code})`))));
  });
}

async function prepare(databaseUrl: string): Promise<Prepared> {
  process.env.DATABASE_URL = databaseUrl;
  const { db, closeDatabase, migrateToLatest } = await import("~/db/db.server");
  await migrateToLatest();
  const org = await db.selectFrom("organizations").select("id").where("name", "=", ORGANIZATION).executeTakeFirstOrThrow();
  const venue = await db.selectFrom("venues").select("id").where("organization_id", "=", org.id).orderBy("id").executeTakeFirstOrThrow();
  const owner = await db
    .selectFrom("administrators")
    .select("user_id")
    .where("organization_id", "=", org.id)
    .where("is_owner", "=", 1)
    .executeTakeFirstOrThrow();
  // The default layout is what a new user sees: the owner's saved dashboard is cleared for the run.
  await db.updateTable("users").set({ dashboard: null }).where("id", "=", owner.user_id!).execute();
  const { issueToken } = await import("~/services/auth.server");
  const token = await issueToken(owner.user_id!, "api");
  const last = await db
    .selectFrom("connections")
    .select((eb) => eb.fn.max("created_at").as("last"))
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  const lastMs = Math.min(Number(last.last), Date.now());
  await closeDatabase();
  return {
    organizationId: org.id,
    venueId: venue.id,
    token,
    lastDay: lastMs - (lastMs % DAY),
  };
}

async function startServer(databaseUrl: string): Promise<ChildProcess> {
  const profile = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const server = spawn(process.execPath, [...profile, "server.mjs"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      NODE_ENV: "production",
      SESSION_SECRET: "pages-benchmark-secret-0123456789abcdef",
      SECRETS_KEY: "0".repeat(64),
      REPORT_SCHEDULER: "off",
      // No queue polling in the background: its CPU would be counted against the pages.
      JOBS_WORKER: "off",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill();
  throw new Error("The server did not start");
}

/** Time to the response's headers (Remix sends them once every loader has answered), after 2 warm-ups. */
async function timePage(path: string, token: string, serverPid: number | undefined, count = runs): Promise<Timing> {
  const headers = { ...(token ? { Authorization: `Bearer ${token}` } : {}), Accept: "text/html" };
  let status = 0;
  let bytes = 0;
  const samples: number[] = [];
  const full: number[] = [];
  let cpuBefore = 0;
  for (let i = 0; i < count + 2; i++) {
    if (i === 2) cpuBefore = serverCpuMs(serverPid);
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
      headers,
      redirect: "manual",
    });
    const ttfb = performance.now() - started;
    bytes = (await response.arrayBuffer()).byteLength;
    status = response.status;
    if (i >= 2) {
      samples.push(ttfb);
      full.push(performance.now() - started);
    }
  }
  const cpuMs = (serverCpuMs(serverPid) - cpuBefore) / count;
  const at = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  };
  return { cpuMs, p50: at(samples, 0.5), p95: at(samples, 0.95), fullP95: at(full, 0.95), kb: bytes / 1024, status };
}

/** One GET as a browser sends it, counting the body's bytes as they come over the wire. */
function wireGet(path: string, token: string): Promise<{ wire: number; body: Buffer; cacheControl: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: "127.0.0.1",
        port: PORT,
        path,
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), Accept: "text/html,*/*", "Accept-Encoding": "br, gzip" },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const wire = Buffer.concat(chunks);
          const encoding = response.headers["content-encoding"];
          const body = encoding === "br" ? zlib.brotliDecompressSync(wire) : encoding === "gzip" ? zlib.gunzipSync(wire) : wire;
          resolve({ wire: wire.length, body, cacheControl: String(response.headers["cache-control"] ?? "") });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

/** The page's HTML, then every script and stylesheet it loads. */
async function transferOf(path: string, token: string): Promise<Transfer> {
  const page = await wireGet(path, token);
  const html = page.body.toString("utf8");
  // Its stylesheets, module preloads, script sources and the inline module's imports (not the route
  // list in Remix's inline manifest, which names routes that are not loaded).
  const loaded = [
    /<link rel="(?:modulepreload|stylesheet)" href="(\/[^"]+)"/g,
    /<script[^>]* src="(\/[^"]+)"/g,
    /^import (?:\* as \w+ from )?"(\/[^"]+)";$/gm,
  ];
  const assets = new Set(loaded.flatMap((pattern) => Array.from(html.matchAll(pattern), (m) => m[1])));
  let first = page.wire;
  let repeat = page.wire;
  let raw = page.body.length;
  for (const asset of assets) {
    const got = await wireGet(asset, token);
    first += got.wire;
    raw += got.body.length;
    if (!got.cacheControl.includes("immutable")) repeat += got.wire;
  }
  return { firstKb: first / 1024, repeatKb: repeat / 1024, firstRawKb: raw / 1024 };
}

function printTable(engine: string, rows: Row[]): void {
  const floor = rows[0].cpuMs;
  const table = [
    [
      "page",
      "status",
      "CPU ms/req",
      "× /healthz",
      "TTFB p50 ms",
      "TTFB p95 ms",
      "full p95 ms",
      "KB",
      "first visit KB",
      "repeat KB",
      "first, uncompressed KB",
    ],
    ...rows.map((r) => [
      r.page,
      String(r.status),
      r.cpuMs.toFixed(2),
      (r.cpuMs / floor).toFixed(1),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.fullP95.toFixed(1),
      r.kb.toFixed(0),
      r.firstKb.toFixed(0),
      r.repeatKb.toFixed(0),
      r.firstRawKb.toFixed(0),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(`\n${engine}: ${CONNECTIONS.toLocaleString("en-US")} connections; ${runs} requests per page after 2 warm-ups, one at a time`);
  console.log("CPU ms/req: the server process's CPU time (user + system) per request; × /healthz: that over /healthz's in this run");
  console.log(
    "KB: the HTML as decoded; first visit / repeat: HTML + scripts + stylesheets on the wire (br or gzip), repeat without immutable-cached files",
  );
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
}
