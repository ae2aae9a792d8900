import type { AppLoadContext } from "@remix-run/node";
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";
import { findUserByLoginId } from "./auth.server";
import { hashToken } from "./crypto.server";

// Fixed-window counters in the rate_limits table, so a limit holds across app instances.
const MINUTE = 60_000;
export const LIMITS = {
  loginPerId: { name: "login:id", max: 10, windowMs: 15 * MINUTE },
  loginPerAddress: { name: "login:ip", max: 50, windowMs: 15 * MINUTE },
  forgotPerId: { name: "forgot:id", max: 5, windowMs: 60 * MINUTE },
  forgotPerAddress: { name: "forgot:ip", max: 20, windowMs: 60 * MINUTE },
  registerPerEmail: { name: "register:email", max: 5, windowMs: 60 * MINUTE },
  registerPerAddress: { name: "register:ip", max: 20, windowMs: 60 * MINUTE },
  /** The data API (/graphql): requests per API token. */
  graphqlPerToken: { name: "graphql:token", max: 300, windowMs: MINUTE },
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
  await db
    .deleteFrom("rate_limits")
    .where("window_started_at", "<=", now - LONGEST_WINDOW_MS)
    .execute();
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

/**
 * The client's address as the server saw it (server/app.mjs passes req.ip, which honours
 * TRUST_PROXY). Forwarded headers are never read here: any client can write them.
 */
export function clientAddress(_request: Request, context?: AppLoadContext | null): string {
  const fromServer = (context as { clientAddress?: unknown } | undefined | null)?.clientAddress;
  return typeof fromServer === "string" && fromServer ? fromServer : "unknown";
}

/** Whom a sign-in attempt is against: the account when the login id names one (e-mail or phone alike), else the id as typed. */
async function loginSubject(loginId: string): Promise<string> {
  const user = await findUserByLoginId(loginId);
  return user ? `user:${user.id}` : `id:${normalizeLoginIdForLimit(loginId)}`;
}

/** Counts a sign-in attempt against the account and the address; loginSucceeded takes it back. */
export async function limitLogin(loginId: string, address: string, now?: number) {
  return attempt(
    [
      [LIMITS.loginPerId, await loginSubject(loginId)],
      [LIMITS.loginPerAddress, address],
    ],
    now,
  );
}

/** A successful sign-in: the account starts afresh and the attempt no longer counts against the address. */
export async function loginSucceeded(loginId: string, address: string): Promise<void> {
  await db
    .deleteFrom("rate_limits")
    .where("key", "=", counterKey(LIMITS.loginPerId, await loginSubject(loginId)))
    .execute();
  await db
    .updateTable("rate_limits")
    .set((eb) => ({ hits: eb("hits", "-", 1) }))
    .where("key", "=", counterKey(LIMITS.loginPerAddress, address))
    .where("hits", ">", 0)
    .execute();
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

/** Sign-ups: each one mails the address, so both the address mailed and the client are limited. */
export function limitRegister(email: string, address: string, now?: number) {
  return attempt(
    [
      [LIMITS.registerPerEmail, email.trim().toLowerCase()],
      [LIMITS.registerPerAddress, address],
    ],
    now,
  );
}

/** One data API request (/graphql) against its API token (the token is hashed into the key like every subject). */
export function limitGraphqlToken(token: string, now?: number) {
  return attempt([[LIMITS.graphqlPerToken, token]], now);
}
