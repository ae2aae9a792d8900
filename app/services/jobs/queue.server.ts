// The durable job queue (decision 0011): jobs are rows of `jobs` in the database in use, so they
// survive restarts and any number of app instances can work them.
//   queued ──claim──▶ running ──complete──▶ done
//                       │  └──fail, attempts left──▶ queued (run_at later: backoff with jitter)
//                       └──fail, last attempt──▶ failed (the dead letter: `jobs:list --failed`)
// A claim is one statement (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer at a time) that
// also takes back a running job whose lease ran out (its worker died). Every handler must be
// idempotent: a job whose worker died after the work but before `complete` runs again.
import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db as defaultDb } from "~/db/db.server";
import { claimable } from "~/db/sql.server";
import type { DB, JobStatus } from "~/db/schema";

const MINUTE_MS = 60_000;
export const DEFAULT_LEASE_MS = 5 * MINUTE_MS;
export const DEFAULT_MAX_ATTEMPTS = 8;

export interface EnqueueOptions {
  /** Not before this time (epoch ms). */
  runAt?: number;
  maxAttempts?: number;
  /** A second enqueue with the same key is a no-op (answers null). */
  dedupeKey?: string;
}

export interface ClaimedJob {
  id: number;
  type: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  token: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called on every enqueue in this process, so a local worker starts at once instead of at its next poll. */
export function onEnqueue(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Stores a job; answers its id, or null when `dedupeKey` already names one. */
export async function enqueue(
  type: string,
  payload: unknown,
  options: EnqueueOptions = {},
  database: Kysely<DB> = defaultDb,
): Promise<number | null> {
  const now = Date.now();
  const row = await database
    .insertInto("jobs")
    .values({
      type,
      payload: JSON.stringify(payload ?? null),
      status: "queued",
      attempts: 0,
      max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      run_at: options.runAt ?? now,
      locked_until: null,
      lock_token: null,
      last_error: null,
      dedupe_key: options.dedupeKey ?? null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (row) for (const listener of listeners) listener();
  return row ? Number(row.id) : null;
}

/** Takes the next due job (or one whose lease is over) for this worker, or null when none is due. */
export async function claimJob(now = Date.now(), leaseMs = DEFAULT_LEASE_MS, database: Kysely<DB> = defaultDb): Promise<ClaimedJob | null> {
  const token = crypto.randomUUID();
  let next = database
    .selectFrom("jobs")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now)]),
        eb.and([eb("status", "=", "running"), eb("locked_until", "<", now)]),
      ]),
    )
    .orderBy("run_at")
    .orderBy("id")
    .limit(1);
  next = claimable(next);
  const row = await database
    .updateTable("jobs")
    .set((eb) => ({ status: "running", attempts: eb("attempts", "+", 1), lock_token: token, locked_until: now + leaseMs, updated_at: now }))
    .where("id", "=", (eb) => eb.selectFrom(next.as("next")).select("next.id"))
    .returning(["id", "type", "payload", "attempts", "max_attempts"])
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    type: row.type,
    payload: JSON.parse(row.payload),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    token,
  };
}

/** Marks a claimed job done; false when the lease was lost (another worker has it now). */
export async function completeJob(job: ClaimedJob, database: Kysely<DB> = defaultDb): Promise<boolean> {
  const now = Date.now();
  const result = await database
    .updateTable("jobs")
    .set({ status: "done", lock_token: null, locked_until: null, last_error: null, finished_at: now, updated_at: now })
    .where("id", "=", job.id)
    .where("lock_token", "=", job.token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Seconds to wait after the n-th failed attempt: 30 s, 1, 2, 4 … minutes, at most an hour, ±20 %. */
export function retryDelayMs(attempts: number, random = Math.random()): number {
  const base = Math.min(60 * MINUTE_MS, 30_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random));
}

/** A failed attempt: back to the queue after a backoff, or `failed` for good after the last attempt. */
export async function failJob(job: ClaimedJob, error: unknown, database: Kysely<DB> = defaultDb): Promise<JobStatus> {
  const now = Date.now();
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  const status: JobStatus = job.attempts >= job.maxAttempts ? "failed" : "queued";
  await database
    .updateTable("jobs")
    .set({
      status,
      lock_token: null,
      locked_until: null,
      last_error: message,
      run_at: status === "queued" ? now + retryDelayMs(job.attempts) : sql<number>`run_at`,
      finished_at: status === "failed" ? now : null,
      updated_at: now,
    })
    .where("id", "=", job.id)
    .where("lock_token", "=", job.token)
    .execute();
  return status;
}

export interface JobRow {
  id: number;
  type: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lastError: string | null;
  createdAt: number;
}

/** Jobs for operators (`jobs:list`): newest first; `failed` lists the dead letters. */
export async function listJobs(filter: { status?: JobStatus; limit?: number } = {}, database: Kysely<DB> = defaultDb): Promise<JobRow[]> {
  let query = database
    .selectFrom("jobs")
    .select(["id", "type", "status", "attempts", "max_attempts", "run_at", "last_error", "created_at"])
    .orderBy("id", "desc")
    .limit(filter.limit ?? 50);
  if (filter.status) query = query.where("status", "=", filter.status);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: Number(r.run_at),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
  }));
}

/** Puts a dead letter back in the queue with a fresh set of attempts (`jobs:retry ID`). */
export async function retryFailedJob(id: number, database: Kysely<DB> = defaultDb): Promise<boolean> {
  const now = Date.now();
  const result = await database
    .updateTable("jobs")
    .set({ status: "queued", attempts: 0, run_at: now, finished_at: null, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes finished jobs older than `olderThanMs` (dead letters are kept until retried or this long). */
export async function pruneJobs(olderThanMs: number, now = Date.now(), database: Kysely<DB> = defaultDb): Promise<number> {
  const result = await database
    .deleteFrom("jobs")
    .where("status", "in", ["done", "failed"])
    .where("finished_at", "<", now - olderThanMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
