import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db, openDatabase } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { DAY_MS, todayIso } from "~/lib/date-range";
import * as visitorPage from "~/routes/$orgId+/reports+/$report";
import * as overviewPage from "~/routes/$orgId+/reports+/overview";
import { outboxDir } from "~/services/email.server";
import { requireOrg } from "~/services/guard.server";
import { buildReportEmail } from "~/services/report-mail.server";
import { CLAIM_LEASE_MS, claimDelivery, retryDelayMs, runDueReports } from "~/services/report-scheduler.server";
import { myReports, subscribeReport } from "~/services/report-subscriptions.server";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, run, sessionCookie } from "../fixtures";
import { TODAY_START, insertCustomer, insertVenue, insertVisit, seedVisitorStory } from "../fixtures/reports";
import { attachmentOf, startTestSmtp } from "../fixtures/smtp";
import { UTC_CLOCK } from "~/lib/time-zone";

// A real SMTP server for the whole file; the environment is read (and cached) after this line.
const smtp = await startTestSmtp();
process.env.SMTP_URL = smtp.url;

afterAll(() => smtp.close());
beforeEach(() => {
  smtp.received.length = 0;
  smtp.refuse = false;
});
afterEach(() => vi.restoreAllMocks());

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function post(
  fn: RouteFunction,
  userId: number,
  orgId: number,
  path: string,
  form: Record<string, string>,
  params: Record<string, string> = {},
) {
  const request = makeRequest(`/${orgId}/reports/${path}`, { cookie: await sessionCookie(userId), form });
  return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
}

async function ctxOf(userId: number, orgId: number) {
  return requireOrg(makeRequest(`/${orgId}`, { cookie: await sessionCookie(userId) }), { orgId: String(orgId) });
}

async function toastOf(res: Response) {
  const session = await sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0]);
  return session.get("toast");
}

const subscriptionRows = () =>
  db.selectFrom("report_subscriptions").select(["id", "user_id", "organization_id", "report", "send_at"]).orderBy("id").execute();
const deliveryRows = () =>
  db.selectFrom("report_deliveries").select(["subscription_id", "day", "status", "attempts", "next_attempt_at", "last_error"]).execute();

/** Today 18:30 UTC: the 18:00 reports of today are due. */
const T = TODAY_START + 18.5 * 3_600_000;
const TODAY = todayIso(TODAY_START);

describe("subscribing from a report page", () => {
  it("subscribes at the chosen hour, shows it, moves it, and unsubscribes", async () => {
    const { org, owner } = await makeOrg();
    const res = await post(overviewPage.action as RouteFunction, owner.id, org.id, "overview?start=2026-01-01", {
      intent: "subscribe",
      report: "overview",
      sendTime: "24",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/reports/overview?start=2026-01-01`);
    expect((await toastOf(res))?.message).toBe("You will receive the Overview report by email every day at 24:00 Hours (UTC).");
    expect(await subscriptionRows()).toMatchObject([{ user_id: owner.id, organization_id: org.id, report: "overview", send_at: 24 }]);

    const page = await run(() =>
      overviewPage.loader({
        request: makeRequest(`/${org.id}/reports/overview`, { cookie: "" }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(page.status).toBe(302); // not signed in
    const ctx = await ctxOf(owner.id, org.id);
    expect(await myReports(ctx, "overview")).toMatchObject([{ report: "overview", send_at: 24 }]);

    // Subscribing again moves the hour; there is still one subscription. Without SMTP_URL the toast
    // says the reports stay in the outbox folder.
    const env = getEnv() as { SMTP_URL?: string };
    let moved: Response;
    try {
      env.SMTP_URL = undefined;
      moved = await post(overviewPage.action as RouteFunction, owner.id, org.id, "overview", {
        intent: "subscribe",
        report: "overview",
        sendTime: "7",
      });
    } finally {
      env.SMTP_URL = smtp.url;
    }
    expect(await toastOf(moved)).toEqual({
      type: "info",
      message: `You will receive the Overview report by email every day at 07:00 Hours (UTC). No mail server is set (SMTP_URL), so until one is, each report is kept in the outbox folder ${path.resolve(outboxDir())} instead.`,
    });
    const rows = await subscriptionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.send_at).toBe(7);

    const gone = await post(overviewPage.action as RouteFunction, owner.id, org.id, "overview", {
      intent: "unsubscribe",
      id: String(rows[0]!.id),
    });
    expect(gone.status).toBe(302);
    expect((await toastOf(gone))?.message).toBe("You will no longer receive the Overview report by email.");
    expect(await subscriptionRows()).toEqual([]);
  });

  it("refuses an hour outside 01–24 with a message and saves nothing", async () => {
    const { org, owner } = await makeOrg();
    for (const sendTime of ["0", "25", "-3", "1.5", "abc", ""]) {
      const res = await post(
        visitorPage.action as RouteFunction,
        owner.id,
        org.id,
        "new_visitors",
        { intent: "subscribe", report: "new_visitors", sendTime },
        { report: "new_visitors" },
      );
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.sendTime).toEqual(["Choose an hour between 01 and 24."]);
    }
    const wrongReport = await post(
      visitorPage.action as RouteFunction,
      owner.id,
      org.id,
      "new_visitors",
      { intent: "subscribe", report: "overview", sendTime: "5" },
      { report: "new_visitors" },
    );
    expect(wrongReport.status).toBe(400);
    const unknown = await post(
      visitorPage.action as RouteFunction,
      owner.id,
      org.id,
      "new_visitors",
      { intent: "launch" },
      { report: "new_visitors" },
    );
    expect(unknown.status).toBe(400);
    expect(await subscriptionRows()).toEqual([]);
  });

  it("keeps subscriptions per user, organisation and report; another user's id is a 404", async () => {
    const { org, owner } = await makeOrg();
    const second = await makeOrg("Second", owner);
    const { owner: stranger, org: strangerOrg } = await makeOrg("Stranger");
    await subscribeReport(await ctxOf(owner.id, org.id), "overview", 18);
    await subscribeReport(await ctxOf(owner.id, org.id), "footfall", 9);
    await subscribeReport(await ctxOf(owner.id, second.org.id), "overview", 6);
    const theirs = await subscribeReport(await ctxOf(stranger.id, strangerOrg.id), "overview", 18);
    expect(await myReports(await ctxOf(owner.id, org.id))).toMatchObject([
      { report: "overview", send_at: 18 },
      { report: "footfall", send_at: 9 },
    ]);
    expect(await myReports(await ctxOf(owner.id, second.org.id))).toMatchObject([{ report: "overview", send_at: 6 }]);

    for (const id of [String(theirs.id), "abc", "99999999999", ""]) {
      const res = await post(overviewPage.action as RouteFunction, owner.id, org.id, "overview", { intent: "unsubscribe", id });
      expect(res.status).toBe(404);
    }
    expect(await subscriptionRows()).toHaveLength(4);
    // A foreign organisation's page refuses before anything else.
    const foreign = await post(overviewPage.action as RouteFunction, owner.id, strangerOrg.id, "overview", {
      intent: "subscribe",
      report: "overview",
      sendTime: "5",
    });
    expect(foreign.status).toBe(404);
  });
});

describe("the report scheduler", () => {
  async function subscribed(report: "new_visitors" | "overview", sendAt = 18) {
    const { org, owner } = await makeOrg();
    await seedVisitorStory(org.id);
    // Subscribed yesterday at 19:00, after yesterday's hour: today's report is the first.
    await subscribeReport(await ctxOf(owner.id, org.id), report, sendAt, TODAY_START - DAY_MS + 19 * 3_600_000);
    return { org, owner };
  }

  it("sends the SMTP server of SMTP_URL exactly one e-mail when two instances run at once", async () => {
    expect(getEnv().SMTP_URL).toBe(smtp.url);
    const { owner } = await subscribed("new_visitors");
    const ownerEmail = (await db.selectFrom("users").select("email").where("id", "=", owner.id).executeTakeFirstOrThrow()).email;
    // A second, separate connection (pool) to the same database, as another app instance would have.
    const other = openDatabase(process.env.DATABASE_URL);
    try {
      await other.db.selectFrom("report_subscriptions").select("id").execute(); // connected before the race starts
      const results = await Promise.all([runDueReports(T), runDueReports(T, other.db), runDueReports(T, other.db)]);
      expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
      expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
    } finally {
      await other.db.destroy();
    }
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual([ownerEmail]);
    expect(mail.raw).toMatch(/Subject: Acme Cafe: First Timers report for \d\d\/\d\d\/\d{4}/);
    const csv = attachmentOf(mail.raw, "new_visitors.csv");
    expect(csv?.trim().split(/\r?\n/)).toEqual([
      "#,Name,Identity,Phone Number,Email,Facebook,Twitter,More Info,Devices,Connections",
      "1,Eve Test,+254711000005,+254711000005,eve@example.com,,,,1,1",
    ]);
    expect(await deliveryRows()).toMatchObject([{ day: TODAY, status: "sent", attempts: 1 }]);
    // Later the same day nothing more goes out.
    expect(await runDueReports(T + 3_600_000)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("mails a subscriber without view_clients the visitor total but no names or contacts", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    await subscribeReport(await ctxOf(user.id, org.id), "new_visitors", 18, TODAY_START - DAY_MS + 19 * 3_600_000);
    expect(await runDueReports(T)).toEqual({ sent: 1, failed: 0 });
    const mail = smtp.received[0]!;
    expect(mail.raw).not.toContain("Eve Test");
    expect(mail.raw).not.toContain("eve@example.com");
    expect(attachmentOf(mail.raw, "new_visitors.csv")?.trim().split(/\r?\n/)).toEqual(["Figure,Total", "Visitors,1"]);
  });

  it("lets exactly one of two connections claim a day, first time and on retry", async () => {
    await subscribed("overview");
    const [sub] = await subscriptionRows();
    const item = { id: sub!.id, day: TODAY };
    const other = openDatabase(process.env.DATABASE_URL);
    try {
      await other.db.selectFrom("report_deliveries").select("id").execute();
      const first = await Promise.all([claimDelivery(db, item, T), claimDelivery(other.db, item, T), claimDelivery(db, item, T)]);
      expect(first.filter(Boolean)).toHaveLength(1);
      await db
        .updateTable("report_deliveries")
        .set({ status: "failed", claim_token: null, next_attempt_at: T + 60_000 })
        .execute();
      expect(await claimDelivery(db, item, T + 59_999)).toBeNull(); // still backing off
      const retry = await Promise.all([
        claimDelivery(other.db, item, T + 60_000),
        claimDelivery(db, item, T + 60_000),
        claimDelivery(other.db, item, T + 60_000),
      ]);
      expect(retry.filter(Boolean)).toMatchObject([{ attempts: 2 }]);
    } finally {
      await other.db.destroy();
    }
    expect(await deliveryRows()).toMatchObject([{ status: "sending", attempts: 2 }]);
  });

  it("sends a Nairobi organization's report at 18:00 Nairobi time (15:00 UTC), with the figures of its own day", async () => {
    const HOUR = 3_600_000;
    const { org, owner } = await makeOrg("Kahawa Nairobi");
    await db
      .updateTable("organizations")
      .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * HOUR })
      .where("id", "=", org.id)
      .execute();
    const venue = await insertVenue(org.id, "Java House");
    const guest = await insertCustomer(org.id, "Wanjiru", { phone: "+254711000009" });
    // 22:30 UTC yesterday is 01:30 today in Nairobi; 20:30 UTC yesterday is 23:30 yesterday there.
    await insertVisit(org.id, { customerId: guest.id, venueId: venue.id, daysAgo: 1, hour: 22.5 });
    await insertVisit(org.id, { customerId: guest.id, venueId: venue.id, daysAgo: 1, hour: 20.5 });
    // Subscribed yesterday at 22:00 Nairobi time, after yesterday's 18:00 there: today's report is the first.
    await subscribeReport(await ctxOf(owner.id, org.id), "footfall", 18, TODAY_START - DAY_MS + 19 * HOUR);
    expect(await runDueReports(TODAY_START + 15 * HOUR - 60_000)).toEqual({ sent: 0, failed: 0 });
    expect(await runDueReports(TODAY_START + 15 * HOUR)).toEqual({ sent: 1, failed: 0 });
    expect(await deliveryRows()).toMatchObject([{ day: TODAY, status: "sent" }]);
    const mail = smtp.received[0]!;
    const day = TODAY.split("-").reverse().join("/");
    expect(mail.raw).toContain(`Subject: Kahawa Nairobi: Footfall report for ${day}`);
    expect(mail.raw).toContain("Africa/Nairobi (UTC+03:00)");
    expect(attachmentOf(mail.raw, "footfall.csv")?.trim().split(/\r?\n/)).toEqual(["Hour (UTC+03:00),Footfall", `${day} 01:00,1`]);
  });

  it("sends nothing before the hour, and the next day's report the next day", async () => {
    await subscribed("overview", 18);
    expect(await runDueReports(TODAY_START + 17.9 * 3_600_000)).toEqual({ sent: 0, failed: 0 }); // yesterday's was due before the subscription
    expect(await runDueReports(T)).toEqual({ sent: 1, failed: 0 });
    expect(await runDueReports(T + DAY_MS)).toEqual({ sent: 1, failed: 0 });
    expect((await deliveryRows()).map((d) => d.day).sort()).toEqual([TODAY, todayIso(TODAY_START + DAY_MS)]);
  });

  it("retries a send the SMTP server refused after a backoff, logs it, and does not mark it sent", async () => {
    await subscribed("overview");
    smtp.refuse = true;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await runDueReports(T)).toEqual({ sent: 0, failed: 1 });
    expect(smtp.received).toHaveLength(0);
    const logged = errors.mock.calls.map((c) => JSON.parse(String(c[0])));
    expect(logged).toMatchObject([{ event: "report_email_failed", report: "overview", day: TODAY, attempt: 1 }]);
    expect(JSON.stringify(logged)).not.toContain("@example.com"); // no addresses in logs
    expect(await deliveryRows()).toMatchObject([{ status: "failed", attempts: 1, next_attempt_at: T + retryDelayMs(1) }]);
    expect(await db.selectFrom("report_subscriptions").select("last_sent_on").executeTakeFirst()).toEqual({ last_sent_on: null });

    // Not before the backoff; then the server accepts again and the retry goes out once.
    expect(await runDueReports(T + 30_000)).toEqual({ sent: 0, failed: 0 });
    smtp.refuse = false;
    expect(await runDueReports(T + retryDelayMs(1))).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(await deliveryRows()).toMatchObject([{ status: "sent", attempts: 2, last_error: null }]);
    expect(await db.selectFrom("report_subscriptions").select("last_sent_on").executeTakeFirst()).toEqual({ last_sent_on: TODAY });
  });

  it("takes over a claim whose instance died only after the lease", async () => {
    await subscribed("overview");
    const [sub] = await subscriptionRows();
    await db
      .insertInto("report_deliveries")
      .values({
        subscription_id: sub!.id,
        day: TODAY,
        status: "sending",
        attempts: 1,
        claim_token: "dead",
        claimed_at: T,
        next_attempt_at: null,
        last_error: null,
        sent_at: null,
        created_at: T,
      })
      .execute();
    expect(await runDueReports(T + 60_000)).toEqual({ sent: 0, failed: 0 });
    expect(await runDueReports(T + CLAIM_LEASE_MS + 1)).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("sends nothing to someone who is no longer a member", async () => {
    const { org, owner } = await subscribed("overview");
    await db
      .updateTable("administrators")
      .set({ status: "Declined" })
      .where("organization_id", "=", org.id)
      .where("user_id", "=", owner.id)
      .execute();
    expect(await runDueReports(T)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it("backs off 1, 2, 4 … minutes, at most an hour", () => {
    expect([1, 2, 3, 7, 8, 20].map((n) => retryDelayMs(n) / 60_000)).toEqual([1, 2, 4, 60, 60, 60]);
  });
});

describe("the report e-mail", () => {
  it("carries the overview's figures in the text and HTML and the CSV attachment", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const twoDaysAgo = todayIso(TODAY_START - 2 * DAY_MS);
    const mail = await buildReportEmail({
      organizationId: org.id,
      organizationName: "Acme <Cafe>",
      report: "overview",
      day: twoDaysAgo,
      personalData: true,
      clock: UTC_CLOCK,
    });
    // Two days ago: Alice and Bob got online at Java House (sms and voucher).
    expect(mail.text).toMatch(/^Footfall +2 +2$/m);
    expect(mail.text).toMatch(/^New customers +1 +1$/m);
    expect(mail.text).toMatch(/^Repeat customers +1 +1$/m);
    expect(mail.text).toMatch(/^Dwell time +01:10:00 +01:10:00$/m);
    expect(mail.text).toMatch(/^sms +1 +1 +1 +1 +1$/m);
    expect(mail.html).toContain("Acme &lt;Cafe&gt;");
    expect(mail.html).toContain('<td style="border:1px solid #cbd5e1;padding:4px 8px;text-align:left">voucher</td>');
    const csv = String(mail.attachments![0]!.content);
    expect(mail.attachments![0]!.filename).toBe("overview.csv");
    expect(csv).toContain("Footfall,2,2");
    expect(csv).toContain("Connection mode,Daily average,Weekly average,Monthly average,Annual average,Total");
  });

  it("lists a day's footfall by hour", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const yesterday = todayIso(TODAY_START - DAY_MS);
    const mail = await buildReportEmail({
      organizationId: org.id,
      organizationName: "Acme",
      report: "footfall",
      day: yesterday,
      personalData: true,
      clock: UTC_CLOCK,
    });
    const label = `${yesterday.split("-").reverse().join("/")} 10:00`;
    expect(mail.text).toMatch(/^Footfall +3$/m);
    expect(String(mail.attachments![0]!.content).trim().split("\n")).toEqual(["Hour (UTC),Footfall", `${label},3`]);
  });
});
