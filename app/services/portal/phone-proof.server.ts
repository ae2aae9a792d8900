// Proving a guest owns a phone number (decision 0086): a one-time code by SMS through the
// organisation's SMS provider, then the code typed back. The data-access page, a device joining a
// plan paid from that number, and a returning guest linking a new device all use it.
// Codes: 6 digits, 10 minutes, single use, 5 tries each; sending is throttled per phone and per
// device and typing per device, in the database (rate-limit.server.ts). Only a code's keyed hash is
// stored, and no code is ever logged.
import crypto from "node:crypto";
import { db } from "~/db/db.server";
import { smsSenderFor } from "../marketing/sms/settings.server";
import { guestLimitMessage, limitCodeCheck, limitCodeSend } from "../rate-limit.server";
import { derivedKey } from "../secrets.server";

const CODE_MINUTES = 10;
const MAX_TRIES = 5;
/** Spent and expired codes are kept this long after expiry (the daily prune), then deleted. */
const KEEP_MS = 15 * 60_000;

export const PROOF_MESSAGES = {
  noSms: "This network cannot send text messages yet. Ask the venue's staff to see or delete your data.",
  failed: "The code could not be sent just now. Please try again in a moment.",
  wrong: "That code is not right, or it has expired. Check the text message and try again.",
  text: (code: string) => `Your code is ${code}. It is valid for ${CODE_MINUTES} minutes. Do not share it.`,
} as const;

export type ProofSent = { ok: true } | { ok: false; status: number; message: string; retryAfterMs?: number };
export type ProofChecked = { ok: true } | { ok: false; status: number; message: string; retryAfterMs?: number };

/** Who asks, for a guest's view: the device when the connection has one, else the connection (a throttle's subject). */
export const proofAsker = (view: { place: { deviceId: number | null }; connectionId: number }) =>
  view.place.deviceId === null ? `connection:${view.connectionId}` : `device:${view.place.deviceId}`;

/** "0712345678" as the guest reads it on a page that must not show the whole number: "07…78". */
export function maskedPhone(e164: string): string {
  const local = e164.startsWith("+254") ? `0${e164.slice(4)}` : e164;
  return `${local.slice(0, 2)}…${local.slice(-2)}`;
}

const codeHash = (organizationId: number, phone: string, code: string) =>
  crypto.createHmac("sha256", derivedKey("guest-code")).update(`${organizationId}:${phone}:${code}`).digest("hex");

/** Sends a new code to `phone` (E.164) for a guest of the organisation. */
export async function sendCode(at: { organizationId: number; phone: string; asker: string }, now = Date.now()): Promise<ProofSent> {
  const limited = await limitCodeSend(at.phone, at.asker, now);
  if (limited) return { ok: false, status: 429, message: guestLimitMessage(limited), retryAfterMs: limited.retryAfterMs };
  const sender = await smsSenderFor(at.organizationId).catch(() => null);
  if (!sender) return { ok: false, status: 503, message: PROOF_MESSAGES.noSms };
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  await db
    .insertInto("guest_codes")
    .values({
      organization_id: at.organizationId,
      phone_number: at.phone,
      code_hash: codeHash(at.organizationId, at.phone, code),
      expires_at: now + CODE_MINUTES * 60_000,
      created_at: now,
    })
    .execute();
  try {
    const [result] = await sender.provider.send({ to: [at.phone], text: PROOF_MESSAGES.text(code), from: sender.from });
    if (result?.status !== "sent") return { ok: false, status: 502, message: PROOF_MESSAGES.failed };
  } catch {
    return { ok: false, status: 502, message: PROOF_MESSAGES.failed };
  }
  return { ok: true };
}

/** Whether `code` proves `phone` now. The newest open code counts; a code proves once. */
export async function checkCode(
  at: { organizationId: number; phone: string; code: string; asker: string },
  now = Date.now(),
): Promise<ProofChecked> {
  const limited = await limitCodeCheck(at.asker, now);
  if (limited) return { ok: false, status: 429, message: guestLimitMessage(limited), retryAfterMs: limited.retryAfterMs };
  const wrong = { ok: false, status: 422, message: PROOF_MESSAGES.wrong } as const;
  const typed = at.code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(typed)) return wrong;
  const latest = await db
    .selectFrom("guest_codes")
    .select(["id", "code_hash", "attempts"])
    .where("organization_id", "=", at.organizationId)
    .where("phone_number", "=", at.phone)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!latest || Number(latest.attempts) >= MAX_TRIES) return wrong;
  const expected = Buffer.from(latest.code_hash, "hex");
  const given = Buffer.from(codeHash(at.organizationId, at.phone, typed), "hex");
  if (!crypto.timingSafeEqual(expected, given)) {
    await db
      .updateTable("guest_codes")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("id", "=", latest.id)
      .execute();
    return wrong;
  }
  // Single use: only the request that marks it used proves.
  const used = await db
    .updateTable("guest_codes")
    .set({ used_at: now })
    .where("id", "=", latest.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? { ok: true } : wrong;
}

/** Codes past their expiry (the daily prune). */
export async function pruneGuestCodes(now = Date.now()): Promise<void> {
  await db
    .deleteFrom("guest_codes")
    .where("expires_at", "<", now - KEEP_MS)
    .execute();
}
