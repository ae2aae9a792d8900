// An organisation's M-Pesa (Daraja) credentials, console side (`ctx` first):
// read with the secrets as `*_set` booleans, saved by the owner only (like guest sign-in: one
// credential for every network, and whoever holds it decides where guests' money goes), write-only
// secrets stored with encryptSecret, and "Test connection" (an OAuth token through the client).
// The Daraja address comes from the environment, never from the organisation: sandbox or
// production, or DARAJA_URL (a stand-in such as scripts/fakes/daraja.ts) for every organisation.
import crypto from "node:crypto";
import type { Selectable } from "kysely";
import { db } from "~/db/db.server";
import type { MpesaEnvironment, MpesaSettingsTable, MpesaShortCodeType } from "~/db/schema";
import { getEnv } from "~/env.server";
import type { MpesaSettingsInput } from "~/lib/schemas/mpesa";
import { publicOrigin } from "../email.server";
import { requireOwner, type OrgContext } from "../guard.server";
import { decryptSecret, encryptSecret } from "../secrets.server";
import { DARAJA_URLS, darajaClient, describeDarajaError, type DarajaClient, type DarajaClientOptions } from "./daraja.server";

export interface MpesaSettingsView {
  environment: MpesaEnvironment;
  type: MpesaShortCodeType;
  consumerKey: string;
  consumerSecretSet: boolean;
  shortcode: string;
  passkeySet: boolean;
  partyB: string;
  initiatorName: string;
  securityCredentialSet: boolean;
  updatedAt: number;
}

/** Where Daraja is: the stand-in (default DARAJA_URL, for tests and the demo) when set, else Safaricom's. */
export function darajaBaseUrl(environment: MpesaEnvironment, standIn: string | undefined = getEnv().DARAJA_URL): string {
  return standIn ?? DARAJA_URLS[environment];
}

/** The address Daraja sends this organisation's payment results to (served by the guest path). */
export function mpesaCallbackUrl(callbackKey: string): string {
  return `${publicOrigin()}/hotspot/mpesa/${callbackKey}`;
}

/** What a callback key is looked up by: its SHA-256 in hex (the key itself is never a lookup's value). */
export function callbackKeyHash(callbackKey: string): string {
  return crypto.hash("sha256", callbackKey, "hex");
}

/**
 * The key in a callback's URL against the organisation's, in constant time: equal-length SHA-256
 * digests through crypto.timingSafeEqual, so how long the comparison takes says nothing about how
 * much of the key was right.
 */
export function sameCallbackKey(stored: string, given: string): boolean {
  const digest = (key: string) => crypto.createHash("sha256").update(key, "utf8").digest();
  return crypto.timingSafeEqual(digest(stored), digest(given));
}

/** The organisation's settings without their secrets; null when M-Pesa is not set up. */
export async function getMpesaSettings(ctx: OrgContext): Promise<MpesaSettingsView | null> {
  const row = await db
    .selectFrom("mpesa_settings")
    .select([
      "environment",
      "type",
      "consumer_key",
      "consumer_secret",
      "shortcode",
      "passkey",
      "party_b",
      "initiator_name",
      "security_credential",
      "updated_at",
    ])
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    environment: row.environment,
    type: row.type,
    consumerKey: row.consumer_key,
    consumerSecretSet: row.consumer_secret !== "",
    shortcode: row.shortcode,
    passkeySet: row.passkey !== "",
    partyB: row.party_b,
    initiatorName: row.initiator_name,
    securityCredentialSet: row.security_credential !== "",
    updatedAt: Number(row.updated_at),
  };
}

/** The callback URL of the organisation, for its owner (null when M-Pesa is not set up). */
export async function getMpesaCallbackUrl(ctx: OrgContext): Promise<string | null> {
  requireOwner(ctx);
  const row = await db.selectFrom("mpesa_settings").select("callback_key").where("organization_id", "=", ctx.org.id).executeTakeFirst();
  return row ? mpesaCallbackUrl(row.callback_key) : null;
}

export type SaveMpesaResult = "saved" | { missing: Array<"consumer_secret" | "passkey"> };

/**
 * Adds or updates the settings. Empty secrets keep the stored ones, so a first save needs both.
 * The callback key is made once, on the first save. Owner only.
 */
export async function saveMpesaSettings(ctx: OrgContext, input: MpesaSettingsInput, now = Date.now()): Promise<SaveMpesaResult> {
  requireOwner(ctx);
  const fields = {
    environment: input.environment,
    type: input.type,
    consumer_key: input.consumer_key,
    shortcode: input.shortcode,
    party_b: input.party_b ?? input.shortcode,
    updated_at: now,
    ...(input.initiator_name !== undefined && { initiator_name: input.initiator_name }),
    ...(input.security_credential != null && { security_credential: encryptSecret(input.security_credential) }),
    ...(input.consumer_secret !== null && { consumer_secret: encryptSecret(input.consumer_secret) }),
    ...(input.passkey !== null && { passkey: encryptSecret(input.passkey) }),
  };
  const updated = await db.updateTable("mpesa_settings").set(fields).where("organization_id", "=", ctx.org.id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return "saved";

  const missing = [
    ...(input.consumer_secret === null ? (["consumer_secret"] as const) : []),
    ...(input.passkey === null ? (["passkey"] as const) : []),
  ];
  if (missing.length > 0) return { missing };
  const callbackKey = crypto.randomBytes(24).toString("base64url");
  await db
    .insertInto("mpesa_settings")
    .values({
      organization_id: ctx.org.id,
      ...fields,
      consumer_secret: encryptSecret(input.consumer_secret!),
      passkey: encryptSecret(input.passkey!),
      callback_key: callbackKey,
      callback_key_hash: callbackKeyHash(callbackKey),
      created_at: now,
    })
    // Saved twice at once: the second becomes an update, the callback key stays the first one's.
    .onConflict((oc) => oc.column("organization_id").doUpdateSet(fields))
    .execute();
  return "saved";
}

export async function removeMpesaSettings(ctx: OrgContext): Promise<void> {
  requireOwner(ctx);
  await db.deleteFrom("mpesa_settings").where("organization_id", "=", ctx.org.id).execute();
}

/** The settings' columns a Daraja client is made of (darajaClientOf). */
export const DARAJA_COLUMNS = [
  "environment",
  "consumer_key",
  "consumer_secret",
  "shortcode",
  "passkey",
  "type",
  "party_b",
  "initiator_name",
  "security_credential",
] as const;
export type DarajaSettingsRow = Pick<Selectable<MpesaSettingsTable>, (typeof DARAJA_COLUMNS)[number]>;

/**
 * A Daraja client with the organisation's credentials, for the server only (the purchase flow, the
 * reconciliation job). null when M-Pesa is not set up; throws when a secret was made under another
 * SECRETS_KEY.
 */
export async function loadDarajaClient(
  organizationId: number,
  /** standIn: a Daraja address to use instead of DARAJA_URL (tests) */
  options: DarajaClientOptions & { standIn?: string } = {},
): Promise<DarajaClient | null> {
  const row = await db.selectFrom("mpesa_settings").select(DARAJA_COLUMNS).where("organization_id", "=", organizationId).executeTakeFirst();
  return row ? darajaClientOf(row, options) : null;
}

/** The client of settings already read (the purchase reads them with the connection); throws as loadDarajaClient does. */
export function darajaClientOf(row: DarajaSettingsRow, options: DarajaClientOptions & { standIn?: string } = {}): DarajaClient {
  const { standIn, ...clientOptions } = options;
  return darajaClient(
    {
      baseUrl: darajaBaseUrl(row.environment, standIn),
      consumerKey: row.consumer_key,
      consumerSecret: decryptSecret(row.consumer_secret),
      shortCode: row.shortcode,
      passkey: decryptSecret(row.passkey),
      type: row.type,
      partyB: row.party_b,
      initiatorName: row.initiator_name,
      securityCredential: row.security_credential ? decryptSecret(row.security_credential) : "",
    },
    clientOptions,
  );
}

export interface ConnectionTest {
  ok: boolean;
  message: string;
}

/**
 * "Test connection": fetches a new OAuth token with the saved key and secret (the new token
 * replaces the shared one, so the instances carry on with it). Owner only. Does not test the
 * passkey: only a payment request does, and that would prompt a phone.
 */
export async function testMpesaConnection(
  ctx: OrgContext,
  options: DarajaClientOptions & { standIn?: string } = {},
): Promise<ConnectionTest> {
  requireOwner(ctx);
  let client: DarajaClient | null;
  try {
    client = await loadDarajaClient(ctx.org.id, options);
  } catch {
    return {
      ok: false,
      message: "The saved consumer secret or passkey cannot be read (the server's SECRETS_KEY changed). Enter them again.",
    };
  }
  if (!client) return { ok: false, message: "Save your M-Pesa settings first." };
  try {
    await client.accessToken({ force: true });
    return { ok: true, message: "Connected: M-Pesa accepted the consumer key and secret." };
  } catch (error) {
    return { ok: false, message: describeDarajaError(error) };
  }
}
