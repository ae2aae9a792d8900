// "Paid without the prompt" (issue 34 item 4, decision 0088), over HTTP against the built server and
// the fake Daraja, on SQLite and PostgreSQL. A guest types the M-Pesa receipt of a paybill payment
// (C2B, confirmed through the fake's C2B Simulate) or of one only Transaction Status knows, and gets
// the plan its amount pays, once. The attacks: the same receipt claimed again (another device,
// another organisation, five devices at once), a made-up receipt, an STK purchase's receipt claimed
// for a second plan, and codes typed by brute force (throttled per connection and per device).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { escapeHtml } from "~/lib/escape-html";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { hashToken } from "~/services/crypto.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { RECEIPT_MESSAGES } from "~/services/prepaid/receipt-claims.server";
import { LIMITS } from "~/services/rate-limit.server";
import { DEMO_CREDENTIALS, DEMO_MPESA_FORM, SANDBOX_SHORTCODE, type FakeDaraja } from "../../scripts/fakes/daraja";
import { makeOrg } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import type { TestServer } from "../fixtures/http-server";
import { enter, GRANT_URL, makeNetwork, merakiQuery, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let fake: FakeDaraja;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => ({ server, fake, close: stop } = await startServerWithFakeDaraja()));
afterAll(() => stop?.());
beforeEach(() => fake.idle());

let seq = 0;
/** A receipt no other test (or worker) uses: ten capitals and digits, as M-Pesa prints them. */
const receipt = (prefix = "RC") =>
  `${prefix}${String(process.pid % 10_000).padStart(4, "0")}${String(++seq).padStart(4, "0")}`.slice(0, 10);
const phone = () => `2547${String(10_000_000 + ((process.pid * 7919 + ++seq * 104_729) % 89_999_999)).padStart(8, "0")}`;

async function world() {
  const { org, owner } = await makeOrg(`Receipts ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const network = await makeNetwork(org.id, { guest_signup: 0 });
  const plan = await createPlan(
    ctx,
    servicePlanSchema(false).parse({
      name: "Two hours",
      price: "49.50",
      plan_kind: "Limited",
      limit_type: "Time",
      time_limit: "2",
      time_limit_unit: "Hrs",
      validity: "1",
      validity_units: "Days",
    }),
  );
  if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
  expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
  const { callback_key } = await db
    .selectFrom("mpesa_settings")
    .select("callback_key")
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  // The short code's C2B URLs point at this organisation (Daraja's Register URL; tests run one at a time per file).
  fake.c2bRegistrations.set(SANDBOX_SHORTCODE, {
    shortCode: SANDBOX_SHORTCODE,
    responseType: "Completed",
    confirmationUrl: `${server.origin}/hotspot/mpesa/${callback_key}/c2b/confirmation`,
    validationUrl: `${server.origin}/hotspot/mpesa/${callback_key}/c2b/validation`,
  });
  return { org, ...network, planId: plan.id };
}
type World = Awaited<ReturnType<typeof world>>;

const visit = async (w: World, clientMac = randomMac()) =>
  (await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, clientMac)}`)).token!;
const claim = (token: string, code: string) => postForm(server.origin, "/connect/mpesa/receipt", { token, mpesa_receipt: code });
const follow = (location: string) => fetch(`${server.origin}${location}`, { redirect: "manual" });
const subscriptionsOf = (orgId: number) => db.selectFrom("subscriptions").selectAll().where("organization_id", "=", orgId).execute();
const claimOf = (code: string) => db.selectFrom("mpesa_receipt_claims").selectAll().where("receipt", "=", code).executeTakeFirst();

/** A customer pays the paybill from the phone's menu: Daraja's C2B Simulate, as a script calls it. */
async function payPaybill(amount: number, msisdn: string): Promise<string> {
  const auth = await fetch(`${fake.url}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: {
      Authorization: `Basic ${Buffer.from(`${DEMO_CREDENTIALS.consumerKey}:${DEMO_CREDENTIALS.consumerSecret}`).toString("base64")}`,
    },
  });
  const { access_token } = (await auth.json()) as { access_token: string };
  const before = new Set(fake.payments.keys());
  const res = await fetch(`${fake.url}/mpesa/c2b/v1/simulate`, {
    method: "POST",
    headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      ShortCode: SANDBOX_SHORTCODE,
      CommandID: "CustomerPayBillOnline",
      Amount: amount,
      Msisdn: msisdn,
      BillRefNumber: "WIFI",
    }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ ResponseCode: "0" });
  await fake.idle();
  const code = [...fake.payments.keys()].find((k) => !before.has(k))!;
  expect(code).toMatch(/^[A-Z0-9]{10}$/);
  return code;
}

describe("claiming a paybill payment by its receipt", () => {
  it("gives the plan its amount pays once, to the first device; another device or organisation is refused", async () => {
    const w = await world();
    const payer = phone();
    const code = await payPaybill(50, payer);
    // The C2B confirmation came in and was recorded (Mlango's confirmation endpoint).
    const recorded = await db.selectFrom("mpesa_transactions").selectAll().where("transaction_id", "=", code).executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ organization_id: w.org.id, source: "c2b", amount: 50, phone_number: payer });

    const token = await visit(w);
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain('action="/connect/mpesa/receipt"');
    expect(page).toContain("M-Pesa code");
    // Typed as people type it: lower case, with spaces.
    const granted = await claim(token, ` ${code.slice(0, 5).toLowerCase()} ${code.slice(5)} `);
    expect(granted.status).toBe(303);
    expect(granted.headers.get("location")!.startsWith(GRANT_URL)).toBe(true);
    const subs = await subscriptionsOf(w.org.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: "Active", service_plan_id: w.planId, source: "mpesa", price_cents: 5000 });
    expect(await claimOf(code)).toMatchObject({ status: "granted", subscription_id: subs[0]!.id, amount: 50, phone_number: payer });
    const connection = await db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(connection.authorized_at).not.toBeNull();

    // The same receipt from another device: refused, nothing granted.
    const again = await claim(await visit(w), code);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(escapeHtml(RECEIPT_MESSAGES.used));
    // …or from a guest of another organisation.
    const other = await world();
    const elsewhere = await claim(await visit(other), code);
    expect(elsewhere.status).toBe(409);
    expect(await subscriptionsOf(w.org.id)).toHaveLength(1);
    expect(await subscriptionsOf(other.org.id)).toHaveLength(0);
  });

  it("gives a receipt claimed by five devices at once to exactly one", async () => {
    const w = await world();
    const code = await payPaybill(50, phone());
    const tokens = await Promise.all(Array.from({ length: 5 }, () => visit(w)));
    const answers = await Promise.all(tokens.map((t) => claim(t, code)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([303, 409, 409, 409, 409]);
    expect(await subscriptionsOf(w.org.id)).toHaveLength(1);
  });

  it("lists an amount no plan costs for the operator, and gives nothing", async () => {
    const w = await world();
    const payer = phone();
    const code = await payPaybill(75, payer);
    const res = await claim(await visit(w), code);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(escapeHtml(RECEIPT_MESSAGES.noPlan));
    expect(await subscriptionsOf(w.org.id)).toHaveLength(0);
    const exceptions = await db.selectFrom("payment_exceptions").selectAll().where("organization_id", "=", w.org.id).execute();
    expect(exceptions.map((e) => [e.kind, e.receipt, e.amount, e.phone_number])).toEqual([["unmatched_amount", code, 75, payer]]);
    // Claimed again (by anyone): still once, still listed once.
    expect((await claim(await visit(w), code)).status).toBe(409);
    expect(await db.selectFrom("payment_exceptions").select("id").where("organization_id", "=", w.org.id).execute()).toHaveLength(1);
  });
});

describe("claiming a receipt only Transaction Status knows", () => {
  it("asks M-Pesa, waits on a page that refreshes itself, then gives the plan once", async () => {
    const w = await world();
    const payer = phone();
    const code = receipt("RT");
    // Paid to the paybill, but its confirmation never reached Mlango.
    fake.payments.set(code, { amount: 50, phone: payer, shortCode: SANDBOX_SHORTCODE, reversed: false });
    fake.resultDelayMs = 300;
    const token = await visit(w);
    const started = await claim(token, code);
    expect(started.status).toBe(303);
    const location = started.headers.get("location")!;
    expect(location).toMatch(/^\/connect\/mpesa\/receipt\/wait\?token=.+&claim=\d+$/);
    const waiting = await follow(location);
    expect(waiting.status).toBe(200);
    expect(waiting.headers.get("refresh")).toMatch(/^3;url=\/connect\/mpesa\/receipt\/wait\?/);
    expect(await waiting.text()).toContain(`We are asking M-Pesa about ${code}.`);
    const asked = fake.asyncRequests.filter((r) => r.kind === "status" && r.body.TransactionID === code);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body).toMatchObject({ CommandID: "TransactionStatusQuery", PartyA: SANDBOX_SHORTCODE, IdentifierType: "4" });
    // Another device while it is being checked: held, and told so (not "used": M-Pesa may still refuse it).
    const meanwhile = await claim(await visit(w), code);
    expect(meanwhile.status).toBe(409);
    expect(await meanwhile.text()).toContain(escapeHtml(RECEIPT_MESSAGES.checking));
    await fake.idle();
    fake.resultDelayMs = 20;
    const done = await follow(location);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")!.startsWith(GRANT_URL)).toBe(true);
    expect(await subscriptionsOf(w.org.id)).toHaveLength(1);
    // Recorded as the paybill payment it is (transactions list, refunds).
    const recorded = await db.selectFrom("mpesa_transactions").selectAll().where("transaction_id", "=", code).executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ organization_id: w.org.id, source: "c2b", amount: 50, phone_number: payer });
    // Once: another device is refused at once, without asking M-Pesa again.
    expect((await claim(await visit(w), code)).status).toBe(409);
    expect(fake.asyncRequests.filter((r) => r.kind === "status" && r.body.TransactionID === code)).toHaveLength(1);
  });

  it("refuses a made-up receipt (M-Pesa does not know it) and a malformed one", async () => {
    const w = await world();
    const token = await visit(w);
    const malformed = await claim(token, "QWE-12");
    expect(malformed.status).toBe(422);
    expect(await malformed.text()).toContain(escapeHtml(RECEIPT_MESSAGES.format));
    const made = receipt("ZZ");
    const started = await claim(token, made);
    expect(started.status).toBe(303);
    await fake.idle();
    const answer = await follow(started.headers.get("location")!);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(escapeHtml(RECEIPT_MESSAGES.unknown));
    expect(await claimOf(made)).toMatchObject({ status: "refused" });
    expect(await subscriptionsOf(w.org.id)).toHaveLength(0);
    const connection = await db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(connection.authorized_at).toBeNull();
  });

  it("refuses the receipt of an STK purchase that already gave its plan, with or without the receipt on record", async () => {
    const w = await world();
    const now = Date.now();
    const payer = phone();
    const base = {
      organization_id: w.org.id,
      source: "stk" as const,
      status: 1 as const,
      phone_number: payer,
      amount: 50,
      short_code: SANDBOX_SHORTCODE,
      completed_at: now,
      created_at: now,
      updated_at: now,
    };
    // Settled by its callback: the receipt is on record.
    const withReceipt = receipt("RS");
    await db
      .insertInto("mpesa_transactions")
      .values({ ...base, transaction_id: withReceipt })
      .execute();
    const refused = await claim(await visit(w), withReceipt);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(escapeHtml(RECEIPT_MESSAGES.used));
    // Settled by the STK query alone: no receipt on record, but M-Pesa knows it (same phone, same amount).
    const queried = await db
      .insertInto("mpesa_transactions")
      .values({ ...base, transaction_id: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const code = receipt("RQ");
    fake.payments.set(code, { amount: 50, phone: payer, shortCode: SANDBOX_SHORTCODE, reversed: false });
    const started = await claim(await visit(w), code);
    expect(started.status).toBe(303);
    await fake.idle();
    const answer = await follow(started.headers.get("location")!);
    expect(await answer.text()).toContain(escapeHtml(RECEIPT_MESSAGES.used));
    expect(await subscriptionsOf(w.org.id)).toHaveLength(0);
    const attached = await db
      .selectFrom("mpesa_transactions")
      .select("transaction_id")
      .where("id", "=", queried.id)
      .executeTakeFirstOrThrow();
    expect(attached.transaction_id).toBe(code);
    expect((await claim(await visit(w), code)).status).toBe(409);
  });
});

describe("receipt codes are throttled", () => {
  it("refuses guessing after five codes on a connection and ten on a device, even the right code", async () => {
    const w = await world();
    const code = await payPaybill(50, phone());
    const mac = randomMac();
    const guess = (token: string, i: number) => claim(token, `GUESS${String(i).padStart(5, "0")}`); // made up: M-Pesa is asked for each
    const first = await visit(w, mac);
    for (let i = 0; i < LIMITS.receiptPerConnection.max; i++) expect((await guess(first, i)).status).toBe(303);
    const throttled = await guess(first, 99);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await throttled.text()).toContain(escapeHtml("Too many M-Pesa codes were tried on this device."));
    // Even the right code waits: a throttled attempt is refused before the code is looked at.
    expect((await claim(first, code)).status).toBe(429);
    // Reconnecting does not start again: the device has had 7 of its 10; the fourth more is refused.
    const second = await visit(w, mac);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(second, 100 + i)).status);
    expect(statuses).toEqual([303, 303, 303, 429]);
    expect((await claim(second, code)).status).toBe(429);
    await fake.idle();
    expect(await subscriptionsOf(w.org.id)).toHaveLength(0);
    expect(await claimOf(code)).toBeUndefined();
    // Another device on the same network is not held back by this one.
    expect((await claim(await visit(w), code)).status).toBe(303);
  });
});
