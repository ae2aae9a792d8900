// Connections list and export benchmark: tsx bench/connections.bench.ts [--rebuild]
// (npm run bench -- connections, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
// An organisation of 5,000,000 connections, 200,000 customers and 300,000 devices, made once by
// the demo generator and reused (SQLite file data/bench/connections.db; PostgreSQL database
// mlango_bench_connections when BENCH_POSTGRES_URL is set), then:
// - the connections page's loader (guard, list, JSON) for page 1 and page 1,000, without and with
//   search terms of three kinds: p50/p95 of the server time (target < 100 ms);
// - connections.csv of 1,000,000 rows through the export route: rows/s (target ≥ 50,000) and the
//   growth of the process's RSS while it streams (target < 100 MB).
// Each engine runs in a child process of its own, so its memory figures are its own.
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

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
  export: { rows: number; seconds: number; rssGrowthMb: number; bytes: number };
}

const SIZES = { connections: 5_000_000, customers: 200_000, devices: 300_000 };
const ORG_NAME = "Connections benchmark";
const NOW = Date.UTC(2026, 10, 22, 0, 0, 0);
const SQLITE_FILE = "data/bench/connections.db";
const POSTGRES_DATABASE = "mlango_bench_connections";
const EXPORT_ROWS = 1_000_000;
const RUNS = 25;
const WARMUPS = 3;

const engineArg = process.argv.indexOf("--engine");
if (engineArg >= 0) {
  const engine = process.argv[engineArg + 1] as Engine;
  process.send!(await runEngine(engine, process.argv.includes("--rebuild")));
} else {
  await main();
}

async function main(): Promise<void> {
  const engines = benchEngines();
  const results: Result[] = [];
  for (const engine of engines) {
    console.log(`\n== ${engine}`);
    results.push(await runChild<Result>(import.meta.url, engine));
  }
  const table = [["engine", "case", "rows", "p50 ms", "p95 ms"]];
  for (const r of results) for (const c of r.cases) table.push([r.engine, c.name, String(c.rows), c.p50.toFixed(1), c.p95.toFixed(1)]);
  printTable(table);
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  printTable([
    ["engine", "export rows", "seconds", "rows/s", "MB written", "RSS growth MB"],
    ...results.map((r) => [
      r.engine,
      n(r.export.rows),
      r.export.seconds.toFixed(1),
      n(r.export.rows / r.export.seconds),
      n(r.export.bytes / 1_048_576),
      r.export.rssGrowthMb.toFixed(1),
    ]),
  ]);
  for (const r of results) if (r.buildSeconds !== null) console.log(`${r.engine}: data built in ${r.buildSeconds.toFixed(0)} s`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- connections --pg) to benchmark PostgreSQL too.");
}

async function runEngine(engine: Engine, rebuild: boolean): Promise<Result> {
  await useBenchDatabase(engine, { sqliteFile: SQLITE_FILE, postgresDatabase: POSTGRES_DATABASE }, rebuild);
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { orgId, ownerId, buildSeconds } = await benchOrganisation(engine);
    const cookie = await sessionCookieFor(ownerId, orgId);
    return { engine, buildSeconds, cases: await listCases(orgId, cookie), export: await exportCase(orgId, cookie) };
  } finally {
    await closeDatabase();
  }
}

/** The generated organisation, made on first use (its name marks a complete build). */
async function benchOrganisation(engine: Engine): Promise<{ orgId: number; ownerId: number; buildSeconds: number | null }> {
  const { db } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const existing = await db
    .selectFrom("organizations")
    .select(["id", "created_by_user_id"])
    .where("name", "=", ORG_NAME)
    .executeTakeFirst();
  if (existing?.created_by_user_id) {
    console.log(`  reusing organisation ${existing.id}`);
    return { orgId: existing.id, ownerId: existing.created_by_user_id, buildSeconds: null };
  }
  const { generateDemoData } = await import("~/tools/demo.server");
  const { insertUser } = await import("~/tools/factories.server");
  const owner = await insertUser({ email: "connections-bench@example.com", phone_number: "+254799000001" });
  const started = performance.now();
  // Built under a temporary name, renamed when complete: an interrupted build is not reused.
  const result = await generateDemoData({
    timeZone: "UTC",
    ...SIZES,
    now: NOW,
    ownerId: owner.id,
    organizationName: `${ORG_NAME} (building)`,
    log: (line) => console.log(`  ${line}`),
  });
  if (engine === "postgres") await sql`vacuum analyze`.execute(db);
  await db.updateTable("organizations").set({ name: ORG_NAME }).where("id", "=", result.organizationId).execute();
  return { orgId: result.organizationId, ownerId: owner.id, buildSeconds: (performance.now() - started) / 1000 };
}

async function sessionCookieFor(userId: number, orgId: number): Promise<string> {
  const { issueToken } = await import("~/services/auth.server");
  const { commitSession, sessionStorage } = await import("~/services/session.server");
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(userId, "web"));
  session.set("orgId", orgId);
  return (await commitSession(session)).split(";")[0];
}

type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function callLoader(loader: Loader, orgId: number, path: string, cookie: string): Promise<Response> {
  const request = new Request(new URL(path, "http://localhost"), { headers: { Cookie: cookie } });
  const result = await loader({ request, params: { orgId: String(orgId) }, context: {} });
  if (!(result instanceof Response) || result.status !== 200) throw new Error(`${path} answered ${(result as Response).status}`);
  return result;
}

/** Search terms of three kinds, taken from the data: one customer's local phone number, a common first name, a venue. */
async function searchTerms(orgId: number) {
  const { db } = await import("~/db/db.server");
  const phone = await db
    .selectFrom("customers")
    .select("phone_number")
    .where("organization_id", "=", orgId)
    .where("phone_number", "is not", null)
    .orderBy("id")
    .offset(1000)
    .limit(1)
    .executeTakeFirstOrThrow();
  const name = await db
    .selectFrom("customers")
    .select(["first_name", (eb) => eb.fn.countAll<number>().as("n")])
    .where("organization_id", "=", orgId)
    .where("first_name", "is not", null)
    .groupBy("first_name")
    .orderBy("n", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const venue = await db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("organization_id", "=", orgId)
    .orderBy("id")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { phone: `0${phone.phone_number!.slice(4)}`, name: name.first_name!, venue };
}

async function listCases(orgId: number, cookie: string): Promise<CaseResult[]> {
  const page = (await import("~/routes/$orgId+/_connections+/connections+/_index")) as { loader: Loader };
  const terms = await searchTerms(orgId);
  const q = (params: Record<string, string>) => `/${orgId}/connections?${new URLSearchParams(params)}`;
  const cases: [string, string][] = [
    ["page 1", q({})],
    ["page 1,000", q({ page: "1000" })],
    [`search phone "${terms.phone}", page 1`, q({ search: terms.phone })],
    [`search phone, page 1,000`, q({ search: terms.phone, page: "1000" })],
    [`search name "${terms.name}", page 1`, q({ search: terms.name })],
    [`search name, page 1,000`, q({ search: terms.name, page: "1000" })],
    [`search venue "${terms.venue.name}", page 1`, q({ search: terms.venue.name })],
    [`search venue, page 1,000`, q({ search: terms.venue.name, page: "1000" })],
    ["venue filter, page 1", q({ venue_id: String(terms.venue.id) })],
    ["venue filter, page 1,000", q({ venue_id: String(terms.venue.id), page: "1000" })],
    ["online, page 1", q({ status: "online" })],
    ["all statuses, page 1,000", q({ status: "all", page: "1000" })],
  ];
  const results: CaseResult[] = [];
  for (const [name, path] of cases) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      const started = performance.now();
      const res = await callLoader(page.loader, orgId, path, cookie);
      const data = (await res.json()) as { page: { rows: unknown[] } };
      if (i >= WARMUPS) times.push(performance.now() - started);
      rows = data.page.rows.length;
    }
    times.sort((a, b) => a - b);
    const result = { name, rows, p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
    console.log(`  ${name}: ${rows} rows, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`);
    results.push(result);
  }
  return results;
}

/** connections.csv of the newest 1,000,000 authorized connections (a start_ms window), read to the end. */
async function exportCase(orgId: number, cookie: string): Promise<Result["export"]> {
  const { db } = await import("~/db/db.server");
  const route = (await import("~/routes/$orgId+/_connections+/connections[.csv]")) as { loader: Loader };
  const boundary = await db
    .selectFrom("connections")
    .select("created_at")
    .where("organization_id", "=", orgId)
    .where("authorized_at", "is not", null)
    .orderBy("created_at", "desc")
    .offset(EXPORT_ROWS - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const started = performance.now();
  const res = await callLoader(route.loader, orgId, `/${orgId}/connections.csv?start_ms=${boundary.created_at}`, cookie);
  const reader = res.body!.getReader();
  let lines = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rows = lines - 1; // the header
  console.log(`  export: ${rows.toLocaleString("en-US")} rows in ${seconds.toFixed(1)} s`);
  return { rows, seconds, bytes, rssGrowthMb: (peak - baseline) / 1_048_576 };
}
