// A small typed client for Safaricom's Daraja (M-Pesa) API over fetch: OAuth, STK push, STK query,
// C2B URL registration, Transaction Status and Reversal. Written here on purpose: the official npm client
// says it is not meant for production, and no well-kept client exists.
//
// Facts from Daraja's documentation it builds on:
// - OAuth `GET /oauth/v1/generate?grant_type=client_credentials` (HTTP Basic key:secret) gives a
//   token for 3,599 s, and a new token invalidates the previous one of that key. So one token per
//   credential is shared by every instance, kept in the database (`daraja_tokens`, encrypted), and
//   refreshed by one instance at a time (a lease taken with a conditional UPDATE) when under 60 s
//   are left — never fetched per request (each instance keeps a copy in memory meanwhile).
// - STK push `Password` = base64(BusinessShortCode + passkey + Timestamp); `Timestamp` is
//   YYYYMMDDHHmmss in Kenyan time (EAT, Africa/Nairobi, UTC+3 all year: Kenya has no daylight
//   saving), and the same value goes in the password and the Timestamp field.
// - `Amount` in whole shillings; phones `2547XXXXXXXX` / `2541XXXXXXXX`; AccountReference at most
//   12 characters, TransactionDesc at most 13 ("M-Pesa Express Simulate", Request Parameters,
//   https://developer.safaricom.co.ke/APIs/MpesaExpressSimulate). stkPush refuses anything else
//   before sending (invalid_input), as Daraja would.
// - The STK query answers HTTP 500 with 500.001.1001 "The transaction is being processed" while
//   pending, and a string ResultCode when done.
// - Transaction Status (`/mpesa/transactionstatus/v1/query`, CommandID TransactionStatusQuery) and
//   Reversal (`/mpesa/reversal/v1/request`, CommandID TransactionReversal) take an Initiator and its
//   SecurityCredential, answer at once only that the request was accepted (ResponseCode "0", a
//   ConversationID), and POST their result later to the ResultURL ({ Result: { ResultCode,
//   ResultDesc, ConversationID, OriginatorConversationID, TransactionID, ResultParameters:
//   { ResultParameter: [{ Key, Value }] } } }), or to the QueueTimeOutURL when it timed out.
import crypto from "node:crypto";
import { db } from "~/db/db.server";
import { normalizePhone } from "~/lib/phone";
import { decryptSecret, encryptSecret } from "../secrets.server";

export const DARAJA_URLS = {
  sandbox: "https://sandbox.safaricom.co.ke",
  production: "https://api.safaricom.co.ke",
} as const;

export type DarajaEnvironment = keyof typeof DARAJA_URLS;
export type DarajaShortCodeType = "paybill" | "till";

export const ACCOUNT_REFERENCE_MAX = 12;
export const TRANSACTION_DESC_MAX = 13;
/** A stored token is replaced when fewer than this many milliseconds are left. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

// ---- What a guest is told about an STK result ----

/** STK push result codes in plain words for the guest. */
export const STK_RESULT_MESSAGES: Readonly<Record<number, string>> = {
  0: "Payment received. Thank you!",
  1: "Your M-Pesa balance is not enough for this plan. Top up and try again.",
  1032: "You cancelled the payment on your phone. Nothing was paid.",
  1037: "We could not reach your phone. Check that it is on and has network, then try again.",
  2001: "The M-Pesa PIN was wrong. Nothing was paid; try again.",
  1019: "The payment request expired before it was completed. Try again.",
  17: "M-Pesa does not allow paying the same amount twice within 2 minutes. Wait a moment and try again.",
};

export const STK_RESULT_FALLBACK = "The payment did not go through. Try again, or pay another way.";

/** The guest's message for a ResultCode (a number in callbacks, a string in queries). */
export function stkResultMessage(code: number | string): string {
  const n = typeof code === "number" ? code : /^\d+$/.test(code.trim()) ? Number(code) : NaN;
  return STK_RESULT_MESSAGES[n] ?? STK_RESULT_FALLBACK;
}

// ---- Helpers ----

const EAT_OFFSET_MS = 3 * 3600_000;

/** Daraja's Timestamp: YYYYMMDDHHmmss in Nairobi time (EAT, UTC+3; no daylight saving). */
export function darajaTimestamp(at: number = Date.now()): string {
  return new Date(at + EAT_OFFSET_MS).toISOString().replace(/\D/g, "").slice(0, 14);
}

/** The STK Password: base64(shortcode + passkey + timestamp). */
export function stkPassword(shortCode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortCode}${passkey}${timestamp}`, "utf8").toString("base64");
}

/**
 * A Kenyan mobile number as Daraja wants it: 2547XXXXXXXX or 2541XXXXXXXX (no +). Takes 07…, 01…,
 * +254…, 254… and spaces or dashes; null for anything else (landlines and foreign numbers too).
 */
export function darajaPhone(input: string): string | null {
  const e164 = normalizePhone(input.replace(/[\s-]/g, ""));
  if (e164 === null) return null;
  const digits = e164.slice(1);
  return /^254[17]\d{8}$/.test(digits) ? digits : null;
}

// ---- Errors ----

export type DarajaErrorKind =
  | "network" // Daraja could not be reached or did not answer in time
  | "auth" // the consumer key and secret were refused
  | "credentials" // the shortcode and passkey were refused
  | "rejected" // Daraja refused the request (errorCode/errorMessage say why)
  | "invalid_input" // refused before sending (a bad phone, amount, reference)
  | "unexpected"; // an answer of an unknown shape

export class DarajaError extends Error {
  constructor(
    readonly kind: DarajaErrorKind,
    message: string,
    readonly details: { status?: number; errorCode?: string; errorMessage?: string; requestId?: string } = {},
  ) {
    super(message);
    this.name = "DarajaError";
  }
}

/** For the organisation's owner (settings page): what went wrong, in plain words. */
export function describeDarajaError(error: unknown): string {
  if (!(error instanceof DarajaError)) return "Something went wrong while talking to M-Pesa. Try again later.";
  switch (error.kind) {
    case "network":
      return "Could not reach M-Pesa (Daraja). Check the internet connection of the server and try again.";
    case "auth":
      return "M-Pesa refused the consumer key and secret. Check them in your Daraja app, and that the environment (sandbox or production) matches the app.";
    case "credentials":
      return "M-Pesa refused the shortcode and passkey. Check the passkey that Safaricom gave for this shortcode.";
    case "invalid_input":
      return error.message;
    default:
      return `M-Pesa refused the request${error.details.errorMessage ? `: ${error.details.errorMessage}` : "."}`;
  }
}

// ---- The shared OAuth token ----

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export interface TokenOptions {
  /** fetch a new token even when the stored one is still good (testing the credentials) */
  force?: boolean;
  /** Daraja refused this token: replace it (unless another instance already did) */
  rejected?: string;
}

/** Where the one token per credential lives. `fetchToken` is called by at most one caller at a time. */
export interface TokenStore {
  get(cacheKey: string, fetchToken: () => Promise<IssuedToken>, options?: TokenOptions): Promise<string>;
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One process only (unit tests, scripts): the token in memory, one fetch at a time. */
export function memoryTokenStore(now: () => number = Date.now): TokenStore {
  const tokens = new Map<string, IssuedToken>();
  const pending = new Map<string, Promise<IssuedToken>>();
  return {
    async get(cacheKey, fetchToken, options = {}) {
      for (;;) {
        const inFlight = pending.get(cacheKey);
        if (inFlight) {
          const issued = await inFlight.catch(() => null);
          if (issued && !options.force) return issued.token;
          if (inFlight === pending.get(cacheKey)) pending.delete(cacheKey);
          continue;
        }
        const stored = tokens.get(cacheKey);
        const usable = stored && stored.expiresAt - TOKEN_REFRESH_MARGIN_MS > now() && stored.token !== options.rejected;
        if (usable && !options.force) return stored.token;
        const fetching = fetchToken();
        pending.set(cacheKey, fetching);
        try {
          const issued = await fetching;
          tokens.set(cacheKey, issued);
          return issued.token;
        } finally {
          if (pending.get(cacheKey) === fetching) pending.delete(cacheKey);
        }
      }
    },
  };
}

export interface DatabaseTokenStoreOptions {
  now?: () => number;
  /** how long a refresher holds the lease (longer than a token request may take) */
  leaseMs?: number;
  pollMs?: number;
  /** how long to wait for another instance's refresh before giving up */
  waitMs?: number;
}

/**
 * The token in `daraja_tokens`, shared by every instance: keyed by a hash of the Daraja address and
 * the consumer key, the token encrypted (encryptSecret), its expiry. A refresh takes a lease with a
 * conditional UPDATE (only when the lease is free and the token is missing, nearly expired or the
 * one Daraja refused), so two instances never both fetch: Daraja would invalidate the first token.
 *
 * Each instance also keeps the last token it read or fetched in memory until its refresh margin, so
 * an STK push does not read the table (one round trip fewer on every purchase). Another instance
 * replaces the token early only when Daraja refused it or a credentials test forced a new one; this
 * instance then finds its copy refused once, and its retry (`rejected`) reads the table again.
 */
export function databaseTokenStore(options: DatabaseTokenStoreOptions = {}): TokenStore {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 50;
  const waitMs = options.waitMs ?? 20_000;
  const known = new Map<string, { token: string; tokenHash: string; expiresAt: number }>();
  const remember = (keyHash: string, token: string, expiresAt: number) =>
    known.set(keyHash, { token, tokenHash: sha256(token), expiresAt });
  return {
    async get(cacheKey, fetchToken, { force = false, rejected } = {}) {
      const keyHash = sha256(cacheKey);
      const rejectedHash = rejected === undefined ? null : sha256(rejected);
      const copy = known.get(keyHash);
      if (copy && !force && copy.tokenHash !== rejectedHash && copy.expiresAt - TOKEN_REFRESH_MARGIN_MS > now()) return copy.token;
      const started = now();
      const leaseId = crypto.randomUUID();
      for (;;) {
        const t = now();
        const row = await db
          .selectFrom("daraja_tokens")
          .select(["token", "token_hash", "expires_at", "lease_until"])
          .where("key_hash", "=", keyHash)
          .executeTakeFirst();
        if (!row) {
          // The credential's first use: its row, then look again (a write only this once, not per call).
          await db
            .insertInto("daraja_tokens")
            .values({
              key_hash: keyHash,
              token: null,
              token_hash: null,
              expires_at: 0,
              lease_until: 0,
              lease_id: null,
              updated_at: started,
            })
            .onConflict((oc) => oc.column("key_hash").doNothing())
            .execute();
          continue;
        }
        const fresh = row.token !== null && Number(row.expires_at) - TOKEN_REFRESH_MARGIN_MS > t && row.token_hash !== rejectedHash;
        if (fresh && !force) {
          const token = decryptSecret(row.token!);
          remember(keyHash, token, Number(row.expires_at));
          return token;
        }
        if (Number(row.lease_until) <= t) {
          let claim = db
            .updateTable("daraja_tokens")
            .set({ lease_until: t + leaseMs, lease_id: leaseId })
            .where("key_hash", "=", keyHash)
            .where("lease_until", "<=", t);
          if (!force) {
            claim = claim.where((eb) => {
              const stale = [eb("token_hash", "is", null), eb("expires_at", "<=", t + TOKEN_REFRESH_MARGIN_MS)];
              if (rejectedHash !== null) stale.push(eb("token_hash", "=", rejectedHash));
              return eb.or(stale);
            });
          }
          const claimed = Number((await claim.executeTakeFirst()).numUpdatedRows) === 1;
          if (claimed) {
            let issued: IssuedToken;
            try {
              issued = await fetchToken();
            } catch (error) {
              await db
                .updateTable("daraja_tokens")
                .set({ lease_until: 0, lease_id: null })
                .where("key_hash", "=", keyHash)
                .where("lease_id", "=", leaseId)
                .execute();
              throw error;
            }
            await db
              .updateTable("daraja_tokens")
              .set({
                token: encryptSecret(issued.token),
                token_hash: sha256(issued.token),
                expires_at: issued.expiresAt,
                lease_until: 0,
                lease_id: null,
                updated_at: now(),
              })
              .where("key_hash", "=", keyHash)
              .where("lease_id", "=", leaseId)
              .execute();
            remember(keyHash, issued.token, issued.expiresAt);
            return issued.token;
          }
          continue; // someone else refreshed or claimed in between: look again at once
        }
        if (now() - started > waitMs)
          throw new DarajaError("network", "Timed out waiting for the M-Pesa token another instance is fetching.");
        await sleep(pollMs);
      }
    },
  };
}

// ---- The client ----

export interface DarajaConfig {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** BusinessShortCode: the paybill number, or the store (head office) number of a till */
  shortCode: string;
  passkey: string;
  type: DarajaShortCodeType;
  /** PartyB: the paybill number, or the till number */
  partyB: string;
  /** the initiator of Transaction Status and Reversal ('' when not set up) */
  initiatorName?: string;
  /** its SecurityCredential, as Daraja's portal gives it ('' when not set up) */
  securityCredential?: string;
}

export interface DarajaClientOptions {
  tokens?: TokenStore;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

export interface StkPushInput {
  /** whole shillings (not cents) */
  amount: number;
  /** any form darajaPhone takes */
  phone: string;
  accountReference: string;
  description: string;
  callbackUrl: string;
}

export interface StkPushAccepted {
  merchantRequestId: string;
  checkoutRequestId: string;
  customerMessage: string;
  /** what was sent, for the pending request's record */
  sent: { amount: number; phone: string; timestamp: string };
}

export type StkQueryResult =
  { status: "pending" } | { status: "done"; resultCode: number; resultDesc: string; merchantRequestId: string; checkoutRequestId: string };

export interface RegisterC2bInput {
  confirmationUrl: string;
  validationUrl: string;
  responseType?: "Completed" | "Cancelled";
  /** defaults to the configured shortcode */
  shortCode?: string;
}

/** Transaction Status and Reversal: an asynchronous result goes to resultUrl (and queueTimeoutUrl). */
export interface AsyncRequestInput {
  /** the M-Pesa receipt asked about or reversed */
  transactionId: string;
  resultUrl: string;
  queueTimeoutUrl: string;
  remarks: string;
  occasion?: string;
}

export interface ReversalInput extends AsyncRequestInput {
  /** whole shillings */
  amount: number;
}

export interface AsyncAccepted {
  conversationId: string;
  originatorConversationId: string;
}

export interface DarajaClient {
  readonly config: Readonly<Omit<DarajaConfig, "consumerSecret" | "passkey">>;
  accessToken(options?: { force?: boolean }): Promise<string>;
  stkPush(input: StkPushInput): Promise<StkPushAccepted>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
  registerC2bUrls(input: RegisterC2bInput): Promise<{ responseDescription: string }>;
  /** Transaction Status: how a receipt stands; the answer comes later to input.resultUrl. */
  transactionStatus(input: AsyncRequestInput): Promise<AsyncAccepted>;
  /** Reversal: gives a payment back; the answer comes later to input.resultUrl. */
  reversal(input: ReversalInput): Promise<AsyncAccepted>;
}

/** A Transaction Status or Reversal result as POSTed to the ResultURL; null when it is not one. */
export interface AsyncResult {
  resultCode: string;
  resultDesc: string;
  conversationId: string;
  originatorConversationId: string;
  transactionId: string;
  parameters: Record<string, string>;
}

export function parseAsyncResult(body: unknown): AsyncResult | null {
  const result = (body as { Result?: Record<string, unknown> } | null)?.Result;
  if (!result || typeof result !== "object") return null;
  const conversationId = text(result.ConversationID);
  const resultCode = text(result.ResultCode);
  if (!conversationId || resultCode === undefined) return null;
  const raw = (result.ResultParameters as { ResultParameter?: unknown } | undefined)?.ResultParameter;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === "object" ? [raw] : [];
  const parameters: Record<string, string> = {};
  for (const p of list as Array<{ Key?: unknown; Value?: unknown }>) {
    const key = text(p?.Key);
    const value = text(p?.Value);
    if (key && value !== undefined) parameters[key] = value.slice(0, 200);
  }
  return {
    resultCode: resultCode.slice(0, 20),
    resultDesc: (text(result.ResultDesc) ?? "").slice(0, 300),
    conversationId: conversationId.slice(0, 100),
    originatorConversationId: (text(result.OriginatorConversationID) ?? "").slice(0, 100),
    transactionId: (text(result.TransactionID) ?? "").slice(0, 40),
    parameters,
  };
}

let defaultStore: TokenStore | undefined;

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);
}

export function darajaClient(config: DarajaConfig, options: DarajaClientOptions = {}): DarajaClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const tokens = options.tokens ?? (defaultStore ??= databaseTokenStore());
  const cacheKey = `${baseUrl}\n${config.consumerKey}`;

  async function request(path: string, init: RequestInit): Promise<Answer> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, { ...init, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new DarajaError("network", `Could not reach Daraja at ${baseUrl}: ${(error as Error).message}`);
    }
    const raw = await res.text().catch(() => "");
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      body = null;
    }
    return { status: res.status, body };
  }

  function refused(answer: Answer, kind: DarajaErrorKind = "rejected"): DarajaError {
    const errorCode = text(answer.body?.errorCode);
    const errorMessage = text(answer.body?.errorMessage);
    return new DarajaError(
      kind,
      `Daraja answered ${answer.status}${errorCode ? ` ${errorCode}` : ""}${errorMessage ? `: ${errorMessage}` : ""}`,
      {
        status: answer.status,
        errorCode,
        errorMessage,
        requestId: text(answer.body?.requestId),
      },
    );
  }

  async function fetchToken(): Promise<IssuedToken> {
    const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`, "utf8").toString("base64");
    const askedAt = now();
    const answer = await request("/oauth/v1/generate?grant_type=client_credentials", {
      method: "GET",
      headers: { Authorization: `Basic ${basic}` },
    });
    const token = text(answer.body?.access_token);
    const expiresIn = Number(text(answer.body?.expires_in));
    if (answer.status === 200 && token && Number.isFinite(expiresIn) && expiresIn > 0)
      return { token, expiresAt: askedAt + expiresIn * 1000 };
    if (answer.status === 400 || answer.status === 401) throw refused(answer, "auth");
    throw refused(answer, answer.status === 200 ? "unexpected" : "rejected");
  }

  /** A POST with the shared token; once more with a new token when Daraja says it is invalid. */
  async function post(path: string, body: Record<string, unknown>): Promise<Answer> {
    let token = await tokens.get(cacheKey, fetchToken);
    for (let attempt = 0; ; attempt++) {
      const answer = await request(path, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const invalidToken = answer.status === 401 || text(answer.body?.errorCode) === "404.001.03";
      if (!invalidToken || attempt > 0) return answer;
      token = await tokens.get(cacheKey, fetchToken, { rejected: token });
    }
  }

  function passwordFields() {
    const timestamp = darajaTimestamp(now());
    return {
      BusinessShortCode: config.shortCode,
      Password: stkPassword(config.shortCode, config.passkey, timestamp),
      Timestamp: timestamp,
    };
  }

  const wrongCredentials = (answer: Answer) => /wrong credentials/i.test(text(answer.body?.errorMessage) ?? "");

  return {
    config: { baseUrl, consumerKey: config.consumerKey, shortCode: config.shortCode, type: config.type, partyB: config.partyB },

    accessToken: ({ force = false } = {}) => tokens.get(cacheKey, fetchToken, { force }),

    async stkPush(input) {
      if (!Number.isInteger(input.amount) || input.amount < 1)
        throw new DarajaError("invalid_input", "The amount must be a whole number of shillings, at least 1.");
      const phone = darajaPhone(input.phone);
      if (phone === null) throw new DarajaError("invalid_input", "Enter a Safaricom number such as 0712 345 678.");
      const accountReference = input.accountReference.trim();
      if (accountReference.length < 1 || accountReference.length > ACCOUNT_REFERENCE_MAX) {
        throw new DarajaError("invalid_input", `The account reference must be 1 to ${ACCOUNT_REFERENCE_MAX} characters.`);
      }
      const description = input.description.trim();
      if (description.length < 1 || description.length > TRANSACTION_DESC_MAX) {
        throw new DarajaError("invalid_input", `The description must be 1 to ${TRANSACTION_DESC_MAX} characters.`);
      }
      if (!isHttpUrl(input.callbackUrl)) throw new DarajaError("invalid_input", "The callback URL must be an http(s) address.");
      const fields = passwordFields();
      const answer = await post("/mpesa/stkpush/v1/processrequest", {
        ...fields,
        TransactionType: config.type === "till" ? "CustomerBuyGoodsOnline" : "CustomerPayBillOnline",
        Amount: input.amount,
        PartyA: phone,
        PartyB: config.partyB,
        PhoneNumber: phone,
        CallBackURL: input.callbackUrl,
        AccountReference: accountReference,
        TransactionDesc: description,
      });
      const body = answer.body;
      if (answer.status === 200 && text(body?.ResponseCode) === "0" && text(body?.CheckoutRequestID) && text(body?.MerchantRequestID)) {
        return {
          merchantRequestId: text(body!.MerchantRequestID)!,
          checkoutRequestId: text(body!.CheckoutRequestID)!,
          customerMessage: text(body!.CustomerMessage) ?? "",
          sent: { amount: input.amount, phone, timestamp: fields.Timestamp },
        };
      }
      throw refused(answer, wrongCredentials(answer) ? "credentials" : answer.status === 200 ? "unexpected" : "rejected");
    },

    async stkQuery(checkoutRequestId) {
      const answer = await post("/mpesa/stkpushquery/v1/query", { ...passwordFields(), CheckoutRequestID: checkoutRequestId });
      const body = answer.body;
      if (text(body?.errorCode) === "500.001.1001" && /being processed/i.test(text(body?.errorMessage) ?? "")) return { status: "pending" };
      const resultCode = Number(text(body?.ResultCode));
      if (answer.status === 200 && text(body?.ResponseCode) === "0" && Number.isInteger(resultCode)) {
        return {
          status: "done",
          resultCode,
          resultDesc: text(body!.ResultDesc) ?? "",
          merchantRequestId: text(body!.MerchantRequestID) ?? "",
          checkoutRequestId: text(body!.CheckoutRequestID) ?? checkoutRequestId,
        };
      }
      throw refused(answer, wrongCredentials(answer) ? "credentials" : answer.status === 200 ? "unexpected" : "rejected");
    },

    async registerC2bUrls(input) {
      if (!isHttpUrl(input.confirmationUrl) || !isHttpUrl(input.validationUrl))
        throw new DarajaError("invalid_input", "The C2B URLs must be http(s) addresses.");
      const answer = await post("/mpesa/c2b/v1/registerurl", {
        ShortCode: input.shortCode ?? config.shortCode,
        ResponseType: input.responseType ?? "Completed",
        ConfirmationURL: input.confirmationUrl,
        ValidationURL: input.validationUrl,
      });
      if (answer.status === 200 && text(answer.body?.ResponseCode) === "0")
        return { responseDescription: text(answer.body?.ResponseDescription) ?? "" };
      throw refused(answer, answer.status === 200 ? "unexpected" : "rejected");
    },

    transactionStatus: (input) =>
      asyncRequest("/mpesa/transactionstatus/v1/query", input, {
        CommandID: "TransactionStatusQuery",
        PartyA: config.partyB,
        IdentifierType: "4",
      }),

    reversal(input) {
      if (!Number.isInteger(input.amount) || input.amount < 1)
        throw new DarajaError("invalid_input", "The amount must be a whole number of shillings, at least 1.");
      return asyncRequest("/mpesa/reversal/v1/request", input, {
        CommandID: "TransactionReversal",
        Amount: input.amount,
        ReceiverParty: config.partyB,
        RecieverIdentifierType: "11", // sic, as Daraja spells it
      });
    },
  };

  async function asyncRequest(path: string, input: AsyncRequestInput, fields: Record<string, unknown>): Promise<AsyncAccepted> {
    if (!config.initiatorName || !config.securityCredential)
      throw new DarajaError("invalid_input", "Set the M-Pesa initiator name and security credential first.");
    if (!/^[A-Z0-9]{6,20}$/.test(input.transactionId)) throw new DarajaError("invalid_input", "Not an M-Pesa receipt number.");
    if (!isHttpUrl(input.resultUrl) || !isHttpUrl(input.queueTimeoutUrl))
      throw new DarajaError("invalid_input", "The result URLs must be http(s) addresses.");
    const answer = await post(path, {
      Initiator: config.initiatorName,
      SecurityCredential: config.securityCredential,
      ...fields,
      TransactionID: input.transactionId,
      ResultURL: input.resultUrl,
      QueueTimeOutURL: input.queueTimeoutUrl,
      Remarks: input.remarks.slice(0, 100) || "Mlango",
      Occasion: (input.occasion ?? "").slice(0, 100),
    });
    const conversationId = text(answer.body?.ConversationID);
    if (answer.status === 200 && text(answer.body?.ResponseCode) === "0" && conversationId)
      return { conversationId, originatorConversationId: text(answer.body?.OriginatorConversationID) ?? "" };
    throw refused(answer, answer.status === 200 ? "unexpected" : "rejected");
  }
}
