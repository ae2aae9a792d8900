// Issue 34, items 5–7, over HTTP against the built server and the fake Daraja, on SQLite and
// PostgreSQL, each attack performed: six new devices asking one phone for a prompt at once (at most
// two reach Daraja), a connection starting prompt after prompt, fifty wrong voucher codes (throttled
// long before the fiftieth, a readable page and a 429 with Retry-After for the JSON call), cancelling
// or changing the number on the waiting page (and a PIN entered on the cancelled prompt still
// paying), Daraja's limits on the amount, AccountReference and TransactionDesc, and the callback key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { escapeHtml } from "~/lib/escape-html";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
import { hashToken } from "~/services/crypto.server";
import { darajaClient, DarajaError, memoryTokenStore } from "~/services/prepaid/daraja.server";
import { COMPLETED, MPESA_MESSAGES, PENDING } from "~/services/prepaid/mpesa.server";
import { callbackKeyHash, saveMpesaSettings, sameCallbackKey } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { generateVouchers } from "~/services/prepaid/vouchers.server";
import { GUEST_LIMIT_MESSAGES, LIMITS } from "~/services/rate-limit.server";
import { DEMO_CREDENTIALS, DEMO_MPESA_FORM, SANDBOX_PASSKEY, SANDBOX_SHORTCODE, type FakeDaraja } from "../../scripts/fakes/daraja";
import { makeOrg } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import type { TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, mlangoEntryPath, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let fake: FakeDaraja;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => ({ server, fake, close: stop } = await startServerWithFakeDaraja()));
afterAll(() => stop?.());
beforeEach(async () => {
  await fake.idle();
  fake.outcome = "success";
  fake.outcomeFor = null;
  fake.sendCallbacks = true;
  fake.callbackDelayMs = 20;
  fake.holdStkPush = null;
});

let phoneSeq = 0;
const nextPhone = () => `07${String(20_000_000 + ((process.pid * 7919 + ++phoneSeq * 104_729) % 79_999_999)).padStart(8, "0")}`;
const digits = (phone: string) => `254${phone.slice(1)}`;

async function world(plan: Record<string, string> = {}) {
  const { org, owner } = await makeOrg(`Throttles ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const network = await makeNetwork(org.id, { guest_signup: 0 });
  const created = await createPlan(
    ctx,
    servicePlanSchema(false).parse({
      name: "Two hours",
      price: "50",
      plan_kind: "Limited",
      limit_type: "Time",
      time_limit: "2",
      time_limit_unit: "Hrs",
      validity: "1",
      validity_units: "Days",
      ...plan,
    }),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
  const settings = await db.selectFrom("mpesa_settings").selectAll().where("organization_id", "=", org.id).executeTakeFirstOrThrow();
  return { org, ctx, ...network, planId: created.id, callbackKey: settings.callback_key, settings };
}
type World = Awaited<ReturnType<typeof world>>;

const visit = async (w: World, clientMac = randomMac()) =>
  (await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, clientMac)}`)).token!;
const buy = (token: string, planId: number | string, phone: string) =>
  postForm(server.origin, "/connect/mpesa", { token, plan_id: String(planId), phone_number: phone });
const get = (location: string) => fetch(`${server.origin}${location}`, { redirect: "manual" });
const paymentIdOf = (location: string) => Number(new URL(`${server.origin}${location}`).searchParams.get("payment"));
const paymentRow = (id: number) => db.selectFrom("mpesa_transactions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const pushesTo = (phone: string) => fake.stkRequests.filter((r) => r.phone === digits(phone)).length;

function expectThrottledPage(res: Response, html: string, reason: string) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(html).toContain("<h1>Too many attempts</h1>");
  expect(html).toContain(escapeHtml(reason));
  expect(html).toMatch(/Please try again in \d+ minutes?\./);
  expect(html).toContain("Back to the Wi-Fi page");
}

describe("M-Pesa prompts are throttled", () => {
  it("six new devices asking one phone for a prompt at once: at most two reach Daraja, the others are told when to try again", async () => {
    const w = await world();
    const phone = nextPhone();
    const tokens = await Promise.all(Array.from({ length: 6 }, () => visit(w)));
    const answers = await Promise.all(tokens.map((token) => buy(token, w.planId, phone)));
    expect(pushesTo(phone)).toBe(2);
    expect(answers.filter((r) => r.status === 303)).toHaveLength(2);
    const refused = answers.filter((r) => r.status !== 303);
    expect(refused).toHaveLength(4);
    for (const res of refused) expectThrottledPage(res, await res.text(), GUEST_LIMIT_MESSAGES[LIMITS.stkPerPhone.name]);
    // A prompt not sent leaves no purchase behind: no pending subscription, no transaction.
    const rows = await db.selectFrom("mpesa_transactions").select("id").where("organization_id", "=", w.org.id).execute();
    expect(rows).toHaveLength(2);
    const subscriptions = await db.selectFrom("subscriptions").select("id").where("organization_id", "=", w.org.id).execute();
    expect(subscriptions).toHaveLength(2);
    // Another number is not held up by this one.
    expect((await buy(await visit(w), w.planId, nextPhone())).status).toBe(303);
  });

  it("one connection starting prompt after prompt is stopped at the connection's limit", async () => {
    const w = await world();
    fake.outcome = "timeout"; // no answer: each purchase stays pending until the guest cancels it
    const token = await visit(w);
    for (let i = 0; i < LIMITS.stkPerConnection.max; i++) {
      const started = await buy(token, w.planId, nextPhone());
      expect(started.status).toBe(303);
      const cancelled = await postForm(server.origin, "/connect/mpesa/cancel", {
        token,
        payment: String(paymentIdOf(started.headers.get("location")!)),
        intent: "cancel",
      });
      expect(cancelled.status).toBe(303);
    }
    const before = fake.stkRequests.length;
    const refused = await buy(token, w.planId, nextPhone());
    expectThrottledPage(refused, await refused.text(), GUEST_LIMIT_MESSAGES[LIMITS.stkPerConnection.name]);
    expect(fake.stkRequests.length).toBe(before);
  });
});

describe("voucher codes are throttled", () => {
  async function voucherWorld() {
    const w = await world();
    const today = new Date().toISOString().slice(0, 10);
    const generated = await generateVouchers(
      w.ctx,
      voucherGroupSchema(today, true).parse({
        name: "Till 1",
        face_value: "50",
        valid_till: today,
        service_plan_id: String(w.planId),
        codes_count: "1",
      }),
    );
    if (!generated.ok) throw new Error("vouchers");
    const { code } = await db.selectFrom("vouchers").select("code").where("voucher_group_id", "=", generated.id).executeTakeFirstOrThrow();
    return { ...w, code };
  }
  const redeem = (token: string, code: string) => postForm(server.origin, "/connect", { token, mode: "VOUCHER", voucher_code: code });
  const wrong = (i: number) => `WRNG${String(i).padStart(6, "2")}`.replace(/[01]/g, "2");

  it("fifty wrong codes from one device: refused long before the fiftieth, with a readable page, also on its next connections", async () => {
    const w = await voucherWorld();
    const mac = randomMac();
    let token = await visit(w, mac);
    const statuses: number[] = [];
    let firstThrottled: { res: Response; html: string } | null = null;
    for (let i = 0; i < 50; i++) {
      // The device reconnects when its connection is throttled: the device's own counter still holds.
      const res = await redeem(token, wrong(i));
      statuses.push(res.status);
      const html = await res.text();
      if (res.status === 429) {
        firstThrottled ??= { res, html };
        token = await visit(w, mac);
      }
    }
    const firstRefused = statuses.indexOf(429);
    expect(firstRefused).toBe(LIMITS.voucherPerConnection.max);
    expect(statuses.slice(0, firstRefused).every((s) => s === 422)).toBe(true);
    expectThrottledPage(firstThrottled!.res, firstThrottled!.html, GUEST_LIMIT_MESSAGES[LIMITS.voucherPerConnection.name]);
    // At most the device's limit of codes were ever looked at.
    expect(statuses.filter((s) => s === 422).length).toBeLessThanOrEqual(LIMITS.voucherPerDevice.max);
    expect(statuses.slice(LIMITS.voucherPerDevice.max).every((s) => s === 429)).toBe(true);
    // Even the right code waits: a throttled attempt is refused before the code is looked at.
    const right = await redeem(token, w.code);
    expect(right.status).toBe(429);
    const voucher = await db.selectFrom("vouchers").select("uses").where("code", "=", w.code).executeTakeFirstOrThrow();
    expect(Number(voucher.uses)).toBe(0);
    // Another device is not held up.
    expect((await redeem(await visit(w), w.code)).status).toBe(303);
  });

  it("answers the JSON call with 429, Retry-After and the sentence", async () => {
    const w = await voucherWorld();
    const token = await visit(w);
    const call = (code: string) =>
      fetch(`${server.origin}/splash/connect/auto`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, mode: "VOUCHER", voucher_code: code }),
      });
    for (let i = 0; i < LIMITS.voucherPerConnection.max; i++) expect((await call(wrong(i))).status).toBe(422);
    const refused = await call(wrong(99));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^Too many voucher codes were tried on this device\. Please try again in \d+ minutes?\.$/);
  });
});

describe("the guest changes their mind on the waiting page", () => {
  it("shows Cancel and Use another number as plain forms with the connection token", async () => {
    const w = await world();
    fake.outcome = "timeout";
    const token = await visit(w);
    const location = (await buy(token, w.planId, nextPhone())).headers.get("location")!;
    const html = await (await get(location)).text();
    expect(html).toContain('<form method="post" action="/connect/mpesa/cancel"');
    expect(html).toContain(`<input type="hidden" name="token" value="${token}"/>`);
    expect(html).toContain(`<input type="hidden" name="payment" value="${paymentIdOf(location)}"/>`);
    expect(html).toContain('name="intent" value="change"');
    expect(html).toContain('name="intent" value="cancel"');
    expect(html).not.toContain("<script");
  });

  it("cancel, then another number: a new prompt at once, and the plan once paid; the first stays open to Daraja", async () => {
    const w = await world();
    const mistyped = nextPhone();
    const right = nextPhone();
    fake.phoneOutcomes.set(digits(mistyped), "timeout"); // the stranger's phone never answers
    const token = await visit(w);
    const first = (await buy(token, w.planId, mistyped)).headers.get("location")!;
    // Pay again with the same connection: still the first purchase's waiting page (nothing cancelled yet).
    expect((await buy(token, w.planId, right)).headers.get("location")).toBe(first);

    const change = await postForm(server.origin, "/connect/mpesa/cancel", { token, payment: String(paymentIdOf(first)), intent: "change" });
    expect(change.status).toBe(303);
    const changeAt = change.headers.get("location")!;
    expect(changeAt).toBe(`/connect/mpesa/change?token=${token}&payment=${paymentIdOf(first)}`);
    const page = await (await get(changeAt)).text();
    expect(page).toContain("<h1>Pay with another number</h1>");
    expect(page).toContain("Type the Safaricom number to send the M-Pesa prompt for Two hours (Kes 50) to.");
    expect(page).toContain(`value="${mistyped}"`);
    expect(page).toContain('action="/connect/mpesa"');
    expect(page).toContain(`name="plan_id" value="${w.planId}"`);

    const second = await buy(token, w.planId, right);
    expect(second.status).toBe(303);
    const secondAt = second.headers.get("location")!;
    expect(paymentIdOf(secondAt)).not.toBe(paymentIdOf(first));
    expect(pushesTo(right)).toBe(1);
    // The cancelled purchase is still pending for Daraja, marked cancelled; its waiting page says so.
    expect(await paymentRow(paymentIdOf(first))).toMatchObject({ status: PENDING });
    expect((await paymentRow(paymentIdOf(first))).cancelled_at).not.toBeNull();
    const old = await (await get(first)).text();
    expect(old).toContain(escapeHtml(MPESA_MESSAGES.cancelled));

    await fake.idle();
    let res = await get(secondAt);
    for (let i = 0; i < 100 && res.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await get(secondAt);
    }
    expect(res.status).toBe(303);
    const connection = await db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(connection.authorization_mode).toBe("MPESA");
    expect(Number(connection.subscription_id)).toBe(Number((await paymentRow(paymentIdOf(secondAt))).subscription_id));
    fake.phoneOutcomes.delete(digits(mistyped));
  });

  it("cancel goes back to the connect page, where Pay starts afresh", async () => {
    const w = await world();
    fake.outcome = "timeout";
    const token = await visit(w);
    const first = (await buy(token, w.planId, nextPhone())).headers.get("location")!;
    const cancelled = await postForm(server.origin, "/connect/mpesa/cancel", {
      token,
      payment: String(paymentIdOf(first)),
      intent: "cancel",
    });
    expect(cancelled.headers.get("location")).toBe(`/connect?token=${token}`);
    const again = await buy(token, w.planId, nextPhone());
    expect(paymentIdOf(again.headers.get("location")!)).not.toBe(paymentIdOf(first));
    // Someone else's token cannot cancel this purchase.
    const other = await visit(w);
    const foreign = await postForm(server.origin, "/connect/mpesa/cancel", {
      token: other,
      payment: String(paymentIdOf(again.headers.get("location")!)),
      intent: "cancel",
    });
    expect(foreign.status).toBe(404);
    expect((await paymentRow(paymentIdOf(again.headers.get("location")!))).cancelled_at).toBeNull();
  });

  it("a PIN entered on the cancelled prompt still pays: the payment is recorded and the plan waits on the device", async () => {
    const w = await world();
    fake.callbackDelayMs = 600;
    const mac = randomMac();
    // A make that vouches for the device (decision 0087): its plan waits on it.
    const token = (await enter(server.origin, mlangoEntryPath(w, mac))).token!;
    const first = (await buy(token, w.planId, nextPhone())).headers.get("location")!;
    await postForm(server.origin, "/connect/mpesa/cancel", { token, payment: String(paymentIdOf(first)), intent: "cancel" });
    await fake.idle();
    const paid = await paymentRow(paymentIdOf(first));
    expect(paid.status).toBe(COMPLETED);
    expect(paid.transaction_id).toMatch(/^[A-Z0-9]{10}$/);
    expect(paid.cancelled_at).not.toBeNull(); // recognisable: paid after the guest cancelled
    const subscription = await db.selectFrom("subscriptions").selectAll().where("id", "=", paid.subscription_id!).executeTakeFirstOrThrow();
    expect(subscription.status).toBe("Active");
    // Reconnecting, the device continues its plan.
    const later = (await enter(server.origin, mlangoEntryPath(w, mac))).token!;
    expect(await (await get(`/connect?token=${later}`)).text()).toContain("You have <b>Two hours</b> on this device");
    // Behind Meraki's unsigned MAC the same device holds nothing (the phone or the receipt must prove it).
    const meraki = await visit(w, mac);
    expect(await (await get(`/connect?token=${meraki}`)).text()).not.toContain("You have <b>Two hours</b>");
    // Cancelling a purchase already paid does not cancel it: its waiting page grants it.
    const again = await postForm(server.origin, "/connect/mpesa/cancel", { token, payment: String(paymentIdOf(first)), intent: "cancel" });
    expect(again.headers.get("location")).toBe(first);
  });
});

describe("Daraja's limits", () => {
  const client = () =>
    darajaClient(
      {
        baseUrl: fake.url,
        consumerKey: DEMO_CREDENTIALS.consumerKey,
        consumerSecret: DEMO_CREDENTIALS.consumerSecret,
        shortCode: SANDBOX_SHORTCODE,
        passkey: SANDBOX_PASSKEY,
        type: "paybill",
        partyB: SANDBOX_SHORTCODE,
      },
      { tokens: memoryTokenStore() },
    );
  const push = {
    amount: 10,
    phone: "0712345678",
    accountReference: "Two hours",
    description: "WiFi plan",
    callbackUrl: "http://127.0.0.1:9/cb",
  };

  it("the client refuses a fractional amount, a long AccountReference or TransactionDesc before sending", async () => {
    const before = fake.stkRequests.length;
    for (const bad of [{ amount: 10.5 }, { amount: 0 }, { accountReference: "A".repeat(13) }, { description: "D".repeat(14) }]) {
      const error = await client()
        .stkPush({ ...push, ...bad })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DarajaError);
      expect((error as DarajaError).kind).toBe("invalid_input");
    }
    expect(fake.stkRequests.length).toBe(before);
    // At the limits it goes through.
    await client().stkPush({ ...push, accountReference: "A".repeat(12), description: "D".repeat(13) });
    expect(fake.stkRequests.length).toBe(before + 1);
  });

  it("the fake refuses what Daraja's documentation refuses", async () => {
    const token = await client().accessToken();
    const send = async (fields: Record<string, unknown>) => {
      const timestamp = new Date(Date.now() + 3 * 3600_000).toISOString().replace(/\D/g, "").slice(0, 14);
      const res = await fetch(`${fake.url}/mpesa/stkpush/v1/processrequest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          BusinessShortCode: SANDBOX_SHORTCODE,
          Password: Buffer.from(`${SANDBOX_SHORTCODE}${SANDBOX_PASSKEY}${timestamp}`).toString("base64"),
          Timestamp: timestamp,
          TransactionType: "CustomerPayBillOnline",
          Amount: 10,
          PartyA: "254712345678",
          PartyB: SANDBOX_SHORTCODE,
          PhoneNumber: "254712345678",
          CallBackURL: "http://127.0.0.1:9/cb",
          AccountReference: "Two hours",
          TransactionDesc: "WiFi plan",
          ...fields,
        }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    expect((await send({})).status).toBe(200);
    for (const [field, value] of [
      ["Amount", 10.5],
      ["Amount", "10.50"],
      ["AccountReference", "A".repeat(13)],
      ["TransactionDesc", "D".repeat(14)],
    ] as const) {
      const answer = await send({ [field]: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: "400.002.02", errorMessage: `Bad Request - Invalid ${field}` });
    }
  });

  it("a plan priced in cents and with a long name is pushed as whole shillings and a 12-character reference", async () => {
    const w = await world({ name: "Premium unlimited weekend pass", price: "49.50" });
    const phone = nextPhone();
    expect((await buy(await visit(w), w.planId, phone)).status).toBe(303);
    const sent = fake.stkRequests.at(-1)!;
    expect(sent.body.Amount).toBe(50);
    expect(String(sent.body.AccountReference).length).toBeLessThanOrEqual(12);
    expect(String(sent.body.TransactionDesc).length).toBeLessThanOrEqual(13);
  });
});

describe("the callback key", () => {
  it("is looked up by its hash and compared in constant time: near misses and other lengths are unknown", async () => {
    const w = await world();
    expect(w.settings.callback_key_hash).toBe(callbackKeyHash(w.callbackKey));
    expect(sameCallbackKey(w.callbackKey, w.callbackKey)).toBe(true);
    expect(sameCallbackKey(w.callbackKey, `${w.callbackKey}x`)).toBe(false); // equal-length digests: no throw
    const body = { Body: { stkCallback: { MerchantRequestID: "m", CheckoutRequestID: "ws_CO_1", ResultCode: 1032, ResultDesc: "x" } } };
    const post = (key: string) =>
      fetch(`${server.origin}/hotspot/mpesa/${key}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const last = w.callbackKey.at(-1) === "A" ? "B" : "A";
    for (const key of [`${w.callbackKey.slice(0, -1)}${last}`, `${w.callbackKey}A`, w.callbackKey.slice(0, -1)])
      expect((await post(key)).status).toBe(404);
    expect((await post(w.callbackKey)).status).toBe(200);
  });
});
