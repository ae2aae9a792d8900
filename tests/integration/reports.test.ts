import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { aggregateUsage } from "~/services/analytics.server";
import { dateRange, DAY_MS } from "~/lib/date-range";
import type { VisitorReport } from "~/lib/reports";
import * as reportIndex from "~/routes/$orgId+/reports+/_index";
import * as visitorPage from "~/routes/$orgId+/reports+/$report";
import * as footfallPage from "~/routes/$orgId+/reports+/footfall";
import * as overviewPage from "~/routes/$orgId+/reports+/overview";
import * as newVisitorsCsv from "~/routes/$orgId+/reports+/new_visitors[.csv]";
import * as repeatVisitorsCsv from "~/routes/$orgId+/reports+/repeat_visitors[.csv]";
import { issueToken } from "~/services/auth.server";
import { connectionModes, listVisitors, overview, reportPeriods } from "~/services/reports.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { at, daysAgo, insertCustomer, insertVenue, insertVisit, seedVisitorStory } from "../fixtures/reports";

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function get(fn: RouteFunction, userId: number, orgId: number, path: string, params: Record<string, string> = {}) {
  const request = makeRequest(`/${orgId}/reports/${path}`, { cookie: await sessionCookie(userId) });
  return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
}

const window3 = () => dateRange(daysAgo(2), daysAgo(0), Date.now(), 0);
const scopeOf = (orgId: number, venueIds?: number[], range = window3()) => ({ organizationId: orgId, venueIds, range });
const names = async (orgId: number, report: VisitorReport, venueIds?: number[], range = window3()) =>
  (await listVisitors(scopeOf(orgId, venueIds, range), report, { offset: 0, pageSize: 100, search: "" })).rows.map((r) => r.name);

describe("visitor lists", () => {
  it("splits the window's customers into new and repeat, with all and unique visitors around them", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    expect(await names(org.id, "new_visitors")).toEqual(["Eve Test", "Bob Test"]);
    expect(await names(org.id, "repeat_visitors")).toEqual(["Alice Test"]);
    expect(await names(org.id, "unique_visitors")).toEqual(["Eve Test", "Bob Test", "Alice Test"]);
    expect(await names(org.id, "all_visitors")).toEqual(["Eve Test", "Carol Test", "Bob Test", "Alice Test"]);
  });

  it("uses the window's start as the boundary between new and repeat (dates the right way round)", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    // Ten days ago was Alice's first time; two days ago she came back.
    const tenDaysAgo = dateRange(daysAgo(10), daysAgo(10), Date.now(), 0);
    expect(await names(org.id, "new_visitors", undefined, tenDaysAgo)).toEqual(["Alice Test"]);
    expect(await names(org.id, "repeat_visitors", undefined, tenDaysAgo)).toEqual([]);
    // A reversed range in the URL is read as the same period, not as an empty or inverted one.
    const reversed = dateRange(daysAgo(0), daysAgo(2), Date.now(), 0);
    expect(reversed.start).toBe(daysAgo(2));
    expect(await names(org.id, "repeat_visitors", undefined, reversed)).toEqual(["Alice Test"]);
  });

  it("limits every list to the chosen venues, while 'new' still means new to the organisation", async () => {
    const { org } = await makeOrg();
    const s = await seedVisitorStory(org.id);
    expect(await names(org.id, "new_visitors", [s.v1])).toEqual(["Bob Test"]);
    expect(await names(org.id, "repeat_visitors", [s.v1])).toEqual(["Alice Test"]);
    expect(await names(org.id, "all_visitors", [s.v2])).toEqual(["Eve Test", "Carol Test", "Bob Test"]);
    expect(await names(org.id, "repeat_visitors", [s.v2])).toEqual([]);
  });

  it("counts all visitors, online or not, once each at any choice of venues, from the presence roll-up", async () => {
    const { org } = await makeOrg();
    const s = await seedVisitorStory(org.id);
    const page = { offset: 0, pageSize: 100, search: "" };
    const all = async (venueIds?: number[], range = window3(), search = "") => {
      const { rows, total, capped } = await listVisitors(scopeOf(org.id, venueIds, range), "all_visitors", { ...page, search });
      expect(capped).toBe(false);
      return { names: rows.map((r) => r.name), total };
    };
    // Carol reached the portal and never got online; the unknown device has no customer.
    expect(await all()).toEqual({ names: ["Eve Test", "Carol Test", "Bob Test", "Alice Test"], total: 4 });
    expect(await all([s.v1])).toEqual({ names: ["Bob Test", "Alice Test"], total: 2 });
    expect(await all([s.v2])).toEqual({ names: ["Eve Test", "Carol Test", "Bob Test"], total: 3 });
    // Bob was at both venues: once.
    expect(await all([s.v1, s.v2])).toEqual({ names: ["Eve Test", "Carol Test", "Bob Test", "Alice Test"], total: 4 });
    expect((await all(undefined, window3(), "carol")).names).toEqual(["Carol Test"]);
    expect((await all(undefined, window3(), "carol")).total).toBe(1);
    // Fifteen days ago Eve only reached the portal: a visitor, not a unique (online) one.
    const fifteenDaysAgo = dateRange(daysAgo(15), daysAgo(15), Date.now(), 0);
    expect(await all(undefined, fifteenDaysAgo)).toEqual({ names: ["Eve Test"], total: 1 });
    expect(await all([s.v2], fifteenDaysAgo)).toEqual({ names: ["Eve Test"], total: 1 });
    expect((await listVisitors(scopeOf(org.id, undefined, fifteenDaysAgo), "unique_visitors", page)).total).toBe(0);
    const carol = (await listVisitors(scopeOf(org.id), "all_visitors", page)).rows.find((r) => r.id === s.carol);
    expect(carol).toMatchObject({ connectionsCount: 0, devicesCount: 1 });

    // Her record gone, Carol leaves the list; Dave's visit moved into the window joins it.
    await db.deleteFrom("connections").where("customer_id", "=", s.carol).execute();
    await db
      .updateTable("connections")
      .set({ created_at: at(1), authorized_at: null })
      .where("customer_id", "=", s.dave)
      .execute();
    expect(await all()).toEqual({ names: ["Eve Test", "Dave Test", "Bob Test", "Alice Test"], total: 4 });
    expect(await all([s.v2])).toEqual({ names: ["Eve Test", "Bob Test"], total: 2 });
    expect(await all([s.v1, s.v2])).toEqual({ names: ["Eve Test", "Dave Test", "Bob Test", "Alice Test"], total: 4 });
  });

  it("counts each visitor's authorized connections in the window and devices", async () => {
    const { org } = await makeOrg();
    const s = await seedVisitorStory(org.id);
    const { rows } = await listVisitors(scopeOf(org.id), "all_visitors", { offset: 0, pageSize: 10, search: "" });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(s.bob)).toMatchObject({
      connectionsCount: 2,
      devicesCount: 2,
      phone_number: "+254711000002",
      email_address: "bob@example.com",
    });
    expect(byId.get(s.carol)).toMatchObject({ connectionsCount: 0, devicesCount: 1 });
    expect(byId.get(s.alice)).toMatchObject({ connectionsCount: 1 });
    const atV1 = await listVisitors(scopeOf(org.id, [s.v1]), "unique_visitors", { offset: 0, pageSize: 10, search: "" });
    expect(atV1.rows.find((r) => r.id === s.bob)?.connectionsCount).toBe(1);
  });

  it("agrees with the analytics service's new and repeat customer counts", async () => {
    const { org } = await makeOrg();
    const s = await seedVisitorStory(org.id);
    for (const venueIds of [undefined, [s.v1], [s.v2]]) {
      const totals = await aggregateUsage(scopeOf(org.id, venueIds));
      const page = { offset: 0, pageSize: 5, search: "" };
      expect((await listVisitors(scopeOf(org.id, venueIds), "new_visitors", page)).total).toBe(totals.newCustomers);
      expect((await listVisitors(scopeOf(org.id, venueIds), "repeat_visitors", page)).total).toBe(totals.repeatCustomers);
      expect((await listVisitors(scopeOf(org.id, venueIds), "unique_visitors", page)).total).toBe(
        totals.newCustomers + totals.repeatCustomers,
      );
    }
  });

  it("pages with continuous row numbers and searches by name, phone or email", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, "Mall");
    for (let i = 1; i <= 12; i++) {
      const c = await insertCustomer(org.id, `Guest${String(i).padStart(2, "0")}`, { phone: `+2547220000${String(i).padStart(2, "0")}` });
      await insertVisit(org.id, { customerId: c.id, venueId: venue.id, daysAgo: 1 });
    }
    const range = `start=${daysAgo(2)}&end=${daysAgo(0)}`;
    const res = await get(visitorPage.loader as RouteFunction, owner.id, org.id, `unique_visitors?${range}&per_page=5&page=3`, {
      report: "unique_visitors",
    });
    const data = await res.json();
    expect(data.total).toBe(12);
    expect(data.rows).toHaveLength(2);
    expect(data.list).toMatchObject({ page: 3, pageSize: 5, offset: 10 });
    expect(data.rows.map((r: { name: string }) => r.name)).toEqual(["Guest02 Test", "Guest01 Test"]);

    const search = async (term: string) =>
      (
        await (
          await get(visitorPage.loader as RouteFunction, owner.id, org.id, `unique_visitors?${range}&search=${encodeURIComponent(term)}`, {
            report: "unique_visitors",
          })
        ).json()
      ).rows.map((r: { name: string }) => r.name);
    expect(await search("guest07")).toEqual(["Guest07 Test"]);
    expect(await search("722000011")).toEqual(["Guest11 Test"]);
    expect(await search("guest12@example")).toEqual(["Guest12 Test"]);
    expect(await search("100%_")).toEqual([]);
    // Page numbers past the end are clamped to an empty page, never an error.
    const far = await get(visitorPage.loader as RouteFunction, owner.id, org.id, `unique_visitors?${range}&page=999999999`, {
      report: "unique_visitors",
    });
    expect(far.status).toBe(200);
  });
});

describe("overview", () => {
  it("reports the window's figures, customers and periods", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const figures = await overview(scopeOf(org.id));
    expect(figures).toMatchObject({
      days: 3,
      footfall: 6,
      connections: 4,
      abandoned: 2,
      upload: 3048,
      download: 4024,
      bandwidth: 7072,
      dwellTime: 6010,
      newCustomers: 2,
      repeatCustomers: 1,
      totalCustomers: 3,
    });
  });

  it("shows daily averages rounded, dwell time as h:m:s and bandwidth in binary units", async () => {
    const { org, owner } = await makeOrg();
    await seedVisitorStory(org.id);
    const res = await get(overviewPage.loader as RouteFunction, owner.id, org.id, `overview?start=${daysAgo(2)}&end=${daysAgo(0)}`);
    const data = await res.json();
    const figure = (label: string) => data.figures.find((f: { label: string }) => f.label === label);
    expect(figure("Footfall")).toEqual({ label: "Footfall", total: "6", daily: "2" });
    expect(figure("Connections")).toEqual({ label: "Connections", total: "4", daily: "1" }); // 1.33
    expect(figure("Abandoned")).toEqual({ label: "Abandoned", total: "2", daily: "1" }); // 0.67
    expect(figure("Dwell time")).toEqual({ label: "Dwell time", total: "01:40:10", daily: "00:33:23" }); // 6010 s, 2003.3 s
    expect(figure("Bandwidth")).toEqual({ label: "Bandwidth", total: "6.91 KB", daily: "2.30 KB" }); // 7072 B, 2357.3 B
    expect(data.header.period).toBe(`${daysAgo(2).split("-").reverse().join("/")} – ${daysAgo(0).split("-").reverse().join("/")}`);
  });

  it("tables the connection modes with daily, weekly, monthly and annual averages", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const range = window3();
    const periods = reportPeriods(range);
    const modes = await connectionModes(scopeOf(org.id));
    expect(modes).toEqual([
      {
        mode: "sms",
        connections: 3,
        daily: 1,
        weekly: Math.round(3 / periods.weeks),
        monthly: Math.round(3 / periods.months),
        annual: Math.round(3 / periods.years),
      },
      {
        mode: "voucher",
        connections: 1,
        daily: 0,
        weekly: Math.round(1 / periods.weeks),
        monthly: Math.round(1 / periods.months),
        annual: Math.round(1 / periods.years),
      },
    ]);
  });

  it("counts the calendar weeks (from Monday), months and years a range touches", () => {
    const range = (start: string, end: string) => {
      const startMs = Date.parse(`${start}T00:00:00Z`);
      return { startMs, endMs: Date.parse(`${end}T00:00:00Z`) + DAY_MS, offsetMs: 0 };
    };
    // Tuesday 17 November 2026 to Monday 23 November 2026: two weeks.
    expect(reportPeriods(range("2026-11-17", "2026-11-23"))).toEqual({ days: 7, weeks: 2, months: 1, years: 1 });
    expect(reportPeriods(range("2026-11-16", "2026-11-22"))).toEqual({ days: 7, weeks: 1, months: 1, years: 1 });
    expect(reportPeriods(range("2026-01-31", "2026-02-01"))).toEqual({ days: 2, weeks: 1, months: 2, years: 1 });
    expect(reportPeriods(range("2025-12-31", "2026-01-01"))).toEqual({ days: 2, weeks: 1, months: 2, years: 2 });
    // In Nairobi a day starts at 21:00 UTC the day before: 1 January alone is still one month and one year.
    const nairobi = (start: string, end: string) => dateRange(start, end, Date.UTC(2026, 10, 25), 3 * 3_600_000);
    expect(reportPeriods(nairobi("2026-01-01", "2026-01-01"))).toEqual({ days: 1, weeks: 1, months: 1, years: 1 });
    expect(reportPeriods(nairobi("2026-11-16", "2026-11-22"))).toEqual({ days: 7, weeks: 1, months: 1, years: 1 });
  });
});

describe("report pages", () => {
  it("opens each report for a member without any permission, and sends reports/ to the overview", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const { user } = await makeMember(org.id, "custom", []);
    const range = `start=${daysAgo(2)}&end=${daysAgo(0)}`;
    expect((await get(overviewPage.loader as RouteFunction, user.id, org.id, `overview?${range}`)).status).toBe(200);
    const footfall = await (await get(footfallPage.loader as RouteFunction, user.id, org.id, `footfall?${range}`)).json();
    expect(footfall.total).toBe(6);
    expect(footfall.bucket).toBe("day");
    expect(footfall.points.map((p: { footfall: number }) => p.footfall)).toEqual([2, 3, 1]);
    for (const report of ["new_visitors", "unique_visitors", "all_visitors", "repeat_visitors"]) {
      const data = await (await get(visitorPage.loader as RouteFunction, user.id, org.id, `${report}?${range}`, { report })).json();
      expect(data.header.report).toBe(report);
      expect(data.personalData).toBe(false);
    }
    const redirect = await get(reportIndex.loader as RouteFunction, user.id, org.id, `?${range}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe(`/${org.id}/reports/overview?${range}`);
  });

  it("answers 404 for an unknown report, a foreign organisation and a venue of another organisation", async () => {
    const { org, owner } = await makeOrg();
    const other = await makeOrg("Rival");
    const foreignVenue = await insertVenue(other.org.id, "Rival venue");
    expect(
      (await get(visitorPage.loader as RouteFunction, owner.id, org.id, "weekly_visitors", { report: "weekly_visitors" })).status,
    ).toBe(404);
    expect((await get(overviewPage.loader as RouteFunction, owner.id, other.org.id, "overview")).status).toBe(404);
    expect((await get(newVisitorsCsv.loader as RouteFunction, owner.id, other.org.id, "new_visitors.csv")).status).toBe(404);
    expect((await get(overviewPage.loader as RouteFunction, owner.id, org.id, `overview?venue_id=${foreignVenue.id}`)).status).toBe(404);
    expect(
      (await get(visitorPage.loader as RouteFunction, owner.id, org.id, "new_visitors?venue_id=abc", { report: "new_visitors" })).status,
    ).toBe(404);
    const noSession = await run(() =>
      overviewPage.loader({ request: makeRequest(`/${org.id}/reports/overview`), params: { orgId: String(org.id) }, context: {} }),
    );
    expect(noSession.status).toBe(302);
  });

  it("exports a visitor list as CSV for the browser and for a bearer token", async () => {
    const { org, owner } = await makeOrg();
    const s = await seedVisitorStory(org.id);
    const range = `start=${daysAgo(2)}&end=${daysAgo(0)}`;
    const res = await get(newVisitorsCsv.loader as RouteFunction, owner.id, org.id, `new_visitors.csv?${range}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="new_visitors.csv"');
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe("#,Name,Identity,Phone Number,Email,Facebook,Twitter,More Info,Devices,Connections");
    expect(lines.slice(1)).toEqual([
      "1,Eve Test,+254711000005,+254711000005,eve@example.com,,,,1,1",
      "2,Bob Test,+254711000002,+254711000002,bob@example.com,,,,2,2",
    ]);

    const token = await issueToken(owner.id, "api");
    const request = makeRequest(`/${org.id}/reports/repeat_visitors.csv?${range}&venue_id=${s.v1}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const scripted = await run(() => repeatVisitorsCsv.loader({ request, params: { orgId: String(org.id) }, context: {} }));
    expect((await scripted.text()).trim().split("\n").slice(1)).toEqual([
      "1,Alice Test,+254711000001,+254711000001,alice@example.com,,,,1,1",
    ]);
    const stranger = await makeUser();
    const refused = await run(() =>
      repeatVisitorsCsv.loader({
        request: makeRequest(`/${org.id}/reports/repeat_visitors.csv`, { headers: { Authorization: `Bearer ${"x".repeat(43)}` } }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(refused.status).toBe(401);
    expect((await get(repeatVisitorsCsv.loader as RouteFunction, stranger.id, org.id, "repeat_visitors.csv")).status).toBe(404);
  });

  it("exports every row of a long list in batches", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, "Mall");
    for (let i = 0; i < 30; i++) {
      const c = await insertCustomer(org.id, `Guest${i}`, { phone: `+2547330000${String(i).padStart(2, "0")}` });
      await insertVisit(org.id, { customerId: c.id, venueId: venue.id, daysAgo: 0, hour: 0 });
    }
    const { visitorBatches } = await import("~/services/reports.server");
    const sizes: number[] = [];
    for await (const batch of visitorBatches(scopeOf(org.id), "new_visitors", "", 7)) sizes.push(batch.length);
    expect(sizes).toEqual([7, 7, 7, 7, 2]);
    const res = await get(newVisitorsCsv.loader as RouteFunction, owner.id, org.id, "new_visitors.csv");
    const lines = (await res.text()).trim().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[30]).toMatch(/^30,/);
  });
});
