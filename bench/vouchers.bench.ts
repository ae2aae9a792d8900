// Vouchers benchmark: tsx bench/vouchers.bench.ts [--rebuild]
// (npm run bench -- vouchers, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
// An organisation holding 1,000,000 voucher codes (100 groups of 10,000, one plan), loaded once with
// the bulk insert helper and reused (SQLite file data/bench/vouchers.db; PostgreSQL database
// mlango_bench_vouchers when BENCH_POSTGRES_URL is set), then:
// - generating 10,000 codes through generateVouchers (the console's and the API's path: a group and
//   its codes in one transaction, each draw checked against the stored codes): seconds per run
//   (target < 2 s); the generated groups are deleted afterwards, so the table stays at 1,000,000;
// - redeeming a random unused code with redeemVoucher inside db.transaction(), as the connect page
//   does: p50/p95 of the time per redemption (target p95 < 20 ms).
// Each engine runs in a child process of its own.
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

interface CaseResult {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
  target: string;
}

interface Result {
  engine: Engine;
  buildSeconds: number | null;
  codesInTable: number;
  cases: CaseResult[];
}

const GROUPS = 100;
const CODES_PER_GROUP = 10_000;
const ORG_NAME = "Vouchers benchmark";
const SQLITE_FILE = "data/bench/vouchers.db";
const POSTGRES_DATABASE = "mlango_bench_vouchers";
const GENERATE_RUNS = 5;
const GENERATE_WARMUPS = 1;
const REDEEM_RUNS = 500;
const REDEEM_WARMUPS = 25;

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
  const table = [["engine", "case", "codes in table", "runs", "p50 ms", "p95 ms", "max ms", "target"]];
  for (const r of results) {
    for (const c of r.cases) {
      table.push([
        r.engine,
        c.name,
        r.codesInTable.toLocaleString("en-US"),
        String(c.runs),
        c.p50.toFixed(1),
        c.p95.toFixed(1),
        c.max.toFixed(1),
        c.target,
      ]);
    }
  }
  printTable(table);
  for (const r of results) if (r.buildSeconds !== null) console.log(`${r.engine}: data built in ${r.buildSeconds.toFixed(0)} s`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- vouchers --pg) to benchmark PostgreSQL too.");
}

async function runEngine(engine: Engine, rebuild: boolean): Promise<Result> {
  await useBenchDatabase(engine, { sqliteFile: SQLITE_FILE, postgresDatabase: POSTGRES_DATABASE }, rebuild);
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { orgId, ownerId, planId, buildSeconds } = await benchOrganisation(engine);
    const ctx = await contextFor(ownerId, orgId);
    const codesInTable = await countCodes(orgId);
    const cases = [await generateCase(ctx, planId), await redeemCase(orgId)];
    return { engine, buildSeconds, codesInTable, cases };
  } finally {
    await closeDatabase();
  }
}

/** The organisation, made on first use (its name marks a complete build). */
async function benchOrganisation(engine: Engine): Promise<{ orgId: number; ownerId: number; planId: number; buildSeconds: number | null }> {
  const { db } = await import("~/db/db.server");
  const { sql } = await import("kysely");
  const existing = await db
    .selectFrom("organizations")
    .select(["id", "created_by_user_id"])
    .where("name", "=", ORG_NAME)
    .executeTakeFirst();
  if (existing?.created_by_user_id) {
    const plan = await db.selectFrom("service_plans").select("id").where("organization_id", "=", existing.id).executeTakeFirstOrThrow();
    console.log(`  reusing organisation ${existing.id}`);
    return { orgId: existing.id, ownerId: existing.created_by_user_id, planId: Number(plan.id), buildSeconds: null };
  }
  const { insertUser } = await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const started = performance.now();
  const owner = await insertUser({ email: `vouchers-bench-${Date.now()}@example.com`, phone_number: "+254799000003" });
  // Built under a temporary name, renamed when complete: an interrupted build is not reused.
  const org = await createOrganization(owner.id, { name: `${ORG_NAME} (building)` });
  const planId = await seed(org.id);
  if (engine === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  await db.updateTable("organizations").set({ name: ORG_NAME }).where("id", "=", org.id).execute();
  return { orgId: org.id, ownerId: owner.id, planId, buildSeconds: (performance.now() - started) / 1000 };
}

/** A plan, GROUPS voucher groups and their codes, with the bulk insert helper (app/db/bulk.server.ts). */
async function seed(orgId: number): Promise<number> {
  const { db } = await import("~/db/db.server");
  const { insertBatches } = await import("~/db/bulk.server");
  const { newCodes } = await import("~/services/prepaid/vouchers.server");
  const now = Date.now();
  const plan = await db
    .insertInto("service_plans")
    .values({
      organization_id: orgId,
      name: "Day Pass",
      code: "BENCHV",
      description: null,
      free_internet: 0,
      bandwidth_policy_id: null,
      time_limit: null,
      time_limit_unit: null,
      time_limit_minutes: null,
      usage_limit: 1,
      usage_limit_unit: "GBs",
      usage_limit_bytes: 1024 ** 3,
      simultaneous_connections: 1,
      validity: 1,
      validity_units: "Days",
      validity_minutes: 24 * 60,
      price_cents: 5_000,
      free_every: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const groupIds: number[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const row = await db
      .insertInto("voucher_groups")
      .values({
        organization_id: orgId,
        name: `Batch ${g + 1}`,
        face_value_cents: 5_000,
        valid_till: "2099-12-31",
        service_plan_id: Number(plan.id),
        codes_count: CODES_PER_GROUP,
        uses_per_code: 1,
        description: null,
        created_at: now + g,
        updated_at: now + g,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    groupIds.push(Number(row.id));
  }
  console.log(`  ${(GROUPS * CODES_PER_GROUP).toLocaleString("en-US")} codes`);
  const seen = new Set<string>();
  function* codes() {
    for (const groupId of groupIds) {
      const batch = [];
      // Unique within the organisation, as the unique index wants: a repeat draw is drawn again.
      while (batch.length < CODES_PER_GROUP) {
        for (const code of newCodes(CODES_PER_GROUP - batch.length)) {
          if (seen.has(code)) continue;
          seen.add(code);
          batch.push({ organization_id: orgId, voucher_group_id: groupId, code, uses: 0, first_redeemed_at: null });
        }
      }
      yield batch;
    }
  }
  await insertBatches("vouchers", codes(), { onBatch: (n) => n % 200_000 === 0 && console.log(`    ${n.toLocaleString("en-US")}`) });
  return Number(plan.id);
}

async function countCodes(orgId: number): Promise<number> {
  const { db } = await import("~/db/db.server");
  const row = await db
    .selectFrom("vouchers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", orgId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The guard's context of the owner, as a signed-in request gets it. */
async function contextFor(userId: number, orgId: number) {
  const { issueToken } = await import("~/services/auth.server");
  const { commitSession, sessionStorage } = await import("~/services/session.server");
  const { requireOrg } = await import("~/services/guard.server");
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(userId, "web"));
  const cookie = (await commitSession(session)).split(";")[0];
  return requireOrg(new Request(`http://localhost/${orgId}/vouchers/generate`, { headers: { Cookie: cookie } }), { orgId: String(orgId) });
}

type Ctx = Awaited<ReturnType<typeof contextFor>>;

async function generateCase(ctx: Ctx, planId: number): Promise<CaseResult> {
  const { db } = await import("~/db/db.server");
  const { generateVouchers } = await import("~/services/prepaid/vouchers.server");
  const times: number[] = [];
  const made: number[] = [];
  try {
    for (let i = 0; i < GENERATE_WARMUPS + GENERATE_RUNS; i++) {
      const started = performance.now();
      const result = await generateVouchers(ctx, {
        name: `Generated ${i + 1}`,
        face_value: 5_000,
        valid_till: "2099-12-31",
        description: null,
        service_plan_id: planId,
        codes_count: CODES_PER_GROUP,
        uses_per_code: 1,
      });
      const ms = performance.now() - started;
      if (!result.ok) throw new Error(`generateVouchers refused: ${JSON.stringify(result.errors)}`);
      made.push(result.id);
      if (i >= GENERATE_WARMUPS) times.push(ms);
      console.log(
        `  generate ${CODES_PER_GROUP.toLocaleString("en-US")} codes: ${ms.toFixed(0)} ms${i < GENERATE_WARMUPS ? " (warm-up)" : ""}`,
      );
    }
  } finally {
    // Back to 1,000,000 codes for the next case and the next run.
    for (const id of made) {
      await db.deleteFrom("vouchers").where("voucher_group_id", "=", id).execute();
      await db.deleteFrom("voucher_groups").where("id", "=", id).execute();
    }
  }
  return summary(`generate ${CODES_PER_GROUP.toLocaleString("en-US")} codes`, times, "< 2,000 ms each");
}

/** Unused codes at random ids across the table (each run uses up REDEEM_RUNS + REDEEM_WARMUPS of a million). */
async function unusedCodes(orgId: number, wanted: number): Promise<string[]> {
  const { db } = await import("~/db/db.server");
  const range = await db
    .selectFrom("vouchers")
    .select((eb) => [eb.fn.min("id").as("lo"), eb.fn.max("id").as("hi")])
    .where("organization_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const lo = Number(range.lo);
  const hi = Number(range.hi);
  const codes = new Set<string>();
  while (codes.size < wanted) {
    const ids = Array.from({ length: 500 }, () => lo + Math.floor(Math.random() * (hi - lo + 1)));
    const rows = await db
      .selectFrom("vouchers")
      .select("code")
      .where("organization_id", "=", orgId)
      .where("id", "in", ids)
      .where("uses", "=", 0)
      .execute();
    for (const r of rows) if (codes.size < wanted) codes.add(r.code);
  }
  return [...codes];
}

async function redeemCase(orgId: number): Promise<CaseResult> {
  const { db } = await import("~/db/db.server");
  const { redeemVoucher } = await import("~/services/prepaid/vouchers.server");
  const { displayCode } = await import("~/lib/schemas/vouchers");
  const codes = await unusedCodes(orgId, REDEEM_WARMUPS + REDEEM_RUNS);
  const times: number[] = [];
  for (const [i, code] of codes.entries()) {
    // Typed as a guest would, with the dash.
    const typed = displayCode(code);
    const started = performance.now();
    const outcome = await db.transaction().execute((trx) => redeemVoucher(trx, orgId, typed, Date.now()));
    const ms = performance.now() - started;
    if (!outcome.ok) throw new Error(`redeemVoucher refused ${typed}: ${outcome.message}`);
    if (i >= REDEEM_WARMUPS) times.push(ms);
  }
  const result = summary("redeem a random unused code (in a transaction)", times, "p95 < 20 ms");
  console.log(`  redeem: p50 ${result.p50.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms`);
  return result;
}

function summary(name: string, times: number[], target: string): CaseResult {
  const sorted = [...times].sort((a, b) => a - b);
  return { name, runs: sorted.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1], target };
}
