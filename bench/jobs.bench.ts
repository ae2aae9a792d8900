// Job queue benchmark: tsx bench/jobs.bench.ts [jobs]
// Enqueues N no-op jobs (default 5,000) into a fresh database and works them with 1 and then 4
// concurrent claim loops in one process, printing enqueue and processing jobs/s and the latency of
// one claim. SQLite always; PostgreSQL too when BENCH_POSTGRES_URL is set (npm run bench -- jobs --pg).
// Each engine runs in a child process of its own.
import { fork } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

type Engine = "sqlite" | "postgres";

interface Row {
  engine: Engine;
  step: string;
  jobsPerSecond: number;
  claimP50Ms?: number;
  claimP95Ms?: number;
}

const SQLITE_FILE = "data/bench/jobs.db";
const POSTGRES_DATABASE = "mlango_bench_jobs";

const engineArg = process.argv.indexOf("--engine");
if (engineArg >= 0) {
  process.send!(await runEngine(process.argv[engineArg + 1] as Engine, Number(process.argv[engineArg + 2])));
} else {
  await main();
}

async function main(): Promise<void> {
  const jobs = Number((process.argv[2] ?? "5000").replace(/_/g, ""));
  const engines: Engine[] = process.env.BENCH_POSTGRES_URL ? ["sqlite", "postgres"] : ["sqlite"];
  const rows: Row[] = [];
  for (const engine of engines) rows.push(...(await runChild(engine, jobs)));
  const fmt = (v: number | undefined, digits = 0) =>
    v === undefined ? "" : v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const table = [
    ["engine", "step", "jobs/s", "claim p50 ms", "claim p95 ms"],
    ...rows.map((r) => [r.engine, r.step, fmt(r.jobsPerSecond), fmt(r.claimP50Ms, 2), fmt(r.claimP95Ms, 2)]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  console.log(`(${jobs.toLocaleString("en-US")} jobs per step; a job is claimed, run (no-op) and marked done)`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- jobs --pg) to benchmark PostgreSQL too.");
}

function runChild(engine: Engine, jobs: number): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    let result: Row[] | undefined;
    const child = fork(fileURLToPath(import.meta.url), ["--engine", engine, String(jobs)], { execArgv: process.execArgv });
    child.on("message", (message) => (result = message as Row[]));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 && result ? resolve(result) : reject(new Error(`${engine} run failed (exit ${code})`))));
  });
}

async function freshDatabaseUrl(engine: Engine): Promise<string> {
  if (engine === "sqlite") {
    fs.mkdirSync("data/bench", { recursive: true });
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${SQLITE_FILE}${suffix}`, { force: true });
    return `file:${SQLITE_FILE}`;
  }
  const admin = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${POSTGRES_DATABASE} with (force)`);
  await admin.query(`create database ${POSTGRES_DATABASE}`);
  await admin.end();
  const url = new URL(process.env.BENCH_POSTGRES_URL!);
  url.pathname = `/${POSTGRES_DATABASE}`;
  return url.toString();
}

async function runEngine(engine: Engine, jobs: number): Promise<Row[]> {
  process.env.DATABASE_URL = await freshDatabaseUrl(engine);
  process.env.NODE_ENV = "production";
  process.env.SESSION_SECRET ??= "bench-secret-0123456789";
  process.env.PUBLIC_URL ??= "http://localhost:3000";
  process.env.SECRETS_KEY ??= "0".repeat(64);
  const { migrateToLatest, closeDatabase, db } = await import("~/db/db.server");
  const { enqueue, claimJob, completeJob } = await import("~/services/jobs/queue.server");
  await migrateToLatest();
  const rows: Row[] = [];

  for (const loops of [1, 4]) {
    await db.deleteFrom("jobs").execute();
    let started = performance.now();
    for (let i = 0; i < jobs; i++) await enqueue("bench.noop", { i });
    if (loops === 1) rows.push({ engine, step: "enqueue (one at a time)", jobsPerSecond: jobs / ((performance.now() - started) / 1000) });

    const claims: number[] = [];
    started = performance.now();
    await Promise.all(
      Array.from({ length: loops }, async () => {
        for (;;) {
          const t = performance.now();
          const job = await claimJob();
          claims.push(performance.now() - t);
          if (!job) return;
          await completeJob(job);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    claims.sort((a, b) => a - b);
    const pct = (p: number) => claims[Math.min(claims.length - 1, Math.floor(claims.length * p))];
    rows.push({
      engine,
      step: `claim + complete, ${loops} loop${loops > 1 ? "s" : ""}`,
      jobsPerSecond: jobs / seconds,
      claimP50Ms: pct(0.5),
      claimP95Ms: pct(0.95),
    });
  }
  await closeDatabase();
  return rows;
}
