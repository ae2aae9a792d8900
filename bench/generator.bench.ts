// Demo-data generator benchmark: tsx bench/generator.bench.ts [connections]
// Loads 1,000,000 connections (with proportional customers and devices) into a fresh SQLite
// file, and into a fresh PostgreSQL database too when BENCH_POSTGRES_URL is set, e.g.
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test tsx bench/generator.bench.ts
// Each engine runs in a child process of its own, so its peak RSS is its own.
import { fork } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

type Engine = "sqlite" | "postgres";

interface Result {
  engine: Engine;
  connections: number;
  customers: number;
  devices: number;
  seconds: number;
  peakRssMb: number;
}

const SQLITE_FILE = "data/bench/generator.db";
const POSTGRES_DATABASE = "mlango_bench";

const engineArg = process.argv.indexOf("--engine");
if (engineArg >= 0) {
  const engine = process.argv[engineArg + 1] as Engine;
  const connections = Number(process.argv[engineArg + 2]);
  process.send!(await (engine === "postgres" ? onPostgres(connections) : onSqlite(connections)));
} else {
  await main();
}

async function main(): Promise<void> {
  const connections = Number((process.argv[2] ?? "1000000").replace(/_/g, ""));
  if (!Number.isSafeInteger(connections) || connections < 1) throw new Error(`Not a number of connections: ${process.argv[2]}`);
  const engines: Engine[] = process.env.BENCH_POSTGRES_URL ? ["sqlite", "postgres"] : ["sqlite"];
  const results: Result[] = [];
  for (const engine of engines) {
    console.log(`\n== ${engine}: ${connections.toLocaleString("en-US")} connections`);
    results.push(await runChild(engine, connections));
  }
  const n = (value: number) => Math.round(value).toLocaleString("en-US");
  const table = [
    ["engine", "rows", "seconds", "connections/s", "peak RSS MB"],
    ...results.map((r) => [r.engine, n(r.connections), r.seconds.toFixed(1), n(r.connections / r.seconds), n(r.peakRssMb)]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  console.log(
    `(plus ${n(results[0].customers)} customers and ${n(results[0].devices)} devices per run; seconds cover everything the generator writes)`,
  );
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- generator --pg) to benchmark PostgreSQL too.");
}

function runChild(engine: Engine, connections: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    let result: Result | undefined;
    const child = fork(fileURLToPath(import.meta.url), ["--engine", engine, String(connections)], { execArgv: process.execArgv });
    child.on("message", (message) => (result = message as Result));
    child.on("error", reject);
    child.on("exit", (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${engine} benchmark failed (exit code ${code})`)),
    );
  });
}

async function onSqlite(connections: number): Promise<Result> {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(SQLITE_FILE + suffix, { force: true });
  // db.server reads DATABASE_URL on first use, so it is set before the import.
  process.env.DATABASE_URL = `file:${SQLITE_FILE}`;
  return measure("sqlite", connections);
}

async function onPostgres(connections: number): Promise<Result> {
  const adminUrl = process.env.BENCH_POSTGRES_URL!;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${POSTGRES_DATABASE}`);
  await admin(`create database ${POSTGRES_DATABASE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${POSTGRES_DATABASE}`;
  process.env.DATABASE_URL = url.toString();
  try {
    return await measure("postgres", connections);
  } finally {
    await admin(`drop database if exists ${POSTGRES_DATABASE}`);
  }
}

async function measure(engine: Engine, connections: number): Promise<Result> {
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  const { generateDemoData } = await import("~/tools/demo.server");
  const { insertUser } = await import("~/tools/factories.server");
  try {
    await migrateToLatest();
    const owner = await insertUser({ email: "bench@example.com", phone_number: "+254799000000" });
    const result = await generateDemoData({
      connections,
      ownerId: owner.id,
      organizationName: "Benchmark",
      log: (line) => console.log(`  ${line}`),
    });
    return {
      engine,
      connections: result.connections,
      customers: result.customers,
      devices: result.devices,
      seconds: result.seconds,
      // maxRSS is in KiB.
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await closeDatabase();
  }
}
