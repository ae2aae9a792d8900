// Dispatching broadcast schedules on the job queue (decision 0018): who
// receives, exactly once with two workers and after crashes, the SMS rate, retries, failures, the
// schedule's status, and the mail's unsubscribe headers (through a real SMTP conversation).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildCustomer } from "~/tools/factories.server";
import type { BroadcastChannel } from "~/db/schema";
import { EMPTY_FILTERS } from "~/lib/schemas/group-filters";
import { runDueJobs } from "~/services/jobs/index.server";
import { DISPATCH_MESSAGES, runDispatchJob, scheduleDispatch } from "~/services/marketing/dispatch.server";
import { claimDeliveries, LeaseLost, markSent, recordOutcomes } from "~/services/marketing/dispatch/deliveries.server";
import { runSendJob, smsSenders } from "~/services/marketing/dispatch/sender.server";
import { DISPATCH_TUNING } from "~/services/marketing/dispatch/tuning.server";
import { closeHeldSmtp, sendHeldMail } from "~/services/marketing/dispatch/held-smtp.server";
import { optOut } from "~/services/marketing/consent.server";
import type { SmsProvider, SmsSendResult } from "~/services/marketing/sms/provider.server";
import { africasTalking } from "~/services/marketing/sms/africastalking.server";
import { createFakeAfricasTalking, DEMO_AT_CREDENTIALS } from "../../scripts/fakes/africastalking";
import { makeOrg } from "../fixtures";
import { startTestSmtp } from "../fixtures/smtp";

const smtp = await startTestSmtp();
process.env.SMTP_URL = smtp.url;
const realLookup = smsSenders.lookup;
const tuning = { ...DISPATCH_TUNING };

beforeAll(() => {
  DISPATCH_TUNING.sliceMs = 2_000; // short slices (one second of sending): the tests wait for the next one
});
afterEach(() => {
  smsSenders.lookup = realLookup;
  Object.assign(DISPATCH_TUNING, tuning, { sliceMs: 2_000 });
  smtp.refuse = false;
});
afterAll(async () => {
  closeHeldSmtp();
  await smtp.close();
});

/** A stand-in SMS provider that records each request with its time, taking it as a provider does: once whole (after the commit). */
function fakeSms(answer: (to: string) => Partial<SmsSendResult> = () => ({}), stagingMs = () => 0) {
  const calls: { at: number; to: string[]; text: string }[] = [];
  const provider: SmsProvider = {
    async send({ to, text }, commit) {
      await new Promise((r) => setTimeout(r, stagingMs())); // the request on its way (a slow network)
      await commit?.();
      calls.push({ at: Date.now(), to, text });
      return to.map((n) => ({
        to: n,
        status: "sent",
        messageId: `ATXid_${n}`,
        cost: "KES 0.8000",
        error: null,
        retryable: false,
        ...answer(n),
      }));
    },
  };
  return { provider, calls, sent: () => calls.flatMap((c) => c.to) };
}

function useSms(provider: SmsProvider, messagesPerSecond = 1_000) {
  smsSenders.lookup = async () => ({ provider, from: "MLANGO", messagesPerSecond });
}

/**
 * Runs due jobs until no delivery row is left queued and no dispatch is waiting, sleeping until the
 * next job when needed; with `skipTime`, backoffs and leases are over at once instead (timePasses).
 * (A send job for a slice far ahead, left by a sender that saw another's rows in flight, is a no-op.)
 */
async function drain({ skipTime = false, maxMs = 20_000 } = {}) {
  const until = Date.now() + maxMs;
  for (;;) {
    await runDueJobs();
    const queued = await db
      .selectFrom("broadcast_deliveries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "queued")
      .executeTakeFirstOrThrow();
    const dispatches = await db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "queued")
      .where("type", "=", "broadcast.dispatch")
      .executeTakeFirstOrThrow();
    if (Number(queued.n) === 0 && Number(dispatches.n) === 0) return;
    const next = await db
      .selectFrom("jobs")
      .select((eb) => eb.fn.min("run_at").as("at"))
      .where("status", "=", "queued")
      .where("type", "like", "broadcast.%")
      .executeTakeFirst();
    if (Date.now() > until) throw new Error("broadcast messages still queued");
    if (skipTime) await timePasses();
    else await new Promise((resolve) => setTimeout(resolve, Math.min(3_000, Math.max(5, Number(next?.at ?? 0) - Date.now()))));
  }
}

let seq = 0;
async function customer(orgId: number, fields: { email?: string | null; phone?: string | null; consent?: boolean } = {}) {
  const n = ++seq;
  const row = buildCustomer(orgId, {
    email_address: fields.email === undefined ? `guest${n}.${orgId}@example.test` : fields.email,
    phone_number: fields.phone === undefined ? `+2547${String(10_000_000 + n * 7 + orgId).slice(-8)}` : fields.phone,
    first_name: `Guest${n}`,
    marketing_opt_in_at: fields.consent === false ? null : Date.now(),
  });
  return db.insertInto("customers").values(row).returning(["id", "email_address", "phone_number"]).executeTakeFirstOrThrow();
}

async function group(orgId: number, name = "Everyone") {
  const now = Date.now();
  return db
    .insertInto("customer_groups")
    .values({
      organization_id: orgId,
      name,
      description: null,
      filters: JSON.stringify(EMPTY_FILTERS),
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

async function schedule(
  orgId: number,
  channel: BroadcastChannel,
  groupIds: (number | null)[],
  content: { sms?: string | null; html?: string | null; text?: string | null } = {},
) {
  const now = Date.now();
  const broadcast = await db
    .insertInto("broadcasts")
    .values({
      organization_id: orgId,
      title: "Weekend offer",
      description: null,
      sms: content.sms === undefined ? "Half price coffee this weekend" : content.sms,
      email_html:
        content.html === undefined
          ? '<html><body><h1>Half price</h1><p>Coffee &amp; cake, <a href="https://cafe.test/menu">see the menu</a>.</p></body></html>'
          : content.html,
      email_text: content.text === undefined ? null : content.text,
      email_design: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto("broadcast_schedules")
    .values({
      organization_id: orgId,
      broadcast_id: broadcast.id,
      channel,
      dispatch_at: now,
      status: "Scheduled",
      started_at: null,
      finished_at: null,
      error: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const groupId of groupIds)
    await db.insertInto("broadcast_schedule_groups").values({ schedule_id: row.id, group_id: groupId, group_name: "g" }).execute();
  await scheduleDispatch(row.id, now);
  return row.id;
}

const scheduleRow = (id: number) =>
  db
    .selectFrom("broadcast_schedules")
    .select(["status", "error", "started_at", "finished_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const deliveries = (scheduleId: number) =>
  db
    .selectFrom("broadcast_deliveries")
    .select(["customer_id", "channel", "address", "status", "attempts", "error", "provider_message_id", "cost"])
    .where("schedule_id", "=", scheduleId)
    .orderBy("id")
    .execute();
const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
async function timePasses() {
  // What the leases and backoffs would do after their time: everything in flight is due again.
  await db.updateTable("jobs").set({ locked_until: 0 }).where("status", "=", "running").execute();
  await db.updateTable("jobs").set({ run_at: 0 }).where("status", "=", "queued").execute();
  await db.updateTable("broadcast_deliveries").set({ next_attempt_at: 0 }).where("status", "=", "queued").execute();
}

describe("who receives a broadcast", () => {
  it("reaches each consenting customer of any chosen group once per channel, with that channel's address", async () => {
    const { org } = await makeOrg();
    const { org: other } = await makeOrg("Other Cafe");
    const sms = fakeSms();
    useSms(sms.provider);
    const both = await customer(org.id);
    const emailOnly = await customer(org.id, { phone: null });
    const phoneOnly = await customer(org.id, { email: null });
    await customer(org.id, { consent: false });
    const optedOut = await customer(org.id);
    await optOut(org.id, optedOut.id, "sms-stop");
    await customer(other.id); // another organisation's guest, same filters
    const [g1, g2] = [await group(org.id, "Regulars"), await group(org.id, "Visitors")];
    const id = await schedule(org.id, "BOTH", [g1.id, g2.id, null]); // in two groups; one group deleted since
    await drain();

    const rows = await deliveries(id);
    expect(
      rows
        .filter((r) => r.channel === "EMAIL")
        .map((r) => r.customer_id)
        .sort(),
    ).toEqual([both.id, emailOnly.id].sort());
    expect(
      rows
        .filter((r) => r.channel === "SMS")
        .map((r) => r.customer_id)
        .sort(),
    ).toEqual([both.id, phoneOnly.id].sort());
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(sms.sent().sort()).toEqual([both.phone_number, phoneOnly.phone_number].sort());
    expect(rows.find((r) => r.channel === "SMS" && r.customer_id === both.id)).toMatchObject({
      provider_message_id: `ATXid_${both.phone_number}`,
      cost: "KES 0.8000",
    });
    expect(mailsTo(both.email_address!)).toHaveLength(1);
    expect(mailsTo(emailOnly.email_address!)).toHaveLength(1);
    const s = await scheduleRow(id);
    expect(s).toMatchObject({ status: "Sent", error: null });
    expect(Number(s.finished_at)).toBeGreaterThanOrEqual(Number(s.started_at));
  });

  it("sends nothing for a schedule cancelled before its job starts", async () => {
    const { org } = await makeOrg();
    await customer(org.id);
    const id = await schedule(org.id, "EMAIL", [(await group(org.id)).id]);
    await db.updateTable("broadcast_schedules").set({ status: "Cancelled" }).where("id", "=", id).execute();
    await drain();
    expect(await deliveries(id)).toEqual([]);
    expect((await scheduleRow(id)).status).toBe("Cancelled");
  });

  it("fails a schedule that asks for SMS with no SMS provider set up, sending nothing", async () => {
    const { org } = await makeOrg();
    const c = await customer(org.id);
    const id = await schedule(org.id, "BOTH", [(await group(org.id)).id]);
    await drain();
    expect(await scheduleRow(id)).toMatchObject({ status: "Failed", error: DISPATCH_MESSAGES.noSmsProvider });
    expect(await deliveries(id)).toEqual([]);
    expect(mailsTo(c.email_address!)).toEqual([]);
  });

  it("fails a schedule whose broadcast has no text for the channel", async () => {
    const { org } = await makeOrg();
    useSms(fakeSms().provider);
    await customer(org.id);
    const g = await group(org.id);
    const noSms = await schedule(org.id, "SMS", [g.id], { sms: " " });
    const noMail = await schedule(org.id, "EMAIL", [g.id], { html: null, text: null });
    await drain();
    expect(await scheduleRow(noSms)).toMatchObject({ status: "Failed", error: DISPATCH_MESSAGES.noSms });
    expect(await scheduleRow(noMail)).toMatchObject({ status: "Failed", error: DISPATCH_MESSAGES.noEmail });
  });
});

describe("exactly once", () => {
  it("sends each message once with two workers working the jobs, and two senders claiming the same rows at once", async () => {
    const { org } = await makeOrg();
    DISPATCH_TUNING.smsBatch = 7;
    const sms = fakeSms();
    useSms(sms.provider);
    const people = [];
    for (let i = 0; i < 60; i++) people.push(await customer(org.id, { email: null }));
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    // Two dispatches of the same schedule at once (a second instance), then two senders on one slice.
    await Promise.all([runDispatchJob({ scheduleId: id }), runDispatchJob({ scheduleId: id })]);
    expect(await deliveries(id)).toHaveLength(60);
    const slice = Math.floor(Date.now() / DISPATCH_TUNING.sliceMs);
    await Promise.all([
      runSendJob({ organizationId: org.id, channel: "SMS", slice }),
      runSendJob({ organizationId: org.id, channel: "SMS", slice }),
      Promise.all([runDueJobs(), runDueJobs()]),
    ]);
    await drain();
    expect(sms.sent().sort()).toEqual(people.map((p) => p.phone_number).sort());
    expect((await scheduleRow(id)).status).toBe("Sent");
  });

  /** 35 SMS in batches of 10; the stand-in provider takes the first request, and the worker dies during the second as `dies` says. */
  async function workerDiesDuringSecondRequest(dies: (commit: () => Promise<void>, to: string[], accepted: string[]) => Promise<void>) {
    const { org } = await makeOrg();
    DISPATCH_TUNING.smsBatch = 10;
    const people = [];
    for (let i = 0; i < 35; i++) people.push(await customer(org.id, { email: null }));
    const accepted: string[] = [];
    let calls = 0;
    useSms({
      send: async ({ to }, commit) => {
        calls++;
        if (calls === 2) {
          await dies(commit!, to, accepted);
          return new Promise<SmsSendResult[]>(() => {}); // the worker is gone: nothing more happens
        }
        await commit!();
        accepted.push(...to);
        return to.map((n) => ({ to: n, status: "sent" as const, messageId: `m-${n}`, cost: null, error: null, retryable: false }));
      },
    });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    void runDueJobs(); // the worker that dies
    for (let i = 0; i < 1_000 && calls < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(2);
    await new Promise((r) => setTimeout(r, 50));

    // Another worker, once the leases are over.
    const sms = fakeSms();
    useSms(sms.provider);
    await timePasses();
    await drain();
    return { id, people, accepted, resent: sms.sent() };
  }

  it("resumes after a worker died before its request was whole: the provider never had that batch, so every message goes exactly once", async () => {
    // The request's last byte waits for the commit; the worker dies before committing, so the
    // provider (which acts only on whole requests) got nothing of the second batch.
    const { id, people, accepted, resent } = await workerDiesDuringSecondRequest(() => Promise.resolve());
    expect(accepted).toHaveLength(10);
    const all = [...accepted, ...resent];
    expect(all.sort()).toEqual(people.map((p) => p.phone_number).sort()); // each number once, none twice
    expect((await deliveries(id)).every((r) => r.status === "sent")).toBe(true);
    expect((await scheduleRow(id)).status).toBe("Sent");
  });

  it("resumes after a worker died once its batch was recorded and sent: that batch is not sent again", async () => {
    // The worker commits, the last byte goes and the provider takes the batch; the worker dies before the answer.
    const { id, people, accepted, resent } = await workerDiesDuringSecondRequest(async (commit, to, accepted) => {
      await commit();
      accepted.push(...to);
    });
    expect(accepted).toHaveLength(20);
    const all = [...accepted, ...resent];
    expect(all.sort()).toEqual(people.map((p) => p.phone_number).sort());
    const rows = await deliveries(id);
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    // The second batch is recorded as sent without the provider's answer (its message ids never came).
    expect(rows.filter((r) => r.provider_message_id === null)).toHaveLength(10);
    expect((await scheduleRow(id)).status).toBe("Sent");
  });

  it("through Africa's Talking over HTTP: a refusal after the whole request (429) is tried again, a late answer is not", async () => {
    const at = await createFakeAfricasTalking({ callbackUrl: null });
    try {
      const { org } = await makeOrg();
      const people = [];
      for (let i = 0; i < 3; i++) people.push(await customer(org.id, { email: null }));
      // A generous timeout here: on a loaded machine the commit alone can take a few hundred ms.
      useSms(africasTalking({ baseUrl: at.url, ...DEMO_AT_CREDENTIALS, timeoutMs: 10_000 }));
      // The bucket is in debt for minutes: the broadcast's request is refused, whole, with a 429.
      // Once its one token has come (within a second), a request for two numbers takes it and leaves
      // the bucket 1.99 tokens in debt at 0.01 a second.
      at.rateLimitPerSecond = 0.01;
      let inDebt = false;
      for (let i = 0; i < 50 && !inDebt; i++) {
        inDebt = await africasTalking({ baseUrl: at.url, ...DEMO_AT_CREDENTIALS })
          .send({ to: ["+254700000001", "+254700000002"], text: "drain", from: null })
          .then(
            () => true,
            () => false,
          );
        if (!inDebt) await new Promise((r) => setTimeout(r, 100));
      }
      expect(inDebt).toBe(true);
      const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
      await runDueJobs();
      for (let i = 0; i < 300 && !(await deliveries(id)).some((r) => r.error); i++) await new Promise((r) => setTimeout(r, 10));
      expect(await deliveries(id)).toEqual(
        people.map(() => expect.objectContaining({ status: "queued", attempts: 1, error: expect.stringContaining("limiting") })),
      );
      at.rateLimitPerSecond = null;
      await timePasses();
      await drain({ skipTime: true });
      const numbers = people.map((p) => p.phone_number!);
      expect(
        at.sent
          .map((m) => m.number)
          .filter((n) => numbers.includes(n))
          .sort(),
      ).toEqual([...numbers].sort());
      expect((await deliveries(id)).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);

      // The whole request went and the answer came too late: it may have been sent, so it is not sent again.
      const late = await customer(org.id, { email: null });
      at.responseDelayMs = 3_000;
      useSms(africasTalking({ baseUrl: at.url, ...DEMO_AT_CREDENTIALS, timeoutMs: 1_000 }));
      const lateId = await schedule(org.id, "SMS", [(await group(org.id, "Late")).id]);
      await db.deleteFrom("broadcast_schedule_groups").where("schedule_id", "=", lateId).execute();
      await db
        .insertInto("broadcast_schedule_groups")
        .values({ schedule_id: lateId, group_id: (await group(org.id, "One")).id, group_name: "g" })
        .execute();
      await drain({ skipTime: true });
      await new Promise((r) => setTimeout(r, 2_200)); // the late answer comes and changes nothing
      const rows = await deliveries(lateId);
      expect(rows.every((r) => r.status === "failed" && /did not answer/.test(r.error ?? ""))).toBe(true);
      expect(at.sent.filter((m) => m.number === late.phone_number)).toHaveLength(1);
    } finally {
      await at.close();
    }
  });

  it("makes no second row when the dispatch dies after making the rows and runs again", async () => {
    const { org } = await makeOrg();
    const sms = fakeSms();
    useSms(sms.provider);
    for (let i = 0; i < 12; i++) await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    await runDispatchJob({ scheduleId: id }); // rows made, senders woken; say the job dies before `complete`
    await db.deleteFrom("jobs").where("type", "=", "broadcast.send").execute(); // and its wake-up was lost too
    await timePasses();
    await drain(); // the dispatch job again (it is still queued), then the senders
    expect(await deliveries(id)).toHaveLength(12);
    expect(sms.sent()).toHaveLength(12);
  });
});

describe("pace, retries and failures", () => {
  it("keeps to the organisation's messages per second as the provider receives them, one request per batch of numbers", async () => {
    const { org } = await makeOrg();
    DISPATCH_TUNING.sliceMs = 5_000;
    // Requests take 0–400 ms to reach the provider: the pace counts from when they reach it, not from the claim.
    let slow = true;
    const sms = fakeSms(undefined, () => {
      slow = !slow;
      return slow ? 0 : 400;
    });
    useSms(sms.provider, 20);
    for (let i = 0; i < 70; i++) await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    await drain();
    expect(sms.sent()).toHaveLength(70);
    expect(Math.max(...sms.calls.map((c) => c.to.length))).toBeLessThanOrEqual(20);
    // In any one second, at most 20 messages (10 ms for timers).
    for (const call of sms.calls) {
      const inWindow = sms.calls.filter((c) => c.at >= call.at && c.at < call.at + 990).reduce((n, c) => n + c.to.length, 0);
      expect(inWindow).toBeLessThanOrEqual(20);
    }
    expect(sms.calls.at(-1)!.at - sms.calls[0]!.at).toBeGreaterThanOrEqual(2_900);
    expect((await scheduleRow(id)).status).toBe("Sent");
  }, 30_000);

  it("tries a message refused for now again after a backoff, and it goes", async () => {
    const { org } = await makeOrg();
    let refuse = true;
    const sms = fakeSms(() => (refuse ? { status: "failed", messageId: null, error: "InsufficientBalance", retryable: true } : {}));
    useSms(sms.provider);
    const c = await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    await runDueJobs();
    const waiting = (await deliveries(id))[0]!;
    expect(waiting).toMatchObject({ status: "queued", attempts: 1, error: "InsufficientBalance" });
    expect((await scheduleRow(id)).status).toBe("Sending");
    refuse = false;
    await timePasses();
    await drain();
    expect((await deliveries(id))[0]).toMatchObject({ status: "sent", attempts: 2 });
    expect(sms.sent()).toEqual([c.phone_number, c.phone_number]);
    expect((await scheduleRow(id)).status).toBe("Sent");
  });

  it("ends a message refused for good, or refused on every try, as failed, and the schedule as Failed with the reason", async () => {
    const { org } = await makeOrg();
    DISPATCH_TUNING.maxAttempts = 2;
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await customer(org.id, { email: null }));
    const bad = new Set(people.slice(0, 2).map((p) => p.phone_number));
    const sms = fakeSms((n) =>
      bad.has(n)
        ? { status: "failed", error: "InvalidPhoneNumber", retryable: false }
        : { status: "failed", error: "GatewayError", retryable: true },
    );
    useSms(sms.provider);
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    await drain({ skipTime: true });
    const rows = await deliveries(id);
    expect(rows.map((r) => [r.address, r.status, r.attempts, r.error])).toEqual(
      people.map((p) =>
        bad.has(p.phone_number) ? [p.phone_number, "failed", 1, "InvalidPhoneNumber"] : [p.phone_number, "failed", 2, "GatewayError"],
      ),
    );
    const s = await scheduleRow(id);
    expect(s.status).toBe("Failed");
    expect(s.error).toMatch(/^All 4 messages failed\. /);
  });

  it("records a mailbox refused by the mail server (550) as failed without retrying it", async () => {
    const { org } = await makeOrg();
    const c = await customer(org.id, { phone: null });
    smtp.refuse = true;
    const id = await schedule(org.id, "EMAIL", [(await group(org.id)).id]);
    await drain();
    expect((await deliveries(id))[0]).toMatchObject({ customer_id: c.id, status: "failed", attempts: 1 });
    expect(await scheduleRow(id)).toMatchObject({ status: "Failed" });
  });

  it("does not send to a customer who opted out after the rows were made", async () => {
    const { org } = await makeOrg();
    const sms = fakeSms();
    useSms(sms.provider);
    const stays = await customer(org.id, { email: null });
    const leaves = await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    await runDispatchJob({ scheduleId: id });
    await optOut(org.id, leaves.id, "sms-stop");
    await drain();
    expect(sms.sent()).toEqual([stays.phone_number]);
    expect((await deliveries(id)).map((r) => r.status).sort()).toEqual(["opted_out", "sent"]);
    expect((await scheduleRow(id)).status).toBe("Sent");
  });

  it("ignores the late answer of a sender whose lease was taken over", async () => {
    const { org } = await makeOrg();
    await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    useSms(fakeSms().provider);
    await runDispatchJob({ scheduleId: id });
    const [lost] = await claimDeliveries(id, "SMS", 10);
    const [retaken] = await claimDeliveries(id, "SMS", 10, Date.now() + DISPATCH_TUNING.deliveryLeaseMs + 1);
    await recordOutcomes([[lost!, { status: "failed", error: "late", retryable: false }]]);
    expect((await deliveries(id))[0]).toMatchObject({ status: "queued", attempts: 2 });
    await recordOutcomes([[retaken!, { status: "sent", providerMessageId: "x", cost: null }]]);
    expect((await deliveries(id))[0]).toMatchObject({ status: "sent" });
  });
});

describe("recording a batch as sent", () => {
  it("records all of it or, when one row's lease was taken over, none of it", async () => {
    const { org } = await makeOrg();
    for (let i = 0; i < 3; i++) await customer(org.id, { email: null });
    const id = await schedule(org.id, "SMS", [(await group(org.id)).id]);
    useSms(fakeSms().provider);
    await runDispatchJob({ scheduleId: id });
    const claimed = await claimDeliveries(id, "SMS", 10);
    await db.updateTable("broadcast_deliveries").set({ attempts: 9 }).where("id", "=", claimed[1]!.id).execute(); // another sender's claim
    await expect(markSent(claimed)).rejects.toBeInstanceOf(LeaseLost);
    expect((await deliveries(id)).map((r) => r.status)).toEqual(["queued", "queued", "queued"]);
    await markSent([claimed[0]!, claimed[2]!]);
    expect((await deliveries(id)).map((r) => r.status)).toEqual(["sent", "queued", "sent"]);
  });
});

describe("the broadcast mail", () => {
  it("has the title as subject, both parts with the unsubscribe link, and the one-click headers", async () => {
    const { org } = await makeOrg("Java House");
    const c = await customer(org.id, { phone: null });
    const id = await schedule(org.id, "EMAIL", [(await group(org.id)).id]);
    await drain();
    const [mail] = mailsTo(c.email_address!);
    // Quoted-printable and folded headers undone.
    const raw = mail!.raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\r?\n[ \t]+/g, " ");
    expect(raw).toMatch(/^Subject: Weekend offer$/m);
    const link = /^List-Unsubscribe: <(http:\/\/localhost\/unsubscribe\/v1\.[^>]+)>$/m.exec(raw)?.[1];
    expect(link).toBeTruthy();
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(raw).toMatch(/^Message-ID: <broadcast-delivery-\d+@localhost>$/m);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    // The text part, read off the HTML, and the footer in both parts.
    expect(raw).toContain("Coffee & cake, see the menu (https://cafe.test/menu).");
    expect(raw).toContain(`To stop messages from Java House, open ${link}`);
    expect(raw).toContain(`<a href="${link}">Unsubscribe</a></p></body>`);
    expect((await deliveries(id))[0]).toMatchObject({
      status: "sent",
      provider_message_id: expect.stringMatching(/^<broadcast-delivery-\d+@localhost>$/),
    });
  });
});

describe("a mail's end waits for its record (held-smtp.server.ts)", () => {
  const mail = (to: string) => ({ to, subject: "Held", text: "Once only.", headers: { "Message-ID": `<held-${to}>` } });
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("is taken by the server only after the commit, and once", async () => {
    let atCommit = -1;
    const outcome = await sendHeldMail(mail("held-ok@example.test"), async () => {
      await wait(100);
      atCommit = mailsTo("held-ok@example.test").length;
    });
    expect(outcome).toEqual({ sent: true });
    expect(atCommit).toBe(0); // the whole message was there, but not its end
    expect(mailsTo("held-ok@example.test")).toHaveLength(1);
  });

  it("leaves the server nothing when the sender dies before the commit (its connections close mid-message)", async () => {
    let staged = false;
    void sendHeldMail(mail("held-crash@example.test"), () => {
      staged = true;
      closeHeldSmtp(); // what a killed worker's sockets do
      return new Promise<void>(() => {});
    });
    for (let i = 0; i < 200 && !staged; i++) await wait(10);
    expect(staged).toBe(true);
    await wait(200);
    expect(mailsTo("held-crash@example.test")).toHaveLength(0);
  });

  it("drops the mail unfinished when its record cannot be written, and says so", async () => {
    await expect(sendHeldMail(mail("held-refused@example.test"), () => Promise.reject(new Error("database gone")))).rejects.toThrow(
      "database gone",
    );
    await wait(200);
    expect(mailsTo("held-refused@example.test")).toHaveLength(0);
  });

  it("calls no commit for a recipient the server refuses, and reports it as not sent", async () => {
    smtp.refuse = true;
    let committed = false;
    const outcome = await sendHeldMail(mail("held-550@example.test"), async () => void (committed = true));
    expect(committed).toBe(false);
    expect(outcome).toMatchObject({ sent: false, committed: false, error: { responseCode: 550 } });
  });
});
