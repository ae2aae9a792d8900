// Survey report benchmark: tsx bench/surveys.bench.ts [--responses N] [--runs N] [--rebuild]
// (npm run bench -- surveys, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
// One survey of four questions (rating, multiple, checkbox, text) with N answers (default 200,000) from
// 20,000 customers over the last 60 days, in its own database (data/bench/surveys-<N>.db, PostgreSQL
// mlango_bench_surveys_<N>), reused between runs. Prints p50/p95 of the report's page 1 and last page
// (the page of rows alone, and the whole loader's work: page + per-question summaries; target p95
// < 100 ms), then surveys.csv streamed to the end: rows/s (target ≥ 50,000/s) and the heap's growth
// while streaming: after a garbage collection at the end (npm run bench passes --expose-gc), and the
// peak between collections, which the batch size bounds, not the row count.
import { parseArgs } from "node:util";
import { benchEngines, percentile, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

interface Options {
  responses: number;
  runs: number;
}

interface CaseResult {
  name: string;
  p50: number;
  p95: number;
}

interface Result {
  engine: Engine;
  buildSeconds: number | null;
  cases: CaseResult[];
  csv: { rows: number; seconds: number; rowsPerSecond: number; heapGrowthMb: number; heapPeakMb: number };
}

const ORGANIZATION = "Survey benchmark";
const DAY = 86_400_000;
const WARMUPS = 3;
const CUSTOMERS = 20_000;
const OPTIONS_ENV = "BENCH_SURVEYS_OPTIONS";

const engineArg = process.argv.indexOf("--engine");
if (engineArg >= 0) {
  const options = JSON.parse(process.env[OPTIONS_ENV]!) as Options;
  process.send!(await runEngine(process.argv[engineArg + 1] as Engine, options, process.argv.includes("--rebuild")));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { responses: { type: "string" }, runs: { type: "string" }, rebuild: { type: "boolean" } } });
  const number = (raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw.replace(/_/g, ""));
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`Not a positive whole number: ${raw}`);
    return n;
  };
  const options: Options = { responses: number(values.responses, 200_000), runs: number(values.runs, 30) };
  process.env[OPTIONS_ENV] = JSON.stringify(options);
  const results: Result[] = [];
  for (const engine of benchEngines()) {
    console.log(`\n== ${engine}: ${options.responses.toLocaleString("en-US")} survey responses`);
    results.push(await runChild<Result>(import.meta.url, engine));
  }
  const table = [["engine", "case", "p50 ms", "p95 ms"]];
  for (const r of results) for (const c of r.cases) table.push([r.engine, c.name, c.p50.toFixed(1), c.p95.toFixed(1)]);
  printTable(table);
  const csv = [["engine", "surveys.csv", "rows", "seconds", "rows/s", "heap growth MB", "heap peak MB"]];
  for (const r of results)
    csv.push([
      r.engine,
      "all rows",
      r.csv.rows.toLocaleString("en-US"),
      r.csv.seconds.toFixed(2),
      Math.round(r.csv.rowsPerSecond).toLocaleString("en-US"),
      r.csv.heapGrowthMb.toFixed(1),
      r.csv.heapPeakMb.toFixed(1),
    ]);
  printTable(csv);
  for (const r of results) if (r.buildSeconds !== null) console.log(`${r.engine}: data built in ${r.buildSeconds.toFixed(0)} s`);
  if (!process.env.BENCH_POSTGRES_URL) console.log("Add --pg (npm run bench -- surveys --pg) to benchmark PostgreSQL too.");
}

async function runEngine(engine: Engine, options: Options, rebuild: boolean): Promise<Result> {
  await useBenchDatabase(
    engine,
    { sqliteFile: `data/bench/surveys-${options.responses}.db`, postgresDatabase: `mlango_bench_surveys_${options.responses}` },
    rebuild,
  );
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  try {
    await migrateToLatest();
    const { organizationId, surveyId, buildSeconds } = await benchmarkSurvey(options);
    // As autovacuum leaves a table after a bulk insert: statistics and the visibility map (index-only scans).
    const { db } = await import("~/db/db.server");
    const { sql } = await import("kysely");
    await sql`${sql.raw(engine === "postgres" ? "vacuum analyze survey_responses" : "analyze")}`.execute(db);
    const ctx = await contextFor(organizationId);
    const cases = await measure(ctx, surveyId, options);
    const csv = await measureCsv(ctx, surveyId);
    return { engine, buildSeconds, cases, csv };
  } finally {
    await closeDatabase();
  }
}

async function contextFor(organizationId: number) {
  const { ALL_PERMISSIONS } = await import("~/lib/permissions");
  const { db } = await import("~/db/db.server");
  const org = await db.selectFrom("organizations").select(["id", "name"]).where("id", "=", organizationId).executeTakeFirstOrThrow();
  return {
    user: { id: 0, first_name: "Bench", middle_name: null, last_name: "Mark", email: "bench@example.com", phone_number: "+254700000000" },
    org: { id: org.id, name: org.name },
    permissions: new Set(ALL_PERMISSIONS),
    isOwner: true,
    roleName: "Administrator",
  };
}

/** The benchmark's survey: reused when a previous run built it, else generated (batched inserts). */
async function benchmarkSurvey(options: Options): Promise<{ organizationId: number; surveyId: number; buildSeconds: number | null }> {
  const { db } = await import("~/db/db.server");
  const existing = await db
    .selectFrom("organizations")
    .innerJoin("surveys", "surveys.organization_id", "organizations.id")
    .select(["organizations.id as org_id", "surveys.id as survey_id"])
    .where("organizations.name", "=", ORGANIZATION)
    .executeTakeFirst();
  if (existing) {
    const n = await db
      .selectFrom("survey_responses")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("survey_id", "=", existing.survey_id)
      .executeTakeFirstOrThrow();
    if (Number(n.n) === options.responses)
      return { organizationId: existing.org_id, surveyId: Number(existing.survey_id), buildSeconds: null };
    throw new Error("The benchmark database holds another size: run with --rebuild.");
  }
  const started = performance.now();
  const { insertUser, buildCustomer } = await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const user = await insertUser({ email: `bench-surveys-${Date.now()}@example.com` });
  const org = await createOrganization(user.id, { name: ORGANIZATION, address: "1 Bench Road" });
  const now = Date.now();
  for (let i = 0; i < CUSTOMERS; i += 1000) {
    await db
      .insertInto("customers")
      .values(
        Array.from({ length: Math.min(1000, CUSTOMERS - i) }, (_, k) =>
          buildCustomer(org.id, {
            identity: `bench-${i + k}`,
            first_name: `Guest${i + k}`,
            last_name: "Bench",
            email_address: `guest${i + k}@example.com`,
            phone_number: `+2547${String(10_000_000 + i + k).slice(-8)}`,
          }),
        ),
      )
      .execute();
  }
  const customers = (await db.selectFrom("customers").select("id").where("organization_id", "=", org.id).execute()).map((c) =>
    Number(c.id),
  );
  const survey = await db
    .insertInto("surveys")
    .values({
      organization_id: org.id,
      title: "Benchmark survey",
      description: null,
      start_date: "2020-01-01",
      end_date: "2099-12-31",
      created_by_user_id: user.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const specs = [
    { text: "Rate the Wi-Fi", type: "rating" as const, options: [] as string[] },
    { text: "Why are you here?", type: "multiple" as const, options: ["Coffee", "Work", "Friends", "Passing by"] },
    { text: "What did you have?", type: "checkbox" as const, options: ["Cake", "Soup", "Salad", "Tea"] },
    { text: "Anything else?", type: "text" as const, options: [] as string[] },
  ];
  const questions: { id: number; type: string; options: string[] }[] = [];
  for (const [i, q] of specs.entries()) {
    const row = await db
      .insertInto("survey_questions")
      .values({
        survey_id: survey.id,
        position: i,
        question_text: q.text,
        question_type: q.type,
        options: JSON.stringify(q.options),
        removed_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    questions.push({ id: Number(row.id), type: q.type, options: q.options });
  }
  const BATCH = 1000;
  const span = 60 * DAY;
  for (let i = 0; i < options.responses; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, options.responses - i) }, (_, k) => {
      const n = i + k;
      const q = questions[n % questions.length]!;
      const answer =
        q.type === "rating"
          ? String((n % 5) + 1)
          : q.type === "text"
            ? `Answer number ${n}, thanks`
            : q.options[(n * 7) % q.options.length]!;
      return {
        organization_id: org.id,
        survey_id: survey.id,
        question_id: q.id,
        customer_id: customers[Math.floor(n / 4) % customers.length]!,
        connection_id: null,
        answer,
        created_at: now - span + Math.floor((n / options.responses) * span),
      };
    });
    await db.insertInto("survey_responses").values(rows).execute();
  }
  return { organizationId: org.id, surveyId: Number(survey.id), buildSeconds: (performance.now() - started) / 1000 };
}

async function time(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUPS; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function measure(ctx: Awaited<ReturnType<typeof contextFor>>, surveyId: number, options: Options): Promise<CaseResult[]> {
  const { responsesPage, questionSummaries } = await import("~/services/surveys/responses.server");
  const lastPage = Math.ceil(options.responses / 20);
  const query = (page: number) => ({ survey_id: surveyId, page, per_page: 20 });
  const ranged = (page: number) => ({
    ...query(page),
    start_date: new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10),
    end_date: new Date().toISOString().slice(0, 10),
  });
  const cases: CaseResult[] = [];
  const add = async (name: string, work: () => Promise<unknown>) => cases.push({ name, ...(await time(options.runs, work)) });
  await add("page 1 (rows)", () => responsesPage(ctx as never, query(1)));
  await add(`last page ${lastPage} (rows)`, () => responsesPage(ctx as never, query(lastPage)));
  await add("report page 1 (rows + summaries)", () =>
    Promise.all([responsesPage(ctx as never, query(1)), questionSummaries(ctx as never, query(1))]),
  );
  await add("report last page (rows + summaries)", () =>
    Promise.all([responsesPage(ctx as never, query(lastPage)), questionSummaries(ctx as never, query(lastPage))]),
  );
  await add("report page 1, last 30 days", () =>
    Promise.all([responsesPage(ctx as never, ranged(1)), questionSummaries(ctx as never, ranged(1))]),
  );
  return cases;
}

async function measureCsv(ctx: Awaited<ReturnType<typeof contextFor>>, surveyId: number): Promise<Result["csv"]> {
  const { responsesCsvStream } = await import("~/services/surveys/responses.server");
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const started = performance.now();
  const stream = await responsesCsvStream(ctx as never, { survey_id: surveyId });
  const reader = stream.getReader();
  let newlines = 0;
  let chunks = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
    if (++chunks % 10 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const seconds = (performance.now() - started) / 1000;
  global.gc?.();
  const after = process.memoryUsage().heapUsed;
  const rows = newlines - 1;
  return { rows, seconds, rowsPerSecond: rows / seconds, heapGrowthMb: (after - before) / 1048576, heapPeakMb: (peak - before) / 1048576 };
}
