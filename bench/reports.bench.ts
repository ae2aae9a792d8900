// Reports benchmark: tsx bench/reports.bench.ts [--connections N] [--rebuild]
// An organisation of N connections (default 5,000,000, with 4% as many customers and 6% as many
// devices, 90 days), made once by the demo generator and reused (SQLite file
// data/bench/reports-N.db; PostgreSQL database mlango_bench_reports_N when BENCH_POSTGRES_URL is
// set), then every report page's loader (guard, figures or list, JSON) for the last 30 days of the
// data: the overview, footfall, each visitor list's first page, a deep page and a search, all
// visitors at one venue and at three (its total from the presence roll-up, migration 0034), and
// new_visitors.csv streamed through its route. p50/p95 of the server time (target < 500 ms per page).
// Each engine runs in a child process of its own.
import { fork } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";

type Engine = "sqlite" | "postgres";

interface CaseResult {
  name: string;
  rows: number;
  p50: number;
  p95: number;
}

const { values: args } = parseArgs({
  options: { connections: { type: "string" }, engine: { type: "string" }, rebuild: { type: "boolean" } },
});
const CONNECTIONS = Number((args.connections ?? "5000000").replace(/_/g, ""));
const SIZES = { connections: CONNECTIONS, customers: Math.round(CONNECTIONS * 0.04), devices: Math.round(CONNECTIONS * 0.06), days: 90 };
const ORG_NAME = "Reports benchmark";
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22);
const RUNS = 15;
const WARMUPS = 2;

if (args.engine) {
  // A child of main() reports to its parent; run by hand (--engine postgres), it prints its cases.
  const result = await runEngine(args.engine as Engine, Boolean(args.rebuild));
  if (process.send) process.send(result);
  else
    for (const c of result.cases)
      console.log(`${c.name.padEnd(50)} ${String(c.rows).padStart(8)} ${c.p50.toFixed(1).padStart(8)} ${c.p95.toFixed(1).padStart(8)}`);
} else {
  await main();
}

async function main(): Promise<void> {
  const engines: Engine[] = process.env.BENCH_POSTGRES_URL ? ["sqlite", "postgres"] : ["sqlite"];
  const table = [["engine", "case", "rows", "p50 ms", "p95 ms"]];
  for (const engine of engines) {
    console.log(`\n== ${engine} (${CONNECTIONS.toLocaleString("en-US")} connections)`);
    const result = await runChild(engine);
    for (const c of result.cases) table.push([engine, c.name, String(c.rows), c.p50.toFixed(1), c.p95.toFixed(1)]);
    if (result.buildSeconds !== null) console.log(`  data built in ${result.buildSeconds.toFixed(0)} s`);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- reports --pg) to benchmark PostgreSQL too.");
}

function runChild(engine: Engine): Promise<{ buildSeconds: number | null; cases: CaseResult[] }> {
  return new Promise((resolve, reject) => {
    let result: { buildSeconds: number | null; cases: CaseResult[] } | undefined;
    const childArgs = ["--engine", engine, "--connections", String(CONNECTIONS), ...(args.rebuild ? ["--rebuild"] : [])];
    const child = fork(fileURLToPath(import.meta.url), childArgs, { execArgv: process.execArgv });
    child.on("message", (message) => (result = message as typeof result));
    child.on("error", reject);
    child.on("exit", (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${engine} benchmark failed (exit code ${code})`)),
    );
  });
}

async function runEngine(engine: Engine, rebuild: boolean) {
  if (engine === "postgres") {
    process.env.DATABASE_URL = await postgresDatabase(`mlango_bench_reports_${CONNECTIONS}`, rebuild);
  } else {
    const file = `data/bench/reports-${CONNECTIONS}.db`;
    fs.mkdirSync("data/bench", { recursive: true });
    if (rebuild) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    process.env.DATABASE_URL = `file:${file}`; // read by db.server on first use
  }
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { orgId, ownerId, buildSeconds } = await benchOrganisation(engine);
    return { buildSeconds, cases: await cases(orgId, ownerId) };
  } finally {
    await closeDatabase();
  }
}

async function postgresDatabase(name: string, rebuild: boolean): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
  await client.connect();
  try {
    if (rebuild) await client.query(`drop database if exists ${name}`);
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(process.env.BENCH_POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The generated organisation, made on first use (renamed when complete, so a broken build is not reused). */
async function benchOrganisation(engine: Engine) {
  const { db } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const existing = await db
    .selectFrom("organizations")
    .select(["id", "created_by_user_id"])
    .where("name", "=", ORG_NAME)
    .executeTakeFirst();
  if (existing?.created_by_user_id) return { orgId: existing.id, ownerId: existing.created_by_user_id, buildSeconds: null };
  const { generateDemoData } = await import("~/tools/demo.server");
  const { insertUser } = await import("~/tools/factories.server");
  const owner = await insertUser({ email: `reports-bench-${Date.now()}@example.com`, phone_number: "+254799000002" });
  const started = performance.now();
  const result = await generateDemoData({
    timeZone: "UTC",
    ...SIZES,
    now: NOW,
    ownerId: owner.id,
    organizationName: `${ORG_NAME} (building)`,
    log: (l) => console.log(`  ${l}`),
  });
  if (engine === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  await db.updateTable("organizations").set({ name: ORG_NAME }).where("id", "=", result.organizationId).execute();
  return { orgId: result.organizationId, ownerId: owner.id, buildSeconds: (performance.now() - started) / 1000 };
}

type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function cases(orgId: number, ownerId: number): Promise<CaseResult[]> {
  const { issueToken } = await import("~/services/auth.server");
  const { commitSession, sessionStorage } = await import("~/services/session.server");
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(ownerId, "web"));
  const cookie = (await commitSession(session)).split(";")[0];
  const overview = (await import("~/routes/$orgId+/reports+/overview")).loader as Loader;
  const footfall = (await import("~/routes/$orgId+/reports+/footfall")).loader as Loader;
  const visitors = (await import("~/routes/$orgId+/reports+/$report")).loader as Loader;
  const csv = (await import("~/routes/$orgId+/reports+/new_visitors[.csv]")).loader as Loader;

  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const range = `start=${iso(NOW - 30 * DAY)}&end=${iso(NOW - DAY)}`;
  const call = async (loader: Loader, path: string, params: Record<string, string> = {}) => {
    const request = new Request(new URL(`/${orgId}/reports/${path}`, "http://localhost"), { headers: { Cookie: cookie } });
    const res = (await loader({ request, params: { orgId: String(orgId), ...params }, context: {} })) as Response;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res;
  };
  const { db } = await import("~/db/db.server");
  const { first_name } = await db
    .selectFrom("customers")
    .select("first_name")
    .where("organization_id", "=", orgId)
    .where("first_name", "is not", null)
    .orderBy("id")
    .offset(500)
    .limit(1)
    .executeTakeFirstOrThrow();

  const plan: { name: string; run: () => Promise<number> }[] = [
    { name: "overview", run: async () => (await (await call(overview, `overview?${range}`)).json()).figures.length },
    { name: "footfall", run: async () => (await (await call(footfall, `footfall?${range}`)).json()).points.length },
  ];
  for (const report of ["new_visitors", "unique_visitors", "all_visitors", "repeat_visitors"]) {
    const rows = async (query: string) => {
      const data = await (await call(visitors, `${report}?${range}${query}`, { report })).json();
      return data.rows.length as number;
    };
    plan.push({ name: `${report} page 1`, run: () => rows("") });
    plan.push({ name: `${report} page 100`, run: () => rows("&page=100") });
    plan.push({ name: `${report} search "${first_name}"`, run: () => rows(`&search=${encodeURIComponent(first_name!)}`) });
  }
  const venues = (await db.selectFrom("venues").select("id").where("organization_id", "=", orgId).orderBy("id").limit(3).execute()).map(
    (v) => v.id,
  );
  for (const chosen of [venues.slice(0, 1), venues]) {
    const query = chosen.map((id) => `&venue_id=${id}`).join("");
    plan.push({
      name: `all_visitors page 1, ${chosen.length} venue${chosen.length === 1 ? "" : "s"}`,
      run: async () => (await (await call(visitors, `all_visitors?${range}${query}`, { report: "all_visitors" })).json()).rows.length,
    });
  }
  plan.push({
    name: "new_visitors.csv (whole list)",
    run: async () => (await (await call(csv, `new_visitors.csv?${range}`)).text()).split("\n").length - 2,
  });

  const results: CaseResult[] = [];
  for (const c of plan) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      const started = performance.now();
      rows = await c.run();
      if (i >= WARMUPS) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const result = {
      name: c.name,
      rows,
      p50: times[Math.floor(times.length / 2)],
      p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
    };
    console.log(`  ${result.name}: ${result.rows} rows, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`);
    results.push(result);
  }
  return results;
}
