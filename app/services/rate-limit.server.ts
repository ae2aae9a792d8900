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

  // ---- The guest path: what costs the operator money or guesses a secret (decision 0078) ----
  /** M-Pesa prompts (STK pushes) sent to one phone: six devices asking at once reach Daraja twice. */
  stkPerPhone: { name: "stk:phone", max: 2, windowMs: 2 * MINUTE },
  /** M-Pesa prompts started from one connection (a changed number is a second one). */
  stkPerConnection: { name: "stk:connection", max: 3, windowMs: 10 * MINUTE },
  /** Voucher codes typed on one connection, right or wrong. */
  voucherPerConnection: { name: "voucher:connection", max: 5, windowMs: 15 * MINUTE },
  /** Voucher codes typed on one device, whatever its connections. */
  voucherPerDevice: { name: "voucher:device", max: 10, windowMs: 60 * MINUTE },
  /** One-time codes sent by SMS to one phone (each costs the operator a message; decision 0086). */
  codeSendPerPhone: { name: "code:phone", max: 3, windowMs: 15 * MINUTE },
  /** One-time codes asked for from one device, whatever the numbers. */
  codeSendPerDevice: { name: "code:device", max: 5, windowMs: 15 * MINUTE },
  /** Codes typed on one device, right or wrong (each code also takes at most 5 tries). */
  codeCheckPerDevice: { name: "code:check", max: 10, windowMs: 15 * MINUTE },
  /** M-Pesa receipt codes typed on one connection, right or wrong (decision 0088). */
  receiptPerConnection: { name: "receipt:connection", max: 5, windowMs: 15 * MINUTE },
  /** M-Pesa receipt codes typed on one device, whatever its connections. */
  receiptPerDevice: { name: "receipt:device", max: 10, windowMs: 60 * MINUTE },
} as const;

type Rule = (typeof LIMITS)[keyof typeof LIMITS];

/** Rows whose window started longer ago than the longest window are dead whatever their rule. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(LIMITS).map((r) => r.windowMs));
/** Roughly one hit in this many also deletes dead rows, so the table stays small without a job. */
const PRUNE_EVERY = 50;

export interface Limited {
  retryAfterMs: number;
  message: string;
  /** the rule whose window ends last (the one the wait is for) */
  rule: Rule["name"];
}

/** "Please try again in 3 minutes." (whole minutes, at least one). */
export function tryAgainInMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

export function tooManyAttemptsMessage(retryAfterMs: number): string {
  return `Too many attempts. ${tryAgainInMessage(retryAfterMs)}`;
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
  let tripped: Rule["name"] | null = null;
  // The counters at once (on PostgreSQL each is a round trip of its own; the guest path waits on them).
  const counted = await Promise.all(checks.map(([rule, subject]) => hit(counterKey(rule, subject), rule, now)));
  checks.forEach(([rule], i) => {
    const { hits, windowStartedAt } = counted[i];
    const wait = windowStartedAt + rule.windowMs - now;
    if (hits > rule.max && wait > retryAfterMs) [retryAfterMs, tripped] = [wait, rule.name];
  });
  return tripped ? { retryAfterMs, message: tooManyAttemptsMessage(retryAfterMs), rule: tripped } : null;
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

/** Headers of a 429 answer (none for an answer that says no wait). */
export function retryAfterHeaders(limited: { retryAfterMs?: number }): Record<string, string> {
  return limited.retryAfterMs === undefined ? {} : { "Retry-After": String(retryAfterSeconds(limited.retryAfterMs)) };
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

// ---- The guest path ----

/** Why a guest must wait, said before "Please try again in N minutes." */
export const GUEST_LIMIT_MESSAGES = {
  title: "Too many attempts",
  [LIMITS.stkPerPhone.name]: "Too many M-Pesa prompts were sent to this number just now.",
  [LIMITS.stkPerConnection.name]: "Too many M-Pesa payments were started from this device just now.",
  [LIMITS.voucherPerConnection.name]: "Too many voucher codes were tried on this device.",
  [LIMITS.voucherPerDevice.name]: "Too many voucher codes were tried on this device.",
  [LIMITS.codeSendPerPhone.name]: "Too many codes were sent to this number just now.",
  [LIMITS.codeSendPerDevice.name]: "Too many codes were asked for from this device just now.",
  [LIMITS.codeCheckPerDevice.name]: "Too many codes were tried on this device.",
  [LIMITS.receiptPerConnection.name]: "Too many M-Pesa codes were tried on this device.",
  [LIMITS.receiptPerDevice.name]: "Too many M-Pesa codes were tried on this device.",
} as const;

/** What a throttled guest reads: why, then when to try again. */
export function guestLimitMessage(limited: Limited): string {
  const why = (GUEST_LIMIT_MESSAGES as Record<string, string>)[limited.rule] ?? "Too many attempts.";
  return `${why} ${tryAgainInMessage(limited.retryAfterMs)}`;
}

/** Seconds to put in a Retry-After header. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/**
 * One M-Pesa prompt about to be sent: counted against the phone it goes to (2547…, as Daraja has
 * it) and the connection asking. Called once the purchase is written, so presses of one purchase
 * that wait on it count once.
 */
export function limitStkPush(phone: string, connectionId: number, now?: number) {
  return attempt(
    [
      [LIMITS.stkPerPhone, phone],
      [LIMITS.stkPerConnection, String(connectionId)],
    ],
    now,
  );
}

/** One voucher code typed: counted against the connection and its device (every attempt, before the code is looked at). */
export function limitVoucherAttempt(connectionId: number, deviceId: number | null, now?: number) {
  const checks: [Rule, string][] = [[LIMITS.voucherPerConnection, String(connectionId)]];
  if (deviceId !== null) checks.push([LIMITS.voucherPerDevice, String(deviceId)]);
  return attempt(checks, now);
}

/** A one-time code to send: counted against the phone it goes to and the device asking. */
export function limitCodeSend(phone: string, device: string, now?: number) {
  return attempt(
    [
      [LIMITS.codeSendPerPhone, phone],
      [LIMITS.codeSendPerDevice, device],
    ],
    now,
  );
}

/** A code typed: counted against the device typing it. */
export function limitCodeCheck(device: string, now?: number) {
  return attempt([[LIMITS.codeCheckPerDevice, device]], now);
}

/** One M-Pesa receipt code typed: counted against the connection and its device (every attempt, before the code is looked at). */
export function limitReceiptAttempt(connectionId: number, deviceId: number | null, now?: number) {
  const checks: [Rule, string][] = [[LIMITS.receiptPerConnection, String(connectionId)]];
  if (deviceId !== null) checks.push([LIMITS.receiptPerDevice, String(deviceId)]);
  return attempt(checks, now);
}
