// Issue 35 items 3, 4, 5 and 8 on SQLite and PostgreSQL, at the services: the sign-up fields a
// network asks (phone only signs up without e-mail, the spec's messages where a field is required),
// the generated notice naming the recipients configured, anonymisation keeping the figures
// (idempotent, by retention and by request), the broadcast SMS's stop line and captive webviews.
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { isEmbeddedWebview, providersRefusing } from "~/lib/embedded-browser";
import { SMS_STOP_LINE, withStopLine } from "~/lib/schemas/broadcasts";
import { checkSignup, signupNeeded, SIGNUP_MESSAGES, signupSchema } from "~/lib/schemas/portal";
import { anonymiseCustomers, anonymiseExpired, heldRecords, requestErasure } from "~/services/portal/guest-data.server";
import { noticeFacts, privacyNotice } from "~/services/portal/privacy.server";
import { runDueJobs } from "~/services/jobs/index.server";
import { buildConnection, buildCustomer, buildDevice } from "~/tools/factories.server";
import { makeOrg } from "../fixtures";
import { makeNetwork } from "../fixtures/portal";

const DAY = 86_400_000;
const none = { first_name: null, last_name: null, email_address: null, phone_number: null };

async function guest(orgId: number, venueId: number, phone: string, visitAt: number) {
  const customer = await db
    .insertInto("customers")
    .values(
      buildCustomer(orgId, {
        phone_number: phone,
        first_name: "Amina",
        last_name: "Otieno",
        email_address: "amina@example.com",
        created_at: visitAt,
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  const device = await db
    .insertInto("devices")
    .values(buildDevice(orgId, { customer_id: customer.id, brand: "Tecno", browser: "Chrome" }))
    .returning(["id", "mac_address"])
    .executeTakeFirstOrThrow();
  await db
    .insertInto("connections")
    .values(
      buildConnection(orgId, {
        venue_id: venueId,
        customer_id: customer.id,
        device_id: device.id,
        created_at: visitAt,
        client_ip: "10.0.0.9",
        upload: 100,
        download: 900,
      }),
    )
    .execute();
  return { customerId: customer.id, deviceId: device.id, mac: device.mac_address };
}

describe("sign-up fields", () => {
  it("signs up a phone-only network's guest without e-mail, keeping the spec's message where phone is required", () => {
    const fields = { phone: "required", email: "off", names: "off" } as const;
    const input = signupSchema.parse({ phone_number: "0712 345 678", email_address: "typed@example.com" });
    const { errors, details } = checkSignup(input, none, fields);
    expect(errors).toEqual({});
    expect(details).toMatchObject({ phone_number: "+254712345678", email_address: null, first_name: null });
    expect(checkSignup(signupSchema.parse({}), none, fields).errors).toEqual({ phone_number: [SIGNUP_MESSAGES.phoneRequired] });
    expect(signupNeeded(fields, none)).toBe(true);
    expect(signupNeeded(fields, { ...none, phone_number: "+254712345678" })).toBe(false);
    // Everything required (the default) keeps the spec's messages word for word.
    expect(checkSignup(signupSchema.parse({}), none).errors).toMatchObject({
      email_address: ["Email address is required."],
      phone_number: ["Phone number is required."],
    });
    // Optional e-mail: not required, still checked when typed.
    const optional = { phone: "required", email: "optional", names: "optional" } as const;
    expect(checkSignup(signupSchema.parse({ phone_number: "0712345678", email_address: "nope" }), none, optional).errors).toEqual({
      email_address: [SIGNUP_MESSAGES.emailInvalid],
    });
  });
});

describe("the privacy notice", () => {
  it("lists the recipients the organisation configured, and its version changes with them", async () => {
    const { org } = await makeOrg(`Notice ${Math.random()}`);
    const { venue } = await makeNetwork(org.id, { signup_email: "off" });
    const before = privacyNotice((await noticeFacts(org.id, venue.id))!);
    const text = JSON.stringify(before.sections);
    expect(text).not.toContain("Africa's Talking");
    expect(text).not.toContain("e-mail address (if");
    expect(text).toContain("MAC address");
    expect(text).toContain("730 days");
    await db
      .insertInto("sms_settings")
      .values({
        organization_id: org.id,
        provider: "africastalking",
        username: "u",
        api_key: "x",
        sender_id: null,
        messages_per_second: 5,
        callback_key: `k${Math.random()}`,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await db
      .insertInto("ad_campaigns")
      .values({
        organization_id: org.id,
        name: "C",
        client_name: "Java House Ads",
        revenue_cents: 0,
        activate_at: 0,
        expire_at: null,
        paused: 0,
        all_networks: 1,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    const after = privacyNotice((await noticeFacts(org.id, venue.id))!);
    const recipients = after.sections.find((s) => s.heading === "Who receives it")!.items.join(" ");
    expect(recipients).toContain("Africa's Talking");
    expect(recipients).toContain("Java House Ads");
    expect(after.version).not.toBe(before.version);
  });
});

describe("anonymisation", () => {
  it("clears expired guests' personal data once, keeping their connections and usage; recent guests stay", async () => {
    const { org } = await makeOrg(`Retention ${Math.random()}`);
    const { venue } = await makeNetwork(org.id);
    await db.updateTable("organizations").set({ retention_days: 30 }).where("id", "=", org.id).execute();
    const now = Date.now();
    const old = await guest(org.id, venue.id, "+254700000001", now - 40 * DAY);
    const recent = await guest(org.id, venue.id, "+254700000002", now - 5 * DAY);
    expect(await anonymiseExpired(now)).toBeGreaterThanOrEqual(1);
    const gone = await db.selectFrom("customers").selectAll().where("id", "=", old.customerId).executeTakeFirstOrThrow();
    expect(gone).toMatchObject({ first_name: null, last_name: null, phone_number: null, email_address: null });
    expect(gone.identity).toBe(`anonymised-${old.customerId}`);
    expect(gone.anonymised_at).not.toBeNull();
    const device = await db.selectFrom("devices").selectAll().where("id", "=", old.deviceId).executeTakeFirstOrThrow();
    expect(device.mac_address).not.toBe(old.mac);
    expect(device.brand).toBeNull();
    const conns = await db.selectFrom("connections").selectAll().where("customer_id", "=", old.customerId).execute();
    expect(conns).toHaveLength(1);
    expect(Number(conns[0].upload) + Number(conns[0].download)).toBe(1000);
    expect(conns[0].client_ip).toBeNull();
    const kept = await db.selectFrom("customers").selectAll().where("id", "=", recent.customerId).executeTakeFirstOrThrow();
    expect(kept.phone_number).toBe("+254700000002");
    // Idempotent: a second run changes nothing.
    const stamp = gone.anonymised_at;
    await anonymiseExpired(now + 1000);
    expect(
      (await db.selectFrom("customers").select("anonymised_at").where("id", "=", old.customerId).executeTakeFirstOrThrow()).anonymised_at,
    ).toBe(stamp);
    expect(await anonymiseCustomers(org.id, [old.customerId])).toBe(0);
  });

  it("deletes a guest on request through the job queue, figures kept", async () => {
    const { org } = await makeOrg(`Erase ${Math.random()}`);
    const { venue } = await makeNetwork(org.id);
    const g = await guest(org.id, venue.id, "+254700000003", Date.now());
    expect((await heldRecords(org.id, "+254700000003"))[0]).toMatchObject({ visits: 1, bytes: 1000, firstName: "Amina" });
    expect(await requestErasure(org.id, "+254700000003")).toBe(1);
    await runDueJobs();
    expect(await heldRecords(org.id, "+254700000003")).toEqual([]);
    const row = await db.selectFrom("customers").selectAll().where("id", "=", g.customerId).executeTakeFirstOrThrow();
    expect(row.erasure_requested_at).not.toBeNull();
    expect(row.anonymised_at).not.toBeNull();
    expect(await db.selectFrom("connections").select("id").where("customer_id", "=", g.customerId).execute()).toHaveLength(1);
  });
});

describe("broadcast SMS and captive browsers", () => {
  it("ends every broadcast SMS with the stop line the inbound callback honours", () => {
    expect(withStopLine("Half price today")).toBe(`Half price today\n${SMS_STOP_LINE}`);
    expect(withStopLine(`Offer\n${SMS_STOP_LINE}\n`)).toBe(`Offer\n${SMS_STOP_LINE}`);
  });

  it("tells iOS and Android captive sheets from browsers, and leaves Google out there", () => {
    const ios = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
    const android =
      "Mozilla/5.0 (Linux; Android 13; SM-A135F Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0 Mobile Safari/537.36";
    const safari =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
    const chrome = "Mozilla/5.0 (Linux; Android 13; SM-A135F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36";
    expect(isEmbeddedWebview(ios)).toBe(true);
    expect(isEmbeddedWebview(android)).toBe(true);
    expect(isEmbeddedWebview("CaptiveNetworkSupport-443.40.1 wispr")).toBe(true);
    expect(isEmbeddedWebview(safari)).toBe(false);
    expect(isEmbeddedWebview(chrome)).toBe(false);
    expect(providersRefusing(android, ["fb", "google"])).toEqual(["google"]);
    expect(providersRefusing(chrome, ["fb", "google"])).toEqual([]);
  });
});
