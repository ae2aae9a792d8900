// M-Pesa purchase benchmark: "100 concurrent STK purchases
// against the fake Daraja server, callbacks arriving twice and out of order: every purchase ends in
// exactly one subscription or one failure; time to grant after the callback p95 under 100 ms."
//   tsx bench/mpesa.bench.ts [--guests 100] [--warmup 10] [--sequential 20] [--min-delay 20] [--max-delay 2000] [--workers 1] [--profile] [--rebuild]
//                            [--baseline DIR]
// (npm run bench -- mpesa, with --pg for SQLite and PostgreSQL; BENCH_ENGINES=postgres for one)
//
// --baseline DIR compares this checkout with another one, DIR (bash scripts/bench-baseline.sh <commit>
// makes one): per engine, a second child process runs this file in DIR, where "~/…" is DIR's app/
// (its tsconfig.json), so DIR's code migrates and fills its own database (data/bench/mpesa-baseline.db
// in DIR, PostgreSQL …_baseline) and DIR's server answers; the two children take turns part by part
// (warm-up, the purchases at once, one at a time; the order flips each part) and a new / baseline /
// new ÷ baseline table follows. This file's harness (the guests, the fake, the checks) runs on both.
// Ports: a free one each unless BENCH_PORT_BASE is set: then the server on base + 3 (the baseline's
// + 4), the fake Daraja on + 5 (+ 6), beside the portal benchmark's base … + 2. PostgreSQL database
// names end in BENCH_DB_SUFFIX, else a short hash of the checkout's path.
//
// Each engine runs in a child process of its own, against its benchmark database (SQLite file
// data/bench/mpesa.db, PostgreSQL database mlango_bench_mpesa_<suffix>; a new organisation each run), the
// production build (`npx remix build` first) as a server process of its own (NODE_ENV=production,
// JOBS_WORKER=off so that reconciliation runs only when the benchmark says; its stderr in
// data/bench/mpesa/<engine>/stderr.log) and the fake Daraja (scripts/fakes/daraja.ts) in this
// process, sending every callback twice after a random delay per purchase (so they arrive out of
// order) — 80% paid, 10% cancelled on the phone, 10% paid without any callback. --profile writes a
// CPU profile of the server (node --cpu-prof) to data/bench/mpesa/<engine>/. --workers N runs the
// server as N web processes (WEB_CONCURRENCY, server/cluster.mjs).
//
// The guests enter through the Meraki hand-off and POST /connect/mpesa all at once; each then loads
// its waiting page and reloads it as soon as a callback of its purchase has been answered (else
// every 3 s, as the page's Refresh header does), until it ends — the guests whose payment gets no
// callback close the page after 5 s and come back after reconciliation. Measured:
// - the STK push: POST /connect/mpesa → its 303 to the waiting page;
// - time to grant: the first callback leaving the fake → the waiting page's 303 to Meraki's grant URL
//   (from when the guest reached its waiting page, if the callback came before); the target is
//   p95 < 100 ms;
// - the callbacks themselves (POST /hotspot/mpesa/{key} → its answer) and the failure page;
// - for comparison, the time to grant of purchases made one at a time afterwards (--sequential, paid,
//   callbacks after 50 ms): the server's own latency without the queue of the 100 at once;
// - CPU per purchase of the server, of PostgreSQL's backends and of this process (the guests and the
//   fake Daraja, which share the machine's cores with the server).
// Then, once every callback is sent, reconcilePayments (in this process, a check time far enough
// ahead) settles the purchases without a callback through the STK query, their guests reload the
// waiting page, and the database is checked: every purchase is one transaction, either COMPLETED with
// one Active subscription and the connection authorized (MPESA) under it, or FAILED with its
// subscription Cancelled and the connection not authorized; no subscription is left Pending or
// shared, none is made twice.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { DarajaOutcome, FakeDaraja, SentCallback } from "../scripts/fakes/daraja";
import { httpRequest } from "../scripts/fakes/http-request";
import { baselineCheckout, benchDatabaseName, comparisonTable, portBase, runInTurns, turn, type Measure, type Side } from "./baseline";
import {
  benchEngines,
  databaseCpuMs,
  percentile,
  printTable,
  runChild,
  serverCpuMs,
  useBenchDatabase,
  type Engine,
} from "./engine-harness";

/** Which checkout's code this process measures (set for the engine's child by main). */
const SIDE: Side = process.env.BENCH_SIDE === "baseline" ? "baseline" : "new";
const ROOT = SIDE === "baseline" ? "data/bench/mpesa-baseline" : "data/bench/mpesa";
const SQLITE_FILE = SIDE === "baseline" ? "data/bench/mpesa-baseline.db" : "data/bench/mpesa.db";
const POSTGRES_DATABASE = benchDatabaseName("mlango_bench_mpesa", SIDE);
const SECRETS_KEY = "6".repeat(64);
const GRANT_URL = "https://n1.network-auth.com/splash/grant";
/** The waiting page's Refresh header. */
const REFRESH_MS = 3_000;
/** A guest whose purchase gets no callback stops reloading after this long (and comes back later). */
const GIVE_UP_MS = 5_000;
/** Anyone else waits this long at most (a slow machine). */
const WAIT_AT_MOST_MS = 60_000;
const PRICE = 50;

const { values } = parseArgs({
  options: {
    engine: { type: "string" },
    rebuild: { type: "boolean", default: false },
    guests: { type: "string", default: "100" },
    warmup: { type: "string", default: "10" },
    sequential: { type: "string", default: "20" },
    "min-delay": { type: "string", default: "20" },
    "max-delay": { type: "string", default: "2000" },
    workers: { type: "string", default: "1" },
    profile: { type: "boolean", default: false },
    baseline: { type: "string" },
  },
});
const whole = (name: "guests" | "warmup" | "sequential" | "min-delay" | "max-delay" | "workers") => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0, got "${values[name]}".`);
  return n;
};
// The engine's child gets --engine and --rebuild only (engine-harness.ts): the rest through the environment.
const settings: {
  guests: number;
  warmup: number;
  sequential: number;
  minDelay: number;
  maxDelay: number;
  workers: number;
  profile: boolean;
} = process.env.MPESA_BENCH_SETTINGS
  ? JSON.parse(process.env.MPESA_BENCH_SETTINGS)
  : {
      guests: whole("guests"),
      warmup: whole("warmup"),
      sequential: whole("sequential"),
      minDelay: whole("min-delay"),
      maxDelay: whole("max-delay"),
      workers: Math.max(1, whole("workers")),
      profile: values.profile!,
    };
process.env.MPESA_BENCH_SETTINGS = JSON.stringify(settings);
if (settings.guests < 10 || settings.maxDelay < settings.minDelay) throw new Error("--guests must be ≥ 10 and --max-delay ≥ --min-delay.");

interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

interface Checks {
  purchases: number;
  completed: number;
  failed: number;
  pending: number;
  activeSubscriptions: number;
  cancelledSubscriptions: number;
  pendingSubscriptions: number;
  authorized: number;
  /** purchases of one connection beyond the first, subscriptions beyond one per purchase */
  duplicates: number;
  callbacksSent: number;
  callbacksNot200: number;
  /** each problem found, at most a few of each kind */
  problems: string[];
}

interface Result {
  /** the engine, and "(baseline)" for the baseline's run */
  engine: string;
  guests: number;
  outcomes: Record<string, number>;
  entry: Summary;
  push: Summary;
  grant: Summary;
  /** the grant, split: the first callback's own answer, then the waiting page */
  grantCallbackPart: Summary;
  grantPagePart: Summary;
  /** the grant of callbacks sent while STK pushes were still being answered, and after the last */
  grantDuringPushes: Summary;
  grantAfterPushes: Summary;
  /** the grant of purchases made one at a time */
  grantAlone: Summary;
  /** the server's CPU time per step of a purchase made alone, ms */
  aloneCpuMs: Record<string, number>;
  callback: Summary;
  failurePage: Summary;
  /** grants whose callback arrived before the guest was on its waiting page */
  callbackFirst: number;
  /** reloads right after an answered callback that still found the purchase pending */
  pendingAfterCallback: number;
  reconcile: { checked: number; ms: number };
  /** the server's CPU time per purchase (entry to end), ms: a figure the machine's other load moves much less */
  serverCpuMsPerPurchase: number;
  /** PostgreSQL's backends' CPU time per purchase in the same span, ms (null on SQLite) */
  databaseCpuMsPerPurchase: number | null;
  /** this process's CPU time per purchase in the same span (the guests and the fake Daraja), ms: it shares the machine's cores with the server */
  benchCpuMsPerPurchase: number;
  serverLog: Record<string, number>;
  checks: Checks;
}

async function main(): Promise<void> {
  if (!fs.existsSync("build/index.js")) throw new Error("Build the app first: npx remix build");
  const load = () =>
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (${os.cpus().length} CPUs)`;
  console.log(
    `At the start: ${load()}; latencies are only comparable on an idle machine, the server's CPU per purchase much more. The server: ${settings.workers} web process${settings.workers === 1 ? "" : "es"} (--workers).`,
  );
  const baseline = baselineCheckout(values.baseline);
  const results: Result[] = [];
  const pairs: { engine: string; current: Result; baseline: Result }[] = [];
  for (const engine of benchEngines()) {
    console.log(`\n== ${engine}`);
    if (!baseline) {
      results.push(await runChild<Result>(import.meta.url, engine));
      continue;
    }
    const args = ["--engine", engine, ...(values.rebuild ? ["--rebuild"] : [])];
    const run = (side: Side, cwd: string) => ({
      file: fileURLToPath(import.meta.url),
      args,
      cwd,
      env: { ...process.env, BENCH_SIDE: side },
    });
    const [current, old] = await runInTurns<Result>([run("new", process.cwd()), run("baseline", baseline)]);
    old!.engine = `${engine} (baseline)`;
    results.push(current!, old!);
    pairs.push({ engine, current: current!, baseline: old! });
  }
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  const table = [["engine", "case", "n", "p50 ms", "p95 ms", "max ms", "target"]];
  for (const r of results) {
    const row = (name: string, s: Summary, target = "") =>
      table.push([r.engine, name, String(s.n), ms(s.p50), ms(s.p95), ms(s.max), target]);
    row("Meraki hand-off (GET /hotspot/meraki/…)", r.entry);
    row(`STK push (POST /connect/mpesa, ${r.guests} at once)`, r.push);
    row("callback answered (POST /hotspot/mpesa/…, ×2 each)", r.callback);
    row("grant after the callback (→ 303 to the grant URL)", r.grant, `p95 < 100${r.grant.p95 < 100 ? " ✓" : " ✗"}`);
    row("  of which the callback's answer", r.grantCallbackPart);
    row("  of which the waiting page", r.grantPagePart);
    row("  callback sent while pushes were being answered", r.grantDuringPushes);
    row("  callback sent after the last push was answered", r.grantAfterPushes);
    row("failure page after the callback", r.failurePage);
    row("grant after the callback, one purchase at a time", r.grantAlone);
    table.push([r.engine, `reconcilePayments (${r.reconcile.checked} checked)`, "1", ms(r.reconcile.ms), "", "", ""]);
  }
  printTable(table);
  console.log(`At the end: ${load()}`);
  for (const r of results) {
    const c = r.checks;
    const outcomes = Object.entries(r.outcomes)
      .map(([k, v]) => `${v} ${k}`)
      .join(", ");
    console.log(
      `\n${r.engine}: ${r.guests} purchases at once (${outcomes}) after ${settings.warmup} warm-up purchases, then ${settings.sequential} one at a time; callbacks after ${settings.minDelay}–${settings.maxDelay} ms, each sent twice`,
    );
    console.log(
      `  transactions: ${c.purchases} (${c.completed} COMPLETED, ${c.failed} FAILED, ${c.pending} pending); subscriptions: ${c.activeSubscriptions} Active, ${c.cancelledSubscriptions} Cancelled, ${c.pendingSubscriptions} Pending; ${c.authorized} connections authorized; ${c.duplicates} duplicates`,
    );
    const steps = Object.entries(r.aloneCpuMs)
      .map(([step, ms]) => `${step} ${ms.toFixed(1)}`)
      .join(", ");
    const database =
      r.databaseCpuMsPerPurchase === null ? "" : ` (PostgreSQL's backends: ${r.databaseCpuMsPerPurchase.toFixed(1)} ms more)`;
    console.log(
      `  this benchmark's own CPU per purchase (the guests and the fake Daraja, on the same cores): ${r.benchCpuMsPerPurchase.toFixed(1)} ms`,
    );
    console.log(
      `  server CPU per purchase (the server process only): ${r.serverCpuMsPerPurchase.toFixed(1)} ms at once${database}; one at a time, ms: ${steps}`,
    );
    console.log(
      `  callbacks: ${c.callbacksSent} sent, ${c.callbacksNot200} not answered 200; ${r.callbackFirst} came before their guest reached the waiting page; ${r.pendingAfterCallback} reloads after an answered callback still found the purchase pending`,
    );
    const log = Object.entries(r.serverLog).filter(([, n]) => n > 0);
    if (log.length) console.log(`  server log: ${log.map(([k, n]) => `${n}× ${k}`).join(", ")}`);
    for (const p of c.problems) console.log(`  problem: ${p}`);
    console.log(
      `${r.engine}: ${c.problems.length === 0 ? "PASS" : "FAIL"} — every purchase ended in exactly one subscription or one failure${c.problems.length === 0 ? "" : ` (${c.problems.length} problems)`}`,
    );
  }
  if (baseline) printComparison(baseline, pairs);
  if (!process.env.BENCH_POSTGRES_URL) console.log("\nAdd --pg (npm run bench -- mpesa --pg) to benchmark PostgreSQL too.");
  if (results.some((r) => r.checks.problems.length > 0)) process.exitCode = 1;
}

/** With --baseline: per measure and engine, this checkout's figure, the baseline's and their ratio. */
function printComparison(baseline: string, pairs: { engine: string; current: Result; baseline: Result }[]): void {
  const latency = (name: string, of: (r: Result) => Summary): Measure<Result>[] => [
    { name: `${name} p50 ms`, value: (r) => of(r).p50, digits: 1 },
    { name: `${name} p95 ms`, value: (r) => of(r).p95, digits: 1 },
  ];
  const measures: Measure<Result>[] = [
    ...latency("STK push, all at once", (r) => r.push),
    ...latency("callback answered", (r) => r.callback),
    ...latency("grant after the callback", (r) => r.grant),
    ...latency("grant, one purchase at a time", (r) => r.grantAlone),
    { name: "server CPU ms per purchase, at once", value: (r) => r.serverCpuMsPerPurchase, digits: 1 },
    { name: "PostgreSQL CPU ms per purchase, at once", value: (r) => r.databaseCpuMsPerPurchase ?? undefined, digits: 1 },
    {
      name: "server CPU ms per purchase, one at a time",
      value: (r) => Object.values(r.aloneCpuMs).reduce((sum, ms) => sum + ms, 0),
      digits: 1,
    },
  ];
  console.log(`\nThis checkout (new) beside ${baseline} (baseline), part by part in turn`);
  console.log(comparisonTable(pairs, measures));
  console.log("Lower is better throughout; CPU per purchase moves least with the machine's other load.");
}

// ---------------------------------------------------------------------------------------------
// One engine (a child process: the database module reads DATABASE_URL once)

interface Guest {
  phone: string; // 07XXXXXXXX, as typed
  digits: string; // 2547XXXXXXXX, as Daraja gets it
  outcome: DarajaOutcome;
  clientMac: string;
  token?: string;
  location?: string;
  checkout?: string;
  /** when the guest reached its waiting page (the POST's 303 arrived) */
  waitingSince?: number;
  /** how its purchase ended on the waiting page */
  ended?: PageKind | "gave-up";
  firstCallback?: SentCallback;
  /** callbacks of its purchase answered so far */
  callbacksAnswered: number;
  endedAt?: number;
  /** wakes the guest's waiting loop (a callback of its purchase was answered) */
  wake?: () => void;
}

async function runEngine(engine: Engine, rebuild: boolean): Promise<Result> {
  const dir = path.join(ROOT, engine);
  fs.mkdirSync(dir, { recursive: true });
  await useBenchDatabase(engine, { sqliteFile: SQLITE_FILE, postgresDatabase: POSTGRES_DATABASE }, rebuild);
  // The fake first: the environment (parsed once, in this process and the server's) names it.
  const { startFakeDaraja } = await import("../scripts/fakes/daraja");
  const base = portBase();
  const offset = SIDE === "baseline" ? 1 : 0;
  const fake = await startFakeDaraja({ port: base === undefined ? undefined : base + 5 + offset });
  const port = base === undefined ? await freePort() : base + 3 + offset;
  /** Progress, named by engine and checkout when two children share the terminal. */
  const say = (text: string) =>
    console.log(process.env.BENCH_TURNS ? `  ${engine}${SIDE === "baseline" ? " (baseline)" : ""}: ${text}` : `  ${text}`);
  const origin = `http://127.0.0.1:${port}`;
  Object.assign(process.env, { SECRETS_KEY, DARAJA_URL: fake.url, PUBLIC_URL: origin });
  const { closeDatabase, migrateToLatest } = await import("~/db/db.server");
  let server: ChildProcess | null = null;
  try {
    await migrateToLatest();
    const world = await makeWorld();
    const stderrLog = path.join(dir, "stderr.log");
    const logFrom = fs.existsSync(stderrLog) ? fs.statSync(stderrLog).size : 0;
    const app = await startServer(dir, port, origin, fake.url, stderrLog);
    server = app;

    fake.duplicateCallbacks = true;
    fake.callbackDelayFor = () => settings.minDelay + Math.random() * (settings.maxDelay - settings.minDelay);
    const outcomeOf = new Map<string, DarajaOutcome>();
    fake.outcomeFor = ({ phone }) => outcomeOf.get(phone) ?? "success";
    const byCheckout = new Map<string, Guest>();
    const callbackTimes: number[] = [];
    let measuring = false;
    fake.onCallbackSent = (sent) => {
      if (measuring) callbackTimes.push(sent.answeredAt - sent.sentAt);
      const guest = byCheckout.get(sent.checkoutRequestId);
      if (!guest) return;
      guest.firstCallback ??= sent;
      guest.callbacksAnswered++;
      guest.wake?.();
    };

    const warmup = makeGuests(settings.warmup, () => "success");
    const guests = makeGuests(settings.guests, (i) => (i % 10 === 8 ? "cancelled" : i % 10 === 9 ? "no_callback" : "success"));
    for (const g of [...warmup, ...guests]) outcomeOf.set(g.digits, g.outcome);

    await turn("warm-up");
    say(`${settings.warmup} warm-up purchases`);
    await purchases(origin, world, warmup, fake, byCheckout);
    await fake.idle();

    await turn("purchases at once");
    say(`${settings.guests} purchases at once`);
    measuring = true;
    const cpuBefore = serverCpuMs(app.pid);
    const benchCpuBefore = process.cpuUsage();
    const databaseBefore = engine === "postgres" ? databaseCpuMs(POSTGRES_DATABASE) : null;
    const { entryTimes, pushTimes, pendingAfterCallback, lastPushAt } = await purchases(origin, world, guests, fake, byCheckout);
    await fake.idle();
    const serverCpuMsPerPurchase = (serverCpuMs(app.pid) - cpuBefore) / guests.length;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const benchCpuMsPerPurchase = (benchCpu.user + benchCpu.system) / 1000 / guests.length;
    // null on SQLite, and when a backend ended meanwhile (its time went with it).
    const databaseCpu = databaseBefore === null ? null : databaseCpuMs(POSTGRES_DATABASE) - databaseBefore;
    const databaseCpuMsPerPurchase = databaseCpu === null || !(databaseCpu >= 0) ? null : databaseCpu / guests.length;
    measuring = false;

    // The purchases without a callback: once M-Pesa has their result (the fake's completesAt), the
    // job's STK query settles them; then their guests come back to the waiting page.
    const lastResult = Math.max(...fake.stkRequests.map((r) => r.completesAt));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastResult - Date.now()) + 50));
    const { QUERY_AFTER_MS, reconcilePayments } = await import("~/services/prepaid/mpesa.server");
    const reconcileStarted = performance.now();
    const checked = await reconcilePayments(Date.now() + QUERY_AFTER_MS + 1_000);
    const reconcileMs = performance.now() - reconcileStarted;
    for (const g of [...warmup, ...guests]) {
      if (g.ended === "gave-up") g.ended = (await waitingPage(origin, g)).kind;
    }

    const grant: number[] = [];
    const grantCallbackPart: number[] = [];
    const grantPagePart: number[] = [];
    const grantDuringPushes: number[] = [];
    const grantAfterPushes: number[] = [];
    const failurePage: number[] = [];
    let callbackFirst = 0;
    for (const g of guests) {
      if (!g.firstCallback || g.endedAt === undefined) continue;
      const { sentAt, answeredAt } = g.firstCallback;
      const from = Math.max(sentAt, g.waitingSince!);
      if (sentAt < g.waitingSince!) callbackFirst++;
      if (g.outcome === "success" && g.ended === "granted") {
        grant.push(g.endedAt - from);
        grantCallbackPart.push(Math.max(0, answeredAt - from));
        grantPagePart.push(g.endedAt - Math.max(answeredAt, from));
        (sentAt < lastPushAt ? grantDuringPushes : grantAfterPushes).push(g.endedAt - from);
      }
      if (g.outcome === "cancelled" && g.ended === "failed") failurePage.push(g.endedAt - from);
    }

    // One at a time: the grant without a queue in front of it.
    await turn("one at a time");
    const alone = makeGuests(settings.sequential, () => "success");
    for (const g of alone) outcomeOf.set(g.digits, g.outcome);
    fake.callbackDelayFor = () => 50;
    const grantAlone: number[] = [];
    const stepCpu = Object.fromEntries(STEPS.map((step) => [step, 0])) as Record<Step, number>;
    for (const g of alone) {
      let cpu = serverCpuMs(app.pid);
      const mark = (step: Step) => {
        const at = serverCpuMs(app.pid);
        stepCpu[step] += at - cpu;
        cpu = at;
      };
      await purchases(origin, world, [g], fake, byCheckout, mark);
      await fake.idle();
      await sleep(20); // the duplicate callback's work after its answer, if any
      mark("2 callbacks + the grant");
      if (g.ended === "granted" && g.firstCallback && g.endedAt !== undefined)
        grantAlone.push(g.endedAt - Math.max(g.firstCallback.sentAt, g.waitingSince!));
    }

    const checks = await check(world, [...warmup, ...guests, ...alone], fake);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const words = fs.readFileSync(stderrLog, "utf8").slice(logFrom);
    const serverLog = Object.fromEntries(
      [
        "mpesa_callback_unknown",
        "mpesa_callback_mismatch",
        "mpesa_stk_push_failed",
        "mpesa_stk_query_failed",
        "gateway_grant_failed",
        "mpesa_credentials_unreadable",
      ].map((event) => [event, words.split(`"event":"${event}"`).length - 1]),
    );
    const errors = words.split("\n").filter((line) => /error/i.test(line) && !line.startsWith("{")).length;
    if (errors) serverLog["other error lines"] = errors;
    const outcomes: Record<string, number> = {};
    for (const g of guests) outcomes[g.outcome] = (outcomes[g.outcome] ?? 0) + 1;
    return {
      engine,
      guests: guests.length,
      outcomes,
      entry: summarize(entryTimes),
      push: summarize(pushTimes),
      grant: summarize(grant),
      grantCallbackPart: summarize(grantCallbackPart),
      grantPagePart: summarize(grantPagePart),
      grantDuringPushes: summarize(grantDuringPushes),
      grantAfterPushes: summarize(grantAfterPushes),
      grantAlone: summarize(grantAlone),
      aloneCpuMs: Object.fromEntries(STEPS.map((step) => [step, stepCpu[step] / Math.max(1, alone.length)])),
      serverCpuMsPerPurchase,
      databaseCpuMsPerPurchase,
      benchCpuMsPerPurchase,
      callback: summarize(callbackTimes),
      failurePage: summarize(failurePage),
      callbackFirst,
      pendingAfterCallback,
      reconcile: { checked, ms: reconcileMs },
      serverLog,
      checks,
    };
  } finally {
    if (server) await stop(server);
    await fake.close();
    await closeDatabase();
  }
}

let phoneBase = 0;
function makeGuests(n: number, outcome: (i: number) => DarajaOutcome): Guest[] {
  // Phones unique to this run (a phone's paid plan would reconnect the next guest instead of buying).
  phoneBase ||= 10_000_000 + Math.floor(Math.random() * 80_000_000);
  const order = Array.from({ length: n }, (_, i) => outcome(i)).sort(() => Math.random() - 0.5);
  return order.map((o) => {
    const eight = String(phoneBase++).padStart(8, "0");
    return { phone: `07${eight}`, digits: `2547${eight}`, outcome: o, clientMac: randomMac(), callbacksAnswered: 0 };
  });
}

type World = Awaited<ReturnType<typeof makeWorld>>;

/** An organisation with a Meraki network, a plan of Kes 50 and M-Pesa set up against the fake. */
async function makeWorld() {
  const { db } = await import("~/db/db.server");
  const { buildAccessPoint, buildVenue, insertUser } = await import("~/tools/factories.server");
  const { createOrganization } = await import("~/services/organizations.server");
  const { servicePlanSchema } = await import("~/lib/schemas/plans");
  const { mpesaSettingsSchema } = await import("~/lib/schemas/mpesa");
  const { createPlan } = await import("~/services/prepaid/plans.server");
  const { saveMpesaSettings } = await import("~/services/prepaid/mpesa-settings.server");
  const { DEMO_MPESA_FORM } = await import("../scripts/fakes/daraja");
  const stamp = Date.now();
  const owner = await insertUser({
    email: `mpesa-bench-${stamp}@example.com`,
    phone_number: `+25479${String(stamp % 10_000_000).padStart(7, "0")}`,
  });
  const org = await createOrganization(owner.id, {
    name: `M-Pesa benchmark ${new Date(stamp).toISOString()}`,
    address: "Benchmark Road, Nairobi",
  });
  const ctx = await contextFor(owner.id, org.id);
  const venue = await db
    .insertInto("venues")
    .values(buildVenue(org.id, { name: "M-Pesa Lab", guest_signup: 0 }))
    .returning(["id", "portal_key"])
    .executeTakeFirstOrThrow();
  const ap = await db
    .insertInto("access_points")
    .values(buildAccessPoint(org.id, venue.id, { name: "M-Pesa Lab AP" }))
    .returning(["id", "mac_address"])
    .executeTakeFirstOrThrow();
  const plan = await createPlan(
    ctx,
    servicePlanSchema(false).parse({
      name: "Two hours",
      price: String(PRICE),
      plan_kind: "Limited",
      limit_type: "Time",
      time_limit: "2",
      time_limit_unit: "Hrs",
      validity: "1",
      validity_units: "Days",
    }),
  );
  if (!plan.ok) throw new Error(`createPlan refused: ${JSON.stringify(plan.errors)}`);
  const mpesa = mpesaSettingsSchema.parse(DEMO_MPESA_FORM);
  if ((await saveMpesaSettings(ctx, mpesa)) !== "saved") throw new Error("saveMpesaSettings refused the settings");
  return { orgId: org.id, portalKey: venue.portal_key, apMac: ap.mac_address, planId: plan.id };
}

/** The guard's context of the owner, as a signed-in request gets it. */
async function contextFor(userId: number, orgId: number) {
  const { issueToken } = await import("~/services/auth.server");
  const { commitSession, sessionStorage } = await import("~/services/session.server");
  const { requireOrg } = await import("~/services/guard.server");
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(userId, "web"));
  const cookie = (await commitSession(session)).split(";")[0];
  return requireOrg(new Request(`http://localhost/${orgId}/prepaid`, { headers: { Cookie: cookie } }), { orgId: String(orgId) });
}

// ---------------------------------------------------------------------------------------------
// The guests

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function randomMac(): string {
  return Array.from({ length: 6 }, (_, i) => (i === 0 ? 0x02 : Math.floor(Math.random() * 256)).toString(16).padStart(2, "0")).join(":");
}

/** The query a Meraki access point appends to the splash URL. */
function merakiQuery(apMac: string, clientMac: string): string {
  return new URLSearchParams({
    base_grant_url: GRANT_URL,
    user_continue_url: "http://example.com/news",
    node_mac: apMac.toUpperCase().replace(/:/g, "-"),
    client_mac: clientMac,
    client_ip: "10.0.0.23",
    node_id: "12345",
    gateway_id: "67890",
  }).toString();
}

/** Every guest enters, then all buy at once, then each waits for its purchase to end. */
/** The steps of a purchase, for `mark` (called after each, when one guest buys alone). */
const STEPS = ["entry", "STK push", "waiting page (pending)", "2 callbacks + the grant"] as const;
type Step = (typeof STEPS)[number];

async function purchases(
  origin: string,
  world: World,
  guests: Guest[],
  fake: FakeDaraja,
  byCheckout: Map<string, Guest>,
  mark?: (step: Step) => void,
) {
  const entryTimes: number[] = [];
  await Promise.all(
    guests.map(async (g) => {
      const started = performance.now();
      const res = await httpRequest(`${origin}/hotspot/meraki/${world.portalKey}?${merakiQuery(world.apMac, g.clientMac)}`);
      entryTimes.push(performance.now() - started);
      mark?.("entry");
      const location = res.headers.location ?? "";
      if (!location.startsWith("/connect?token=")) throw new Error(`The Meraki hand-off answered ${res.status} ${location}`);
      g.token = location.slice("/connect?token=".length);
    }),
  );

  const pushTimes: number[] = [];
  let pendingAfterCallback = 0;
  let lastPushAt = 0;
  await Promise.all(
    guests.map(async (g) => {
      const started = performance.now();
      const res = await httpRequest(`${origin}/connect/mpesa`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: g.token!, plan_id: String(world.planId), phone_number: g.phone }).toString(),
      });
      pushTimes.push(performance.now() - started);
      mark?.("STK push");
      g.waitingSince = now();
      lastPushAt = Math.max(lastPushAt, g.waitingSince);
      const location = res.headers.location ?? "";
      if (res.status !== 303 || !location.startsWith("/connect/mpesa/wait?"))
        throw new Error(`POST /connect/mpesa answered ${res.status}: ${res.text.slice(0, 300)}`);
      g.location = location;
      const request = fake.stkRequests.find((r) => r.phone === g.digits);
      if (!request) throw new Error(`No STK push reached the fake for ${g.digits}`);
      g.checkout = request.checkoutRequestId;
      byCheckout.set(g.checkout, g);
      // Callbacks answered before the guest got here are looked up now.
      const early = fake.callbacksSent.filter((c) => c.checkoutRequestId === g.checkout);
      g.firstCallback ??= early[0];
      g.callbacksAnswered = Math.max(g.callbacksAnswered, early.length);

      // The browser follows the 303, then reloads when a callback was answered (or the page refreshes).
      for (;;) {
        const seen = g.callbacksAnswered;
        const page = await waitingPage(origin, g);
        if (page.kind === "pending" && seen === 0) mark?.("waiting page (pending)");
        if (page.kind !== "pending") {
          g.ended = page.kind;
          g.endedAt = page.at;
          return;
        }
        if (seen > 0) pendingAfterCallback++;
        const left = (g.outcome === "no_callback" ? GIVE_UP_MS : WAIT_AT_MOST_MS) - (now() - g.waitingSince);
        if (left <= 0) {
          g.ended = "gave-up";
          return;
        }
        if (g.callbacksAnswered > seen) continue; // answered while the page loaded
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(REFRESH_MS, left));
          g.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        g.wake = undefined;
      }
    }),
  );
  return { entryTimes, pushTimes, pendingAfterCallback, lastPushAt };
}

/** One load of the waiting page: what it shows, and when its answer arrived. */
type PageKind = "granted" | "online" | "failed" | "pending";

async function waitingPage(origin: string, g: Guest): Promise<{ kind: PageKind; at: number }> {
  const res = await httpRequest(`${origin}${g.location}`);
  const at = now();
  const location = res.headers.location ?? "";
  const body = res.text;
  if (res.status === 303 && location.startsWith(GRANT_URL)) return { kind: "granted", at };
  if (res.status === 303 && location.startsWith("/connect/online?")) return { kind: "online", at };
  if (res.status === 200 && body.includes("Payment not completed")) return { kind: "failed", at };
  if (res.status === 200 && body.includes("Check your phone")) return { kind: "pending", at };
  throw new Error(`The waiting page answered ${res.status} ${location} ${body.replace(/\s+/g, " ").slice(0, 300)}`);
}

// ---------------------------------------------------------------------------------------------
// How every purchase ended

async function check(world: World, guests: Guest[], fake: FakeDaraja): Promise<Checks> {
  const { db } = await import("~/db/db.server");
  const { hashToken } = await import("~/services/crypto.server");
  const { COMPLETED, FAILED, PENDING } = await import("~/services/prepaid/mpesa.server");
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < 20) problems.push(text);
  };
  const transactions = await db
    .selectFrom("mpesa_transactions")
    .select([
      "id",
      "status",
      "result_code",
      "connection_id",
      "subscription_id",
      "phone_number",
      "amount",
      "checkout_request_id",
      "transaction_id",
    ])
    .where("organization_id", "=", world.orgId)
    .execute();
  const subscriptions = await db
    .selectFrom("subscriptions")
    .select(["id", "status", "started_on", "expires_on", "source"])
    .where("organization_id", "=", world.orgId)
    .execute();
  const connections = await db
    .selectFrom("connections")
    .select(["id", "token", "authorized_at", "authorization_mode", "subscription_id"])
    .where("organization_id", "=", world.orgId)
    .execute();
  const subscriptionById = new Map(subscriptions.map((s) => [Number(s.id), s]));
  const connectionByToken = new Map(connections.map((c) => [c.token, c]));
  const usesOfSubscription = new Map<number, number>();
  for (const t of transactions)
    if (t.subscription_id !== null)
      usesOfSubscription.set(Number(t.subscription_id), (usesOfSubscription.get(Number(t.subscription_id)) ?? 0) + 1);

  let duplicates = Math.max(0, subscriptions.length - transactions.length);
  for (const [id, uses] of usesOfSubscription)
    if (uses > 1) {
      duplicates += uses - 1;
      problem(`subscription ${id} belongs to ${uses} purchases`);
    }
  for (const s of subscriptions)
    if (!usesOfSubscription.has(Number(s.id))) problem(`subscription ${s.id} (${s.status}, ${s.source}) belongs to no purchase`);

  for (const g of guests) {
    const connection = connectionByToken.get(hashToken(g.token!));
    if (!connection) {
      problem(`${g.digits}: no connection`);
      continue;
    }
    const mine = transactions.filter((t) => Number(t.connection_id) === Number(connection.id));
    if (mine.length !== 1) {
      problem(`${g.digits}: ${mine.length} purchases`);
      duplicates += Math.max(0, mine.length - 1);
      if (mine.length === 0) continue;
    }
    const t = mine[0]!;
    const sub = t.subscription_id === null ? undefined : subscriptionById.get(Number(t.subscription_id));
    const paid = g.outcome === "success" || g.outcome === "no_callback";
    const label = `${g.digits} (${g.outcome})`;
    if (!t.checkout_request_id) problem(`${label}: no CheckoutRequestID kept`);
    if (!sub) {
      problem(`${label}: its purchase has no subscription`);
      continue;
    }
    if (paid) {
      if (t.status !== COMPLETED) problem(`${label}: transaction status ${t.status}, result ${t.result_code}`);
      if (sub.status !== "Active" || sub.started_on === null || sub.expires_on === null)
        problem(`${label}: subscription ${sub.id} is ${sub.status}`);
      if (connection.authorized_at === null || connection.authorization_mode !== "MPESA")
        problem(`${label}: connection not authorized (${connection.authorization_mode})`);
      else if (Number(connection.subscription_id) !== Number(sub.id))
        problem(`${label}: connection authorized under subscription ${connection.subscription_id}, not ${sub.id}`);
      if (g.ended !== "granted") problem(`${label}: the waiting page ended ${g.ended ?? "never"}`);
      if (g.outcome === "success" && !/^[A-Z0-9]{6,20}$/.test(t.transaction_id ?? "")) problem(`${label}: no receipt kept`);
    } else {
      if (t.status !== FAILED || Number(t.result_code) !== 1032)
        problem(`${label}: transaction status ${t.status}, result ${t.result_code}`);
      if (sub.status !== "Cancelled") problem(`${label}: subscription ${sub.id} is ${sub.status}`);
      if (connection.authorized_at !== null) problem(`${label}: connection authorized (${connection.authorization_mode})`);
      if (g.ended !== "failed") problem(`${label}: the waiting page ended ${g.ended ?? "never"}`);
    }
    const pushes = fake.stkRequests.filter((r) => r.phone === g.digits).length;
    if (pushes !== 1) problem(`${label}: ${pushes} STK pushes`);
  }
  if (transactions.length !== guests.length) problem(`${transactions.length} transactions for ${guests.length} purchases`);

  const sent = fake.callbacksSent.filter((c) => guests.some((g) => g.checkout === c.checkoutRequestId));
  const expected = guests.filter((g) => g.outcome !== "no_callback").length * 2;
  if (sent.length !== expected) problem(`${sent.length} callbacks sent, ${expected} expected`);
  const not200 = sent.filter((c) => c.status !== 200).length;
  if (not200) problem(`${not200} callbacks not answered 200`);
  const count = <T>(rows: T[], test: (row: T) => boolean) => rows.filter(test).length;
  return {
    purchases: transactions.length,
    completed: count(transactions, (t) => t.status === COMPLETED),
    failed: count(transactions, (t) => t.status === FAILED),
    pending: count(transactions, (t) => t.status === PENDING),
    activeSubscriptions: count(subscriptions, (s) => s.status === "Active"),
    cancelledSubscriptions: count(subscriptions, (s) => s.status === "Cancelled"),
    pendingSubscriptions: count(subscriptions, (s) => s.status === "Pending"),
    authorized: count(connections, (c) => c.authorized_at !== null),
    duplicates,
    callbacksSent: sent.length,
    callbacksNot200: not200,
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// The server process

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(dir: string, port: number, origin: string, darajaUrl: string, stderrLog: string): Promise<ChildProcess> {
  const stderr = fs.openSync(stderrLog, "a");
  const profile = settings.profile ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  const server = spawn(process.execPath, [...profile, "server.mjs"], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      DARAJA_URL: darajaUrl,
      NODE_ENV: "production",
      SESSION_SECRET: "mpesa-benchmark-session-secret-0123456789abcdef",
      SECRETS_KEY,
      JOBS_WORKER: "off",
      REPORT_SCHEDULER: "off",
      WEB_CONCURRENCY: String(settings.workers),
    },
    stdio: ["ignore", "ignore", stderr],
  });
  fs.closeSync(stderr);
  try {
    for (let i = 0; i < 150; i++) {
      if (server.exitCode !== null) throw new Error(`The app server exited (code ${server.exitCode}); see ${stderrLog}`);
      try {
        if ((await fetch(`${origin}/healthz`)).ok) return server;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error("The app server did not start");
  } catch (error) {
    await stop(server);
    throw error;
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function summarize(times: number[]): Summary {
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, p50: NaN, p95: NaN, max: NaN };
  return { n: sorted.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1]! };
}

// Each engine runs in a child process of its own (--engine); the parent prints the table.
if (values.engine) {
  const result = await runEngine(values.engine as Engine, values.rebuild!);
  process.send!(result, () => process.exit(0));
} else {
  await main();
}
