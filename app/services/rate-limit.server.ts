import type { AppLoadContext } from "@remix-run/node";
import { sql } from "kysely";
import { getClientIPAddress } from "remix-utils/get-client-ip-address";
import { db } from "~/db/db.server";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";
import { hashToken } from "./crypto.server";

// Fixed-window counters in the rate_limits table, so a limit holds across app instances.
const MINUTE = 60_000;
export const LIMITS = {
  loginPerId: { name: "login:id", max: 10, windowMs: 15 * MINUTE },
  loginPerAddress: { name: "login:ip", max: 50, windowMs: 15 * MINUTE },
  forgotPerId: { name: "forgot:id", max: 5, windowMs: 60 * MINUTE },
  forgotPerAddress: { name: "forgot:ip", max: 20, windowMs: 60 * MINUTE },
} as const;

type Rule = (typeof LIMITS)[keyof typeof LIMITS];

/** Rows whose window started longer ago than the longest window are dead whatever their rule. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(LIMITS).map((r) => r.windowMs));
/** Roughly one hit in this many also deletes dead rows, so the table stays small without a job. */
const PRUNE_EVERY = 50;

export interface Limited {
  retryAfterMs: number;
  message: string;
}

export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

/**
 * Counts one hit on the key and answers the hits in the current window and when it started.
 * One statement: insert, or increment, or start a new window when the old one is over — so
 * concurrent requests on any instance cannot slip past the limit.
 */
async function hit(key: string, rule: Rule, now: number) {
  const expired = sql<boolean>`${sql.ref("rate_limits.window_started_at")} <= ${now - rule.windowMs}`;
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_started_at: now, hits: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql<number>`case when ${expired} then 1 else ${sql.ref("rate_limits.hits")} + 1 end`,
        window_started_at: sql<number>`case when ${expired} then cast(${now} as bigint) else ${sql.ref("rate_limits.window_started_at")} end`,
      }),
    )
    .returning(["hits", "window_started_at"])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStartedAt: Number(row.window_started_at) };
}

/** Deletes counters whose window is over for every rule. */
export async function pruneRateLimits(now = Date.now()): Promise<void> {
  await db.deleteFrom("rate_limits").where("window_started_at", "<=", now - LONGEST_WINDOW_MS).execute();
}

/**
 * Counts one attempt against each rule; answers the longest wait when any limit is exceeded,
 * null when the attempt may go ahead.
 */
async function attempt(checks: [Rule, string][], now = Date.now()): Promise<Limited | null> {
  if (Math.random() * PRUNE_EVERY < 1) await pruneRateLimits(now);
  let retryAfterMs = 0;
  for (const [rule, subject] of checks) {
    const { hits, windowStartedAt } = await hit(counterKey(rule, subject), rule, now);
    if (hits > rule.max) retryAfterMs = Math.max(retryAfterMs, windowStartedAt + rule.windowMs - now);
  }
  return retryAfterMs > 0 ? { retryAfterMs, message: tooManyAttemptsMessage(retryAfterMs) } : null;
}

/** Subjects are hashed: the table holds no email address or phone number. */
function counterKey(rule: Rule, subject: string): string {
  return `${rule.name}:${hashToken(subject)}`;
}

/** A login id in one notation, so "0712…", "+254712…" and "254712…" share one counter. */
export function normalizeLoginIdForLimit(loginId: string): string {
  const id = loginId.trim().toLowerCase();
  return (!looksLikeEmail(id) && normalizePhone(id)) || id;
}

/** The client's address: the one the server saw (server.mjs passes req.ip), else forwarding headers. */
export function clientAddress(request: Request, context?: AppLoadContext | null): string {
  const fromServer = (context as { clientAddress?: unknown } | undefined | null)?.clientAddress;
  if (typeof fromServer === "string" && fromServer) return fromServer;
  return getClientIPAddress(request) ?? "unknown";
}

export function limitLogin(loginId: string, address: string, now?: number) {
  return attempt(
    [
      [LIMITS.loginPerId, normalizeLoginIdForLimit(loginId)],
      [LIMITS.loginPerAddress, address],
    ],
    now,
  );
}

/** After a successful sign-in the login id starts afresh (the address counter keeps counting). */
export async function clearLoginLimit(loginId: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("key", "=", counterKey(LIMITS.loginPerId, normalizeLoginIdForLimit(loginId))).execute();
}

export function limitPasswordForgot(loginId: string, address: string, now?: number) {
  return attempt(
    [
      [LIMITS.forgotPerId, normalizeLoginIdForLimit(loginId)],
      [LIMITS.forgotPerAddress, address],
    ],
    now,
  );
}

/** Headers of a 429 answer. */
export function retryAfterHeaders(limited: Limited): HeadersInit {
  return { "Retry-After": String(Math.ceil(limited.retryAfterMs / 1000)) };
}
