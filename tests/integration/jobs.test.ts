// The durable job queue: claim, retry with backoff, dead letters, lease
// expiry, recurring slots, several workers and several processes, graceful stop.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { claimJob, completeJob, enqueue, failJob, listJobs, retryDelayMs, retryFailedJob } from "~/services/jobs/queue.server";
import { enqueueRecurring, runJob, startWorker, type JobType } from "~/services/jobs/worker.server";

const run = promisify(execFile);
const statusOf = async (id: number) =>
  await db.selectFrom("jobs").select(["status", "attempts", "run_at", "last_error"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("job queue", () => {
  it("claims a due job once, runs it and marks it done", async () => {
    const id = (await enqueue("test.count", { n: 1 }))!;
    const job = await claimJob();
    expect(job).toMatchObject({ id, type: "test.count", payload: { n: 1 }, attempts: 1 });
    expect(await claimJob()).toBeNull(); // running, lease not over
    expect(await completeJob(job!)).toBe(true);
    expect((await statusOf(id)).status).toBe("done");
  });

  it("leaves a job alone until its run_at, and makes one job of one dedupe key", async () => {
    await enqueue("test.count", {}, { runAt: Date.now() + 60_000 });
    expect(await claimJob()).toBeNull();
    expect(await enqueue("test.count", {}, { dedupeKey: "k" })).not.toBeNull();
    expect(await enqueue("test.count", {}, { dedupeKey: "k" })).toBeNull();
  });

  it("retries a failed job after a growing backoff and ends it as a visible dead letter", async () => {
    const id = (await enqueue("test.fail", {}, { maxAttempts: 3 }))!;
    let now = Date.now();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await claimJob(now);
      expect(job?.attempts).toBe(attempt);
      const failedAt = Date.now();
      const status = await failJob(job!, new Error(`SMTP said no (${attempt})`));
      const row = await statusOf(id);
      if (attempt < 3) {
        expect(status).toBe("queued");
        delays.push(Number(row.run_at) - failedAt);
        expect(await claimJob(now)).toBeNull(); // not before the backoff
        now = Number(row.run_at);
      } else {
        expect(status).toBe("failed");
        expect(row.last_error).toBe("SMTP said no (3)");
      }
    }
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(await claimJob(now + 10 * 3_600_000)).toBeNull(); // dead letters are not retried by themselves
    expect((await listJobs({ status: "failed" })).map((j) => j.id)).toEqual([id]);
    expect(await retryFailedJob(id)).toBe(true);
    expect((await claimJob())?.id).toBe(id);
  });

  it("backs off 30 s, 1 min, 2 min … with jitter, at most an hour", () => {
    expect(retryDelayMs(1, 0.5)).toBe(30_000);
    expect(retryDelayMs(2, 0.5)).toBe(60_000);
    expect(retryDelayMs(20, 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, 0)).toBe(24_000);
  });

  it("takes back a job whose worker died once its lease is over; the dead worker's late answer is ignored", async () => {
    const id = (await enqueue("test.count", {}))!;
    const now = Date.now();
    const lost = (await claimJob(now, 1_000))!;
    expect(await claimJob(now + 500)).toBeNull();
    const retaken = (await claimJob(now + 1_001))!;
    expect(retaken).toMatchObject({ id, attempts: 2 });
    expect(await completeJob(lost)).toBe(false);
    expect(await completeJob(retaken)).toBe(true);
  });

  it("runs 200 jobs exactly once with two workers in this process and a third in another process", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) ids.push((await enqueue("test.count", { i }))!);
    const seen: number[] = [];
    const jobTypes: Record<string, JobType> = { "test.count": { run: async (payload: { i: number }) => void seen.push(payload.i) } };
    const other = run(path.resolve("node_modules/.bin/tsx"), ["--tsconfig", "tsconfig.json", "tests/fixtures/job-claimer.ts"], {
      env: process.env,
    });
    const workers = [startWorker({ jobTypes, pollMs: 20 }), startWorker({ jobTypes, pollMs: 20 })];
    const { stdout } = await other;
    const elsewhere: number[] = JSON.parse(stdout.trim().split("\n").pop()!);
    for (let i = 0; i < 100 && (await db.selectFrom("jobs").select("id").where("status", "!=", "done").execute()).length; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all(workers.map((w) => w.stop()));
    const rows = await db.selectFrom("jobs").select(["id", "attempts", "status"]).execute();
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
    expect(seen.length + elsewhere.length).toBe(200);
    expect(new Set([...seen, ...elsewhere.map((id) => ids.indexOf(id))]).size).toBe(200);
  }, 60_000);

  it("enqueues each recurring slot once however many workers try", async () => {
    const recurring = [{ name: "tick", type: "test.count", everyMs: 60_000 }];
    const now = Date.now();
    await Promise.all([enqueueRecurring(recurring, now), enqueueRecurring(recurring, now + 1), enqueueRecurring(recurring, now + 2)]);
    const slotStart = now - (now % 60_000);
    expect(await db.selectFrom("jobs").select("dedupe_key").execute()).toEqual([{ dedupe_key: `tick:${slotStart}` }]);
    await enqueueRecurring(recurring, slotStart + 60_000);
    const keys = (await db.selectFrom("jobs").select("dedupe_key").execute()).map((r) => r.dedupe_key);
    expect(keys.sort()).toEqual([`tick:${slotStart + 60_000}`, `tick:${slotStart}`].sort());
  });

  it("stops gracefully: a running job finishes before stop() returns", async () => {
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const jobTypes: Record<string, JobType> = {
      "test.slow": {
        run: async () => {
          started();
          await new Promise((r) => setTimeout(r, 300));
          finished = true;
        },
      },
    };
    const id = (await enqueue("test.slow", {}))!;
    const worker = startWorker({ jobTypes, pollMs: 10 });
    await running;
    await worker.stop();
    expect(finished).toBe(true);
    expect((await statusOf(id)).status).toBe("done");
  });

  it("fails a job of an unknown type instead of losing it", async () => {
    const id = (await enqueue("test.nobody", {}, { maxAttempts: 1 }))!;
    await runJob((await claimJob())!, {});
    expect(await statusOf(id)).toMatchObject({ status: "failed", last_error: 'No handler for job type "test.nobody".' });
  });
});
