// The database command line: `tsx app/db/cli.ts <command>`.
//   migrate                 bring the schema up to date
//   seed | demo             migrate, then load the demo data if the database has no users yet
//   generate --connections N [--customers N] [--devices N] [--venues N] [--access-points N]
//            [--days N] [--seed N]
//                           migrate, then add a separate generated organisation (for benchmarks)
//   reports:run             send the report e-mails due now (for cron; safe beside running servers)
//   jobs:work               work the job queue in the foreground until SIGTERM/SIGINT
//   jobs:list [--failed]    the newest jobs, or the dead letters (jobs that used all their attempts)
//   jobs:retry ID           put a dead letter back in the queue
//   portal:end-idle         end online connections whose gateway went quiet or whose session ran out
//                           (the portal.end-idle job, once; safe beside running servers)
//   rollups:rebuild [--organization N]
//                           recompute the analytics roll-ups from the connections (all organisations
//                           by default), e.g. after a bulk load that stopped half-way
import { parseArgs } from "node:util";
import { closeDatabase, db, migrateToLatest } from "./db.server";
import { generateDemoData, loadDemoIfEmpty, resolveSizes, type DemoOptions } from "./demo.server";
import { randomToken } from "~/services/crypto.server";
import { insertUser } from "./factories.server";

const USAGE = `Usage: tsx app/db/cli.ts <migrate | seed | demo | reports:run | jobs:work | jobs:list [--failed] | jobs:retry ID | portal:end-idle | rollups:rebuild [--organization N] | generate --connections N [--customers N] [--devices N] [--venues N] [--access-points N] [--days N] [--seed N]>`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "migrate":
      await migrateToLatest();
      console.log("Database migrated.");
      return;
    case "seed":
    case "demo":
      await migrateToLatest();
      // scripts/demo.sh makes the key once per install and hands it to the fake Africa's Talking too.
      if (!(await loadDemoIfEmpty({ smsCallbackKey: process.env.DEMO_SMS_CALLBACK_KEY || undefined })))
        console.log("The database already has users; demo data not loaded.");
      return;
    case "generate":
      await migrateToLatest();
      await generate(rest);
      return;
    case "reports:run": {
      await migrateToLatest();
      const { runDueReports } = await import("~/services/report-scheduler.server");
      const { sent, failed } = await runDueReports();
      console.log(`Report e-mails: ${sent} sent, ${failed} failed (retried later).`);
      if (failed) process.exitCode = 1;
      return;
    }
    case "jobs:work": {
      await migrateToLatest();
      const { startJobWorker, stopJobWorker } = await import("~/services/jobs/index.server");
      startJobWorker();
      console.log("Working the job queue; stop with Ctrl-C.");
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopJobWorker().then(resolve));
      });
      return;
    }
    case "jobs:list": {
      await migrateToLatest();
      const { values } = parseArgs({ args: rest, options: { failed: { type: "boolean" } } });
      const { listJobs } = await import("~/services/jobs/queue.server");
      const jobs = await listJobs({ status: values.failed ? "failed" : undefined });
      if (jobs.length === 0) console.log(values.failed ? "No failed jobs." : "No jobs.");
      for (const j of jobs) {
        console.log(
          `${j.id}\t${j.type}\t${j.status}\t${j.attempts}/${j.maxAttempts}\t${new Date(j.createdAt).toISOString()}\t${j.lastError ?? ""}`,
        );
      }
      return;
    }
    case "jobs:retry": {
      await migrateToLatest();
      const id = Number(rest[0]);
      if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`jobs:retry needs a job id.\n${USAGE}`);
      const { retryFailedJob } = await import("~/services/jobs/queue.server");
      if (!(await retryFailedJob(id))) throw new Error(`Job ${id} is not a failed job.`);
      console.log(`Job ${id} is queued again.`);
      return;
    }
    case "portal:end-idle": {
      await migrateToLatest();
      const { endIdleConnections } = await import("~/services/portal/accounting.server");
      const { idle, expired } = await endIdleConnections();
      console.log(`Connections ended: ${idle} idle, ${expired} past their session.`);
      return;
    }
    case "rollups:rebuild": {
      await migrateToLatest();
      const { values } = parseArgs({ args: rest, options: { organization: { type: "string" } } });
      const organizationId = values.organization === undefined ? undefined : Number(values.organization);
      if (organizationId !== undefined && !Number.isSafeInteger(organizationId))
        throw new Error(`--organization must be an id, got "${values.organization}".`);
      const { rebuildRollups } = await import("./rollups.server");
      await rebuildRollups(organizationId);
      console.log(
        `Analytics roll-ups rebuilt for ${organizationId === undefined ? "every organization" : `organization ${organizationId}`}.`,
      );
      return;
    }
    default:
      throw new Error(command ? `Unknown command "${command}".\n${USAGE}` : USAGE);
  }
}

async function generate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      connections: { type: "string" },
      customers: { type: "string" },
      devices: { type: "string" },
      venues: { type: "string" },
      "access-points": { type: "string" },
      days: { type: "string" },
      seed: { type: "string" },
    },
  });
  const number = (name: keyof typeof values) => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const n = Number(raw.replace(/_/g, ""));
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${raw}".`);
    return n;
  };
  if (values.connections === undefined) throw new Error(`generate needs --connections N.\n${USAGE}`);

  const sizes: DemoOptions = {
    connections: number("connections"),
    customers: number("customers"),
    devices: number("devices"),
    venues: number("venues"),
    accessPoints: number("access-points"),
    days: number("days"),
    seed: number("seed"),
  };
  resolveSizes(sizes); // refuse before creating anything

  const stamp = Date.now();
  const password = randomToken(12);
  const owner = await insertUser({
    first_name: "Bench",
    last_name: `Owner ${stamp}`,
    email: `bench-${stamp}@example.com`,
    phone_number: await unusedPhone(stamp),
    password,
  });
  const result = await generateDemoData({
    ...sizes,
    ownerId: owner.id,
    organizationName: `Generated ${new Date(stamp).toISOString()}`,
    log: console.log,
  });
  const rate = Math.round(result.connections / result.seconds);
  console.log(
    `Organization ${result.organizationId}: ${result.connections.toLocaleString("en-US")} connections in ${result.seconds.toFixed(1)} s ` +
      `(${rate.toLocaleString("en-US")} connections/s); owner ${owner.email} / ${password}`,
  );
}

/** A phone number no user has yet, in a range the demo users do not use (+25479…). */
async function unusedPhone(stamp: number): Promise<string> {
  for (let n = stamp % 10_000_000; ; n = (n + 1) % 10_000_000) {
    const phone = `+25479${String(n).padStart(7, "0")}`;
    const taken = await db.selectFrom("users").select("id").where("phone_number", "=", phone).executeTakeFirst();
    if (!taken) return phone;
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
