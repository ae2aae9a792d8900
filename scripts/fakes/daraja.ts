/**
 * A fake Safaricom Daraja (M-Pesa) API for tests, the demo and the gateway simulator, so that
 * buying a plan works offline.
 *
 * Written from Safaricom's Daraja documentation (developer.safaricom.co.ke, "APIs"), one call per
 * API, each from that API's page:
 *   GET  /oauth/v1/generate?grant_type=client_credentials   Authorization API, "Generate access token": HTTP Basic
 *        key:secret → { access_token, expires_in: "3599" }; a new token invalidates the previous one of that key
 *        (like Daraja), so old tokens get 401 404.001.03
 *   POST /mpesa/stkpush/v1/processrequest                   M-Pesa Express API, "Request" (Lipa na M-Pesa Online):
 *        Bearer; Password = base64(shortcode + passkey + Timestamp); the result POSTed to CallBackURL ("Callback")
 *   POST /mpesa/stkpushquery/v1/query                       M-Pesa Express API, "Query": 500 500.001.1001 while pending,
 *        ResultCode (a string) when done
 *   POST /mpesa/c2b/v1/registerurl                          Customer To Business (C2B) API, "Register URL":
 *        ConfirmationURL/ValidationURL per ShortCode; "Confirmation" gives the payment's shape (simulateC2B)
 *   POST /mpesa/c2b/v1/simulate                             C2B API, "Simulate" (sandbox only): ShortCode, CommandID
 *        CustomerPayBillOnline | CustomerBuyGoodsOnline, Amount (whole shillings), Msisdn (2547XXXXXXXX), BillRefNumber
 *        (paybill only) → { OriginatorCoversationID (sic), ResponseCode "0", ResponseDescription }; the payment is then
 *        confirmed to the short code's registered ConfirmationURL, as a customer paying from the phone's menu would
 *   POST /mpesa/transactionstatus/v1/query                  Transaction Status API, "Request Parameters" and
 *        "Response/Result": Initiator + SecurityCredential, CommandID TransactionStatusQuery, TransactionID, PartyA,
 *        IdentifierType, ResultURL, QueueTimeOutURL; answered at once with a ConversationID, the result POSTed to
 *        ResultURL as { Result: { ResultCode, ResultDesc, ConversationID, TransactionID, ResultParameters } }
 *   POST /mpesa/reversal/v1/request                         Reversals API, "Request Parameters" and "Result":
 *        CommandID TransactionReversal, TransactionID, Amount, ReceiverParty, RecieverIdentifierType (sic) "11",
 *        ResultURL, QueueTimeOutURL; the result POSTed to ResultURL like Transaction Status's. A receipt it does not
 *        know, or one already reversed, ends in R000002 "The OriginalTransactionID is invalid."
 * The documentation names no ResultCode for a Transaction Status of an unknown receipt: the fake
 * answers "2032" ("The transaction receipt number does not exist.") — Mlango treats any code but
 * "0" as "not paid".
 * After an accepted STK push it POSTs the result callback to the request's CallBackURL
 * (`callbackDelayMs` later, or `callbackDelayFor` the request; metadata only on success; twice with
 * `duplicateCallbacks`; never for the "timeout" and "no_callback" outcomes; `onCallbackSent` hears
 * each answer). `simulateC2B` POSTs a C2B confirmation to the registered ConfirmationURL. The fake
 * calls no host but the callback URLs it is given.
 *
 * What it refuses, as Safaricom's documentation says Daraja does (400 400.002.02 "Bad Request -
 * Invalid <field>"): Daraja API documentation, "M-Pesa Express Simulate"
 * (https://developer.safaricom.co.ke/APIs/MpesaExpressSimulate), section "Request Parameters":
 *   Amount            "Only whole numbers are supported" — 10.5, "10.5" or 0 is refused (at most 250,000);
 *   AccountReference  "Maximum of 12 characters" — empty or longer is refused;
 *   TransactionDesc   "Maximum of 13 Characters" — empty or longer is refused;
 *   PartyA/PhoneNumber 12-digit 2547XXXXXXXX / 2541XXXXXXXX; PartyB a shortcode (digits);
 *   TransactionType   CustomerPayBillOnline or CustomerBuyGoodsOnline; CallBackURL an http(s) URL;
 *   Timestamp         YYYYMMDDHHmmss, and Password = base64(Shortcode + Passkey + Timestamp).
 *
 * Stricter than Daraja in one way, on purpose: the STK Timestamp must be within
 * `timestampToleranceMs` of the current Nairobi time (EAT, UTC+3), which catches a client that
 * sends UTC.
 *
 * How a push ends: `outcomeFor(request)` when set, else the phone's entry in `phoneOutcomes`, else
 * `outcome`. The phone map lets one running fake serve several outcomes at once (browser tests run
 * in parallel against one fake): each test pays from the number that ends the way it wants.
 *
 * node:http only; listens on 127.0.0.1. Run it on its own with
 *   npx tsx scripts/fakes/daraja.ts --port 3199
 * Options: --outcome success|insufficient|cancelled|unreachable|wrong_pin|timeout|no_callback (every
 * push; default success), --callback-delay MS (default 2000), --result-delay MS (Transaction Status and
 * Reversal results; default 20), and --outcome-for PHONE=OUTCOME, as
 * often as needed, for pushes from that phone (2547XXXXXXXX or 2541XXXXXXXX, as Daraja gets it), e.g.
 *   npx tsx scripts/fakes/daraja.ts --port 3199 --outcome-for 254700000032=cancelled --outcome-for 254700000019=timeout
 */
import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { httpRequest } from "./http-request";
import { readBody } from "./read-body";

export type DarajaOutcome = "success" | "insufficient" | "cancelled" | "unreachable" | "wrong_pin" | "timeout" | "no_callback";

/** The result each outcome ends in: ResultCode and ResultDesc as Daraja words them. */
export const OUTCOME_RESULTS: Record<DarajaOutcome, { code: number; desc: string }> = {
  success: { code: 0, desc: "The service request is processed successfully." },
  insufficient: { code: 1, desc: "The balance is insufficient for the transaction." },
  cancelled: { code: 1032, desc: "Request cancelled by user" },
  unreachable: { code: 1037, desc: "DS timeout user cannot be reached" },
  wrong_pin: { code: 2001, desc: "The initiator information is invalid." },
  timeout: { code: 1019, desc: "Transaction has expired" },
  // Paid, but the callback never arrives: only the STK query tells.
  no_callback: { code: 0, desc: "The service request is processed successfully." },
};

/** The public sandbox test shortcode and its passkey (Daraja's documentation). */
export const SANDBOX_SHORTCODE = "174379";
export const SANDBOX_PASSKEY = "bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919";
export const DEMO_CREDENTIALS = { consumerKey: "mlango-demo-key", consumerSecret: "mlango-demo-secret" };
/** The initiator the fake accepts for Transaction Status and Reversal. */
export const DEMO_INITIATOR = { name: "mlango-api", securityCredential: "mlango-demo-security-credential" };
/** The M-Pesa settings form (mpesaSettingsSchema) of an organisation paid through this fake: a sandbox paybill. */
export const DEMO_MPESA_FORM = {
  environment: "sandbox",
  type: "paybill",
  consumer_key: DEMO_CREDENTIALS.consumerKey,
  consumer_secret: DEMO_CREDENTIALS.consumerSecret,
  shortcode: SANDBOX_SHORTCODE,
  passkey: SANDBOX_PASSKEY,
  party_b: "",
  initiator_name: DEMO_INITIATOR.name,
  security_credential: DEMO_INITIATOR.securityCredential,
} as const;

export interface StkRequest {
  at: number;
  /** the request body as received */
  body: Record<string, unknown>;
  shortCode: string;
  amount: number;
  phone: string;
  callbackUrl: string;
  accountReference: string;
  merchantRequestId: string;
  checkoutRequestId: string;
  outcome: DarajaOutcome;
  /** when the query stops answering "being processed" (at + the request's callback delay) */
  completesAt: number;
  /** the receipt, for successful outcomes */
  receipt: string | null;
}

export interface SentCallback {
  checkoutRequestId: string;
  url: string;
  body: StkCallbackBody;
  /** the receiver's HTTP status; null when it could not be reached */
  status: number | null;
  /** when the POST started and when its answer arrived (ms since the epoch, with fractions) */
  sentAt: number;
  answeredAt: number;
}

export interface StkCallbackBody {
  Body: {
    stkCallback: {
      MerchantRequestID: string;
      CheckoutRequestID: string;
      ResultCode: number;
      ResultDesc: string;
      CallbackMetadata?: { Item: Array<{ Name: string; Value?: string | number }> };
    };
  };
}

export interface C2BRegistration {
  shortCode: string;
  responseType: "Completed" | "Cancelled";
  confirmationUrl: string;
  validationUrl: string;
}

export interface C2BConfirmation {
  TransactionType: string;
  TransID: string;
  TransTime: string;
  TransAmount: string;
  BusinessShortCode: string;
  BillRefNumber: string;
  InvoiceNumber: string;
  OrgAccountBalance: string;
  ThirdPartyTransID: string;
  MSISDN: string;
  FirstName: string;
}

export interface SimulateC2BInput {
  shortCode: string;
  amount: number;
  msisdn: string;
  billRefNumber: string;
  firstName?: string;
  /** reuse a TransID (a repeated confirmation) */
  transId?: string;
  transactionType?: "Pay Bill" | "Buy Goods";
}

export interface FakeDaraja {
  url: string;
  /** how the next STK pushes end (default "success") */
  outcome: DarajaOutcome;
  /** per-request outcome, when set (wins over `outcome`) */
  outcomeFor: ((request: Pick<StkRequest, "phone" | "amount" | "accountReference" | "shortCode">) => DarajaOutcome) | null;
  /** per-phone outcome (2547XXXXXXXX → outcome), after `outcomeFor` and before `outcome` */
  phoneOutcomes: Map<string, DarajaOutcome>;
  /** false: accept pushes but never POST callbacks (the query still completes) */
  sendCallbacks: boolean;
  /** delay between accepting a push and its result (callback and query) */
  callbackDelayMs: number;
  /** per-request delay, when set (wins over `callbackDelayMs`): callbacks then arrive out of order */
  callbackDelayFor: ((request: Pick<StkRequest, "phone" | "amount" | "accountReference" | "shortCode" | "outcome">) => number) | null;
  /** called with each callback as its answer arrives (duplicates included) */
  onCallbackSent: ((sent: SentCallback) => void) | null;
  /** send every callback twice */
  duplicateCallbacks: boolean;
  /** when set, an STK push is answered only once this resolves, given the push's PhoneNumber (a slow Daraja) */
  holdStkPush: ((phone: string) => Promise<void>) | null;
  /** how far the STK Timestamp may be from the current Nairobi time; null: not checked */
  timestampToleranceMs: number | null;
  /** registered apps: consumer key → consumer secret */
  credentials: Map<string, string>;
  /** STK shortcodes: BusinessShortCode → passkey */
  shortCodes: Map<string, string>;
  /** every token handed out, in order */
  tokenRequests: Array<{ at: number; consumerKey: string; token: string }>;
  /** every accepted STK push, in order */
  stkRequests: StkRequest[];
  /** every STK query received (answered or not), in order */
  stkQueries: Array<{ at: number; checkoutRequestId: string }>;
  /** every callback POSTed (duplicates included), in the order they completed */
  callbacksSent: SentCallback[];
  c2bRegistrations: Map<string, C2BRegistration>;
  /** initiators of Transaction Status and Reversal: Initiator → SecurityCredential */
  initiators: Map<string, string>;
  /** payments M-Pesa knows by receipt (successful STK pushes and simulated C2B payments are added) */
  payments: Map<string, { amount: number; phone: string; shortCode: string; reversed: boolean }>;
  /** every Transaction Status and Reversal request accepted, in order */
  asyncRequests: Array<{ at: number; kind: "status" | "reversal"; body: Record<string, unknown>; conversationId: string }>;
  /** every Transaction Status or Reversal result POSTed, with the receiver's status */
  resultsSent: Array<{ url: string; body: unknown; status: number | null }>;
  /** delay before a Transaction Status or Reversal result is POSTed */
  resultDelayMs: number;
  /** POSTs a C2B confirmation to the ConfirmationURL registered for the short code */
  simulateC2B(input: SimulateC2BInput): Promise<{ payload: C2BConfirmation; status: number; body: string }>;
  /** resolves when every scheduled callback has been sent */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeDarajaOptions {
  port?: number;
  /** consumer key → secret (default: DEMO_CREDENTIALS) */
  credentials?: Record<string, string>;
  /** shortcode → passkey (default: the sandbox shortcode and passkey) */
  shortCodes?: Record<string, string>;
  callbackDelayMs?: number;
  /** seconds a token lives (default 3599, like Daraja) */
  tokenTtlSeconds?: number;
  /** phone (2547XXXXXXXX) → how its pushes end (see FakeDaraja.phoneOutcomes) */
  phoneOutcomes?: Record<string, DarajaOutcome>;
}

type Payload = Record<string, unknown>;

const TRANSACTION_TYPES = ["CustomerPayBillOnline", "CustomerBuyGoodsOnline"];
const PHONE = /^254[17]\d{8}$/;
/** M-Pesa Express Simulate, Request Parameters: AccountReference "Maximum of 12 characters", TransactionDesc "Maximum of 13 Characters". */
const ACCOUNT_REFERENCE_MAX = 12;
const TRANSACTION_DESC_MAX = 13;
const SHORT_CODE = /^\d{5,8}$/;
const EAT_OFFSET_MS = 3 * 3600_000;

/** YYYYMMDDHHmmss in Nairobi time (EAT, UTC+3 all year). */
export function nairobiTimestamp(at: number = Date.now()): string {
  return new Date(at + EAT_OFFSET_MS).toISOString().replace(/\D/g, "").slice(0, 14);
}

/** The instant a YYYYMMDDHHmmss Nairobi timestamp stands for; null when it is not one. */
function parseNairobiTimestamp(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return utc - EAT_OFFSET_MS;
}

/** Date.now() with fractions of a millisecond. */
const preciseNow = () => performance.timeOrigin + performance.now();

const requestId = () => `${randomInt(10_000, 99_999)}-${randomInt(1_000_000, 99_999_999)}-1`;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const randomText = (length: number, alphabet = ALNUM) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** Daraja's error shape: { requestId, errorCode, errorMessage }. */
const fail = (res: ServerResponse, status: number, errorCode: string, errorMessage: string) =>
  sendJson(res, status, { requestId: requestId(), errorCode, errorMessage });
const badRequest = (res: ServerResponse, field: string) => fail(res, 400, "400.002.02", `Bad Request - Invalid ${field}`);

function parseJson(body: Buffer): Payload | null {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Payload) : null;
  } catch {
    return null;
  }
}

const str = (value: unknown): string | null =>
  typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : null;

function isHttpUrl(value: string | null): value is string {
  return value !== null && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);
}

/** A whole number of shillings ≥ 1, as a number or a numeric string (Daraja takes both). */
function wholeAmount(value: unknown): number | null {
  const text = str(value);
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  const amount = Number(text);
  return amount >= 1 && amount <= 250_000 ? amount : null;
}

export async function startFakeDaraja(options: FakeDarajaOptions = {}): Promise<FakeDaraja> {
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3599;
  /** token → key and expiry; the current token of each key */
  const tokens = new Map<string, { consumerKey: string; expiresAt: number }>();
  const currentToken = new Map<string, string>();
  const byCheckout = new Map<string, StkRequest>();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  function authenticated(req: IncomingMessage, res: ServerResponse): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const access = bearer ? tokens.get(bearer) : undefined;
    if (!access || access.expiresAt <= Date.now()) {
      fail(res, 401, "404.001.03", "Invalid Access Token");
      return false;
    }
    return true;
  }

  function generate(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const decoded = basic ? Buffer.from(basic[1], "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const key = colon < 0 ? "" : decoded.slice(0, colon);
    const secret = colon < 0 ? "" : decoded.slice(colon + 1);
    if (!basic || colon < 0 || fake.credentials.get(key) !== secret) return fail(res, 400, "400.008.01", "Invalid Authentication passed");
    if (query.get("grant_type") !== "client_credentials") return fail(res, 400, "400.008.02", "Invalid grant type passed");
    const previous = currentToken.get(key);
    if (previous) tokens.delete(previous); // Daraja: a new token invalidates the previous one
    const token = randomBytes(21).toString("base64url").replace(/[-_]/g, "A").slice(0, 28);
    tokens.set(token, { consumerKey: key, expiresAt: Date.now() + tokenTtlSeconds * 1000 });
    currentToken.set(key, token);
    fake.tokenRequests.push({ at: Date.now(), consumerKey: key, token });
    sendJson(res, 200, { access_token: token, expires_in: String(tokenTtlSeconds) });
  }

  /** BusinessShortCode, Timestamp and Password of a push or a query; false when it answered an error. */
  function checkPassword(res: ServerResponse, body: Payload): string | false {
    const shortCode = str(body.BusinessShortCode);
    const passkey = shortCode === null ? undefined : fake.shortCodes.get(shortCode);
    if (shortCode === null || passkey === undefined) return (badRequest(res, "BusinessShortCode"), false);
    const timestamp = str(body.Timestamp) ?? "";
    const instant = parseNairobiTimestamp(timestamp);
    if (instant === null) return (badRequest(res, "Timestamp"), false);
    if (fake.timestampToleranceMs !== null && Math.abs(instant - Date.now()) > fake.timestampToleranceMs)
      return (badRequest(res, "Timestamp"), false);
    const expected = Buffer.from(`${shortCode}${passkey}${timestamp}`).toString("base64");
    if (body.Password !== expected) return (fail(res, 500, "500.001.1001", "Wrong credentials"), false);
    return shortCode;
  }

  function stkPush(res: ServerResponse, body: Payload): void {
    const shortCode = checkPassword(res, body);
    if (shortCode === false) return;
    if (!TRANSACTION_TYPES.includes(str(body.TransactionType) ?? "")) return badRequest(res, "TransactionType");
    const amount = wholeAmount(body.Amount);
    if (amount === null) return badRequest(res, "Amount");
    const partyA = str(body.PartyA);
    if (partyA === null || !PHONE.test(partyA)) return badRequest(res, "PartyA");
    if (!SHORT_CODE.test(str(body.PartyB) ?? "")) return badRequest(res, "PartyB");
    const phone = str(body.PhoneNumber);
    if (phone === null || !PHONE.test(phone)) return badRequest(res, "PhoneNumber");
    const callbackUrl = str(body.CallBackURL);
    if (!isHttpUrl(callbackUrl)) return badRequest(res, "CallBackURL");
    const accountReference = str(body.AccountReference);
    if (accountReference === null || accountReference.length === 0 || accountReference.length > ACCOUNT_REFERENCE_MAX)
      return badRequest(res, "AccountReference");
    const description = str(body.TransactionDesc);
    if (description === null || description.length === 0 || description.length > TRANSACTION_DESC_MAX)
      return badRequest(res, "TransactionDesc");

    const at = Date.now();
    const facts = { phone, amount, accountReference, shortCode };
    const outcome = fake.outcomeFor?.(facts) ?? fake.phoneOutcomes.get(phone) ?? fake.outcome;
    const delayMs = Math.max(0, fake.callbackDelayFor?.({ ...facts, outcome }) ?? fake.callbackDelayMs);
    const request: StkRequest = {
      at,
      body,
      ...facts,
      callbackUrl,
      merchantRequestId: requestId(),
      checkoutRequestId: `ws_CO_${nairobiTimestamp(at)}${randomText(12, "0123456789")}`,
      outcome,
      completesAt: at + delayMs,
      receipt: OUTCOME_RESULTS[outcome].code === 0 ? randomText(10) : null,
    };
    fake.stkRequests.push(request);
    byCheckout.set(request.checkoutRequestId, request);
    if (request.receipt) fake.payments.set(request.receipt, { amount, phone, shortCode, reversed: false });
    sendJson(res, 200, {
      MerchantRequestID: request.merchantRequestId,
      CheckoutRequestID: request.checkoutRequestId,
      ResponseCode: "0",
      ResponseDescription: "Success. Request accepted for processing",
      CustomerMessage: "Success. Request accepted for processing",
    });
    if (fake.sendCallbacks && outcome !== "timeout" && outcome !== "no_callback")
      scheduleCallback(request, fake.duplicateCallbacks ? 2 : 1, delayMs);
  }

  function callbackBody(request: StkRequest): StkCallbackBody {
    const { code, desc } = OUTCOME_RESULTS[request.outcome];
    const stkCallback: StkCallbackBody["Body"]["stkCallback"] = {
      MerchantRequestID: request.merchantRequestId,
      CheckoutRequestID: request.checkoutRequestId,
      ResultCode: code,
      ResultDesc: desc,
    };
    if (code === 0) {
      stkCallback.CallbackMetadata = {
        Item: [
          { Name: "Amount", Value: request.amount },
          { Name: "MpesaReceiptNumber", Value: request.receipt! },
          { Name: "Balance" }, // no Value, like the real one
          { Name: "TransactionDate", Value: Number(nairobiTimestamp(request.completesAt)) },
          { Name: "PhoneNumber", Value: Number(request.phone) },
        ],
      };
    }
    return { Body: { stkCallback } };
  }

  function scheduleCallback(request: StkRequest, times: number, delayMs: number): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const sending = (async () => {
        for (let i = 0; i < times && !closed; i++) {
          const body = callbackBody(request);
          const sent = await post(request.callbackUrl, body, request.checkoutRequestId);
          fake.callbacksSent.push(sent);
          fake.onCallbackSent?.(sent);
        }
      })();
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
    }, delayMs);
    timers.add(timer);
  }

  async function post(url: string, body: StkCallbackBody, checkoutRequestId: string): Promise<SentCallback> {
    const sentAt = preciseNow();
    try {
      const res = await httpRequest(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        timeoutMs: 10_000,
      });
      return { checkoutRequestId, url, body, status: res.status, sentAt, answeredAt: preciseNow() };
    } catch {
      return { checkoutRequestId, url, body, status: null, sentAt, answeredAt: preciseNow() };
    }
  }

  function stkQuery(res: ServerResponse, body: Payload): void {
    if (checkPassword(res, body) === false) return;
    fake.stkQueries.push({ at: Date.now(), checkoutRequestId: str(body.CheckoutRequestID) ?? "" });
    const request = byCheckout.get(str(body.CheckoutRequestID) ?? "");
    if (!request || request.shortCode !== str(body.BusinessShortCode)) return badRequest(res, "CheckoutRequestID");
    if (Date.now() < request.completesAt) return fail(res, 500, "500.001.1001", "The transaction is being processed");
    const { code, desc } = OUTCOME_RESULTS[request.outcome];
    sendJson(res, 200, {
      ResponseCode: "0",
      ResponseDescription: "The service request has been accepted successsfully",
      MerchantRequestID: request.merchantRequestId,
      CheckoutRequestID: request.checkoutRequestId,
      ResultCode: String(code),
      ResultDesc: desc,
    });
  }

  function registerUrl(res: ServerResponse, body: Payload): void {
    const shortCode = str(body.ShortCode);
    if (shortCode === null || !SHORT_CODE.test(shortCode)) return badRequest(res, "ShortCode");
    const responseType = str(body.ResponseType);
    if (responseType !== "Completed" && responseType !== "Cancelled") return badRequest(res, "ResponseType");
    const confirmationUrl = str(body.ConfirmationURL);
    if (!isHttpUrl(confirmationUrl)) return badRequest(res, "ConfirmationURL");
    const validationUrl = str(body.ValidationURL);
    if (!isHttpUrl(validationUrl)) return badRequest(res, "ValidationURL");
    fake.c2bRegistrations.set(shortCode, { shortCode, responseType, confirmationUrl, validationUrl });
    sendJson(res, 200, { OriginatorCoversationID: requestId(), ResponseCode: "0", ResponseDescription: "Success" });
  }

  /** Transaction Status and Reversal: checks the common fields, answers at once, POSTs the result later. */
  function asyncRequest(kind: "status" | "reversal") {
    return (res: ServerResponse, body: Payload): void => {
      const initiator = str(body.Initiator);
      if (initiator === null || !fake.initiators.has(initiator)) return badRequest(res, "Initiator");
      if (fake.initiators.get(initiator) !== str(body.SecurityCredential))
        return fail(res, 400, "400.002.02", "Bad Request - Invalid SecurityCredential");
      const command = kind === "status" ? "TransactionStatusQuery" : "TransactionReversal";
      if (str(body.CommandID) !== command) return badRequest(res, "CommandID");
      const transactionId = str(body.TransactionID);
      if (transactionId === null || !/^[A-Z0-9]{6,20}$/.test(transactionId)) return badRequest(res, "TransactionID");
      const resultUrl = str(body.ResultURL);
      if (!isHttpUrl(resultUrl)) return badRequest(res, "ResultURL");
      if (!isHttpUrl(str(body.QueueTimeOutURL))) return badRequest(res, "QueueTimeOutURL");
      let amount: number | null = null;
      if (kind === "status") {
        if (!SHORT_CODE.test(str(body.PartyA) ?? "")) return badRequest(res, "PartyA");
        if (!["1", "2", "4"].includes(str(body.IdentifierType) ?? "")) return badRequest(res, "IdentifierType");
      } else {
        amount = wholeAmount(body.Amount);
        if (amount === null) return badRequest(res, "Amount");
        if (!SHORT_CODE.test(str(body.ReceiverParty) ?? "")) return badRequest(res, "ReceiverParty");
        if (str(body.RecieverIdentifierType) !== "11") return badRequest(res, "RecieverIdentifierType");
      }
      const conversationId = `AG_${nairobiTimestamp()}_${randomText(20, "0123456789abcdef")}`;
      const originatorConversationId = requestId();
      fake.asyncRequests.push({ at: Date.now(), kind, body, conversationId });
      sendJson(res, 200, {
        OriginatorConversationID: originatorConversationId,
        ConversationID: conversationId,
        ResponseCode: "0",
        ResponseDescription: "Accept the service request successfully.",
      });
      const timer = setTimeout(() => {
        timers.delete(timer);
        const payment = fake.payments.get(transactionId);
        let result: Record<string, unknown>;
        const base = { ResultType: 0, OriginatorConversationID: originatorConversationId, ConversationID: conversationId };
        if (kind === "status") {
          result = payment
            ? {
                ...base,
                ResultCode: 0,
                ResultDesc: "The service request is processed successfully.",
                TransactionID: transactionId,
                ResultParameters: {
                  ResultParameter: [
                    { Key: "DebitPartyName", Value: `${payment.phone} - John Doe` },
                    { Key: "TransactionStatus", Value: payment.reversed ? "Reversed" : "Completed" },
                    { Key: "ReceiptNo", Value: transactionId },
                    { Key: "Amount", Value: payment.amount },
                    { Key: "FinalisedTime", Value: Number(nairobiTimestamp()) },
                    { Key: "CreditPartyName", Value: `${payment.shortCode} - Mlango` },
                  ],
                },
              }
            : { ...base, ResultCode: 2032, ResultDesc: "The transaction receipt number does not exist.", TransactionID: transactionId };
        } else {
          const ok = payment !== undefined && !payment.reversed && amount !== null && amount <= payment.amount;
          if (ok) payment.reversed = true;
          result = ok
            ? {
                ...base,
                ResultCode: 0,
                ResultDesc: "The service request is processed successfully.",
                TransactionID: randomText(10),
                ResultParameters: {
                  ResultParameter: [
                    { Key: "Amount", Value: amount },
                    { Key: "OriginalTransactionID", Value: transactionId },
                    { Key: "TransCompletedTime", Value: Number(nairobiTimestamp()) },
                    { Key: "CreditPartyPublicName", Value: `${payment.phone} - John Doe` },
                  ],
                },
              }
            : { ...base, ResultCode: "R000002", ResultDesc: "The OriginalTransactionID is invalid.", TransactionID: randomText(10) };
        }
        const sending = (async () => {
          if (closed) return;
          const payload = { Result: result };
          try {
            const answer = await httpRequest(resultUrl, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(payload),
              timeoutMs: 10_000,
            });
            fake.resultsSent.push({ url: resultUrl, body: payload, status: answer.status });
          } catch {
            fake.resultsSent.push({ url: resultUrl, body: payload, status: null });
          }
        })();
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
      }, fake.resultDelayMs);
      timers.add(timer);
    };
  }

  /** C2B "Simulate": a customer pays the short code from the M-Pesa menu; the confirmation follows the answer. */
  function simulate(res: ServerResponse, body: Payload): void {
    const shortCode = str(body.ShortCode);
    if (shortCode === null || !SHORT_CODE.test(shortCode) || !fake.c2bRegistrations.has(shortCode)) return badRequest(res, "ShortCode");
    const command = str(body.CommandID);
    if (command !== "CustomerPayBillOnline" && command !== "CustomerBuyGoodsOnline") return badRequest(res, "CommandID");
    const amount = wholeAmount(body.Amount);
    if (amount === null) return badRequest(res, "Amount");
    const msisdn = str(body.Msisdn);
    if (msisdn === null || !PHONE.test(msisdn)) return badRequest(res, "Msisdn");
    const billRef = str(body.BillRefNumber) ?? "";
    if (command === "CustomerPayBillOnline" && (billRef === "" || billRef.length > 20)) return badRequest(res, "BillRefNumber");
    sendJson(res, 200, {
      OriginatorCoversationID: requestId(),
      ResponseCode: "0",
      ResponseDescription: "Accept the service request successfully.",
    });
    const sending = fake
      .simulateC2B({
        shortCode,
        amount,
        msisdn,
        billRefNumber: billRef,
        transactionType: command === "CustomerPayBillOnline" ? "Pay Bill" : "Buy Goods",
      })
      .then(
        () => undefined,
        () => undefined,
      );
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }

  const transactionStatus = asyncRequest("status");
  const reversal = asyncRequest("reversal");

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://daraja.invalid");
    const method = req.method ?? "GET";
    if (method === "GET" && url.pathname === "/oauth/v1/generate") return generate(req, res, url.searchParams);
    const routes: Record<string, (res: ServerResponse, body: Payload) => void> = {
      "/mpesa/stkpush/v1/processrequest": stkPush,
      "/mpesa/stkpushquery/v1/query": stkQuery,
      "/mpesa/c2b/v1/registerurl": registerUrl,
      "/mpesa/c2b/v1/simulate": simulate,
      "/mpesa/transactionstatus/v1/query": transactionStatus,
      "/mpesa/reversal/v1/request": reversal,
    };
    const route = routes[url.pathname];
    if (method !== "POST" || !route) return fail(res, 404, "404.001.01", "Resource not found");
    if (!authenticated(req, res)) return;
    const raw = await readBody(req);
    if (raw === null) return fail(res, 413, "413.001.01", "Request body too large");
    const body = parseJson(raw);
    if (body === null) return fail(res, 400, "400.002.05", "Invalid Request Payload");
    if (route === stkPush && fake.holdStkPush) await fake.holdStkPush(String(body.PhoneNumber));
    route(res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) fail(res, 500, "500.003.1001", "Internal Server Error");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });

  const fake: FakeDaraja = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    outcome: "success",
    outcomeFor: null,
    phoneOutcomes: new Map(Object.entries(options.phoneOutcomes ?? {})),
    sendCallbacks: true,
    callbackDelayMs: options.callbackDelayMs ?? 0,
    callbackDelayFor: null,
    onCallbackSent: null,
    holdStkPush: null,
    duplicateCallbacks: false,
    timestampToleranceMs: 15 * 60_000,
    credentials: new Map(Object.entries(options.credentials ?? { [DEMO_CREDENTIALS.consumerKey]: DEMO_CREDENTIALS.consumerSecret })),
    shortCodes: new Map(Object.entries(options.shortCodes ?? { [SANDBOX_SHORTCODE]: SANDBOX_PASSKEY })),
    tokenRequests: [],
    stkRequests: [],
    stkQueries: [],
    callbacksSent: [],
    c2bRegistrations: new Map(),
    initiators: new Map([[DEMO_INITIATOR.name, DEMO_INITIATOR.securityCredential]]),
    payments: new Map(),
    asyncRequests: [],
    resultsSent: [],
    resultDelayMs: 20,
    async simulateC2B(input) {
      const registration = fake.c2bRegistrations.get(input.shortCode);
      if (!registration) throw new Error(`No C2B URLs registered for short code ${input.shortCode}.`);
      const payload: C2BConfirmation = {
        TransactionType: input.transactionType ?? "Pay Bill",
        TransID: input.transId ?? randomText(10),
        TransTime: nairobiTimestamp(),
        TransAmount: input.amount.toFixed(2),
        BusinessShortCode: input.shortCode,
        BillRefNumber: input.billRefNumber,
        InvoiceNumber: "",
        OrgAccountBalance: "",
        ThirdPartyTransID: "",
        MSISDN: input.msisdn,
        FirstName: input.firstName ?? "John",
      };
      fake.payments.set(payload.TransID, { amount: input.amount, phone: input.msisdn, shortCode: input.shortCode, reversed: false });
      const res = await httpRequest(registration.confirmationUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        timeoutMs: 10_000,
      });
      return { payload, status: res.status, body: res.text };
    },
    async idle() {
      while (timers.size > 0 || inFlight.size > 0) {
        if (inFlight.size > 0) await Promise.all(inFlight);
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "3199" },
      outcome: { type: "string", default: "success" },
      "callback-delay": { type: "string", default: "2000" },
      "result-delay": { type: "string", default: "20" },
      "outcome-for": { type: "string", multiple: true, default: [] },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Bad --port: ${values.port}`);
  const known = (outcome: string): outcome is DarajaOutcome => Object.hasOwn(OUTCOME_RESULTS, outcome);
  const choices = Object.keys(OUTCOME_RESULTS).join(", ");
  if (!known(values.outcome)) throw new Error(`Bad --outcome: ${values.outcome} (${choices})`);
  const phoneOutcomes: Record<string, DarajaOutcome> = {};
  for (const entry of values["outcome-for"]) {
    const [phone = "", outcome = ""] = entry.split("=");
    if (!PHONE.test(phone) || !known(outcome))
      throw new Error(`Bad --outcome-for: ${entry} (PHONE=OUTCOME, PHONE like 254712345678, OUTCOME one of ${choices})`);
    phoneOutcomes[phone] = outcome;
  }
  const fake = await startFakeDaraja({ port, callbackDelayMs: Number(values["callback-delay"]) || 0, phoneOutcomes });
  fake.outcome = values.outcome;
  fake.resultDelayMs = Number(values["result-delay"]) || 0;
  console.log(`Fake Daraja at ${fake.url}`);
  console.log(`  consumer key ${DEMO_CREDENTIALS.consumerKey}, secret ${DEMO_CREDENTIALS.consumerSecret}`);
  console.log(`  shortcode ${SANDBOX_SHORTCODE}, passkey ${SANDBOX_PASSKEY}`);
  console.log(`  outcome ${fake.outcome}, callbacks after ${fake.callbackDelayMs} ms`);
  for (const [phone, outcome] of fake.phoneOutcomes) console.log(`  outcome ${outcome} for ${phone}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
