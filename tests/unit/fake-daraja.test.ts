// The fake Daraja's contract (scripts/fakes/daraja.ts): the shapes of the real API, token
// invalidation, the password check, each outcome's callback, duplicates, and the query.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  OUTCOME_RESULTS,
  SANDBOX_PASSKEY,
  SANDBOX_SHORTCODE,
  nairobiTimestamp,
  startFakeDaraja,
  type DarajaOutcome,
  type FakeDaraja,
} from "../../scripts/fakes/daraja";

const KEY = "test-key";
const SECRET = "test-secret";

/** A loopback receiver for callbacks and C2B confirmations. */
interface Receiver {
  url: string;
  received: Array<{ path: string; body: unknown }>;
  status: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [], status: 200 } as unknown as Receiver;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.received.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") });
      res.writeHead(receiver.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ResultCode: 0, ResultDesc: "Accepted" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

let daraja: FakeDaraja;
let receiver: Receiver;

beforeAll(async () => {
  daraja = await startFakeDaraja({ credentials: { [KEY]: SECRET, "other-key": "other-secret" } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await daraja.close();
  await receiver.close();
});
afterEach(async () => {
  await daraja.idle();
  daraja.outcome = "success";
  daraja.outcomeFor = null;
  daraja.sendCallbacks = true;
  daraja.callbackDelayMs = 0;
  daraja.callbackDelayFor = null;
  daraja.onCallbackSent = null;
  daraja.duplicateCallbacks = false;
  receiver.received.length = 0;
  daraja.callbacksSent.length = 0;
});

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

async function token(key = KEY, secret = SECRET): Promise<string> {
  const res = await fetch(`${daraja.url}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: { Authorization: basic(key, secret) },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; expires_in: string };
  expect(body.expires_in).toBe("3599");
  return body.access_token;
}

const post = (path: string, accessToken: string, body: unknown) =>
  fetch(`${daraja.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

function passwordFields(timestamp = nairobiTimestamp(), passkey = SANDBOX_PASSKEY) {
  return {
    BusinessShortCode: SANDBOX_SHORTCODE,
    Password: Buffer.from(`${SANDBOX_SHORTCODE}${passkey}${timestamp}`).toString("base64"),
    Timestamp: timestamp,
  };
}

function stkBody(overrides: Record<string, unknown> = {}) {
  return {
    ...passwordFields(),
    TransactionType: "CustomerPayBillOnline",
    Amount: 20,
    PartyA: "254708374149",
    PartyB: SANDBOX_SHORTCODE,
    PhoneNumber: "254708374149",
    CallBackURL: `${receiver.url}/hotspot/mpesa/cb-key`,
    AccountReference: "PLAN1H",
    TransactionDesc: "Wi-Fi 1 hour",
    ...overrides,
  };
}

async function push(accessToken: string, overrides: Record<string, unknown> = {}) {
  const res = await post("/mpesa/stkpush/v1/processrequest", accessToken, stkBody(overrides));
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe("OAuth", () => {
  it("gives a token for valid Basic credentials and refuses others like Daraja", async () => {
    expect((await token()).length).toBeGreaterThan(10);
    const wrong = await fetch(`${daraja.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: basic(KEY, "nope") },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ errorCode: "400.008.01", errorMessage: "Invalid Authentication passed" });
    const grant = await fetch(`${daraja.url}/oauth/v1/generate?grant_type=password`, { headers: { Authorization: basic(KEY, SECRET) } });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ errorCode: "400.008.02" });
  });

  it("invalidates the previous token of a key when a new one is issued, not another key's", async () => {
    const first = await token();
    const other = await token("other-key", "other-secret");
    const second = await token();
    expect(second).not.toBe(first);
    const old = await push(first);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ errorCode: "404.001.03", errorMessage: "Invalid Access Token" });
    expect(old.body.requestId).toBeTruthy();
    expect((await push(second)).status).toBe(200);
    expect((await push(other)).status).toBe(200);
    expect((await push("")).status).toBe(401);
  });
});

describe("STK push", () => {
  it("accepts a valid request with Daraja's answer and records it", async () => {
    const accessToken = await token();
    const { status, body } = await push(accessToken);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ResponseCode: "0", ResponseDescription: "Success. Request accepted for processing" });
    expect(body.MerchantRequestID).toBeTruthy();
    expect(body.CheckoutRequestID).toMatch(/^ws_CO_/);
    expect(body.CustomerMessage).toBeTruthy();
    const recorded = daraja.stkRequests.at(-1)!;
    expect(recorded).toMatchObject({
      checkoutRequestId: body.CheckoutRequestID,
      amount: 20,
      phone: "254708374149",
      shortCode: SANDBOX_SHORTCODE,
      accountReference: "PLAN1H",
    });
  });

  it("checks the password against the shortcode's passkey and the timestamp's format and time", async () => {
    const accessToken = await token();
    const wrong = await push(accessToken, passwordFields(nairobiTimestamp(), "not-the-passkey"));
    expect(wrong.status).toBe(500);
    expect(wrong.body).toMatchObject({ errorCode: "500.001.1001", errorMessage: "Wrong credentials" });
    // The password must be made with the same timestamp as the Timestamp field.
    const mismatched = await push(accessToken, { ...passwordFields(nairobiTimestamp(Date.now() - 60_000)), Timestamp: nairobiTimestamp() });
    expect(mismatched.status).toBe(500);
    const badFormat = await push(accessToken, passwordFields("2026-11-25 12:00"));
    expect(badFormat.body).toMatchObject({ errorCode: "400.002.02", errorMessage: "Bad Request - Invalid Timestamp" });
    // UTC instead of Nairobi time (3 hours early) is refused by the fake.
    const utc = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    expect((await push(accessToken, passwordFields(utc))).body.errorMessage).toBe("Bad Request - Invalid Timestamp");
    expect((await push(accessToken, { BusinessShortCode: "999999" })).body.errorMessage).toBe("Bad Request - Invalid BusinessShortCode");
  });

  it.each([
    [{ TransactionType: "CustomerPay" }, "TransactionType"],
    [{ Amount: 0 }, "Amount"],
    [{ Amount: 10.5 }, "Amount"],
    [{ Amount: "abc" }, "Amount"],
    [{ PartyA: "0708374149" }, "PartyA"],
    [{ PhoneNumber: "+254708374149" }, "PhoneNumber"],
    [{ PhoneNumber: "254208374149" }, "PhoneNumber"],
    [{ PartyB: "" }, "PartyB"],
    [{ CallBackURL: "ftp://example.com/cb" }, "CallBackURL"],
    [{ AccountReference: "THIRTEEN-CHAR" }, "AccountReference"],
    [{ TransactionDesc: "fourteen chars" }, "TransactionDesc"],
  ])("refuses %j with a Daraja-style 400", async (override, field) => {
    const { status, body } = await push(await token(), override);
    expect(status).toBe(400);
    expect(body).toMatchObject({ errorCode: "400.002.02", errorMessage: `Bad Request - Invalid ${field}` });
  });

  it("accepts 2541… numbers, till payments and amounts as numeric strings", async () => {
    const { status } = await push(await token(), {
      PartyA: "254112345678",
      PhoneNumber: "254112345678",
      TransactionType: "CustomerBuyGoodsOnline",
      PartyB: "5123456",
      Amount: "50",
    });
    expect(status).toBe(200);
  });

  it("refuses a body that is not JSON, or too large", async () => {
    const accessToken = await token();
    expect((await post("/mpesa/stkpush/v1/processrequest", accessToken, "not json")).status).toBe(400);
    expect((await post("/mpesa/stkpush/v1/processrequest", accessToken, JSON.stringify({ pad: "x".repeat(70_000) }))).status).toBe(413);
  });
});

describe("callbacks", () => {
  const outcomes: DarajaOutcome[] = ["success", "insufficient", "cancelled", "unreachable", "wrong_pin"];

  it.each(outcomes)("sends the %s callback to the CallBackURL", async (outcome) => {
    daraja.outcome = outcome;
    const { body } = await push(await token(), { Amount: 30 });
    await daraja.idle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].path).toBe("/hotspot/mpesa/cb-key");
    const callback = (receiver.received[0].body as { Body: { stkCallback: Record<string, unknown> } }).Body.stkCallback;
    expect(callback).toMatchObject({
      MerchantRequestID: body.MerchantRequestID,
      CheckoutRequestID: body.CheckoutRequestID,
      ResultCode: OUTCOME_RESULTS[outcome].code,
      ResultDesc: OUTCOME_RESULTS[outcome].desc,
    });
    expect(daraja.callbacksSent.at(-1)).toMatchObject({ checkoutRequestId: body.CheckoutRequestID, status: 200 });
    if (outcome !== "success") {
      expect(callback).not.toHaveProperty("CallbackMetadata");
      return;
    }
    const items = (callback.CallbackMetadata as { Item: Array<{ Name: string; Value?: unknown }> }).Item;
    expect(items.map((i) => i.Name)).toEqual(["Amount", "MpesaReceiptNumber", "Balance", "TransactionDate", "PhoneNumber"]);
    const byName = Object.fromEntries(items.map((i) => [i.Name, i]));
    expect(byName.Amount.Value).toBe(30);
    expect(byName.MpesaReceiptNumber.Value).toMatch(/^[A-Z0-9]{10}$/);
    expect(byName.Balance).not.toHaveProperty("Value");
    expect(String(byName.TransactionDate.Value)).toMatch(/^20\d{12}$/);
    expect(byName.PhoneNumber.Value).toBe(254708374149);
  });

  it("sends the result codes Daraja uses", () => {
    expect(Object.fromEntries(Object.entries(OUTCOME_RESULTS).map(([k, v]) => [k, v.code]))).toEqual({
      success: 0,
      insufficient: 1,
      cancelled: 1032,
      unreachable: 1037,
      wrong_pin: 2001,
      timeout: 1019,
      no_callback: 0,
    });
  });

  it.each(["timeout", "no_callback"] as const)("sends no callback for %s", async (outcome) => {
    daraja.outcome = outcome;
    await push(await token());
    await daraja.idle();
    await new Promise((r) => setTimeout(r, 30));
    expect(receiver.received).toHaveLength(0);
  });

  it("sends no callbacks when told not to, and each twice with duplicateCallbacks", async () => {
    daraja.sendCallbacks = false;
    await push(await token());
    await daraja.idle();
    expect(receiver.received).toHaveLength(0);

    daraja.sendCallbacks = true;
    daraja.duplicateCallbacks = true;
    const { body } = await push(await token());
    await daraja.idle();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0].body).toEqual(receiver.received[1].body);
    expect(daraja.callbacksSent.filter((c) => c.checkoutRequestId === body.CheckoutRequestID)).toHaveLength(2);
  });

  it("waits callbackDelayMs and picks outcomes per request with outcomeFor", async () => {
    daraja.callbackDelayMs = 80;
    daraja.outcomeFor = ({ phone }) => (phone === "254711111111" ? "cancelled" : "success");
    const accessToken = await token();
    const started = Date.now();
    await push(accessToken, { PartyA: "254711111111", PhoneNumber: "254711111111" });
    await push(accessToken);
    await new Promise((r) => setTimeout(r, 20));
    expect(receiver.received).toHaveLength(0);
    await daraja.idle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    const codes = receiver.received
      .map((r) => (r.body as { Body: { stkCallback: { ResultCode: number } } }).Body.stkCallback.ResultCode)
      .sort();
    expect(codes).toEqual([0, 1032]);
  });

  it("delays each request by callbackDelayFor and tells onCallbackSent when and how each callback was answered", async () => {
    daraja.callbackDelayMs = 10_000;
    daraja.callbackDelayFor = ({ phone }) => (phone === "254711111111" ? 80 : 0);
    const heard: Array<{ checkoutRequestId: string; status: number | null; sentAt: number; answeredAt: number }> = [];
    daraja.onCallbackSent = (sent) => heard.push(sent);
    const accessToken = await token();
    const slow = await push(accessToken, { PartyA: "254711111111", PhoneNumber: "254711111111" });
    const fast = await push(accessToken);
    await daraja.idle();
    // The later push is answered first.
    expect(heard.map((h) => h.checkoutRequestId)).toEqual([fast.body.CheckoutRequestID, slow.body.CheckoutRequestID]);
    expect(heard.every((h) => h.status === 200 && h.answeredAt >= h.sentAt)).toBe(true);
    expect(daraja.stkRequests.at(-2)!.completesAt - daraja.stkRequests.at(-2)!.at).toBe(80);
  });

  it("records an unreachable callback URL without failing", async () => {
    const closed = await startReceiver();
    await closed.close();
    await push(await token(), { CallBackURL: `${closed.url}/cb` });
    await daraja.idle();
    expect(daraja.callbacksSent.at(-1)).toMatchObject({ url: `${closed.url}/cb`, status: null });
  });
});

describe("STK query", () => {
  const query = (accessToken: string, checkoutRequestId: string) =>
    post("/mpesa/stkpushquery/v1/query", accessToken, { ...passwordFields(), CheckoutRequestID: checkoutRequestId });

  it("answers 'being processed' while pending, then the result with a string ResultCode", async () => {
    daraja.callbackDelayMs = 100;
    daraja.outcome = "timeout";
    const accessToken = await token();
    const { body } = await push(accessToken);
    const pending = await query(accessToken, body.CheckoutRequestID);
    expect(pending.status).toBe(500);
    expect(await pending.json()).toMatchObject({ errorCode: "500.001.1001", errorMessage: "The transaction is being processed" });
    await new Promise((r) => setTimeout(r, 120));
    const done = await query(accessToken, body.CheckoutRequestID);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({
      ResponseCode: "0",
      ResponseDescription: "The service request has been accepted successsfully",
      MerchantRequestID: body.MerchantRequestID,
      CheckoutRequestID: body.CheckoutRequestID,
      ResultCode: "1019",
      ResultDesc: "Transaction has expired",
    });
  });

  it("tells a paid request whose callback never came, and refuses unknown ids and wrong passwords", async () => {
    daraja.outcome = "no_callback";
    const accessToken = await token();
    const { body } = await push(accessToken);
    const done = (await (await query(accessToken, body.CheckoutRequestID)).json()) as Record<string, string>;
    expect(done.ResultCode).toBe("0");
    expect((await query(accessToken, "ws_CO_unknown")).status).toBe(400);
    const wrong = await post("/mpesa/stkpushquery/v1/query", accessToken, {
      ...passwordFields(nairobiTimestamp(), "bad"),
      CheckoutRequestID: body.CheckoutRequestID,
    });
    expect(wrong.status).toBe(500);
    expect(await wrong.json()).toMatchObject({ errorMessage: "Wrong credentials" });
  });
});

describe("C2B", () => {
  it("registers URLs and posts a confirmation to the ConfirmationURL", async () => {
    const accessToken = await token();
    const bad = await post("/mpesa/c2b/v1/registerurl", accessToken, {
      ShortCode: "600000",
      ResponseType: "Maybe",
      ConfirmationURL: `${receiver.url}/c`,
      ValidationURL: `${receiver.url}/v`,
    });
    expect(bad.status).toBe(400);
    const res = await post("/mpesa/c2b/v1/registerurl", accessToken, {
      ShortCode: "600000",
      ResponseType: "Completed",
      ConfirmationURL: `${receiver.url}/hotspot/mpesa/key/c2b/confirmation`,
      ValidationURL: `${receiver.url}/hotspot/mpesa/key/c2b/validation`,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ResponseCode: "0", ResponseDescription: "Success" });

    const sent = await daraja.simulateC2B({ shortCode: "600000", amount: 50, msisdn: "254708374149", billRefNumber: "VCH7K2P" });
    expect(sent.status).toBe(200);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].path).toBe("/hotspot/mpesa/key/c2b/confirmation");
    expect(receiver.received[0].body).toMatchObject({
      TransactionType: "Pay Bill",
      TransID: sent.payload.TransID,
      TransAmount: "50.00",
      BusinessShortCode: "600000",
      BillRefNumber: "VCH7K2P",
      MSISDN: "254708374149",
      FirstName: "John",
    });
    expect(sent.payload.TransTime).toMatch(/^\d{14}$/);
    const again = await daraja.simulateC2B({
      shortCode: "600000",
      amount: 50,
      msisdn: "254708374149",
      billRefNumber: "VCH7K2P",
      transId: sent.payload.TransID,
    });
    expect(again.payload.TransID).toBe(sent.payload.TransID);
    await expect(daraja.simulateC2B({ shortCode: "123456", amount: 1, msisdn: "254708374149", billRefNumber: "x" })).rejects.toThrow(
      /No C2B URLs/,
    );
  });

  it("simulates a customer paying from the M-Pesa menu (C2B Simulate): Daraja's answer, then the confirmation", async () => {
    const accessToken = await token();
    await post("/mpesa/c2b/v1/registerurl", accessToken, {
      ShortCode: "600001",
      ResponseType: "Completed",
      ConfirmationURL: `${receiver.url}/hotspot/mpesa/sim/c2b/confirmation`,
      ValidationURL: `${receiver.url}/hotspot/mpesa/sim/c2b/validation`,
    });
    const body = { ShortCode: "600001", CommandID: "CustomerPayBillOnline", Amount: 50, Msisdn: "254708374149", BillRefNumber: "WIFI" };
    for (const [field, value] of [
      ["ShortCode", "999999"], // no URLs registered for it
      ["CommandID", "BusinessPayBill"],
      ["Amount", 10.5],
      ["Msisdn", "0708374149"],
      ["BillRefNumber", ""],
    ] as const) {
      const refused = await post("/mpesa/c2b/v1/simulate", accessToken, { ...body, [field]: value });
      expect(refused.status, field).toBe(400);
      expect(await refused.json()).toMatchObject({ errorCode: "400.002.02", errorMessage: `Bad Request - Invalid ${field}` });
    }
    expect(receiver.received).toHaveLength(0);
    const res = await post("/mpesa/c2b/v1/simulate", accessToken, body);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ResponseCode: "0", ResponseDescription: "Accept the service request successfully." });
    await daraja.idle();
    expect(receiver.received).toHaveLength(1);
    const confirmation = receiver.received[0].body as Record<string, string>;
    expect(confirmation).toMatchObject({
      TransactionType: "Pay Bill",
      TransAmount: "50.00",
      BusinessShortCode: "600001",
      MSISDN: "254708374149",
    });
    // M-Pesa now knows the payment (Transaction Status and Reversal find it).
    expect(daraja.payments.get(confirmation.TransID)).toMatchObject({ amount: 50, phone: "254708374149", shortCode: "600001" });
  });
});
