// The worker: claims due jobs and runs their handlers, a few at a time, in any number of processes.
// Recurring jobs ("every minute", "every day") are enqueued by whichever worker gets there first:
// each time slot has one dedupe key (`name:slotStart`), so a slot runs once however many workers
// there are. Stopping waits for running handlers, so a deploy does not cut a job in half.
import { claimJob, completeJob, enqueue, failJob, onEnqueue, type ClaimedJob } from "./queue.server";

export interface JobType {
  /** Does the work; must be idempotent (a job can run again after a crash). */
  run(payload: never): Promise<void>;
}

export interface Recurring {
  name: string;
  type: string;
  everyMs: number;
}

export interface WorkerOptions {
  jobTypes: Record<string, JobType>;
  recurring?: Recurring[];
  concurrency?: number;
  pollMs?: number;
  /** How long stop() waits for running handlers. */
  stopTimeoutMs?: number;
}

export interface Worker {
  stop(): Promise<void>;
}

function log(event: string, fields: Record<string, unknown>) {
  console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));
}

/**
 * Enqueues the current slot of each recurring job; a slot already enqueued (by any worker) is
 * skipped by its dedupe key. `seen` remembers the slots this process has enqueued, so an idle
 * worker does not write on every poll.
 */
export async function enqueueRecurring(recurring: Recurring[], now = Date.now(), seen = new Map<string, number>()): Promise<void> {
  for (const r of recurring) {
    const slot = now - (now % r.everyMs);
    if (seen.get(r.name) === slot) continue;
    await enqueue(r.type, { slot }, { dedupeKey: `${r.name}:${slot}`, runAt: slot, maxAttempts: 3 });
    seen.set(r.name, slot);
  }
}

/** Runs one claimed job with its handler; unknown types fail (and end as dead letters). */
export async function runJob(job: ClaimedJob, jobTypes: Record<string, JobType>): Promise<void> {
  const started = Date.now();
  try {
    const type = jobTypes[job.type];
    if (!type) throw new Error(`No handler for job type "${job.type}".`);
    await type.run(job.payload as never);
    await completeJob(job);
    log("job_done", { id: job.id, type: job.type, attempt: job.attempts, ms: Date.now() - started });
  } catch (error) {
    const status = await failJob(job, error);
    log(status === "failed" ? "job_dead" : "job_retry", {
      id: job.id,
      type: job.type,
      attempt: job.attempts,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Claims and runs jobs until none is due; answers how many ran. */
async function drainOnce(jobTypes: Record<string, JobType>, isStopping: () => boolean = () => false): Promise<number> {
  let ran = 0;
  while (!isStopping()) {
    const job = await claimJob();
    if (!job) break;
    await runJob(job, jobTypes);
    ran++;
  }
  return ran;
}

/** Starts `concurrency` loops that work the queue until stop(). */
export function startWorker({ jobTypes, recurring = [], concurrency = 2, pollMs = 1_000, stopTimeoutMs = 30_000 }: WorkerOptions): Worker {
  let stopping = false;
  const sleepers = new Set<() => void>();
  const wakeAll = () => [...sleepers].forEach((wake) => wake());
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  const unsubscribe = onEnqueue(wakeAll);
  const recurringSeen = new Map<string, number>();

  async function loop() {
    while (!stopping) {
      try {
        await enqueueRecurring(recurring, Date.now(), recurringSeen);
        const ran = await drainOnce(jobTypes, () => stopping);
        if (ran === 0 && !stopping) await sleep(pollMs);
      } catch (error) {
        // The database was unreachable for a moment: try again after a pause.
        log("job_worker_error", { error: error instanceof Error ? error.message : String(error) });
        if (!stopping) await sleep(pollMs * 5);
      }
    }
  }
  const loops = Array.from({ length: concurrency }, () => loop());

  return {
    async stop() {
      stopping = true;
      unsubscribe();
      wakeAll();
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, stopTimeoutMs).unref())]);
    },
  };
}

/** Runs every due job once in this process (tests; the CLI's one-shot commands). */
export function drainJobs(jobTypes: Record<string, JobType>): Promise<number> {
  return drainOnce(jobTypes);
}
