// A MINIMAL STAND-IN for app/services/portal/phone-proof.server.ts (built on another branch, issue
// 35 item 1): one-time codes by SMS for the data-access page, behind the PhoneProof interface
// (phone-proof-port.ts). Replace `phoneProof` with the real module when it lands and drop this file
// and migration 0049 if it keeps codes of its own. Codes: 6 digits, 10 minutes, single use, 5 tries;
// at most 3 per phone and 5 per device in 15 minutes; only their hash is stored and never logged.
import crypto from "node:crypto";
import { db } from "~/db/db.server";
import { smsSenderFor } from "../marketing/sms/settings.server";
import { derivedKey } from "../secrets.server";
import type { PhoneProof, ProofSent } from "./phone-proof-port";

const CODE_MINUTES = 10;
const WINDOW_MS = 15 * 60_000;
const PER_PHONE = 3;
const PER_DEVICE = 5;
const MAX_TRIES = 5;

export const CODE_MESSAGES = {
  noSms: "This network cannot send text messages yet. Ask the venue's staff to see or delete your data.",
  throttled: "Too many codes asked for. Wait 15 minutes, then try again.",
  failed: "The code could not be sent just now. Please try again in a moment.",
  text: (code: string) => `Your code is ${code}. It is valid for ${CODE_MINUTES} minutes. Do not share it.`,
} as const;

/** Attempts per device, in this process (a device is not a database row here). */
const deviceAsks = new Map<string, number[]>();

const codeHash = (organizationId: number, phone: string, code: string) =>
  crypto.createHmac("sha256", derivedKey("guest-code")).update(`${organizationId}:${phone}:${code}`).digest("hex");

export const codeProof: PhoneProof = {
  async send({ organizationId, phone, device }): Promise<ProofSent> {
    const now = Date.now();
    const asks = (deviceAsks.get(device) ?? []).filter((t) => t > now - WINDOW_MS);
    const recent = await db
      .selectFrom("guest_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organization_id", "=", organizationId)
      .where("phone_number", "=", phone)
      .where("created_at", ">", now - WINDOW_MS)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= PER_PHONE || asks.length >= PER_DEVICE) return { ok: false, status: 429, message: CODE_MESSAGES.throttled };
    const sender = await smsSenderFor(organizationId).catch(() => null);
    if (!sender) return { ok: false, status: 503, message: CODE_MESSAGES.noSms };
    deviceAsks.set(device, [...asks, now]);
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
    await db
      .insertInto("guest_codes")
      .values({
        organization_id: organizationId,
        phone_number: phone,
        code_hash: codeHash(organizationId, phone, code),
        expires_at: now + CODE_MINUTES * 60_000,
        created_at: now,
      })
      .execute();
    try {
      const [result] = await sender.provider.send({ to: [phone], text: CODE_MESSAGES.text(code), from: sender.from });
      if (result?.status !== "sent") return { ok: false, status: 502, message: CODE_MESSAGES.failed };
    } catch {
      return { ok: false, status: 502, message: CODE_MESSAGES.failed };
    }
    return { ok: true };
  },

  async verify({ organizationId, phone, code }): Promise<boolean> {
    const now = Date.now();
    const typed = code.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(typed)) return false;
    const latest = await db
      .selectFrom("guest_codes")
      .select(["id", "code_hash", "attempts"])
      .where("organization_id", "=", organizationId)
      .where("phone_number", "=", phone)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!latest || Number(latest.attempts) >= MAX_TRIES) return false;
    const expected = Buffer.from(latest.code_hash, "hex");
    const given = Buffer.from(codeHash(organizationId, phone, typed), "hex");
    if (!crypto.timingSafeEqual(expected, given)) {
      await db
        .updateTable("guest_codes")
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("id", "=", latest.id)
        .execute();
      return false;
    }
    // Single use: only the request that marks it unused → used proves.
    const used = await db
      .updateTable("guest_codes")
      .set({ used_at: now })
      .where("id", "=", latest.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  },
};

/** The proof the data-access page uses. */
export const phoneProof: { current: PhoneProof } = { current: codeProof };

/** Codes past their expiry (the daily prune). */
export async function pruneGuestCodes(now = Date.now()): Promise<void> {
  await db
    .deleteFrom("guest_codes")
    .where("expires_at", "<", now - WINDOW_MS)
    .execute();
}
