// Subscriptions list benchmark: tsx bench/subscriptions.bench.ts [--rebuild]
// (npm run bench -- subscriptions, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
// An organisation of 1,000,000 subscriptions held by 100,000 guests under five plan names (one of
// them a deleted plan), loaded once with the bulk insert helper and reused (SQLite file
// data/bench/subscriptions.db; PostgreSQL database mlango_bench_subscriptions when BENCH_POSTGRES_URL
// is set), then the Subscriptions page's loader (guard, list, capped count, JSON) for page 1 and
// page 1,000, without and with search terms of four kinds: p50/p95 of the server time.
// The same organisation holds 1,000,000 M-Pesa transactions over the year,
// loaded on first use as well, for the M-Pesa Transactions page's loader at page 1 and page 1,000
// of the default range (1970-01-01 to today, 50 a page); target p95 < 100 ms.
// Each engine runs in a child process of its own.
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

interface CaseResult {
  name: string;
  rows: number;
  total: string;
  p50: number;
  p95: number;
}

interface Result {
  engine: Engine;
  buildSeconds: number | null;
  mpesaBuildSeconds: number | null;
  cases: CaseResult[];
}

const SUBSCRIPTIONS = 1_000_000;
const MPESA_TRANSACTIONS = 1_000_000;
const CUSTOMERS = 100_000;
const BATCH = 5_000;
const ORG_NAME = "Subscriptions benchmark";
const NOW = Date.UTC(2026, 10, 25, 0, 0, 0);
const SQLITE_FILE = "data/bench/subscriptions.db";
const POSTGRES_DATABASE = "mlango_bench_subscriptions";
const RUNS = 25;
const WARMUPS = 3;
const MINUTE = 60_000;
const PLANS = [
  { name: "Daily free", price_cents: 0, free_internet: 1, validity_minutes: 24 * 60, usage_limit_bytes: 500 * 1024 ** 2 },
  { name: "Hourly 20", price_cents: 2_000, free_internet: 0, validity_minutes: 60, usage_limit_bytes: null },
  { name: "Daily 50", price_cents: 5_000, free_internet: 0, validity_minutes: 24 * 60, usage_limit_bytes: 1024 ** 3 },
  { name: "Weekly 300", price_cents: 30_000, free_internet: 0, validity_minutes: 7 * 24 * 60, usage_limit_bytes: 10 * 1024 ** 3 },
] as const;
/** A plan deleted since: its subscriptions keep the name, service_plan_id is null. */
const DELETED_PLAN = { name: "Easter promo", price_cents: 1_000, validity_minutes: 24 * 60, usage_limit_bytes: null };

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
  const table = [["engine", "case", "rows", "total", "p50 ms", "p95 ms"]];
  for (const r of results)
    for (const c of r.cases) table.push([r.engine, c.name, String(c.rows), c.total, c.p50.toFixed(1), c.p95.toFixed(1)]);
  printTable(table);
  for (const r of results) if (r.buildSeconds !== null) console.log(`${r.engine}: data built in ${r.buildSeconds.toFixed(0)} s`);
  for (const r of results)
    if (r.mpesaBuildSeconds !== null) console.log(`${r.engine}: M-Pesa transactions built in ${r.mpesaBuildSeconds.toFixed(0)} s`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- subscriptions --pg) to benchmark PostgreSQL too.");
}

async function runEngine(engine: Engine, rebuild: boolean): Promise<Result> {
  await useBenchDatabase(engine, { sqliteFile: SQLITE_FILE, postgresDatabase: POSTGRES_DATABASE }, rebuild);
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { orgId, ownerId, buildSeconds } = await benchOrganisation(engine);
    const mpesaBuildSeconds = await benchMpesaTransactions(engine, orgId);
    const cookie = await sessionCookieFor(ownerId, orgId);
    return { engine, buildSeconds, mpesaBuildSeconds, cases: [...(await listCases(orgId, cookie)), ...(await mpesaCases(orgId, cookie))] };
  } finally {
    await closeDatabase();
  }
}

/** The organisation, made on first use (its name marks a complete build). */
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
  const { insertUser } = await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const started = performance.now();
  const owner = await insertUser({ email: `subscriptions-bench-${Date.now()}@example.com`, phone_number: "+254799000002" });
  // Built under a temporary name, renamed when complete: an interrupted build is not reused.
  const org = await createOrganization(owner.id, { name: `${ORG_NAME} (building)` });
  await seed(org.id);
  if (engine === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  await db.updateTable("organizations").set({ name: ORG_NAME }).where("id", "=", org.id).execute();
  return { orgId: org.id, ownerId: owner.id, buildSeconds: (performance.now() - started) / 1000 };
}

/** Guests, plans and subscriptions, with the bulk insert helper (app/db/bulk.server.ts). */
async function seed(orgId: number): Promise<void> {
  const { db } = await import("~/db/db.server");
  const { insertBatches } = await import("~/db/bulk.server");
  const { buildCustomer } = await import("~/tools/factories.server");
  const { createRandom } = await import("~/tools/demo/random.server");
  const { FIRST_NAMES, LAST_NAMES } = await import("~/tools/demo/catalogue.server");
  const random = createRandom(17);
  const start = NOW - 365 * 24 * 60 * MINUTE;

  const plans: { id: number | null; name: string; price_cents: number; validity_minutes: number; usage_limit_bytes: number | null }[] = [];
  for (const [i, p] of PLANS.entries()) {
    const row = await db
      .insertInto("service_plans")
      .values({
        organization_id: orgId,
        name: p.name,
        code: `BENCH${i}`,
        description: null,
        free_internet: p.free_internet,
        bandwidth_policy_id: null,
        time_limit: null,
        time_limit_unit: null,
        time_limit_minutes: null,
        usage_limit: p.usage_limit_bytes === null ? null : p.usage_limit_bytes / 1024 ** 2,
        usage_limit_unit: p.usage_limit_bytes === null ? null : "MBs",
        usage_limit_bytes: p.usage_limit_bytes,
        simultaneous_connections: 1,
        validity: p.validity_minutes,
        validity_units: "Mins",
        validity_minutes: p.validity_minutes,
        price_cents: p.price_cents,
        free_every: p.free_internet ? "day" : null,
        created_at: start,
        updated_at: start,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    plans.push({ ...p, id: Number(row.id) });
  }

  console.log(`  ${CUSTOMERS.toLocaleString("en-US")} customers`);
  function* customers() {
    for (let done = 0; done < CUSTOMERS; done += BATCH) {
      const batch = [];
      for (let i = done; i < Math.min(CUSTOMERS, done + BATCH); i++) {
        const created = start + Math.floor((i / CUSTOMERS) * 300 * 24 * 60) * MINUTE;
        batch.push(
          buildCustomer(orgId, {
            first_name: random.pick(FIRST_NAMES),
            last_name: random.pick(LAST_NAMES),
            phone_number: `+2547${String(10_000_000 + i * 7).padStart(8, "0")}`,
            created_at: created,
            updated_at: created,
          }),
        );
      }
      yield batch;
    }
  }
  const customerIds = await insertBatches("customers", customers(), { returnIds: true });

  console.log(`  ${SUBSCRIPTIONS.toLocaleString("en-US")} subscriptions`);
  const step = Math.floor((NOW - start) / SUBSCRIPTIONS);
  function* subscriptions() {
    for (let done = 0; done < SUBSCRIPTIONS; done += BATCH) {
      const batch = [];
      for (let i = done; i < Math.min(SUBSCRIPTIONS, done + BATCH); i++) {
        const created = start + i * step + random.int(0, step - 1);
        // Easter week's subscriptions were under a plan deleted since.
        const deleted = i % 97 === 0;
        const plan = deleted ? { ...DELETED_PLAN, id: null } : random.chance(0.5) ? plans[0] : random.pick(plans);
        const roll = random.next();
        const status = roll < 0.9 ? "Active" : roll < 0.97 ? "Exhausted" : roll < 0.99 ? "Cancelled" : "Pending";
        const pending = status === "Pending";
        batch.push({
          organization_id: orgId,
          customer_id: random.chance(0.95) ? customerIds[random.int(0, customerIds.length - 1)] : null,
          device_id: null,
          service_plan_id: plan.id,
          plan_name: plan.name,
          price_cents: plan.price_cents,
          source: plan.price_cents === 0 ? "free" : "mpesa",
          status,
          started_on: pending ? null : created,
          expires_on: pending ? null : created + plan.validity_minutes * MINUTE,
          time_limit_minutes: null,
          usage_limit_bytes: plan.usage_limit_bytes,
          simultaneous_connections: 1,
          used_bytes: random.int(0, 400 * 1024 ** 2),
          created_at: created,
          updated_at: created,
        });
      }
      yield batch;
    }
  }
  await insertBatches("subscriptions", subscriptions(), {
    onBatch: (n) => n % 200_000 === 0 && console.log(`    ${n.toLocaleString("en-US")}`),
  });
}

/**
 * The organisation's M-Pesa transactions, made on first use (a complete set is MPESA_TRANSACTIONS
 * rows; an interrupted load is removed and made again): STK pushes and C2B confirmations spread
 * over the year, 85% completed (with a receipt), 10% failed, 5% pending.
 */
async function benchMpesaTransactions(engine: Engine, orgId: number): Promise<number | null> {
  const { db } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const complete = await db
    .selectFrom("mpesa_transactions")
    .select("id")
    .where("organization_id", "=", orgId)
    .orderBy("id")
    .offset(MPESA_TRANSACTIONS - 1)
    .limit(1)
    .executeTakeFirst();
  if (complete) {
    console.log(`  reusing ${MPESA_TRANSACTIONS.toLocaleString("en-US")} M-Pesa transactions`);
    return null;
  }
  const { insertBatches } = await import("~/db/bulk.server");
  const { createRandom } = await import("~/tools/demo/random.server");
  const started = performance.now();
  await db.deleteFrom("mpesa_transactions").where("organization_id", "=", orgId).execute();
  const random = createRandom(29);
  const start = NOW - 365 * 24 * 60 * MINUTE;
  const step = Math.floor((NOW - start) / MPESA_TRANSACTIONS);
  const amounts = [20, 50, 100, 300];
  console.log(`  ${MPESA_TRANSACTIONS.toLocaleString("en-US")} M-Pesa transactions`);
  function* transactions() {
    for (let done = 0; done < MPESA_TRANSACTIONS; done += BATCH) {
      const batch = [];
      for (let i = done; i < Math.min(MPESA_TRANSACTIONS, done + BATCH); i++) {
        const created = start + i * step + random.int(0, step - 1);
        const stk = random.chance(0.9);
        const roll = random.next();
        const status = roll < 0.85 ? 1 : roll < 0.95 ? 2 : 0;
        batch.push({
          organization_id: orgId,
          source: stk ? "stk" : "c2b",
          status,
          phone_number: `2547${String(10_000_000 + random.int(0, CUSTOMERS - 1) * 7).padStart(8, "0")}`,
          amount: random.pick(amounts),
          short_code: "174379",
          checkout_request_id: stk ? `ws_CO_bench_${i}` : null,
          transaction_id: status === 1 ? `BN${i.toString(36).toUpperCase().padStart(8, "0")}` : null,
          result_code: status === 1 ? 0 : status === 2 ? 1032 : null,
          completed_at: status === 0 ? null : created + 20_000,
          created_at: created,
          updated_at: created,
        });
      }
      yield batch;
    }
  }
  // bulk.server's table list predates mpesa_transactions; the helper only uses the name as an identifier.
  const table = "mpesa_transactions" as unknown as Parameters<typeof insertBatches>[0];
  await insertBatches(table, transactions(), { onBatch: (n) => n % 200_000 === 0 && console.log(`    ${n.toLocaleString("en-US")}`) });
  if (engine === "postgres") await sql`vacuum analyze mpesa_transactions`.execute(db);
  else await sql`analyze mpesa_transactions`.execute(db);
  return (performance.now() - started) / 1000;
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

/** Terms from the data: one guest's local phone number, the most common first name, a plan's name, a deleted plan's. */
async function searchTerms(orgId: number) {
  const { db } = await import("~/db/db.server");
  const phone = await db
    .selectFrom("customers")
    .select("phone_number")
    .where("organization_id", "=", orgId)
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
  return { phone: `0${phone.phone_number!.slice(4)}`, name: name.first_name!, plan: "Weekly", deleted: "easter" };
}

async function listCases(orgId: number, cookie: string): Promise<CaseResult[]> {
  const page = (await import("~/routes/$orgId+/_prepaid+/subscriptions")) as unknown as { loader: Loader };
  const terms = await searchTerms(orgId);
  const q = (params: Record<string, string>) => `/${orgId}/subscriptions?${new URLSearchParams(params)}`;
  const cases: [string, string][] = [
    ["page 1", q({})],
    ["page 1,000", q({ page: "1000" })],
    ["page 1, 250 per page", q({ per_page: "250" })],
    [`search phone "${terms.phone}", page 1`, q({ search: terms.phone })],
    [`search phone, page 1,000`, q({ search: terms.phone, page: "1000" })],
    [`search plan "${terms.plan}", page 1`, q({ search: terms.plan })],
    [`search plan, page 1,000`, q({ search: terms.plan, page: "1000" })],
    [`search deleted plan "${terms.deleted}", page 1`, q({ search: terms.deleted })],
    [`search deleted plan, page 1,000`, q({ search: terms.deleted, page: "1000" })],
    [`search name "${terms.name}", page 1`, q({ search: terms.name })],
    [`search name, page 1,000`, q({ search: terms.name, page: "1000" })],
    [`search "zzzq" (no match), page 1`, q({ search: "zzzq" })],
  ];
  return measure(page.loader, orgId, cases, cookie);
}

/** The M-Pesa Transactions page (default range 1970-01-01 to today, 50 a page) at page 1 and page 1,000. */
async function mpesaCases(orgId: number, cookie: string): Promise<CaseResult[]> {
  const page = (await import("~/routes/$orgId+/_prepaid+/prepaid+/mpesa-transactions")) as unknown as { loader: Loader };
  const q = (params: Record<string, string>) => `/${orgId}/prepaid/mpesa-transactions?${new URLSearchParams(params)}`;
  return measure(
    page.loader,
    orgId,
    [
      ["M-Pesa page 1", q({})],
      ["M-Pesa page 1,000", q({ page: "1000" })],
    ],
    cookie,
  );
}

/** Each case's loader (guard, list, capped count, JSON) WARMUPS + RUNS times: p50/p95 of the runs. */
async function measure(loader: Loader, orgId: number, cases: [string, string][], cookie: string): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const [name, path] of cases) {
    const times: number[] = [];
    let rows = 0;
    let total = "";
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      const started = performance.now();
      const res = await callLoader(loader, orgId, path, cookie);
      const data = (await res.json()) as { page: { rows: unknown[]; total: number; capped: boolean } };
      if (i >= WARMUPS) times.push(performance.now() - started);
      rows = data.page.rows.length;
      total = `${data.page.capped ? ">" : ""}${data.page.total.toLocaleString("en-US")}`;
    }
    times.sort((a, b) => a - b);
    const result = { name, rows, total, p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
    console.log(`  ${name}: ${rows} rows of ${total}, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`);
    results.push(result);
  }
  return results;
}
