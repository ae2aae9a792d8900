// Buying a plan with M-Pesa on the connect page, over HTTP against the built server and the fake
// Daraja, on SQLite and PostgreSQL: the STK push with the documented fields, the waiting page,
// callbacks applied once (duplicates, forgeries, another organisation's key, mismatched amounts),
// each failure in plain words, the reconciliation job (also two instances at once), reconnecting
// under a plan held on the device or the phone within its simultaneous connections, and C2B.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { hashToken } from "~/services/crypto.server";
import { escapeHtml } from "~/lib/escape-html";
import { STK_RESULT_MESSAGES, stkPassword } from "~/services/prepaid/daraja.server";
import {
  COMPLETED,
  FAILED,
  GIVE_UP_MS,
  MPESA_MESSAGES,
  PAYMENT_TIMEOUT_MS,
  PENDING,
  reconcilePayments,
  UNCONFIRMED,
} from "~/services/prepaid/mpesa.server";
import {
  countOpenPaymentExceptions,
  grantPaymentException,
  listPaymentExceptions,
  recordPaymentException,
  refundPaymentException,
} from "~/services/prepaid/payment-exceptions.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { HELD_MESSAGES } from "~/services/prepaid/subscriptions.server";
import { DEMO_INITIATOR, DEMO_MPESA_FORM, SANDBOX_PASSKEY, SANDBOX_SHORTCODE, type FakeDaraja } from "../../scripts/fakes/daraja";
import { makeOrg } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import type { TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, mlangoEntryPath, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let fake: FakeDaraja;
let stop: (() => Promise<void>) | undefined;

// Daraja is the fake, and its callbacks come back to this server.
beforeAll(async () => ({ server, fake, close: stop } = await startServerWithFakeDaraja()));
afterAll(() => stop?.());
beforeEach(async () => {
  await fake.idle();
  fake.outcome = "success";
  fake.outcomeFor = null;
  fake.sendCallbacks = true;
  fake.duplicateCallbacks = false;
  fake.callbackDelayMs = 20;
  fake.holdStkPush = null;
});

let phoneSeq = 0;
/** A fresh Safaricom number per purchase (the fake, like M-Pesa, refuses the same amount twice quickly? no — but keep them apart). */
const nextPhone = () => `07${String(10_000_000 + ((process.pid * 7919 + ++phoneSeq * 104_729) % 89_999_999)).padStart(8, "0")}`;
const digits = (phone: string) => `254${phone.slice(1)}`;

async function world(plan: Record<string, string> = {}) {
  const { org, owner } = await makeOrg(`Buy ${Math.random()}`);
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
  const settings = mpesaSettingsSchema.parse(DEMO_MPESA_FORM);
  expect(await saveMpesaSettings(ctx, settings)).toBe("saved");
  const { callback_key } = await db
    .selectFrom("mpesa_settings")
    .select("callback_key")
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  return { org, ctx, ...network, planId: created.id, callbackKey: callback_key };
}
type World = Awaited<ReturnType<typeof world>>;

// Mlango's signed entry: a make that vouches for the device, so a device's own plan is recognised (decision 0087).
const visit = async (w: World, clientMac = randomMac()) => (await enter(server.origin, mlangoEntryPath(w, clientMac))).token!;
const buy = (token: string, planId: number | string, phone: string) =>
  postForm(server.origin, "/connect/mpesa", { token, plan_id: String(planId), phone_number: phone });
const waitUrl = (location: string) => `${server.origin}${location}`;
const poll = (location: string) => fetch(waitUrl(location), { redirect: "manual" });
const connectionOf = (token: string) =>
  db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
const paymentOf = (location: string) =>
  db
    .selectFrom("mpesa_transactions")
    .selectAll()
    .where("id", "=", Number(new URL(waitUrl(location)).searchParams.get("payment")))
    .executeTakeFirstOrThrow();

/** Polls the waiting page until it stops waiting (as the page's Refresh header would). */
async function waitForEnd(location: string): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    const res = await poll(location);
    if (res.status !== 200 || !(await res.clone().text()).includes("Check your phone")) return res;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("still waiting");
}

describe("buying a plan with M-Pesa", () => {
  it("offers the paid plans, pushes the documented STK request, waits, and grants the plan once paid", async () => {
    // The payment stays pending for a second: long enough to see it pending on a loaded machine
    // (at 20 ms the callback sometimes landed before the next query, and CI failed).
    fake.callbackDelayMs = 1_000;
    const w = await world();
    const token = await visit(w);
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain('action="/connect/mpesa"');
    expect(page).toContain("Two hours</b> — Kes 50");
    expect(page).toContain("2 hours, for use within 1 day");

    const phone = nextPhone();
    const started = await buy(token, w.planId, phone);
    expect(started.status).toBe(303);
    const location = started.headers.get("location")!;
    expect(location).toMatch(/^\/connect\/mpesa\/wait\?token=.+&payment=\d+$/);

    const sent = fake.stkRequests.at(-1)!;
    expect(sent.body).toMatchObject({
      BusinessShortCode: SANDBOX_SHORTCODE,
      TransactionType: "CustomerPayBillOnline",
      Amount: 50,
      PartyA: digits(phone),
      PartyB: SANDBOX_SHORTCODE,
      PhoneNumber: digits(phone),
    });
    expect(sent.body.Password).toBe(stkPassword(SANDBOX_SHORTCODE, SANDBOX_PASSKEY, String(sent.body.Timestamp)));
    expect(sent.callbackUrl).toBe(`${server.origin}/hotspot/mpesa/${w.callbackKey}`);
    expect(String(sent.body.AccountReference).length).toBeLessThanOrEqual(12);

    const pending = await db.selectFrom("subscriptions").selectAll().where("organization_id", "=", w.org.id).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: "Pending", source: "mpesa", price_cents: 5000 });
    const waiting = await poll(location);
    const waitingPage = await waiting.text();
    expect(waitingPage).toContain("Check your phone");
    // A sandboxed page's meta refresh does not run: a header reloads it.
    expect(waiting.headers.get("refresh")).toBe(`3;url=${location}`);
    expect(waitingPage).toContain(`Enter your M-Pesa PIN on ${phone}`);
    // HEAD gets GET's answer without the body.
    const head = await fetch(waitUrl(location), { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(200);
    for (const name of ["refresh", "content-security-policy", "cache-control", "referrer-policy", "x-frame-options"])
      expect(head.headers.get(name)).toBe(waiting.headers.get(name));

    await fake.idle();
    const granted = await waitForEnd(location);
    expect(granted.status).toBe(303);
    expect(new URL(granted.headers.get("location")!).searchParams.get("duration")).toBe("7200");
    const payment = await paymentOf(location);
    expect(payment).toMatchObject({ status: COMPLETED, amount: 50, phone_number: digits(phone), result_code: 0 });
    expect(payment.transaction_id).toMatch(/^[A-Z0-9]{10}$/);
    const connection = await connectionOf(token);
    expect(connection.authorization_mode).toBe("MPESA");
    expect(connection.subscription_id).toBe(payment.subscription_id);
    const subscription = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", "=", payment.subscription_id!)
      .executeTakeFirstOrThrow();
    expect(subscription.status).toBe("Active");
    expect(Number(subscription.expires_on) - Number(subscription.started_on)).toBe(86_400_000);
    const customer = await db
      .selectFrom("customers")
      .select("phone_number")
      .where("id", "=", connection.customer_id!)
      .executeTakeFirstOrThrow();
    expect(customer.phone_number).toBe(`+${digits(phone)}`);
    expect(subscription.customer_id).toBe(connection.customer_id);

    // Polling again (the page reloaded once more) finds the guest online, ahead of Express or through it.
    const again = await poll(location);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toContain("/connect/online?token=");
    expect(again.headers.get("cache-control")).toBe("no-store");
    const againHead = await fetch(waitUrl(location), { method: "HEAD", redirect: "manual" });
    expect([againHead.status, againHead.headers.get("location"), againHead.headers.get("cache-control")]).toEqual([
      303,
      again.headers.get("location"),
      "no-store",
    ]);
    // Another payment's id, or another token, with this page: not found.
    const paymentId = new URL(waitUrl(location)).searchParams.get("payment")!;
    const otherToken = await visit(w);
    for (const wrong of [
      location.replace(`payment=${paymentId}`, `payment=${Number(paymentId) + 1000}`),
      location.replace(/token=[^&]+/, `token=${otherToken}`),
    ]) {
      const res = await poll(wrong);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Payment not found");
    }
  });

  it.each([
    ["cancelled", 1032],
    ["insufficient", 1],
    ["wrong_pin", 2001],
    ["unreachable", 1037],
    ["timeout", 1019],
  ] as const)("a %s payment ends in plain words, a Cancelled subscription and no access", async (outcome, code) => {
    const w = await world();
    fake.outcome = outcome;
    const token = await visit(w);
    const started = await buy(token, w.planId, nextPhone());
    const location = started.headers.get("location")!;
    await fake.idle();
    if (outcome === "timeout") {
      // No callback comes for an expired request: the STK query settles it once it is due.
      await new Promise((resolve) => setTimeout(resolve, 30));
      await db
        .updateTable("mpesa_transactions")
        .set({ next_check_at: 0 })
        .where("id", "=", (await paymentOf(location)).id)
        .execute();
    }
    const res = await waitForEnd(location);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("Payment not completed");
    expect(body).toContain(escapeHtml(STK_RESULT_MESSAGES[code]!));
    const payment = await paymentOf(location);
    expect(payment).toMatchObject({ status: FAILED, result_code: code, transaction_id: null });
    expect(
      (await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow()).status,
    ).toBe("Cancelled");
    expect((await connectionOf(token)).authorized_at).toBeNull();
  });

  it("pushes once when Pay is pressed several times at once, and every press waits on that purchase", async () => {
    const w = await world();
    fake.sendCallbacks = false;
    const token = await visit(w);
    const phone = nextPhone();
    const before = fake.stkRequests.length;
    const presses = await Promise.all(Array.from({ length: 4 }, () => buy(token, w.planId, phone)));
    const locations = new Set(presses.map((p) => p.headers.get("location")));
    expect(presses.map((p) => p.status)).toEqual([303, 303, 303, 303]);
    expect(locations.size).toBe(1);
    expect(fake.stkRequests.length - before).toBe(1);
    expect(await db.selectFrom("mpesa_transactions").select("id").where("organization_id", "=", w.org.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("subscriptions").select("id").where("organization_id", "=", w.org.id).execute()).toHaveLength(1);
  });

  it("never holds other guests' purchases while Daraja is slow to answer one STK push (purchase lanes are left before the push)", async () => {
    const w = await world();
    fake.sendCallbacks = false;
    const slow = nextPhone();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowReached!: () => void;
    const slowAtDaraja = new Promise<void>((resolve) => (slowReached = resolve));
    fake.holdStkPush = async (phone) => {
      if (phone !== digits(slow)) return;
      slowReached();
      await released;
    };
    const [slowToken, ...tokens] = await Promise.all(Array.from({ length: 4 }, () => visit(w)));
    const slowPurchase = buy(slowToken!, w.planId, slow);
    await slowAtDaraja;
    // Daraja has not answered the first guest yet: the others' purchases go through meanwhile.
    const others = await Promise.all(tokens.map((token) => buy(token, w.planId, nextPhone())));
    expect(others.map((r) => r.status)).toEqual([303, 303, 303]);
    release();
    const first = await slowPurchase;
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toMatch(/^\/connect\/mpesa\/wait\?/);
    const rows = await db
      .selectFrom("mpesa_transactions")
      .select(["checkout_request_id"])
      .where("organization_id", "=", w.org.id)
      .execute();
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.checkout_request_id?.startsWith("ws_CO_"))).toBe(true);
  });

  it("refuses a bad phone or plan with the form's messages and pushes nothing", async () => {
    const w = await world();
    const other = await world();
    const token = await visit(w);
    const before = fake.stkRequests.length;
    for (const [planId, phone, field, message] of [
      // The M-Pesa form's phone field has its own id (the sign-up form has a phone_number field too).
      [w.planId, "0202 123456", "mpesa_phone_number", MPESA_MESSAGES.phone],
      [w.planId, "", "mpesa_phone_number", MPESA_MESSAGES.phone],
      [other.planId, nextPhone(), "plan_id", MPESA_MESSAGES.notSold],
      ["", nextPhone(), "plan_id", MPESA_MESSAGES.plan],
      ["abc", nextPhone(), "plan_id", MPESA_MESSAGES.plan],
    ] as const) {
      const res = await buy(token, planId, phone);
      expect(res.status).toBe(422);
      const body = await res.text();
      expect(body).toContain(`id="${field}-error"`);
      expect(body).toContain(escapeHtml(message));
    }
    expect(fake.stkRequests.length).toBe(before);
    const unknown = await buy("x".repeat(32), w.planId, nextPhone());
    expect(unknown.status).toBe(404);
    expect(await db.selectFrom("mpesa_transactions").select("id").where("organization_id", "=", w.org.id).execute()).toHaveLength(0);
  });
});

describe("Daraja's callbacks", () => {
  const callback = (key: string, body: unknown) =>
    fetch(`${server.origin}/hotspot/mpesa/${key}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const stk = (checkout: string, code: number, items?: Array<{ Name: string; Value?: unknown }>) => ({
    Body: {
      stkCallback: {
        MerchantRequestID: "m-1",
        CheckoutRequestID: checkout,
        ResultCode: code,
        ResultDesc: "x",
        ...(items ? { CallbackMetadata: { Item: items } } : {}),
      },
    },
  });
  const paidItems = (amount: number, phone: string, receipt = "TEST123ABC") => [
    { Name: "Amount", Value: amount },
    { Name: "MpesaReceiptNumber", Value: receipt },
    { Name: "Balance" },
    { Name: "TransactionDate", Value: 20261125101010 },
    { Name: "PhoneNumber", Value: Number(phone) },
  ];

  async function pendingPurchase() {
    const w = await world();
    fake.sendCallbacks = false; // the test sends them
    const token = await visit(w);
    const phone = nextPhone();
    const location = (await buy(token, w.planId, phone)).headers.get("location")!;
    const payment = await paymentOf(location);
    return { w, token, phone, location, payment };
  }

  it("applies a result once however often it arrives, twice at once included", async () => {
    const { w, location, payment, phone } = await pendingPurchase();
    const body = stk(payment.checkout_request_id!, 0, paidItems(50, digits(phone)));
    const answers = await Promise.all([callback(w.callbackKey, body), callback(w.callbackKey, body), callback(w.callbackKey, body)]);
    for (const answer of answers) expect(await answer.json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    // A late failure for the same request changes nothing.
    await callback(w.callbackKey, stk(payment.checkout_request_id!, 1032));
    const after = await paymentOf(location);
    expect(after).toMatchObject({ status: COMPLETED, transaction_id: "TEST123ABC" });
    const subs = await db.selectFrom("subscriptions").select(["status", "started_on"]).where("organization_id", "=", w.org.id).execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]!.status).toBe("Active");
  });

  it("gives a plan deleted while the guest paid a day's validity", async () => {
    const { w, location, payment, phone } = await pendingPurchase();
    await db.deleteFrom("service_plans").where("id", "=", w.planId).execute();
    await callback(w.callbackKey, stk(payment.checkout_request_id!, 0, paidItems(50, digits(phone))));
    expect((await paymentOf(location)).status).toBe(COMPLETED);
    const sub = await db
      .selectFrom("subscriptions")
      .select(["status", "started_on", "expires_on"])
      .where("id", "=", payment.subscription_id!)
      .executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");
    expect(Number(sub.expires_on) - Number(sub.started_on)).toBe(86_400_000);
  });

  it("never lets a forged or mismatched callback grant anything", async () => {
    const { w, location, payment, phone } = await pendingPurchase();
    const other = await world();
    // Another organisation's callback key, an unknown key, an unknown CheckoutRequestID, the wrong
    // amount, the wrong phone, a missing receipt: none of them completes the purchase.
    await callback(other.callbackKey, stk(payment.checkout_request_id!, 0, paidItems(50, digits(phone))));
    expect((await callback("k".repeat(32), stk(payment.checkout_request_id!, 0, paidItems(50, digits(phone))))).status).toBe(404);
    await callback(w.callbackKey, stk("ws_CO_forged", 0, paidItems(50, digits(phone))));
    await callback(w.callbackKey, stk(payment.checkout_request_id!, 0, paidItems(1, digits(phone))));
    await callback(w.callbackKey, stk(payment.checkout_request_id!, 0, paidItems(50, "254700000001")));
    await callback(
      w.callbackKey,
      stk(
        payment.checkout_request_id!,
        0,
        paidItems(50, digits(phone)).filter((i) => i.Name !== "MpesaReceiptNumber"),
      ),
    );
    // Bad bodies: 4xx, never a 500 (an unknown key is still an unknown key).
    for (const bad of [{}, { Body: {} }, { Body: { stkCallback: { CheckoutRequestID: 5, ResultCode: "x" } } }, []]) {
      expect((await callback(w.callbackKey, bad)).status).toBe(400);
      expect((await callback("k".repeat(32), bad)).status).toBe(404);
    }
    const nul = await fetch(`${server.origin}/hotspot/mpesa/${w.callbackKey}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"Body":{"stkCallback":{"CheckoutRequestID":"a\\u0000"}}}',
    });
    expect(nul.status).toBe(400);
    const broken = await fetch(`${server.origin}/hotspot/mpesa/${w.callbackKey}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    // The mismatched amount ended the purchase as an exception for a person, not a grant.
    expect((await paymentOf(location)).status).toBe(FAILED);
    expect(
      (await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow()).status,
    ).toBe("Cancelled");
    const kinds = await db.selectFrom("payment_exceptions").select("kind").where("organization_id", "=", w.org.id).orderBy("id").execute();
    expect(kinds.map((k) => k.kind)).toEqual(["unknown_purchase", "amount_mismatch"]);
  });
});

describe("the reconciliation job", () => {
  it("settles purchases whose callback never came, each asked about by one of two instances", async () => {
    const w = await world();
    fake.outcome = "no_callback";
    const purchases: string[] = [];
    for (let i = 0; i < 6; i++) purchases.push((await buy(await visit(w), w.planId, nextPhone())).headers.get("location")!);
    await fake.idle();
    // No callback comes, and the fake answers "still processing" until callbackDelayMs after each
    // push: wait that long, or a slow machine queries the last push too early (a flaky failure).
    await new Promise((resolve) => setTimeout(resolve, fake.callbackDelayMs + 50));
    const ids = await Promise.all(purchases.map(async (l) => Number((await paymentOf(l)).id)));
    const queriesBefore = fake.stkQueries.length;
    const later = Date.now() + 60_000;
    const [a, b] = await Promise.all([reconcilePayments(later), reconcilePayments(later)]);
    expect(a + b).toBe(6);
    expect(fake.stkQueries.length - queriesBefore).toBe(6);
    const rows = await db.selectFrom("mpesa_transactions").select(["status", "subscription_id"]).where("id", "in", ids).execute();
    expect(rows.every((r) => r.status === COMPLETED)).toBe(true);
    const subs = await db
      .selectFrom("subscriptions")
      .select("status")
      .where(
        "id",
        "in",
        rows.map((r) => r.subscription_id!),
      )
      .execute();
    expect(subs.map((s) => s.status)).toEqual(Array(6).fill("Active"));
    // Nothing left to do: a second run checks nothing.
    expect(await reconcilePayments(later + 60_000)).toBe(0);
  });

  it("stops waiting after 3 minutes without failing the purchase, and gives up only after a day, listed for the operator", async () => {
    const w = await world();
    fake.sendCallbacks = false;
    const token = await visit(w);
    const location = (await buy(token, w.planId, nextPhone())).headers.get("location")!;
    const payment = await paymentOf(location);
    // The fake answers the query only once its result is due: make it never due by querying an unknown id.
    await db
      .updateTable("mpesa_transactions")
      .set({ checkout_request_id: "ws_CO_unknown_to_daraja" })
      .where("id", "=", payment.id)
      .execute();
    expect(await reconcilePayments(Date.now() + PAYMENT_TIMEOUT_MS + 60_000)).toBe(1);
    const body = await (await poll(location)).text();
    expect(body).toContain(escapeHtml(MPESA_MESSAGES.timeout));
    expect(body).not.toContain("will be waiting");
    expect(await paymentOf(location)).toMatchObject({ status: UNCONFIRMED });
    const subscription = () =>
      db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow();
    expect((await subscription()).status).toBe("Pending");
    // Still asked about, then given up after a day: failed, cancelled and listed.
    expect(await reconcilePayments(Date.now() + GIVE_UP_MS + 60_000)).toBe(1);
    expect(await paymentOf(location)).toMatchObject({ status: FAILED });
    expect((await subscription()).status).toBe("Cancelled");
    expect(await (await poll(location)).text()).toContain(escapeHtml(MPESA_MESSAGES.neverConfirmed));
    const listed = await db.selectFrom("payment_exceptions").selectAll().where("organization_id", "=", w.org.id).execute();
    expect(listed.map((e) => e.kind)).toEqual(["unconfirmed"]);
  });
});

describe("the callback is a hint, the query is the truth", () => {
  const callback = (key: string, body: unknown) =>
    fetch(`${server.origin}/hotspot/mpesa/${key}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const paid = (checkout: string, amount: number, phone: string, receipt: string) => ({
    Body: {
      stkCallback: {
        MerchantRequestID: "m-1",
        CheckoutRequestID: checkout,
        ResultCode: 0,
        ResultDesc: "The service request is processed successfully.",
        CallbackMetadata: {
          Item: [
            { Name: "Amount", Value: amount },
            { Name: "MpesaReceiptNumber", Value: receipt },
            { Name: "TransactionDate", Value: 20261202101010 },
            { Name: "PhoneNumber", Value: Number(phone) },
          ],
        },
      },
    },
  });
  const receipt = () => `LT${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  const exceptionsOf = (orgId: number) =>
    db.selectFrom("payment_exceptions").selectAll().where("organization_id", "=", orgId).orderBy("id").execute();

  async function purchase(w: World, mac = randomMac()) {
    fake.sendCallbacks = false;
    const token = await visit(w, mac);
    const phone = nextPhone();
    const location = (await buy(token, w.planId, phone)).headers.get("location")!;
    return { token, phone, location, payment: await paymentOf(location), mac };
  }

  it("a success callback at 200 s, after the page stopped waiting, still activates the plan, found on reconnect", async () => {
    fake.callbackDelayMs = 3_600_000; // the query says "being processed" all along
    const w = await world();
    const { phone, location, payment, mac } = await purchase(w);
    // The purchase started 200 s ago: the job asks, M-Pesa is still processing, the page stops waiting.
    await db
      .updateTable("mpesa_transactions")
      .set({ created_at: Date.now() - 200_000, next_check_at: 0 })
      .where("id", "=", payment.id)
      .execute();
    expect(await reconcilePayments()).toBe(1);
    expect(await paymentOf(location)).toMatchObject({ status: UNCONFIRMED });
    expect(await (await poll(location)).text()).toContain(escapeHtml(MPESA_MESSAGES.timeout));
    // Then the callback comes: acknowledged and applied.
    const code = receipt();
    const answer = await callback(w.callbackKey, paid(payment.checkout_request_id!, 50, digits(phone), code));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    expect(await paymentOf(location)).toMatchObject({ status: COMPLETED, transaction_id: code });
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");
    // The guest reconnects on the same device and finds the plan.
    const again = await visit(w, mac);
    const page = await (await fetch(`${server.origin}/connect?token=${again}`)).text();
    expect(page).toContain('value="SUBSCRIPTION"');
    // Listed as late, for the operator to know.
    expect((await exceptionsOf(w.org.id)).map((e) => [e.kind, e.receipt])).toEqual([["late", code]]);
    // No more checks for it.
    expect(await reconcilePayments(Date.now() + 3_600_000)).toBe(0);
  });

  it("a late success found by the query activates the plan too", async () => {
    fake.callbackDelayMs = 0;
    fake.outcome = "no_callback";
    const w = await world();
    const { location, payment } = await purchase(w);
    await db
      .updateTable("mpesa_transactions")
      .set({ status: UNCONFIRMED, created_at: Date.now() - 600_000, next_check_at: 0 })
      .where("id", "=", payment.id)
      .execute();
    expect(await reconcilePayments()).toBe(1);
    expect(await paymentOf(location)).toMatchObject({ status: COMPLETED });
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");
  });

  it("acknowledges a callback whose receipt another payment used, and lists it", async () => {
    const w = await world();
    const first = await purchase(w);
    const code = receipt();
    await callback(w.callbackKey, paid(first.payment.checkout_request_id!, 50, digits(first.phone), code));
    expect(await paymentOf(first.location)).toMatchObject({ status: COMPLETED, transaction_id: code });
    const second = await purchase(w);
    const body = paid(second.payment.checkout_request_id!, 50, digits(second.phone), code);
    // Before: 503 (a unique violation), which Daraja retries for ever. Now acknowledged, every time.
    for (let i = 0; i < 2; i++) {
      const answer = await callback(w.callbackKey, body);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    }
    expect((await paymentOf(second.location)).status).toBe(PENDING);
    const listed = await exceptionsOf(w.org.id);
    expect(listed.map((e) => [e.kind, e.receipt, e.mpesa_transaction_id])).toEqual([["duplicate_receipt", code, second.payment.id]]);
    expect(listed[0]!.phone_number).toBe(digits(second.phone));
  });

  it("lists a callback whose amount or phone is not the purchase's, and grants nothing (not even through the query)", async () => {
    fake.outcome = "no_callback";
    fake.callbackDelayMs = 0;
    const w = await world();
    const { location, payment, phone } = await purchase(w);
    const answer = await callback(w.callbackKey, paid(payment.checkout_request_id!, 1, digits(phone), receipt()));
    expect(answer.status).toBe(200);
    expect(await paymentOf(location)).toMatchObject({ status: FAILED });
    // The query would say "paid": the purchase is over, so it changes nothing.
    await reconcilePayments(Date.now() + 60_000);
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Cancelled");
    expect(await (await poll(location)).text()).toContain(escapeHtml(MPESA_MESSAGES.mismatch));
    const [listed] = await exceptionsOf(w.org.id);
    expect(listed).toMatchObject({ kind: "amount_mismatch", amount: 1, expected_amount: 50, status: "open" });

    const other = await purchase(w);
    await callback(w.callbackKey, paid(other.payment.checkout_request_id!, 50, "254700000001", receipt()));
    expect((await paymentOf(other.location)).status).toBe(FAILED);
    expect((await exceptionsOf(w.org.id)).map((e) => e.kind)).toEqual(["amount_mismatch", "amount_mismatch"]);
  });

  it("lists a payment for a purchase Mlango never started", async () => {
    const w = await world();
    const code = receipt();
    const answer = await callback(w.callbackKey, paid("ws_CO_never_started", 50, "254700000002", code));
    expect(answer.status).toBe(200);
    await callback(w.callbackKey, paid("ws_CO_never_started", 50, "254700000002", code));
    expect((await exceptionsOf(w.org.id)).map((e) => [e.kind, e.receipt, e.amount])).toEqual([["unknown_purchase", code, 50]]);
  });
});

describe("payment exceptions for the operator", () => {
  it("grants the plan of a mismatched payment once, and refunds another through Daraja's Reversal API", async () => {
    const w = await world();
    fake.sendCallbacks = false;
    const token = await visit(w);
    const phone = nextPhone();
    const location = (await buy(token, w.planId, phone)).headers.get("location")!;
    const payment = await paymentOf(location);
    const send = (body: unknown) =>
      fetch(`${server.origin}/hotspot/mpesa/${w.callbackKey}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const item = (amount: number, code: string) => ({
      Body: {
        stkCallback: {
          MerchantRequestID: "m",
          CheckoutRequestID: payment.checkout_request_id,
          ResultCode: 0,
          ResultDesc: "ok",
          CallbackMetadata: {
            Item: [
              { Name: "Amount", Value: amount },
              { Name: "MpesaReceiptNumber", Value: code },
              { Name: "PhoneNumber", Value: Number(digits(phone)) },
            ],
          },
        },
      },
    });
    await send(item(49, "RVGRANT001"));
    const [exception] = await listPaymentExceptions(w.ctx, { openOnly: true, page: 1 }).then((p) => p.rows);
    expect(exception).toMatchObject({ kind: "amount_mismatch", receipt: "RVGRANT001", can_grant: true, can_refund: true });
    expect(await countOpenPaymentExceptions(w.ctx)).toBe(1);
    expect(await grantPaymentException(w.ctx, exception!.id)).toMatchObject({ ok: true });
    expect(await grantPaymentException(w.ctx, exception!.id)).toMatchObject({ ok: false, status: 409 });
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", payment.subscription_id!).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");
    expect(await countOpenPaymentExceptions(w.ctx)).toBe(0);

    // A payment for an unknown purchase, paid for real at M-Pesa (the fake knows the receipt): refunded.
    fake.payments.set("RVREFUND01", { amount: 50, phone: "254700000003", shortCode: SANDBOX_SHORTCODE, reversed: false });
    await send({
      Body: {
        stkCallback: {
          MerchantRequestID: "m",
          CheckoutRequestID: "ws_CO_unknown_refund",
          ResultCode: 0,
          ResultDesc: "ok",
          CallbackMetadata: {
            Item: [
              { Name: "Amount", Value: 50 },
              { Name: "MpesaReceiptNumber", Value: "RVREFUND01" },
              { Name: "PhoneNumber", Value: 254700000003 },
            ],
          },
        },
      },
    });
    const refundable = (await listPaymentExceptions(w.ctx, { openOnly: true, page: 1 })).rows[0]!;
    expect(refundable).toMatchObject({ kind: "unknown_purchase", can_grant: false, can_refund: true });
    expect(await grantPaymentException(w.ctx, refundable.id)).toMatchObject({ ok: false, status: 409 });
    expect(await refundPaymentException(w.ctx, refundable.id)).toMatchObject({ ok: true });
    // Pressed again while the first is under way: refused, one reversal only.
    expect(await refundPaymentException(w.ctx, refundable.id)).toMatchObject({ ok: false, status: 409 });
    const sent = fake.asyncRequests.filter((r) => r.kind === "reversal").at(-1)!;
    expect(sent.body).toMatchObject({
      Initiator: DEMO_INITIATOR.name,
      SecurityCredential: DEMO_INITIATOR.securityCredential,
      CommandID: "TransactionReversal",
      TransactionID: "RVREFUND01",
      Amount: 50,
      ReceiverParty: SANDBOX_SHORTCODE,
      RecieverIdentifierType: "11",
    });
    const resultUrl = String(sent.body.ResultURL);
    expect(resultUrl).toMatch(new RegExp(`^${server.origin}/hotspot/mpesa-result/${w.org.id}/[A-Za-z0-9_-]{32}$`));
    await fake.idle();
    expect(fake.resultsSent.at(-1)!.status).toBe(200);
    const after = await db.selectFrom("payment_exceptions").selectAll().where("id", "=", refundable.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("refunded");
    expect(fake.payments.get("RVREFUND01")!.reversed).toBe(true);

    // The result address with a wrong secret, or another organisation's id, is refused and changes nothing.
    const forged = { Result: { ResultCode: 0, ResultDesc: "x", ConversationID: after.reversal_conversation_id } };
    const wrong = await fetch(`${server.origin}/hotspot/mpesa-result/${w.org.id}/${"A".repeat(32)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(forged),
    });
    expect(wrong.status).toBe(404);
    const bad = await fetch(resultUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(bad.status).toBe(400);
  });

  it("records a refund M-Pesa refuses as failed, and only the owner acts", async () => {
    const w = await world();
    await recordPaymentException({
      organizationId: w.org.id,
      kind: "unknown_purchase",
      dedupe: "t-1",
      receipt: "RVNOTKNOWN",
      phone: "254700000004",
      amount: 50,
      detail: "test",
    });
    const row = (await listPaymentExceptions(w.ctx, { openOnly: true, page: 1 })).rows[0]!;
    const member = { ...w.ctx, isOwner: false };
    await expect(refundPaymentException(member, row.id)).rejects.toMatchObject({ status: 403 });
    await expect(grantPaymentException(member, row.id)).rejects.toMatchObject({ status: 403 });
    expect(await refundPaymentException(w.ctx, row.id)).toMatchObject({ ok: true });
    await fake.idle();
    const after = await db.selectFrom("payment_exceptions").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("refund_failed");
    expect(after.reversal_result).toContain("R000002");
  });
});

describe("reconnecting under a plan the guest holds", () => {
  async function paid(w: World, clientMac: string, phone = nextPhone()) {
    const token = await visit(w, clientMac);
    const location = (await buy(token, w.planId, phone)).headers.get("location")!;
    await fake.idle();
    const res = await waitForEnd(location);
    expect(res.status).toBe(303);
    return { token, phone };
  }

  it("the same device continues its plan without paying, for the time left", async () => {
    const w = await world();
    const mac = randomMac();
    const first = await paid(w, mac);
    // The first session ends after 30 minutes of the plan's 2 hours.
    const c1 = await connectionOf(first.token);
    await db
      .updateTable("connections")
      .set({ authorized_at: Number(c1.authorized_at) - 30 * 60_000, ended_at: Date.now() })
      .where("id", "=", c1.id)
      .execute();

    const token = await visit(w, mac);
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain("You have <b>Two hours</b> on this device");
    const pushes = fake.stkRequests.length;
    const res = await postForm(server.origin, "/connect", { token, mode: "SUBSCRIPTION" });
    expect(res.status).toBe(303);
    const duration = Number(new URL(res.headers.get("location")!).searchParams.get("duration"));
    expect(duration).toBeGreaterThan(90 * 60 - 5);
    expect(duration).toBeLessThanOrEqual(90 * 60);
    expect(fake.stkRequests.length).toBe(pushes);
    expect((await connectionOf(token)).subscription_id).toBe(c1.subscription_id);
  });

  it("the same device reconnecting while its last session still counts keeps its one place", async () => {
    const w = await world();
    const mac = randomMac();
    const first = await paid(w, mac);
    const token = await visit(w, mac);
    const res = await postForm(server.origin, "/connect", { token, mode: "SUBSCRIPTION" });
    expect(res.status).toBe(303);
    expect((await connectionOf(token)).subscription_id).toBe((await connectionOf(first.token)).subscription_id);
  });

  it("another device with the same phone gets no plan without proof (tests/integration/guest-identity.test.ts)", async () => {
    const w = await world({ simultaneous_connections: "2" });
    const first = await paid(w, randomMac());
    const pushes = fake.stkRequests.length;
    const second = await visit(w);
    // No SMS provider here, so no code can prove the phone: the device pays for its own plan.
    const own = await buy(second, w.planId, first.phone);
    expect(own.headers.get("location")).toMatch(/^\/connect\/mpesa\/wait/);
    expect(fake.stkRequests.length).toBe(pushes + 1);
    expect((await connectionOf(second)).authorized_at).toBeNull();
    // And a device that holds no plan cannot "continue" one.
    const res = await postForm(server.origin, "/connect", { token: await visit(w), mode: "SUBSCRIPTION" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(escapeHtml(HELD_MESSAGES.none));
  });
});

describe("C2B confirmations", () => {
  it("records a paybill payment once per TransID", async () => {
    const w = await world();
    const confirm = (transId: string) =>
      fetch(`${server.origin}/hotspot/mpesa/${w.callbackKey}/c2b/confirmation`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          TransactionType: "Pay Bill",
          TransID: transId,
          TransTime: "20261125101010",
          TransAmount: "100.00",
          BusinessShortCode: SANDBOX_SHORTCODE,
          BillRefNumber: "ABCDE12345",
          MSISDN: "254712345678",
        }),
      });
    for (let i = 0; i < 3; i++) expect((await confirm("QWE123RTY9")).status).toBe(200);
    const rows = await db.selectFrom("mpesa_transactions").selectAll().where("organization_id", "=", w.org.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: "c2b",
      status: COMPLETED,
      amount: 100,
      phone_number: "254712345678",
      account_reference: "ABCDE12345",
      transaction_id: "QWE123RTY9",
    });
    const bad = await fetch(`${server.origin}/hotspot/mpesa/${w.callbackKey}/c2b/confirmation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ TransID: "'; drop", TransAmount: "x" }),
    });
    expect(bad.status).toBe(400);
  });
});
