// What Africa's Talking POSTs back, over HTTP through the guest side's router (app/guest/routes.ts, as
// server/app.mjs mounts it), on SQLite and PostgreSQL: delivery reports (delivered, failed,
// repeated, out of order, forged ids, another organisation's key), inbound STOP replies opting out
// only that organisation's customers, bad bodies as 4xx, and the fake's reports end to end.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { smsSettingsSchema } from "~/lib/schemas/sms-settings";
import { saveSmsSettings, smsSenderFor } from "~/services/marketing/sms/settings.server";
import { createFakeAfricasTalking, DEMO_AT_CREDENTIALS } from "../../scripts/fakes/africastalking";
import { makeOrg } from "../fixtures";
import { startGuestServer, type GuestServer } from "../fixtures/guest-server";
import { postForm } from "../fixtures/portal";
import { contextOf, insertCustomer } from "../fixtures/records";

let guest: GuestServer;
let origin: string;

beforeAll(async () => {
  guest = await startGuestServer();
  origin = guest.origin;
});
afterAll(() => guest.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const deliveryPath = (key: string) => `/marketing/sms/${key}/delivery`;
const inboundPath = (key: string) => `/marketing/sms/${key}/inbound`;

/** An organisation with SMS settings and a broadcast schedule being sent. */
async function world() {
  const { org, owner } = await makeOrg(`SMS ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  expect(
    await saveSmsSettings(ctx, smsSettingsSchema.parse({ username: DEMO_AT_CREDENTIALS.username, api_key: DEMO_AT_CREDENTIALS.apiKey })),
  ).toBe("saved");
  const { callback_key } = await db
    .selectFrom("sms_settings")
    .select("callback_key")
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const broadcast = await db
    .insertInto("broadcasts")
    .values({ organization_id: org.id, title: "Weekend offer", sms: "20% off this weekend", created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const schedule = await db
    .insertInto("broadcast_schedules")
    .values({
      organization_id: org.id,
      broadcast_id: broadcast.id,
      channel: "SMS",
      dispatch_at: now,
      status: "Sending",
      started_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { org, key: callback_key, scheduleId: schedule.id };
}
type World = Awaited<ReturnType<typeof world>>;

let phoneSeq = 0;
const nextPhone = () => `+2547${String((process.pid * 7919 + ++phoneSeq * 104_729) % 100_000_000).padStart(8, "0")}`;

/** A customer and the SMS sent to them (status `sent` with the provider's message id, unless told). */
async function sentSms(w: World, fields: { status?: "queued" | "sent"; messageId?: string | null } = {}) {
  const phone = nextPhone();
  const customer = await insertCustomer(w.org.id, { phone_number: phone });
  const now = Date.now();
  const messageId = fields.messageId === undefined ? `ATXid_${Math.random().toString(16).slice(2)}` : fields.messageId;
  const row = await db
    .insertInto("broadcast_deliveries")
    .values({
      organization_id: w.org.id,
      schedule_id: w.scheduleId,
      customer_id: customer.id,
      channel: "SMS",
      address: phone,
      status: fields.status ?? "sent",
      provider_message_id: messageId,
      sent_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, phone, messageId: messageId!, customerId: customer.id };
}

const deliveryOf = (id: number) =>
  db
    .selectFrom("broadcast_deliveries")
    .select(["status", "error", "delivered_at", "updated_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const report = (key: string, fields: Record<string, string>) => postForm(origin, deliveryPath(key), fields);
const loggedEvents = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((args) => {
    try {
      return JSON.parse(String(args[0])) as Record<string, unknown>;
    } catch {
      return {};
    }
  });

describe("delivery reports", () => {
  it("marks a delivered message delivered, with the time, and answers 200", async () => {
    const w = await world();
    const sms = await sentSms(w);
    const before = Date.now();
    const res = await report(w.key, {
      id: sms.messageId,
      status: "Success",
      phoneNumber: sms.phone,
      networkCode: "63902",
      retryCount: "0",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const row = await deliveryOf(sms.id);
    expect(row).toMatchObject({ status: "delivered", error: null });
    expect(Number(row.delivered_at)).toBeGreaterThanOrEqual(before);
  });

  it("marks Failed and Rejected messages failed with the reason (or the status when none is given)", async () => {
    const w = await world();
    const failed = await sentSms(w);
    const rejected = await sentSms(w);
    expect(
      (await report(w.key, { id: failed.messageId, status: "Failed", phoneNumber: failed.phone, failureReason: "DeliveryFailure" })).status,
    ).toBe(200);
    expect((await report(w.key, { id: rejected.messageId, status: "Rejected", phoneNumber: rejected.phone })).status).toBe(200);
    expect(await deliveryOf(failed.id)).toMatchObject({ status: "failed", error: "DeliveryFailure", delivered_at: null });
    expect(await deliveryOf(rejected.id)).toMatchObject({ status: "failed", error: "Rejected" });
  });

  it("leaves a message as it is for intermediate statuses, and is idempotent when reports repeat or arrive out of order", async () => {
    const w = await world();
    const sms = await sentSms(w);
    for (const status of ["Sent", "Submitted", "Buffered", "AbsentSubscriber"]) {
      expect((await report(w.key, { id: sms.messageId, status, phoneNumber: sms.phone })).status).toBe(200);
    }
    expect(await deliveryOf(sms.id)).toMatchObject({ status: "sent", delivered_at: null });

    await report(w.key, { id: sms.messageId, status: "Success", phoneNumber: sms.phone });
    const delivered = await deliveryOf(sms.id);
    // Late ones: a repeat, an intermediate and a failure never take a delivered message back.
    const late: Record<string, string>[] = [
      { status: "Success" },
      { status: "Buffered" },
      { status: "Failed", failureReason: "DeliveryFailure" },
    ];
    for (const fields of late) {
      expect((await report(w.key, { id: sms.messageId, phoneNumber: sms.phone, ...fields })).status).toBe(200);
    }
    expect(await deliveryOf(sms.id)).toEqual(delivered);

    // Failed, then failed again (the first reason stays), then Success: the handset has it.
    const other = await sentSms(w);
    await report(w.key, { id: other.messageId, status: "Failed", phoneNumber: other.phone, failureReason: "DeliveryFailure" });
    await report(w.key, { id: other.messageId, status: "Rejected", phoneNumber: other.phone, failureReason: "UserInBlacklist" });
    expect(await deliveryOf(other.id)).toMatchObject({ status: "failed", error: "DeliveryFailure" });
    await report(w.key, { id: other.messageId, status: "Success", phoneNumber: other.phone });
    expect(await deliveryOf(other.id)).toMatchObject({ status: "delivered", error: null });
  });

  it("answers 200 but writes nothing for a forged message id, another organisation's id, or a number that is not the message's, and logs it", async () => {
    const w = await world();
    const other = await world();
    const mine = await sentSms(w);
    const theirs = await sentSms(other);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const cases: Record<string, string>[] = [
      { id: "ATXid_forged", status: "Success", phoneNumber: mine.phone },
      { id: theirs.messageId, status: "Failed", phoneNumber: theirs.phone, failureReason: "DeliveryFailure" },
      { id: mine.messageId, status: "Failed", phoneNumber: "+254799999999", failureReason: "DeliveryFailure" },
    ];
    for (const fields of cases) expect((await report(w.key, fields)).status).toBe(200);
    expect(await deliveryOf(mine.id)).toMatchObject({ status: "sent", error: null });
    expect(await deliveryOf(theirs.id)).toMatchObject({ status: "sent", error: null });
    const unknown = loggedEvents(log).filter((e) => e.event === "sms_report_unknown");
    expect(unknown).toHaveLength(3);
    expect(unknown[0]).toMatchObject({ organizationId: w.org.id, messageId: "ATXid_forged" });
    expect(JSON.stringify(unknown)).not.toContain(mine.phone);
  });

  it("answers 404 and writes nothing for an unknown or malformed callback key", async () => {
    const w = await world();
    const sms = await sentSms(w);
    for (const key of ["x".repeat(32), "short", "a%2Fb", "k".repeat(200)]) {
      const res = await report(key, { id: sms.messageId, status: "Success", phoneNumber: sms.phone });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { message: "There is no SMS callback at this address." } });
    }
    expect(await deliveryOf(sms.id)).toMatchObject({ status: "sent" });
  });

  it("refuses bodies that are not reports, hold a NUL, are malformed or too large, with a 4xx in JSON", async () => {
    const w = await world();
    const sms = await sentSms(w);
    const url = `${origin}${deliveryPath(w.key)}`;
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      fetch(url, { method: "POST", headers: { "Content-Type": type }, body });
    const cases: Array<[Promise<Response>, number]> = [
      [report(w.key, { status: "Success" }), 400],
      [report(w.key, { id: sms.messageId }), 400],
      [post(""), 400],
      [post(`id=${sms.messageId}&status=Success%00`), 400],
      [post(`id=${sms.messageId}%00&status=Success`), 400],
      [post('{"id":', "application/json"), 400],
      [post(JSON.stringify({ id: [sms.messageId], status: "Success" }), "application/json"), 400],
      [post(JSON.stringify({ id: sms.messageId, status: "Success\u0000" }), "application/json"), 400],
      [post("hello", "text/plain"), 415], // the request boundary: a type the route does not read
      [post(`id=${sms.messageId}&status=Success&pad=${"a".repeat(20_000)}`), 413],
      [
        fetch(`${origin}/marketing/sms/${w.key}%00/delivery`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: `id=${sms.messageId}&status=Success`,
        }),
        400,
      ],
    ];
    for (const [pending, status] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    }
    expect(await deliveryOf(sms.id)).toMatchObject({ status: "sent" });
    // JSON reports are read as well as forms.
    expect((await post(JSON.stringify({ id: sms.messageId, status: "Success", phoneNumber: sms.phone }), "application/json")).status).toBe(
      200,
    );
    expect(await deliveryOf(sms.id)).toMatchObject({ status: "delivered" });
  });
});

describe("inbound messages", () => {
  const consentsOf = (customerId: number) =>
    db.selectFrom("customer_consents").select(["kind", "granted", "wording_version"]).where("customer_id", "=", customerId).execute();
  const customerOf = (id: number) =>
    db.selectFrom("customers").select(["marketing_opt_in_at", "marketing_opted_out_at"]).where("id", "=", id).executeTakeFirstOrThrow();

  it("opts out every customer of that organisation with the sender's number, and no one elsewhere", async () => {
    const w = await world();
    const other = await world();
    const phone = nextPhone();
    const optedIn = { marketing_opt_in_at: Date.now() - 1000 };
    const a = await insertCustomer(w.org.id, { phone_number: phone, ...optedIn });
    const b = await insertCustomer(w.org.id, { phone_number: phone, ...optedIn });
    const neighbour = await insertCustomer(w.org.id, { phone_number: nextPhone(), ...optedIn });
    const elsewhere = await insertCustomer(other.org.id, { phone_number: phone, ...optedIn });

    // As Africa's Talking sends it: the number without "+", a lower-case word with more after it.
    const res = await postForm(origin, inboundPath(w.key), {
      from: phone.slice(1),
      to: "12345",
      text: "stop please",
      date: "2026-11-25 10:00:00",
      id: "abc",
      linkId: "def",
    });
    expect(res.status).toBe(200);
    for (const c of [a, b]) {
      expect((await customerOf(c.id)).marketing_opt_in_at).toBeNull();
      expect((await customerOf(c.id)).marketing_opted_out_at).not.toBeNull();
      expect(await consentsOf(c.id)).toEqual([{ kind: "marketing", granted: 0, wording_version: "sms-stop" }]);
    }
    for (const c of [neighbour, elsewhere])
      expect(await customerOf(c.id)).toMatchObject({ marketing_opt_in_at: optedIn.marketing_opt_in_at, marketing_opted_out_at: null });

    // A repeat (the provider sending it again, or the customer) records nothing more.
    await postForm(origin, inboundPath(w.key), { from: phone, text: "STOP" });
    expect(await consentsOf(a.id)).toHaveLength(1);
  });

  it.each(["STOP", "Stop.", "  stopall", "UNSUBSCRIBE me", "cancel", "End", "QUIT!"])("reads %j as stop", async (text) => {
    const w = await world();
    const phone = nextPhone();
    const c = await insertCustomer(w.org.id, { phone_number: phone, marketing_opt_in_at: Date.now() });
    expect((await postForm(origin, inboundPath(w.key), { from: phone, text })).status).toBe(200);
    expect((await customerOf(c.id)).marketing_opt_in_at).toBeNull();
  });

  it("ignores other texts and unknown numbers, refuses unknown keys and bad bodies", async () => {
    const w = await world();
    const phone = nextPhone();
    const c = await insertCustomer(w.org.id, { phone_number: phone, marketing_opt_in_at: Date.now() });
    for (const text of ["Please don't stop", "STOPPED", "stop-gap", ""])
      expect((await postForm(origin, inboundPath(w.key), { from: phone, text })).status).toBe(200);
    expect((await postForm(origin, inboundPath(w.key), { from: "not a number", text: "STOP" })).status).toBe(200);
    expect((await customerOf(c.id)).marketing_opt_in_at).not.toBeNull();

    expect((await postForm(origin, inboundPath("y".repeat(32)), { from: phone, text: "STOP" })).status).toBe(404);
    expect((await postForm(origin, inboundPath(w.key), { text: "STOP" })).status).toBe(400);
    expect((await postForm(origin, inboundPath(w.key), { from: phone })).status).toBe(400);
    expect((await postForm(origin, inboundPath(w.key), { from: phone, text: "STOP\0" })).status).toBe(400);
    expect((await postForm(origin, inboundPath(w.key), { from: phone, text: "STOP", pad: "a".repeat(20_000) })).status).toBe(413);
    expect((await customerOf(c.id)).marketing_opt_in_at).not.toBeNull();
  });
});

describe("with the fake Africa's Talking", () => {
  it("sends, and its delivery reports and STOP reply come back through the callback URLs", async () => {
    const w = await world();
    const delivered = await sentSms(w, { status: "queued", messageId: null });
    const failed = await sentSms(w, { status: "queued", messageId: null });
    const fake = await createFakeAfricasTalking({
      deliveryDelayMs: 50,
      callbackUrl: `${origin}${deliveryPath(w.key)}`,
      inboundUrl: `${origin}${inboundPath(w.key)}`,
      outcomeFor: { [failed.phone]: "Failed" },
    });
    try {
      const sender = (await smsSenderFor(w.org.id, { standIn: fake.url }))!;
      expect(sender).toMatchObject({ from: null, messagesPerSecond: 10 });
      const results = await sender.provider.send({ to: [delivered.phone, failed.phone], text: "20% off this weekend", from: sender.from });
      // What the dispatch does with the answer: the message ids on the rows.
      for (const [sms, result] of [
        [delivered, results[0]],
        [failed, results[1]],
      ] as const) {
        expect(result.status).toBe("sent");
        await db
          .updateTable("broadcast_deliveries")
          .set({ status: "sent", provider_message_id: result.messageId })
          .where("id", "=", sms.id)
          .execute();
      }
      await fake.idle();
      expect(fake.reportsSent.map((r) => r.status)).toEqual([200, 200]);
      expect(await deliveryOf(delivered.id)).toMatchObject({ status: "delivered" });
      expect(await deliveryOf(failed.id)).toMatchObject({ status: "failed", error: "DeliveryFailure" });

      expect(await fake.simulateInbound({ from: delivered.phone, text: "STOP" })).toMatchObject({ status: 200 });
      expect(
        await db.selectFrom("customers").select("marketing_opted_out_at").where("id", "=", delivered.customerId).executeTakeFirstOrThrow(),
      ).not.toMatchObject({ marketing_opted_out_at: null });
    } finally {
      await fake.close();
    }
  });
});
