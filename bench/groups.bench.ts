// Customer group benchmark: tsx bench/groups.bench.ts [--connections N] [--runs N] [--rebuild]
// (npm run bench -- groups, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
// A group with three profile rules (first name starts with "a" AND has an e-mail, OR more than 5
// connections in total), the last 30 days and two venues, over the analytics benchmark's organisation:
// 5,000,000 connections over a year at 20 venues, 200,000 customers (customers scale with
// --connections). The data is the analytics benchmark's own database (data/bench/analytics-<N>.db,
// PostgreSQL mlango_bench_analytics_<N>), reused when either benchmark built it, else generated here.
// Prints p50/p95 of counting the members (target p95 < 300 ms) and of the first page (target < 100 ms),
// and, for scale, of other shapes: access points instead of venues, dates alone, and the groups list
// (ten such groups, each counted).
import { parseArgs } from "node:util";
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

interface Options {
  connections: number;
  runs: number;
}

interface CaseResult {
  name: string;
  rows: number;
  p50: number;
  p95: number;
}

interface Result {
  engine: Engine;
  buildSeconds: number | null;
  cases: CaseResult[];
}

const ORGANIZATION = "Analytics benchmark";
const DAY = 86_400_000;
const WARMUPS = 3;
const OPTIONS_ENV = "BENCH_GROUPS_OPTIONS";

const engineArg = process.argv.indexOf("--engine");
if (engineArg >= 0) {
  const options = JSON.parse(process.env[OPTIONS_ENV]!) as Options;
  process.send!(await runEngine(process.argv[engineArg + 1] as Engine, options, process.argv.includes("--rebuild")));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { connections: { type: "string" }, runs: { type: "string" }, rebuild: { type: "boolean" } } });
  const number = (raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw.replace(/_/g, ""));
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`Not a positive whole number: ${raw}`);
    return n;
  };
  const options: Options = { connections: number(values.connections, 5_000_000), runs: number(values.runs, 30) };
  process.env[OPTIONS_ENV] = JSON.stringify(options); // the children read it (runChild forwards only --engine and --rebuild)
  const results: Result[] = [];
  for (const engine of benchEngines()) {
    console.log(`\n== ${engine}: ${options.connections.toLocaleString("en-US")} connections`);
    results.push(await runChild<Result>(import.meta.url, engine));
  }
  const table = [["engine", "case", "rows", "p50 ms", "p95 ms"]];
  for (const r of results)
    for (const c of r.cases) table.push([r.engine, c.name, c.rows.toLocaleString("en-US"), c.p50.toFixed(1), c.p95.toFixed(1)]);
  printTable(table);
  for (const r of results) if (r.buildSeconds !== null) console.log(`${r.engine}: data built in ${r.buildSeconds.toFixed(0)} s`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- groups --pg) to benchmark PostgreSQL too.");
}

async function runEngine(engine: Engine, options: Options, rebuild: boolean): Promise<Result> {
  const name = `analytics-${options.connections}`;
  await useBenchDatabase(
    engine,
    { sqliteFile: `data/bench/${name}.db`, postgresDatabase: `mlango_bench_analytics_${options.connections}` },
    rebuild,
  );
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { organizationId, buildSeconds } = await benchmarkOrganization(options);
    return { engine, buildSeconds, cases: await measure(organizationId, options.runs) };
  } finally {
    await closeDatabase();
  }
}

/** The analytics benchmark's organisation: reused when built, else generated with its parameters. */
async function benchmarkOrganization(options: Options): Promise<{ organizationId: number; buildSeconds: number | null }> {
  const { db, dialect } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const existing = await db.selectFrom("organizations").select("id").where("name", "=", ORGANIZATION).executeTakeFirst();
  let result: { organizationId: number; buildSeconds: number | null };
  if (existing) {
    console.log(`  reusing organisation ${existing.id}`);
    result = { organizationId: existing.id, buildSeconds: null };
  } else {
    const { generateDemoData } = await import("~/tools/demo.server");
    const { insertUser } = await import("~/tools/factories.server");
    const owner = await insertUser({ email: "analytics-bench@example.com", phone_number: "+254799000001" });
    const scale = options.connections / 5_000_000;
    const generated = await generateDemoData({
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
    result = { organizationId: generated.organizationId, buildSeconds: generated.seconds };
  }
  // Planner statistics, as a production database has them (the analytics benchmark builds without them on SQLite).
  if (dialect() === "postgres") {
    if (result.buildSeconds !== null) await sql`vacuum analyze`.execute(db);
  } else if (!(await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db)).rows[0].n) {
    await sql`analyze`.execute(db);
  }
  return result;
}

async function measure(organizationId: number, runs: number): Promise<CaseResult[]> {
  const { db } = await import("~/db/db.server");
  const { countGroupMembers, groupMembersPage } = await import("~/services/marketing/group-filter.server");
  const { EMPTY_FILTERS } = await import("~/lib/schemas/group-filters");
  const last = await db
    .selectFrom("connections")
    .select((eb) => eb.fn.max("created_at").as("last"))
    .where("organization_id", "=", organizationId)
    .executeTakeFirstOrThrow();
  const end = Number(last.last) - (Number(last.last) % DAY);
  const today = new Date(end);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const dates = { byDate: "YES" as const, dateRange: { startDate: day(end - 29 * DAY), endDate: day(end) } };
  const venues = (
    await db.selectFrom("venues").select("id").where("organization_id", "=", organizationId).orderBy("id").limit(2).execute()
  ).map((v) => Number(v.id));
  const accessPoints = (
    await db.selectFrom("access_points").select("id").where("organization_id", "=", organizationId).orderBy("id").limit(2).execute()
  ).map((a) => Number(a.id));
  const profile = [
    { condition: "AND" as const, field: "firstName" as const, equation: "startsWith" as const, value: "a" },
    { condition: "AND" as const, field: "emailAddress" as const, equation: "notEmpty" as const, value: "" },
    { condition: "OR" as const, field: "connections" as const, equation: "moreThan" as const, value: "5" },
  ];
  const group = { ...EMPTY_FILTERS, ...dates, venues, profile };
  const shapes = [
    { name: "three rules, 30 days, two venues", filters: group },
    { name: "three rules, 30 days, two access points", filters: { ...group, venues: [], accessPoints } },
    { name: "three rules, 30 days, every venue", filters: { ...group, venues: [] } },
    { name: "three rules only", filters: { ...EMPTY_FILTERS, profile } },
  ];
  const cases: CaseResult[] = [];
  for (const shape of shapes) {
    console.log(`  ${shape.name}`);
    cases.push(await timed(`count: ${shape.name}`, runs, () => countGroupMembers(db, organizationId, shape.filters, today)));
    cases.push(
      await timed(
        `first page: ${shape.name}`,
        runs,
        async () => (await groupMembersPage(db, organizationId, shape.filters, { offset: 0, pageSize: 10 }, today)).length,
      ),
    );
  }
  console.log("  groups list");
  cases.push(
    await timed("groups list: 10 such groups, counted", Math.max(3, Math.round(runs / 5)), () => listOfTen(organizationId, group)),
  );
  return cases;
}

/** The Customers list's loader work for ten groups like the benchmark's (each counted). */
async function listOfTen(organizationId: number, filters: object): Promise<number> {
  const { db } = await import("~/db/db.server");
  const { countGroupMembers, parseStoredFilters } = await import("~/services/marketing/group-filter.server");
  const stored = parseStoredFilters(JSON.stringify(filters))!;
  const counts = await Promise.all(Array.from({ length: 10 }, () => countGroupMembers(db, organizationId, stored)));
  return counts.length;
}

async function timed(name: string, runs: number, work: () => Promise<number>): Promise<CaseResult> {
  let rows = 0;
  for (let i = 0; i < WARMUPS; i++) rows = await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    rows = await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { name, rows, p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}
