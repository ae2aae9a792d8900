// An organisation's SMS provider settings, console side (`ctx` first):
// read with the API key as a `*_set` boolean, saved by the owner only (like M-Pesa: whoever holds the
// key spends the organisation's SMS credit), the key stored with encryptSecret. The callback key is
// a random path segment made on the first save and kept across saves; it is what authenticates
// Africa's Talking's delivery reports and inbound messages (app/guest/sms.ts), so only the
// owner sees the URLs. For the dispatch (no user): smsSenderFor(organizationId).
import crypto from "node:crypto";
import { db } from "~/db/db.server";
import type { SmsSettingsInput } from "~/lib/schemas/sms-settings";
import { publicOrigin } from "../../email.server";
import { requireOwner, type OrgContext } from "../../guard.server";
import { encryptSecret, readSecret } from "../../secrets.server";
import { africasTalking, africasTalkingBaseUrl } from "./africastalking.server";
import type { SmsProvider } from "./provider.server";

export const SMS_PROVIDER = "africastalking" as const;

export interface SmsSettingsView {
  provider: typeof SMS_PROVIDER;
  username: string;
  apiKeySet: boolean;
  senderId: string | null;
  messagesPerSecond: number;
  updatedAt: number;
}

export interface SmsCallbackUrls {
  delivery: string;
  inbound: string;
}

/** The addresses to paste into Africa's Talking's dashboard (SMS → Callback URLs). */
export function smsCallbackUrls(callbackKey: string): SmsCallbackUrls {
  const base = `${publicOrigin()}/marketing/sms/${callbackKey}`;
  return { delivery: `${base}/delivery`, inbound: `${base}/inbound` };
}

/** The organisation's settings without the key; null when SMS is not set up. */
export async function getSmsSettings(ctx: OrgContext): Promise<SmsSettingsView | null> {
  const row = await db
    .selectFrom("sms_settings")
    .select(["provider", "username", "api_key", "sender_id", "messages_per_second", "updated_at"])
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    provider: row.provider,
    username: row.username,
    apiKeySet: row.api_key !== "",
    senderId: row.sender_id,
    messagesPerSecond: Number(row.messages_per_second),
    updatedAt: Number(row.updated_at),
  };
}

/** The callback URLs of the organisation, for its owner (null when SMS is not set up). */
export async function getSmsCallbackUrls(ctx: OrgContext): Promise<SmsCallbackUrls | null> {
  requireOwner(ctx);
  const row = await db.selectFrom("sms_settings").select("callback_key").where("organization_id", "=", ctx.org.id).executeTakeFirst();
  return row ? smsCallbackUrls(row.callback_key) : null;
}

export type SaveSmsResult = "saved" | "api_key_missing";

/** Adds or updates the settings. An empty API key keeps the stored one, so a first save needs it. Owner only. */
export async function saveSmsSettings(ctx: OrgContext, input: SmsSettingsInput, now = Date.now()): Promise<SaveSmsResult> {
  requireOwner(ctx);
  const fields = {
    provider: SMS_PROVIDER,
    username: input.username,
    sender_id: input.sender_id,
    messages_per_second: input.messages_per_second,
    updated_at: now,
    ...(input.api_key !== null && { api_key: encryptSecret(input.api_key) }),
  };
  const updated = await db.updateTable("sms_settings").set(fields).where("organization_id", "=", ctx.org.id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return "saved";
  if (input.api_key === null) return "api_key_missing";
  await db
    .insertInto("sms_settings")
    .values({
      organization_id: ctx.org.id,
      ...fields,
      api_key: encryptSecret(input.api_key),
      callback_key: crypto.randomBytes(24).toString("base64url"),
      created_at: now,
    })
    // Saved twice at once: the second becomes an update, the callback key stays the first one's.
    .onConflict((oc) => oc.column("organization_id").doUpdateSet(fields))
    .execute();
  return "saved";
}

/** Removes the settings (and with them the callback key: a later save makes new URLs). Owner only. */
export async function removeSmsSettings(ctx: OrgContext): Promise<void> {
  requireOwner(ctx);
  await db.deleteFrom("sms_settings").where("organization_id", "=", ctx.org.id).execute();
}

export interface SmsSender {
  provider: SmsProvider;
  /** The sender ID to send from; null: the provider's default. */
  from: string | null;
  messagesPerSecond: number;
}

/**
 * How the dispatch sends this organisation's SMS, for the server only; null when SMS is not set up.
 * Throws when the API key was stored under another SECRETS_KEY (the operator must enter it again).
 */
export async function smsSenderFor(
  organizationId: number,
  options: { standIn?: string; timeoutMs?: number } = {},
): Promise<SmsSender | null> {
  const row = await db
    .selectFrom("sms_settings")
    .select(["username", "api_key", "sender_id", "messages_per_second"])
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!row) return null;
  let apiKey: string;
  try {
    apiKey = readSecret(row.api_key)!;
  } catch {
    throw new Error(
      "The saved Africa's Talking API key cannot be read (the server's SECRETS_KEY changed). Enter it again on the SMS settings page.",
    );
  }
  return {
    provider: africasTalking({
      baseUrl: africasTalkingBaseUrl(row.username, options.standIn),
      username: row.username,
      apiKey,
      timeoutMs: options.timeoutMs,
    }),
    from: row.sender_id,
    messagesPerSecond: Number(row.messages_per_second),
  };
}
