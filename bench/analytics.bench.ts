// Analytics benchmark: tsx bench/analytics.bench.ts [--connections N] [--ingest N] [--runs N] [--only sqlite|postgres]
// Builds (or reuses) one organisation with 5,000,000 connections over a year across 20 venues,
// 200,000 customers and 300,000 devices, then prints p50/p95 of every analytics call for 1-, 30-
// and 365-day windows, the home dashboard's calls together, and the cost of keeping the roll-ups
// current: connections/s through the normal write path (insert, authorize, close) with the
// roll-ups on and off. SQLite always; PostgreSQL too when BENCH_POSTGRES_URL is set, e.g.
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test tsx bench/analytics.bench.ts
// The built database is kept (data/bench/analytics-<connections>.db, PostgreSQL database
// mlango_bench_analytics_<connections>) and reused by the next run; delete it to rebuild.
import { fork } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";

type Engine = "sqlite" | "postgres";

interface Options {
  connections: number;
  ingest: number;
  runs: number;
}

interface Timing {
  call: string;
  days: number;
  p50: number;
  p95: number;
}

interface Result {
  engine: Engine;
  buildSeconds: number | null;
  timings: Timing[];
  ingest: { rollups: "on" | "off"; perSecond: number }[];
}

const ORGANIZATION = "Analytics benchmark";
const WINDOWS = [1, 30, 365];
const DAY = 86_400_000;

const child = process.argv.indexOf("--engine");
if (child >= 0) {
  const engine = process.argv[child + 1] as Engine;
  const options = JSON.parse(process.argv[child + 2]) as Options;
  process.send!(await (engine === "postgres" ? onPostgres(options) : onSqlite(options)));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { connections: { type: "string" }, ingest: { type: "string" }, runs: { type: "string" }, only: { type: "string" } },
  });
  const number = (raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw.replace(/_/g, ""));
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`Not a positive whole number: ${raw}`);
    return n;
  };
  const options: Options = {
    connections: number(values.connections, 5_000_000),
    ingest: number(values.ingest, 50_000),
    runs: number(values.runs, 30),
  };
  const engines = (process.env.BENCH_POSTGRES_URL ? (["sqlite", "postgres"] as Engine[]) : (["sqlite"] as Engine[])).filter(
    (e) => !values.only || e === values.only,
  );
  const results: Result[] = [];
  for (const engine of engines) {
    console.log(`\n== ${engine}: ${options.connections.toLocaleString("en-US")} connections`);
    results.push(await runChild(engine, options));
  }
  for (const result of results) printResult(result, options);
  if (!process.env.BENCH_POSTGRES_URL) console.log("\nAdd --pg (npm run bench -- analytics --pg) to benchmark PostgreSQL too.");
}

function printResult(result: Result, options: Options): void {
  const ms = (v: number) => v.toFixed(1);
  console.log(
    `\n${result.engine}: ${options.connections.toLocaleString("en-US")} connections${result.buildSeconds === null ? " (reused)" : `, built in ${result.buildSeconds.toFixed(0)} s`}; ${options.runs} runs per cell, ms`,
  );
  const calls = [...new Set(result.timings.map((t) => t.call))];
  const header = ["call", ...WINDOWS.flatMap((d) => [`${d}d p50`, `${d}d p95`])];
  const rows = calls.map((call) => [
    call,
    ...WINDOWS.flatMap((days) => {
      const t = result.timings.find((x) => x.call === call && x.days === days)!;
      return [ms(t.p50), ms(t.p95)];
    }),
  ]);
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  for (const i of result.ingest) {
    console.log(
      `ingest with roll-ups ${i.rollups.padEnd(3)}: ${Math.round(i.perSecond).toLocaleString("en-US")} connections/s (insert + authorize + close, one statement each)`,
    );
  }
}

function runChild(engine: Engine, options: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    let result: Result | undefined;
    const worker = fork(fileURLToPath(import.meta.url), ["--engine", engine, JSON.stringify(options)], { execArgv: process.execArgv });
    worker.on("message", (message) => (result = message as Result));
    worker.on("error", reject);
    worker.on("exit", (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${engine} benchmark failed (exit code ${code})`)),
    );
  });
}

async function onSqlite(options: Options): Promise<Result> {
  fs.mkdirSync("data/bench", { recursive: true });
  process.env.DATABASE_URL = `file:data/bench/analytics-${options.connections}.db`;
  return measure("sqlite", options);
}

async function onPostgres(options: Options): Promise<Result> {
  const adminUrl = process.env.BENCH_POSTGRES_URL!;
  const name = `mlango_bench_analytics_${options.connections}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return measure("postgres", options);
}

async function measure(engine: Engine, options: Options): Promise<Result> {
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { organizationId, buildSeconds } = await benchmarkOrganization(options);
    const { timeCalls } = await import("./analytics-calls");
    const end = await lastDay(organizationId);
    const timings: Timing[] = [];
    for (const days of WINDOWS) {
      const range = { startMs: end - (days - 1) * DAY, endMs: end + DAY, offsetMs: 0 };
      console.log(`  timing calls over ${days} day(s)`);
      timings.push(...(await timeCalls(organizationId, range, options.runs)).map((t) => ({ ...t, days })));
    }
    const { ingest } = await import("./analytics-ingest");
    const rates = [];
    for (const rollups of ["on", "off"] as const) {
      console.log(`  ingesting ${options.ingest.toLocaleString("en-US")} connections with roll-ups ${rollups}`);
      rates.push({ rollups, perSecond: await ingest(organizationId, options.ingest, rollups === "on") });
    }
    return { engine, buildSeconds, timings, ingest: rates };
  } finally {
    await closeDatabase();
  }
}

/** The benchmark organisation: reused when a previous run built it, else generated now. */
async function benchmarkOrganization(options: Options): Promise<{ organizationId: number; buildSeconds: number | null }> {
  const existing = await (
    await import("~/db/db.server")
  ).db
    .selectFrom("organizations")
    .select("id")
    .where("name", "=", ORGANIZATION)
    .executeTakeFirst();
  if (existing) {
    console.log(`  reusing organisation ${existing.id}`);
    return { organizationId: existing.id, buildSeconds: null };
  }
  const { generateDemoData } = await import("~/tools/demo.server");
  const { insertUser } = await import("~/tools/factories.server");
  const owner = await insertUser({ email: "analytics-bench@example.com", phone_number: "+254799000001" });
  const scale = options.connections / 5_000_000;
  const result = await generateDemoData({
    timeZone: "UTC",
    connections: options.connections,
    customers: Math.max(1, Math.round(200_000 * scale)),
    devices: Math.max(1, Math.round(300_000 * scale)),
    venues: 20,
    accessPoints: 80,
    days: 365,
    seed: 5_000_000,
    ownerId: owner.id,
    organizationName: ORGANIZATION,
    log: (line) => console.log(`  ${line}`),
  });
  const { db, dialect } = await import("~/db/db.server");
  if (dialect() === "postgres") {
    // What autovacuum does shortly after a bulk load: statistics for the planner, visibility for index-only scans.
    const { sql } = await import("kysely");
    await sql`vacuum analyze`.execute(db);
  }
  return { organizationId: result.organizationId, buildSeconds: result.seconds };
}

/** The UTC day of the organisation's latest connection: windows end there, so reused data still fills them. */
async function lastDay(organizationId: number): Promise<number> {
  const { db } = await import("~/db/db.server");
  const row = await db
    .selectFrom("connections")
    .select((eb) => eb.fn.max("created_at").as("last"))
    .where("organization_id", "=", organizationId)
    .executeTakeFirstOrThrow();
  const last = Number(row.last);
  return last - (last % DAY);
}
