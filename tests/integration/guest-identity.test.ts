// A plan or a customer record needs proof, not a phone number (issue 34 item 1, issue 35 items 1–2,
// decision 0086), over HTTP against the built server, the fake Daraja and the fake Africa's Talking,
// on SQLite and PostgreSQL. Each attack of the reports is performed: riding a stranger's plan by
// typing their number, taking over a customer record by signing up with their phone, guessing codes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { escapeHtml } from "~/lib/escape-html";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { smsSettingsSchema } from "~/lib/schemas/sms-settings";
import { hashToken } from "~/services/crypto.server";
import { saveSmsSettings } from "~/services/marketing/sms/settings.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { createFakeAfricasTalking, DEMO_AT_CREDENTIALS, type FakeAfricasTalking } from "../../scripts/fakes/africastalking";
import { DEMO_MPESA_FORM, type FakeDaraja } from "../../scripts/fakes/daraja";
import { makeOrg } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import type { TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, mlangoEntryPath, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let daraja: FakeDaraja;
let sms: FakeAfricasTalking;
let stop: (() => Promise<void>) | undefined;
let savedSmsUrl: string | undefined;

beforeAll(async () => {
  ({ server, fake: daraja, close: stop } = await startServerWithFakeDaraja());
  sms = await createFakeAfricasTalking();
  savedSmsUrl = getEnv().AFRICASTALKING_URL;
  getEnv().AFRICASTALKING_URL = sms.url;
});
afterAll(async () => {
  getEnv().AFRICASTALKING_URL = savedSmsUrl;
  await sms?.close();
  await stop?.();
});
beforeEach(async () => {
  await daraja.idle();
  daraja.outcome = "success";
  daraja.sendCallbacks = true;
  daraja.callbackDelayMs = 20;
});

let phoneSeq = 0;
const nextPhone = () => `07${String(20_000_000 + ((process.pid * 7919 + ++phoneSeq * 104_729) % 79_999_999)).padStart(8, "0")}`;
const e164 = (phone: string) => `+254${phone.slice(1)}`;

/** An organisation selling "Two hours" by M-Pesa, with SMS through the fake provider; `signup`: the network asks sign-up details. */
async function world(signup = false) {
  const { org, owner } = await makeOrg(`Identity ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const network = await makeNetwork(org.id, signup ? { guest_signup: 1, signup_email: "optional" } : { guest_signup: 0 });
  const plan = await createPlan(
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
      simultaneous_connections: "2",
    }),
  );
  if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
  expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
  const smsInput = smsSettingsSchema.parse({
    username: DEMO_AT_CREDENTIALS.username,
    api_key: DEMO_AT_CREDENTIALS.apiKey,
    sender_id: "",
    messages_per_second: "5",
  });
  expect(await saveSmsSettings(ctx, smsInput)).toBe("saved");
  return { org, ...network, planId: plan.id };
}
type World = Awaited<ReturnType<typeof world>>;

/** A visit through a gateway that vouches for the device's MAC (Mlango's signed entry). */
const visit = async (w: World, mac = randomMac()) => (await enter(server.origin, mlangoEntryPath(w, mac))).token!;
/** A visit through Meraki's redirect, whose client_mac anyone can write. */
const merakiVisit = async (w: World, mac = randomMac()) =>
  (await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, mac)}`)).token!;
const buy = (token: string, w: World, phone: string, more: Record<string, string> = {}) =>
  postForm(server.origin, "/connect/mpesa", { token, plan_id: String(w.planId), phone_number: phone, ...more });
const connectionOf = (token: string) =>
  db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
const deviceOf = async (token: string) =>
  db
    .selectFrom("devices")
    .selectAll()
    .where("id", "=", Number((await connectionOf(token)).device_id))
    .executeTakeFirstOrThrow();
/** The code in the newest text message to this number (as the guest reads it on their phone). */
const codeSentTo = (phone: string) => {
  const last = sms.sent.filter((m) => m.number === e164(phone)).at(-1);
  return /Your code is (\d{6})/.exec(last?.text ?? "")?.[1] ?? null;
};
const textsTo = (phone: string) => sms.sent.filter((m) => m.number === e164(phone)).length;

/** A guest pays for "Two hours" from `phone` on a new device and is online. */
async function paid(w: World, phone = nextPhone()) {
  const token = await visit(w);
  const location = (await buy(token, w, phone)).headers.get("location")!;
  expect(location).toMatch(/^\/connect\/mpesa\/wait/);
  await daraja.idle();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.origin}${location}`, { redirect: "manual" });
    if (res.status === 303) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const connection = await connectionOf(token);
  expect(connection.authorized_at).not.toBeNull();
  return { token, phone, subscriptionId: Number(connection.subscription_id) };
}

describe("a plan belongs to whoever proved they paid", () => {
  it("a stranger typing the buyer's number gets no plan: a code goes to the buyer's phone instead", async () => {
    const w = await world();
    const buyer = await paid(w);
    const pushes = daraja.stkRequests.length;
    const stranger = await visit(w);

    // The ride of the report: same form, same number, no payment.
    const ride = await buy(stranger, w, buyer.phone);
    expect(ride.status).toBe(200);
    const page = await ride.text();
    expect(page).toContain(
      escapeHtml(`This number already has a plan: we sent a code to ${buyer.phone.slice(0, 2)}…${buyer.phone.slice(-2)}.`),
    );
    expect((await connectionOf(stranger)).authorized_at).toBeNull();
    expect(daraja.stkRequests.length).toBe(pushes);
    expect(codeSentTo(buyer.phone)).toMatch(/^\d{6}$/);

    // Guessing is refused, and the buyer keeps their plan: their own device reconnects under it without a code.
    const wrong = await buy(stranger, w, buyer.phone, {
      proof: "check",
      proof_code: codeSentTo(buyer.phone) === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(422);
    expect((await connectionOf(stranger)).authorized_at).toBeNull();
    const again = await visit(w, (await deviceOf(buyer.token)).mac_address);
    const back = await buy(again, w, buyer.phone);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toContain("duration=");
    expect((await connectionOf(again)).subscription_id).toBe(buyer.subscriptionId);
  });

  it("the owner approves another device with the code: it joins, and then needs no code again", async () => {
    const w = await world();
    const buyer = await paid(w);
    const second = await visit(w);
    expect((await buy(second, w, buyer.phone)).status).toBe(200);
    const joined = await buy(second, w, buyer.phone, { proof: "check", proof_code: codeSentTo(buyer.phone)! });
    expect(joined.status).toBe(303);
    expect(joined.headers.get("location")).toContain("duration=");
    expect((await connectionOf(second)).subscription_id).toBe(buyer.subscriptionId);
    const buyerCustomer = (await connectionOf(buyer.token)).customer_id;
    expect((await deviceOf(second)).customer_id).toBe(buyerCustomer);

    // The code proved once: it does not let a third device in.
    const third = await visit(w);
    const reused = await buy(third, w, buyer.phone, { proof: "check", proof_code: codeSentTo(buyer.phone)! });
    expect(reused.status).toBe(422);
    expect((await connectionOf(third)).authorized_at).toBeNull();

    // The approved device comes back on a new connection: no code this time.
    await db.updateTable("connections").set({ ended_at: Date.now() }).where("token", "=", hashToken(second)).execute();
    const texts = textsTo(buyer.phone);
    const later = await visit(w, (await deviceOf(second)).mac_address);
    const res = await buy(later, w, buyer.phone);
    expect(res.status).toBe(303);
    expect(textsTo(buyer.phone)).toBe(texts);
  });

  it("'Pay for a new plan instead' sends a prompt of the device's own", async () => {
    const w = await world();
    const buyer = await paid(w);
    const other = await visit(w);
    expect((await buy(other, w, buyer.phone)).status).toBe(200);
    const pushes = daraja.stkRequests.length;
    const res = await buy(other, w, buyer.phone, { proof: "skip" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/connect\/mpesa\/wait/);
    expect(daraja.stkRequests.length).toBe(pushes + 1);
  });

  it("guessing codes is throttled in the database per device, and a code takes five tries at most", async () => {
    const w = await world();
    const buyer = await paid(w);
    const guesser = await visit(w);
    expect((await buy(guesser, w, buyer.phone)).status).toBe(200);
    const right = codeSentTo(buyer.phone)!;
    const wrongCode = right === "123456" ? "654321" : "123456";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await buy(guesser, w, buyer.phone, { proof: "check", proof_code: wrongCode })).status);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Five wrong tries spent the code: even the right one no longer proves (on another device, not throttled).
    const fresh = await visit(w);
    expect((await buy(fresh, w, buyer.phone, { proof: "check", proof_code: right })).status).toBe(422);
    expect((await connectionOf(fresh)).authorized_at).toBeNull();
  });

  it("codes sent to one phone are throttled: a burst of devices sends three texts at most", async () => {
    const w = await world();
    const buyer = await paid(w);
    const before = textsTo(buyer.phone);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await buy(await visit(w), w, buyer.phone)).status);
    expect(textsTo(buyer.phone) - before).toBe(3);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

describe("contact details are claimed, then proved", () => {
  const signUp = (token: string, fields: Record<string, string>) =>
    postForm(server.origin, "/connect", { token, mode: "SIGNUP", ...fields });
  const customerOf = async (token: string) =>
    db
      .selectFrom("customers")
      .selectAll()
      .where("id", "=", Number((await connectionOf(token)).customer_id))
      .executeTakeFirstOrThrow();

  it("a second sign-up with someone's phone never overwrites their record nor takes their device", async () => {
    const w = await world(true);
    const phone = nextPhone();
    const a = await visit(w);
    const first = await signUp(a, {
      first_name: "Wanjiru",
      last_name: "Kamau",
      email_address: "wanjiru@example.co.ke",
      phone_number: phone,
    });
    expect(first.status).toBe(303);
    const wanjiru = await customerOf(a);

    const b = await visit(w);
    const second = await signUp(b, {
      first_name: "Wanjiku",
      last_name: "Mwangi",
      email_address: "wanjiku@example.co.ke",
      phone_number: phone,
    });
    expect(second.status).toBe(303);
    const mine = await customerOf(b);
    expect(mine.id).not.toBe(wanjiru.id);
    expect(mine).toMatchObject({ first_name: "Wanjiku", email_address: "wanjiku@example.co.ke", phone_proved_at: null });
    expect(await db.selectFrom("customers").selectAll().where("id", "=", wanjiru.id).executeTakeFirstOrThrow()).toMatchObject({
      first_name: "Wanjiru",
      last_name: "Kamau",
      email_address: "wanjiru@example.co.ke",
    });
    expect((await deviceOf(a)).customer_id).toBe(wanjiru.id);

    // B's next visit offers B's own details, never A's.
    await db.updateTable("connections").set({ ended_at: Date.now() }).where("token", "=", hashToken(b)).execute();
    const json = await (await fetch(`${server.origin}/splash/connection/${await visit(w, (await deviceOf(b)).mac_address)}`)).json();
    expect(JSON.stringify(json)).not.toContain("Wanjiru");
    expect(JSON.stringify(json)).not.toContain("wanjiru@");
  });

  it("an e-mail address someone else has never joins their record", async () => {
    const w = await world(true);
    const a = await visit(w);
    await signUp(a, { first_name: "Amina", last_name: "Otieno", email_address: "amina@example.co.ke", phone_number: nextPhone() });
    const b = await visit(w);
    expect(
      (await signUp(b, { first_name: "Eve", last_name: "X", email_address: "amina@example.co.ke", phone_number: nextPhone() })).status,
    ).toBe(303);
    expect((await customerOf(b)).id).not.toBe((await customerOf(a)).id);
    expect((await customerOf(a)).first_name).toBe("Amina");
  });

  it("a returning guest on a new MAC proves their phone in one step and keeps their record and plan", async () => {
    const w = await world(true);
    const buyer = await paid(w); // paying proved the phone
    const owner = (await connectionOf(buyer.token)).customer_id!;
    expect(
      (await db.selectFrom("customers").select("phone_proved_at").where("id", "=", owner).executeTakeFirstOrThrow()).phone_proved_at,
    ).not.toBeNull();

    // A new MAC (randomised by the phone): a stranger to the network until the phone is proved.
    const fresh = await visit(w);
    const form = { first_name: "Juma", last_name: "Hamisi", phone_number: buyer.phone, marketing_opt_in: "on" };
    const asked = await signUp(fresh, form);
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain(escapeHtml(`Welcome back — enter the code sent to ${buyer.phone.slice(0, 2)}…${buyer.phone.slice(-2)}.`));
    // The form carries the sign-up along (no cookie): hidden fields.
    expect(page).toContain('name="first_name" value="Juma"');
    expect((await connectionOf(fresh)).authorized_at).toBeNull();

    const wrong = await signUp(fresh, { ...form, proof: "check", proof_code: "00000" });
    expect(wrong.status).toBe(422);
    const proved = await signUp(fresh, { ...form, proof: "check", proof_code: codeSentTo(buyer.phone)! });
    expect(proved.status).toBe(303);
    const connection = await connectionOf(fresh);
    expect(connection.customer_id).toBe(owner);
    expect(connection.subscription_id).toBe(buyer.subscriptionId);
    expect((await deviceOf(fresh)).customer_id).toBe(owner);
  });

  it("going on without the code keeps the details on the device's own record", async () => {
    const w = await world(true);
    const buyer = await paid(w);
    const owner = (await connectionOf(buyer.token)).customer_id!;
    const fresh = await visit(w);
    const form = { first_name: "Mallory", last_name: "X", phone_number: buyer.phone };
    expect((await signUp(fresh, form)).status).toBe(200);
    const skipped = await signUp(fresh, { ...form, proof: "skip" });
    expect(skipped.status).toBe(303);
    const connection = await connectionOf(fresh);
    expect(connection.customer_id).not.toBe(owner);
    expect(connection.subscription_id).not.toBe(buyer.subscriptionId);
    expect((await customerOf(fresh)).phone_proved_at).toBeNull();
    expect((await db.selectFrom("customers").select("first_name").where("id", "=", owner).executeTakeFirstOrThrow()).first_name).not.toBe(
      "Mallory",
    );
  });
});

describe("a MAC address from an unsigned redirect earns nothing (security-3 item 1, decision 0087)", () => {
  it("a victim's MAC in the attacker's own Meraki redirect shows no personal data and grants no plan", async () => {
    const w = await world(true);
    const victimMac = randomMac();
    // The victim signs up and pays on Meraki; their device is online.
    const first = await merakiVisit(w, victimMac);
    const phone = nextPhone();
    expect(
      (
        await postForm(server.origin, "/connect", {
          token: first,
          mode: "SIGNUP",
          first_name: "Achieng",
          last_name: "Odhiambo",
          email_address: "achieng@example.co.ke",
          phone_number: phone,
        })
      ).status,
    ).toBe(303);
    const bought = await merakiVisit(w, victimMac);
    const location = (await buy(bought, w, phone)).headers.get("location")!;
    expect(location).toMatch(/^\/connect\/mpesa\/wait/);
    // (the connection of the sign-up is online; the purchase was made on a second visit's connection)
    await daraja.idle();
    for (let i = 0; i < 100 && (await fetch(`${server.origin}${location}`, { redirect: "manual" })).status !== 303; i++)
      await new Promise((r) => setTimeout(r, 20));
    const plan = Number((await connectionOf(bought)).subscription_id);
    expect(plan).toBeGreaterThan(0);

    // The attack of the audit: the victim's MAC in the attacker's own redirect.
    const attacker = await merakiVisit(w, victimMac);
    const json = JSON.stringify(await (await fetch(`${server.origin}/splash/connection/${attacker}`)).json());
    for (const secret of ["Achieng", "Odhiambo", "achieng@", phone.slice(1), e164(phone)]) expect(json).not.toContain(secret);
    const page = await (await fetch(`${server.origin}/connect?token=${attacker}`)).text();
    for (const secret of ["Achieng", "Odhiambo", "achieng@", phone.slice(1)]) expect(page).not.toContain(secret);
    expect(page).not.toContain('value="SUBSCRIPTION"');
    // "Continue with my plan" posted anyway: refused, even while the victim is online.
    const ride = await postForm(server.origin, "/connect", { token: attacker, mode: "SUBSCRIPTION" });
    expect(ride.status).toBe(409);
    expect((await connectionOf(attacker)).subscription_id).toBeNull();
    // The victim's number typed in the M-Pesa form: a code to the victim's phone, not the plan.
    const typed = await buy(attacker, w, phone);
    expect(typed.status).toBe(200);
    expect(await typed.text()).toContain("This number already has a plan");
    expect((await connectionOf(attacker)).authorized_at).toBeNull();
    // A sign-up behind that MAC never lands on the victim's record.
    const victimCustomer = (await connectionOf(first)).customer_id!;
    expect(
      (
        await postForm(server.origin, "/connect", {
          token: await merakiVisit(w, victimMac),
          mode: "SIGNUP",
          first_name: "Mallory",
          last_name: "X",
          phone_number: nextPhone(),
        })
      ).status,
    ).toBe(303);
    expect((await db.selectFrom("customers").selectAll().where("id", "=", victimCustomer).executeTakeFirstOrThrow()).first_name).toBe(
      "Achieng",
    );
  });

  it("the same device on a make that vouches for it is recognised: its plan and details come back", async () => {
    const w = await world(true);
    const buyer = await paid(w);
    const again = await visit(w, (await deviceOf(buyer.token)).mac_address);
    const page = await (await fetch(`${server.origin}/connect?token=${again}`)).text();
    expect(page).toContain('value="SUBSCRIPTION"');
  });
});
