// The Daraja client (app/services/prepaid/daraja.server.ts) against the fake Daraja: password and
// Nairobi timestamp, phone normalisation, the token kept and renewed, errors, and the guests'
// plain-words result messages. Tokens live in memory here; the database store is tested in
// tests/integration/mpesa-settings.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  STK_RESULT_FALLBACK,
  STK_RESULT_MESSAGES,
  DarajaError,
  darajaClient,
  darajaPhone,
  darajaTimestamp,
  describeDarajaError,
  memoryTokenStore,
  stkPassword,
  stkResultMessage,
  type DarajaConfig,
} from "~/services/prepaid/daraja.server";
import { SANDBOX_PASSKEY, SANDBOX_SHORTCODE, startFakeDaraja, type FakeDaraja } from "../../scripts/fakes/daraja";

let daraja: FakeDaraja;
beforeAll(async () => {
  daraja = await startFakeDaraja({
    credentials: { "client-key": "client-secret" },
    shortCodes: { [SANDBOX_SHORTCODE]: SANDBOX_PASSKEY, "600100": "till-passkey" },
  });
});
afterAll(() => daraja.close());
afterEach(async () => {
  await daraja.idle();
  daraja.outcome = "success";
  daraja.callbackDelayMs = 0;
  daraja.sendCallbacks = true;
});

const CALLBACK = "http://127.0.0.1:9/hotspot/mpesa/key"; // nothing listens: the fake records the failed delivery

function config(overrides: Partial<DarajaConfig> = {}): DarajaConfig {
  return {
    baseUrl: daraja.url,
    consumerKey: "client-key",
    consumerSecret: "client-secret",
    shortCode: SANDBOX_SHORTCODE,
    passkey: SANDBOX_PASSKEY,
    type: "paybill",
    partyB: SANDBOX_SHORTCODE,
    ...overrides,
  };
}

const purchase = { amount: 20, phone: "0708 374 149", accountReference: "PLAN1H", description: "Wi-Fi 1 hour", callbackUrl: CALLBACK };

describe("helpers", () => {
  it("writes the timestamp in Nairobi time (UTC+3), YYYYMMDDHHmmss", () => {
    expect(darajaTimestamp(Date.UTC(2026, 10, 25, 9, 34, 56))).toBe("20261125123456");
    // Across midnight and the year's end: 22:30 UTC on 31 December is 01:30 on 1 January in Nairobi.
    expect(darajaTimestamp(Date.UTC(2026, 11, 31, 22, 30, 0))).toBe("20270101013000");
  });

  it("makes the password as base64(shortcode + passkey + timestamp)", () => {
    const password = stkPassword("174379", SANDBOX_PASSKEY, "20261125123456");
    expect(Buffer.from(password, "base64").toString()).toBe(`174379${SANDBOX_PASSKEY}20261125123456`);
    expect(password).toBe(Buffer.from(`174379${SANDBOX_PASSKEY}20261125123456`).toString("base64"));
  });

  it.each([
    ["0708374149", "254708374149"],
    ["0708 374 149", "254708374149"],
    ["+254 708-374-149", "254708374149"],
    ["254708374149", "254708374149"],
    ["708374149", "254708374149"],
    ["0112345678", "254112345678"],
    ["+254112345678", "254112345678"],
  ])("normalises %s to %s", (input, expected) => {
    expect(darajaPhone(input)).toBe(expected);
  });

  it.each(["020 1234567", "+255712345678", "+14155550123", "12345", "", "07083741499", "not a phone"])("refuses %j", (input) => {
    expect(darajaPhone(input)).toBeNull();
  });

  it("explains each result code in plain words", () => {
    expect(
      Object.keys(STK_RESULT_MESSAGES)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 17, 1019, 1032, 1037, 2001]);
    expect(stkResultMessage(0)).toMatch(/received/i);
    expect(stkResultMessage(1)).toMatch(/balance/i);
    expect(stkResultMessage("1032")).toMatch(/cancelled/i);
    expect(stkResultMessage(1037)).toMatch(/could not reach your phone/i);
    expect(stkResultMessage(2001)).toMatch(/PIN/);
    expect(stkResultMessage("1019")).toMatch(/expired/i);
    expect(stkResultMessage(17)).toMatch(/same amount.*2 minutes/i);
    expect(stkResultMessage(9999)).toBe(STK_RESULT_FALLBACK);
    expect(stkResultMessage("abc")).toBe(STK_RESULT_FALLBACK);
  });
});

describe("the client against the fake", () => {
  it("pushes with the password and Nairobi timestamp, the paybill type and normalised phone", async () => {
    const client = darajaClient(config(), { tokens: memoryTokenStore() });
    const accepted = await client.stkPush(purchase);
    expect(accepted.checkoutRequestId).toMatch(/^ws_CO_/);
    expect(accepted.merchantRequestId).toBeTruthy();
    expect(accepted.sent).toMatchObject({ amount: 20, phone: "254708374149" });
    const sent = daraja.stkRequests.at(-1)!.body;
    expect(sent).toMatchObject({
      BusinessShortCode: SANDBOX_SHORTCODE,
      TransactionType: "CustomerPayBillOnline",
      Amount: 20,
      PartyA: "254708374149",
      PhoneNumber: "254708374149",
      PartyB: SANDBOX_SHORTCODE,
      CallBackURL: CALLBACK,
      AccountReference: "PLAN1H",
      TransactionDesc: "Wi-Fi 1 hour",
      Timestamp: accepted.sent.timestamp,
    });
    expect(sent.Password).toBe(stkPassword(SANDBOX_SHORTCODE, SANDBOX_PASSKEY, accepted.sent.timestamp));
    expect(Math.abs(Number(accepted.sent.timestamp) - Number(darajaTimestamp()))).toBeLessThan(100); // EAT, not UTC
  });

  it("pays a till with CustomerBuyGoodsOnline and the till number as PartyB", async () => {
    const client = darajaClient(config({ shortCode: "600100", passkey: "till-passkey", type: "till", partyB: "5123456" }), {
      tokens: memoryTokenStore(),
    });
    await client.stkPush({ ...purchase, phone: "0112345678" });
    expect(daraja.stkRequests.at(-1)!.body).toMatchObject({
      BusinessShortCode: "600100",
      TransactionType: "CustomerBuyGoodsOnline",
      PartyB: "5123456",
      PhoneNumber: "254112345678",
    });
  });

  it("refuses bad input before calling Daraja", async () => {
    const client = darajaClient(config(), { tokens: memoryTokenStore() });
    const before = daraja.stkRequests.length;
    for (const bad of [
      { amount: 0 },
      { amount: 10.5 },
      { phone: "020 1234567" },
      { accountReference: "THIRTEEN-CHAR" },
      { description: "fourteen chars" },
      { callbackUrl: "javascript:alert(1)" },
    ]) {
      await expect(client.stkPush({ ...purchase, ...bad })).rejects.toMatchObject({ kind: "invalid_input" });
    }
    expect(daraja.stkRequests.length).toBe(before);
  });

  it("keeps one token for many requests and fetches one when they start together", async () => {
    const tokens = memoryTokenStore();
    const client = darajaClient(config(), { tokens });
    const before = daraja.tokenRequests.length;
    await Promise.all([client.stkPush(purchase), client.stkPush(purchase), client.stkPush(purchase)]);
    await client.stkPush(purchase);
    expect(daraja.tokenRequests.length - before).toBe(1);
    // A second client with the same credentials and store shares it.
    await darajaClient(config(), { tokens }).stkPush(purchase);
    expect(daraja.tokenRequests.length - before).toBe(1);
  });

  it("renews a token with less than 60 s left", async () => {
    let clock = Date.now();
    const client = darajaClient(config(), { tokens: memoryTokenStore(() => clock), now: () => clock });
    const first = await client.accessToken();
    clock += 3599_000 - 61_000;
    expect(await client.accessToken()).toBe(first);
    clock += 2_000;
    expect(await client.accessToken()).not.toBe(first);
  });

  it("gets a new token once when Daraja says the stored one is invalid", async () => {
    const tokens = memoryTokenStore();
    const client = darajaClient(config(), { tokens });
    await client.stkPush(purchase);
    // Someone else (another system with the same key) takes a token: ours is now invalid.
    await fetch(`${daraja.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${Buffer.from("client-key:client-secret").toString("base64")}` },
    });
    const before = daraja.tokenRequests.length;
    await expect(client.stkPush(purchase)).resolves.toMatchObject({ checkoutRequestId: expect.stringMatching(/^ws_CO_/) });
    expect(daraja.tokenRequests.length - before).toBe(1);
  });

  it("says which credentials were refused", async () => {
    const badSecret = darajaClient(config({ consumerSecret: "wrong" }), { tokens: memoryTokenStore() });
    const auth = await badSecret.stkPush(purchase).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(DarajaError);
    expect(auth).toMatchObject({ kind: "auth", details: { status: 400, errorCode: "400.008.01" } });
    expect(describeDarajaError(auth)).toMatch(/consumer key and secret/);

    const badPasskey = darajaClient(config({ passkey: "wrong" }), { tokens: memoryTokenStore() });
    const credentials = await badPasskey.stkPush(purchase).catch((e: unknown) => e);
    expect(credentials).toMatchObject({ kind: "credentials", details: { errorMessage: "Wrong credentials" } });
    expect(describeDarajaError(credentials)).toMatch(/passkey/);

    const unknownShortCode = darajaClient(config({ shortCode: "777777" }), { tokens: memoryTokenStore() });
    const rejected = await unknownShortCode.stkPush(purchase).catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: "rejected", details: { status: 400, errorMessage: "Bad Request - Invalid BusinessShortCode" } });
    expect(describeDarajaError(rejected)).toContain("Bad Request - Invalid BusinessShortCode");

    const closed = await startFakeDaraja();
    const url = closed.url;
    await closed.close();
    const unreachable = await darajaClient(config({ baseUrl: url }), { tokens: memoryTokenStore() })
      .accessToken()
      .catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ kind: "network" });
    expect(describeDarajaError(unreachable)).toMatch(/Could not reach M-Pesa/);
  });

  it("queries: pending, then the result code as a number", async () => {
    daraja.callbackDelayMs = 80;
    daraja.outcome = "cancelled";
    const client = darajaClient(config(), { tokens: memoryTokenStore() });
    const { checkoutRequestId } = await client.stkPush(purchase);
    expect(await client.stkQuery(checkoutRequestId)).toEqual({ status: "pending" });
    await new Promise((r) => setTimeout(r, 100));
    expect(await client.stkQuery(checkoutRequestId)).toEqual({
      status: "done",
      resultCode: 1032,
      resultDesc: "Request cancelled by user",
      merchantRequestId: expect.any(String),
      checkoutRequestId,
    });
    await expect(client.stkQuery("ws_CO_nope")).rejects.toMatchObject({ kind: "rejected", details: { status: 400 } });
  });

  it("registers C2B URLs", async () => {
    const client = darajaClient(config(), { tokens: memoryTokenStore() });
    await expect(
      client.registerC2bUrls({ confirmationUrl: "http://127.0.0.1:9/c", validationUrl: "http://127.0.0.1:9/v" }),
    ).resolves.toEqual({ responseDescription: "Success" });
    expect(daraja.c2bRegistrations.get(SANDBOX_SHORTCODE)).toMatchObject({
      responseType: "Completed",
      confirmationUrl: "http://127.0.0.1:9/c",
    });
    await expect(client.registerC2bUrls({ confirmationUrl: "nope", validationUrl: "http://127.0.0.1:9/v" })).rejects.toMatchObject({
      kind: "invalid_input",
    });
  });
});
