// What the benchmarks that measure one engine per child process share (connections, subscriptions,
// vouchers): the engines to run, a child process per engine, the benchmark database of each engine
// (kept between runs; --rebuild starts again), percentiles and the printed table.
import { execSync, fork } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

export type Engine = "sqlite" | "postgres";

/** SQLite always; PostgreSQL with BENCH_POSTGRES_URL. BENCH_ENGINES=postgres runs one engine only. */
export function benchEngines(): Engine[] {
  const wanted = process.env.BENCH_ENGINES?.split(",") ?? ["sqlite", "postgres"];
  return (["sqlite", "postgres"] as const).filter((e) => wanted.includes(e) && (e === "sqlite" || process.env.BENCH_POSTGRES_URL));
}

/** Runs this script again as a child for one engine (`--engine`), and answers what the child sent. */
export function runChild<R>(scriptUrl: string, engine: Engine): Promise<R> {
  return new Promise((resolve, reject) => {
    let result: R | undefined;
    const args = ["--engine", engine, ...(process.argv.includes("--rebuild") ? ["--rebuild"] : [])];
    const child = fork(fileURLToPath(scriptUrl), args, { execArgv: process.execArgv });
    child.on("message", (message) => (result = message as R));
    child.on("error", reject);
    child.on("exit", (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${engine} benchmark failed (exit code ${code})`)),
    );
  });
}

/** Points DATABASE_URL at the engine's benchmark database (before db.server is imported: it reads it once). */
export async function useBenchDatabase(
  engine: Engine,
  names: { sqliteFile: string; postgresDatabase: string },
  rebuild: boolean,
): Promise<void> {
  if (engine === "postgres") {
    process.env.DATABASE_URL = await postgresDatabase(names.postgresDatabase, rebuild);
    return;
  }
  fs.mkdirSync("data/bench", { recursive: true });
  if (rebuild) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(names.sqliteFile + suffix, { force: true });
  process.env.DATABASE_URL = `file:${names.sqliteFile}`;
}

/** The benchmark database on PostgreSQL: created when missing (or --rebuild), else reused. */
async function postgresDatabase(name: string, rebuild: boolean): Promise<string> {
  const adminUrl = process.env.BENCH_POSTGRES_URL!;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (rebuild) await client.query(`drop database if exists ${name}`);
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** Columns 1–2 left-aligned (engine, case), the figures right-aligned. */
export function printTable(table: string[][]): void {
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
}

let ticksPerSecond: number | undefined;
/** /proc's clock ticks per second, asked once when a benchmark first reads CPU time. */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU time, in ms, that the PostgreSQL backends serving `database` have used so far: the processes
 * whose title names it (Linux /proc; NaN elsewhere). A backend that ended meanwhile takes its time
 * with it, so read this around a run whose connections stay open (a pool under load).
 */
export function databaseCpuMs(database: string): number {
  try {
    let total = 0;
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const title = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
        if (!title.startsWith("postgres: ") || !title.includes(` ${database} `)) continue;
        const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
        total += ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
    return total;
  } catch {
    return NaN;
  }
}

/**
 * CPU time, in ms, that a server process and its children (a clustered server's workers,
 * WEB_CONCURRENCY) have used so far (Linux /proc; NaN elsewhere). On a shared machine requests per
 * second follow the other load; the server's CPU time per request much less.
 */
export function serverCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const used = (stat: string) => {
    const fields = stat.split(") ")[1]!.split(" ");
    return { parent: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks() };
  };
  try {
    let total = used(fs.readFileSync(`/proc/${pid}/stat`, "utf8")).ms;
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
      try {
        const child = used(fs.readFileSync(`/proc/${entry}/stat`, "utf8"));
        if (child.parent === pid) total += child.ms;
      } catch {
        // gone meanwhile
      }
    }
    return total;
  } catch {
    return NaN;
  }
}
