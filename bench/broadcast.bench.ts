// Broadcast dispatch benchmark (decision 0018): tsx bench/broadcast.bench.ts
//   [--recipients 100000] [--sms-rate 1000]
// For each engine (SQLite; PostgreSQL too with BENCH_POSTGRES_URL, npm run bench -- broadcast --pg), in a
// fresh database: N consenting customers in one group, then
//   1. e-mail to all of them through an SMTP sink (smtp-server, in this process) by a worker in a
//      child process: messages/s from the schedule's start to Sent, and the worker's RSS (sampled
//      every second after the first);
//   2. the same again, the worker killed (SIGKILL) half-way and started again: messages at the sink
//      counted as received and by Message-ID (one per delivery row): exactly once means N of each;
//   3. SMS to all of them at --sms-rate through the fake Africa's Talking (scripts/fakes/africastalking.ts,
//      in this process, limited to the same rate) and Mlango's Africa's Talking adapter in the worker,
//      killed half-way too: messages counted as the fake accepts them.
// --runs email,email-killed,sms-killed chooses the runs (all by default).
// After a kill, the leases of the dead worker (its job, its batch in flight) are ended by hand: that
// is what waiting for them (5 and 10 minutes) would do.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { createFakeAfricasTalking, DEMO_AT_CREDENTIALS } from "../scripts/fakes/africastalking";
import { benchEngines, printTable, runChild, useBenchDatabase, type Engine } from "./engine-harness";

// The options reach the engine and worker processes through the environment (they inherit it).
const arg = (name: string, variable: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  const value = Number((i >= 0 ? process.argv[i + 1]! : (process.env[variable] ?? String(fallback))).replace(/_/g, ""));
  process.env[variable] = String(value);
  return value;
};
const RECIPIENTS = arg("--recipients", "BENCH_RECIPIENTS", 100_000);
const SMS_RATE = arg("--sms-rate", "BENCH_SMS_RATE", 1_000);
const runsAt = process.argv.indexOf("--runs");
process.env.BENCH_BROADCAST_RUNS =
  runsAt >= 0 ? process.argv[runsAt + 1]! : (process.env.BENCH_BROADCAST_RUNS ?? "email,email-killed,sms-killed");
const RUNS = new Set(process.env.BENCH_BROADCAST_RUNS.split(","));

interface Row {
  engine: Engine;
  run: string;
  seconds: number;
  perSecond: number;
  distinct: number;
  received: number;
  rssMinMb: number;
  rssMaxMb: number;
  jobs: number;
}

type WorkerMessage = { rss: number };

/** A worker process: works the job queue until killed, reporting its RSS and the SMS it "sent". */
async function worker(): Promise<void> {
  const { JOB_TYPES } = await import("~/services/jobs/index.server");
  const { startWorker } = await import("~/services/jobs/worker.server");
  const { smsSenders } = await import("~/services/marketing/dispatch/sender.server");
  const { africasTalking } = await import("~/services/marketing/sms/africastalking.server");
  const provider = africasTalking({ baseUrl: process.env.BENCH_AT_URL!, ...DEMO_AT_CREDENTIALS });
  smsSenders.lookup = async () => ({ from: null, messagesPerSecond: SMS_RATE, provider });
  setInterval(() => process.send!({ rss: process.memoryUsage().rss } satisfies WorkerMessage), 1_000);
  process.on("disconnect", () => process.exit(0));
  startWorker({ jobTypes: JOB_TYPES, concurrency: 2, pollMs: 200 });
}

async function runEngine(engine: Engine): Promise<Row[]> {
  await useBenchDatabase(engine, { sqliteFile: "data/bench/broadcast.db", postgresDatabase: "mlango_bench_broadcast" }, true);
  process.env.NODE_ENV = "production";
  process.env.SESSION_SECRET ??= "bench-secret-0123456789";
  process.env.SECRETS_KEY ??= "0".repeat(64);
  process.env.PUBLIC_URL ??= "http://localhost:3000";
  process.env.REPORT_SCHEDULER = "off";
  const sink = await startSink();
  const sms = await createFakeAfricasTalking({ rateLimitPerSecond: SMS_RATE, callbackUrl: null });
  process.env.BENCH_AT_URL = sms.url;
  // Broadcast mail keeps its own connections (dispatch/held-smtp.server.ts).
  process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
  const { migrateToLatest, closeDatabase, db } = await import("~/db/db.server");
  await migrateToLatest();
  const orgId = await seed(db);
  const rows: Row[] = [];

  const run = async (name: string, channel: "EMAIL" | "SMS", kill: boolean) => {
    const scheduleId = await newSchedule(db, orgId, channel);
    const before = await db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const seen = new Set<string>();
    let received = 0;
    const count = (key: string) => {
      received++;
      seen.add(key);
    };
    sink.onMail = count;
    // Each message the fake accepts (one per number of a whole request), as it accepts it.
    sms.sent.push = (...items) => {
      for (const item of items) count(item.number);
      return Array.prototype.push.apply(sms.sent, items);
    };
    const rss: number[] = [];
    const started = performance.now();
    let child = startWorkerProcess(rss);
    if (kill) {
      while (seen.size < RECIPIENTS / 2) await pause(20);
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      await db.updateTable("jobs").set({ locked_until: 0 }).where("status", "=", "running").execute();
      await db
        .updateTable("broadcast_deliveries")
        .set({ next_attempt_at: 0 })
        .where("schedule_id", "=", scheduleId)
        .where("status", "=", "queued")
        .execute();
      child = startWorkerProcess(rss);
    }
    for (;;) {
      const s = await db.selectFrom("broadcast_schedules").select("status").where("id", "=", scheduleId).executeTakeFirstOrThrow();
      if (s.status === "Sent" || s.status === "Failed") break;
      await pause(100);
    }
    const seconds = (performance.now() - started) / 1000;
    await pause(300); // the last mails' DATA reaching the sink
    child.kill("SIGKILL");
    const after = await db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const steady = rss.slice(1);
    rows.push({
      engine,
      run: name,
      seconds,
      perSecond: RECIPIENTS / seconds,
      distinct: seen.size,
      received,
      rssMinMb: Math.min(...steady) / 2 ** 20,
      rssMaxMb: Math.max(...steady) / 2 ** 20,
      jobs: Number(after.n) - Number(before.n),
    });
    const sent = await db
      .selectFrom("broadcast_deliveries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("schedule_id", "=", scheduleId)
      .where("status", "=", "sent")
      .executeTakeFirstOrThrow();
    if (Number(sent.n) !== RECIPIENTS) throw new Error(`${name}: ${sent.n} rows sent, ${RECIPIENTS} expected`);
  };

  if (RUNS.has("email")) await run("e-mail", "EMAIL", false);
  if (RUNS.has("email-killed")) await run("e-mail, killed", "EMAIL", true);
  if (RUNS.has("sms-killed")) await run("SMS, killed", "SMS", true);
  const refused = sms.requests.filter((r) => r.status !== 201).length;
  if (refused) console.log(`  the fake Africa's Talking refused ${refused} requests (over its rate: HTTP 429)`);
  await sms.close();
  await sink.close();
  await closeDatabase();
  return rows;
}

function startWorkerProcess(rss: number[]): ChildProcess {
  const child = fork(fileURLToPath(import.meta.url), ["--worker"], {
    execArgv: process.execArgv,
    env: process.env,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  child.on("message", (message: WorkerMessage) => {
    rss.push(message.rss);
  });
  return child;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An SMTP sink that reads each mail's Message-ID and drops the rest. */
async function startSink() {
  const state = { onMail: (_messageId: string): void => undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        state.onMail(/^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? "");
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

type Db = typeof import("~/db/db.server").db;

async function seed(db: Db): Promise<number> {
  const now = Date.now();
  const org = await db
    .insertInto("organizations")
    .values({
      name: "Bench Cafe",
      address: null,
      email_address: null,
      phone_number: null,
      more_info: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (let start = 0; start < RECIPIENTS; start += 1_000) {
    const rows = [];
    for (let i = start; i < Math.min(RECIPIENTS, start + 1_000); i++) {
      const phone = `+2547${String(i).padStart(8, "0")}`;
      rows.push({
        organization_id: org.id,
        identity: phone,
        phone_number: phone,
        email_address: `guest${i}@bench.test`,
        first_name: `Guest ${i}`,
        marketing_opt_in_at: now,
        created_at: now,
        updated_at: now,
      });
    }
    await db.insertInto("customers").values(rows).execute();
  }
  await db
    .insertInto("customer_groups")
    .values({
      organization_id: org.id,
      name: "Everyone",
      description: null,
      filters: JSON.stringify({ byDate: "NO", connections: 0, days: 0, dateRange: null, venues: [], accessPoints: [], profile: [] }),
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto("broadcasts")
    .values({
      organization_id: org.id,
      title: "Weekend offer",
      description: null,
      sms: "Half price coffee this weekend",
      email_html: "<html><body><h1>Half price</h1><p>Coffee and cake all weekend.</p></body></html>",
      email_text: null,
      email_design: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return org.id;
}

async function newSchedule(db: Db, orgId: number, channel: "EMAIL" | "SMS"): Promise<number> {
  const now = Date.now();
  const { scheduleDispatch } = await import("~/services/marketing/dispatch.server");
  const broadcast = await db.selectFrom("broadcasts").select("id").where("organization_id", "=", orgId).executeTakeFirstOrThrow();
  const group = await db.selectFrom("customer_groups").select("id").where("organization_id", "=", orgId).executeTakeFirstOrThrow();
  const schedule = await db
    .insertInto("broadcast_schedules")
    .values({
      organization_id: orgId,
      broadcast_id: broadcast.id,
      channel,
      dispatch_at: now,
      status: "Scheduled",
      started_at: null,
      finished_at: null,
      error: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("broadcast_schedule_groups")
    .values({ schedule_id: schedule.id, group_id: group.id, group_name: "Everyone" })
    .execute();
  await scheduleDispatch(schedule.id, now);
  return schedule.id;
}

if (process.argv.includes("--worker")) {
  await worker();
} else if (process.argv.includes("--engine")) {
  process.send!(await runEngine(process.argv[process.argv.indexOf("--engine") + 1] as Engine));
} else {
  const rows: Row[] = [];
  for (const engine of benchEngines()) rows.push(...(await runChild<Row[]>(import.meta.url, engine)));
  const mb = (v: number) => v.toFixed(0);
  printTable([
    ["engine", "run", "seconds", "messages/s", "distinct at sink", "received", "exactly once", "worker RSS min–max MB", "jobs"],
    ...rows.map((r) => [
      r.engine,
      r.run,
      r.seconds.toFixed(1),
      r.perSecond.toFixed(0),
      String(r.distinct),
      String(r.received),
      r.distinct === RECIPIENTS && r.received === RECIPIENTS
        ? "✓"
        : `✗ (${RECIPIENTS - r.distinct} missing, ${r.received - r.distinct} repeated)`,
      `${mb(r.rssMinMb)}–${mb(r.rssMaxMb)}`,
      String(r.jobs),
    ]),
  ]);
  console.log(
    `(${RECIPIENTS.toLocaleString("en-US")} recipients; SMS at ${SMS_RATE}/s; "killed" runs lose their worker half-way and start another)`,
  );
}
