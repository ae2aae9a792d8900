// One clock on every console screen (issue 37, item 1): in an Africa/Nairobi organisation (UTC+03:00), between
// 21:00 and 24:00 UTC — when Nairobi's day is already the next one — the forms read a typed time on the
// organisation's clock, the pages show and label times on it, the survey form's default date is the
// organisation's day, and the exports name the zone their times are in. On SQLite and PostgreSQL.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { parseDateTimeAt, toDateTimeInputAt } from "~/lib/time";
import * as campaignsCsvRoute from "~/routes/$orgId+/ads+/campaigns[.csv]";
import * as createCampaignPage from "~/routes/$orgId+/ads+/create";
import * as exportRoute from "~/routes/$orgId+/_connections+/connections[.csv]";
import * as schedulesPage from "~/routes/$orgId+/_marketing+/broadcast+/$id.schedules";
import * as createSurveyPage from "~/routes/$orgId+/_surveys+/surveys+/create";
import { SCHEDULE_MESSAGES } from "~/services/marketing/schedules.server";
import { makeOrg, makeUser } from "../fixtures";
import { callRoute, insertConnection, insertVenue, toastOf } from "../fixtures/records";

const HOUR = 3_600_000;
/** 22:30 UTC on 1 December 2026: 01:30 on 2 December in Nairobi. */
const NOW = Date.UTC(2026, 11, 1, 22, 30);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

async function nairobi() {
  const owner = await makeUser();
  const { org } = await makeOrg(`Nairobi ${Math.random()}`, owner);
  await db
    .updateTable("organizations")
    .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * HOUR })
    .where("id", "=", org.id)
    .execute();
  return { orgId: org.id, owner };
}

async function broadcastWithGroup(orgId: number) {
  const values = { organization_id: orgId, created_by_user_id: null, created_at: NOW, updated_at: NOW };
  const b = await db
    .insertInto("broadcasts")
    .values({
      ...values,
      title: "Offer",
      description: null,
      sms: "Karibu",
      email_html: "<p>Karibu</p>",
      email_text: null,
      email_design: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const g = await db
    .insertInto("customer_groups")
    .values({ ...values, name: "Regulars", description: null, filters: "{}" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { broadcastId: Number(b.id), groupId: Number(g.id) };
}

const lines = async (res: Response) =>
  (await res.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\n");

describe("a time typed into a form", () => {
  it("is read on the organisation's clock unless it names its own zone", () => {
    expect(parseDateTimeAt("2026-12-02T09:00", 3 * HOUR)).toBe(Date.UTC(2026, 11, 2, 6, 0));
    expect(parseDateTimeAt("2026-12-02T01:00", 3 * HOUR)).toBe(Date.UTC(2026, 11, 1, 22, 0));
    expect(parseDateTimeAt("2026-12-02T09:00", -5.5 * HOUR)).toBe(Date.UTC(2026, 11, 2, 14, 30));
    expect(parseDateTimeAt("2026-12-02T09:00Z", 3 * HOUR)).toBe(Date.UTC(2026, 11, 2, 9, 0));
    expect(parseDateTimeAt("2026-12-02T09:00+01:00", 3 * HOUR)).toBe(Date.UTC(2026, 11, 2, 8, 0));
    expect(parseDateTimeAt("2026-02-30T09:00", 3 * HOUR)).toBeNull();
    expect(toDateTimeInputAt(NOW, 3 * HOUR)).toBe("2026-12-02T01:30");
  });
});

describe("in a Nairobi organisation at 22:30 UTC", () => {
  it("schedules a broadcast at 09:00 Nairobi time (06:00 UTC) and lists it with the zone", async () => {
    const { orgId, owner } = await nairobi();
    const { broadcastId, groupId } = await broadcastWithGroup(orgId);
    const path = `/${orgId}/broadcast/${broadcastId}/schedules`;
    const params = { id: String(broadcastId) };
    const res = await callRoute(schedulesPage.action, {
      userId: owner.id,
      orgId,
      path,
      params,
      form: { intent: "schedule", groups: String(groupId), dispatch: "later", dispatch_at: "2026-12-02T09:00" },
    });
    expect(res.status).toBe(302);
    expect((await toastOf(res))?.message).toContain(SCHEDULE_MESSAGES.scheduled("2026-12-02 09:00", "UTC+03:00"));
    expect(SCHEDULE_MESSAGES.scheduled("2026-12-02 09:00", "UTC+03:00")).toBe(
      "The broadcast is scheduled for 2026-12-02 09:00 (UTC+03:00).",
    );
    const stored = await db
      .selectFrom("broadcast_schedules")
      .select("dispatch_at")
      .where("broadcast_id", "=", broadcastId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.dispatch_at)).toBe(Date.UTC(2026, 11, 2, 6, 0));

    const page = await (await callRoute(schedulesPage.loader, { userId: owner.id, orgId, path, params })).json();
    expect(page).toMatchObject({ now: "2026-12-02T01:30", zone: "UTC+03:00" });
    expect(page.schedules[0]).toMatchObject({ created_at: "02-12-2026 01:30", dispatch_at: "02-12-2026 09:00" });
  });

  it("refuses 23:00 Nairobi time of the day before (20:00 UTC, passed) as a time that has passed", async () => {
    const { orgId, owner } = await nairobi();
    const { broadcastId, groupId } = await broadcastWithGroup(orgId);
    const res = await callRoute(schedulesPage.action, {
      userId: owner.id,
      orgId,
      path: `/${orgId}/broadcast/${broadcastId}/schedules`,
      params: { id: String(broadcastId) },
      form: { intent: "schedule", groups: String(groupId), dispatch: "later", dispatch_at: "2026-12-01T23:00" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({ dispatch_at: [SCHEDULE_MESSAGES.past] });
  });

  it("takes a campaign's activate and expire times on the organisation's clock and exports them so", async () => {
    const { orgId, owner } = await nairobi();
    const form = await (await callRoute(createCampaignPage.loader, { userId: owner.id, orgId, path: `/${orgId}/ads/create` })).json();
    expect(form).toMatchObject({ now: "2026-12-02T01:30", zone: "UTC+03:00" });
    const res = await callRoute(createCampaignPage.action, {
      userId: owner.id,
      orgId,
      path: `/${orgId}/ads/create`,
      form: { campaignname: "Launch", clientname: "Safaricom", activate_time: "2026-12-02T09:00", expire_time: "2026-12-03T00:30" },
    });
    expect(res.status).toBe(302);
    const campaign = await db
      .selectFrom("ad_campaigns")
      .select(["activate_at", "expire_at"])
      .where("organization_id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect(Number(campaign.activate_at)).toBe(Date.UTC(2026, 11, 2, 6, 0));
    expect(Number(campaign.expire_at)).toBe(Date.UTC(2026, 11, 2, 21, 30));
    const csv = await lines(await callRoute(campaignsCsvRoute.loader, { userId: owner.id, orgId, path: `/${orgId}/ads/campaigns.csv` }));
    expect(csv[0]).toContain(",Activate Time (UTC+03:00),Expire Time (UTC+03:00),");
    expect(csv[1]).toContain(",02-12-2026 09:00,03-12-2026 00:30,");
  });

  it("offers the organisation's day (2 December), not UTC's, as a new survey's dates", async () => {
    const { orgId, owner } = await nairobi();
    const data = await (await callRoute(createSurveyPage.loader, { userId: owner.id, orgId, path: `/${orgId}/surveys/create` })).json();
    expect(data.today).toBe("2026-12-02");
  });

  it("exports connections with their time in Nairobi, the zone named in the header", async () => {
    const { orgId, owner } = await nairobi();
    const venue = await insertVenue(orgId, { name: "Kahawa" });
    const at = Date.UTC(2026, 11, 1, 21, 15); // 00:15 on 2 December in Nairobi
    await insertConnection(orgId, { venue_id: venue.id, created_at: at, authorized_at: at + 1000 });
    const csv = await lines(await callRoute(exportRoute.loader, { userId: owner.id, orgId, path: `/${orgId}/connections.csv` }));
    expect(csv[0].startsWith("#,Connected At (UTC+03:00),")).toBe(true);
    expect(csv[1].startsWith("1,02-12-2026 00:15,")).toBe(true);
  });
});
