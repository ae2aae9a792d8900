import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { buildAccessPoint, buildVenue } from "~/tools/factories.server";
import { defaultLayout, dashletsIn, emptyLayout, serializeLayout, type DashboardLayout } from "~/lib/dashboard-layout";
import { parseLayout } from "~/lib/dashboard-layout-schema";
import { DASHBOARD_MESSAGES } from "~/lib/schemas/dashboard";
import * as exportRoute from "~/routes/$orgId+/_dashboard+/exports.$file";
import * as topAccessPoints from "~/routes/$orgId+/_dashboard+/top_access_points";
import * as topNetworks from "~/routes/$orgId+/_dashboard+/top_networks";
import * as home from "~/routes/$orgId+/_dashboard+/_index";
import * as analytics from "~/services/analytics.server";
import { issueToken } from "~/services/auth.server";
import { DAY, HOUR, T0, makeNetwork } from "../fixtures/analytics";
import { makeMember, makeOrg, makeRequest, run } from "../fixtures";
import { callRoute, toastOf } from "../fixtures/records";

const MIN = 60_000;
/** Tuesday 3 November 2026, the day the connections below happen. */
const DAY_ISO = "2026-11-03";
const RANGE = `start=${DAY_ISO}&end=${DAY_ISO}`;

/** Two venues; on the day: 3 authorized visits (2 at Alpha), 1 abandoned, one still online. */
async function world() {
  const net = await makeNetwork("Dashboard Org");
  const [c1, c2, c3] = [await net.customer(), await net.customer(), await net.customer()];
  const d1 = await net.device(c1, { is_mobile: 1, os: "Android", brand: "Samsung", browser: "Chrome" });
  const d2 = await net.device(c2, { is_mobile: 0, os: "Windows", brand: "Dell", browser: "Firefox" });
  const day = T0 + DAY;
  const visit = (at: number, minutes: number, mode: string, upload: number, download: number) => ({
    created_at: at,
    authorized_at: at + 10_000,
    ended_at: at + 10_000 + minutes * MIN,
    authorization_mode: mode,
    upload,
    download,
  });
  await net.connect("a", { customer_id: c1, device_id: d1, ...visit(day + 9 * HOUR, 30, "sms", 1_000, 9_000) });
  await net.connect("a", { customer_id: c2, device_id: d2, ...visit(day + 10 * HOUR, 60, "voucher", 2_000, 2_000) });
  await net.connect("b", { customer_id: c1, device_id: d1, ...visit(day + 11 * HOUR, 15, "sms", 500, 500) });
  await net.connect("b", { customer_id: c3, created_at: day + 12 * HOUR });
  return { ...net, day };
}

type Route = Parameters<typeof callRoute>[0];
const get = (fn: Route, userId: number, orgId: number, path: string, params: Record<string, string> = {}) =>
  callRoute(fn, { userId, orgId, path, params });
const post = (userId: number, orgId: number, form: Record<string, string>, query = "edit=1") =>
  callRoute(home.action as Route, { userId, orgId, path: `/${orgId}?index&${query}`, form });

const storedLayout = async (userId: number): Promise<DashboardLayout> => {
  const row = await db.selectFrom("users").select("dashboard").where("id", "=", userId).executeTakeFirstOrThrow();
  const parsed = parseLayout(row.dashboard);
  expect(parsed.status).toBe("ok");
  return parsed.layout;
};
const setStored = (userId: number, text: string | null) =>
  db.updateTable("users").set({ dashboard: text }).where("id", "=", userId).execute();

describe("home dashboard loader", () => {
  it("shows a new user the default layout with the usage summary and only the layout's dashlets", async () => {
    const w = await world();
    const res = await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?${RANGE}`);
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.editing).toBe(false);
    expect(data.layoutStatus).toBe("unset");
    expect(data.layout).toEqual(defaultLayout());
    expect(data.summary).toEqual(
      await analytics.aggregateUsage({ organizationId: w.org.id, range: { startMs: w.day, endMs: w.day + DAY, offsetMs: 0 } }),
    );
    expect(data.summary).toMatchObject({ footfall: 4, connections: 3, abandoned: 1, upload: 3_500, download: 11_500 });
    expect(Object.keys(data.dashlets).sort()).toEqual([...dashletsIn(defaultLayout())].sort());
    expect(data.dashlets.top_networks.map((r: { venueName: string }) => r.venueName)).toEqual(["Alpha Cafe", "Beta Mall"]);
    expect(data.dashlets.auth_mode_pie).toEqual(
      expect.arrayContaining([
        { mode: "sms", connections: 2 },
        { mode: "voucher", connections: 1 },
      ]),
    );
    expect(data.dashlets.who_is_online).toMatchObject({ allowed: true, page: { total: 0 } });
    expect(data.filterQuery).toBe(RANGE);
  });

  it("narrows every figure to the chosen venues", async () => {
    const w = await world();
    const data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?${RANGE}&venues=${w.venueB}`)).json();
    expect(data.selectedVenues).toEqual([w.venueB]);
    expect(data.summary).toMatchObject({ footfall: 2, connections: 1, abandoned: 1 });
    expect(data.dashlets.top_networks.map((r: { venueName: string }) => r.venueName)).toEqual(["Beta Mall"]);
    expect(data.filterQuery).toBe(`${RANGE}&venues=${w.venueB}`);
  });

  it("answers 404 for another organisation, its venues, and malformed venue ids", async () => {
    const w = await world();
    const other = await makeOrg("Elsewhere Ltd");
    const foreignVenue = await db.insertInto("venues").values(buildVenue(other.org.id)).returning("id").executeTakeFirstOrThrow();
    expect((await get(home.loader as Route, w.owner.id, other.org.id, `/${other.org.id}`)).status).toBe(404);
    expect((await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?venues=${foreignVenue.id}`)).status).toBe(404);
    expect((await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?venues=abc`)).status).toBe(404);
    await setStored(
      w.owner.id,
      JSON.stringify({
        content: [
          {
            id: "r1",
            type: "row",
            content: [{ id: "c1", type: "col", content: [{ id: "d1", type: "dashlet", dashlet: "indoor_heatmap" }] }],
          },
        ],
      }),
    );
    expect((await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?heatmap_venue=${foreignVenue.id}`)).status).toBe(404);
    expect((await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?heatmap_venue=x1`)).status).toBe(404);
    expect((await post(w.owner.id, other.org.id, { intent: "add-row", layout: "full" })).status).toBe(404);
  });

  it("opens edit mode when the dashboard has no items, and falls back to the default for a corrupt one", async () => {
    const w = await world();
    await setStored(w.owner.id, serializeLayout(emptyLayout()));
    let data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}`)).json();
    expect(data).toMatchObject({ editing: true, layoutStatus: "ok", layout: { content: [] }, dashlets: {} });
    await setStored(
      w.owner.id,
      '{"content":[{"id":"r1","type":"row","content":[{"id":"c1","type":"col","content":[{"id":"d1","type":"dashlet","dashlet":"<img onerror=alert(1)>"}]}]}]}',
    );
    data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}`)).json();
    expect(data.layoutStatus).toBe("invalid");
    expect(data.layout).toEqual(defaultLayout());
  });

  it("hides the connection dashlets from a member without view_clients", async () => {
    const w = await world();
    const member = await makeMember(w.org.id, "custom", ["view_networks"]);
    const data = await (await get(home.loader as Route, member.user.id, w.org.id, `/${w.org.id}?${RANGE}`)).json();
    expect(data.dashlets.who_is_online).toEqual({ allowed: false });
    expect(data.summary.footfall).toBe(4);
  });

  it("reports access points online when seen or used in the last 15 minutes", async () => {
    const w = await world();
    const now = Date.now();
    await db
      .updateTable("access_points")
      .set({ last_seen_at: now - 5 * MIN })
      .where("id", "=", w.apA.id)
      .execute();
    const idle = await db
      .insertInto("access_points")
      .values(buildAccessPoint(w.org.id, w.venueB, { name: "Zeta idle", last_seen_at: now - 60 * MIN }))
      .returning("id")
      .executeTakeFirstOrThrow();
    await w.connect("b", { created_at: now - 2 * MIN });
    await setStored(
      w.owner.id,
      JSON.stringify({
        content: [
          {
            id: "r1",
            type: "row",
            content: [
              { id: "c1", type: "col", width: "width-full", content: [{ id: "d1", type: "dashlet", dashlet: "access_point_status" }] },
            ],
          },
        ],
      }),
    );
    const data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}`)).json();
    const status = data.dashlets.access_point_status;
    expect(status).toMatchObject({ total: 3, online: 2, windowMinutes: 15 });
    expect(status.rows.map((r: { name: string; online: boolean }) => [r.name, r.online])).toEqual([
      ["Alpha AP", true],
      ["Beta AP", true],
      ["Zeta idle", false],
    ]);
    expect(status.rows[2].id).toBe(idle.id);
    expect(Object.keys(data.dashlets)).toEqual(["access_point_status"]);
  });

  it("counts an access point online while a guest is online through it, however long ago they connected", async () => {
    const w = await world();
    const now = Date.now();
    // Alpha: a guest connected 40 minutes ago and still online (no report from the access point since).
    await w.connect("a", { created_at: now - 40 * MIN, authorized_at: now - 40 * MIN, ended_at: null });
    await setStored(
      w.owner.id,
      JSON.stringify({
        content: [
          {
            id: "r1",
            type: "row",
            content: [
              { id: "c1", type: "col", width: "width-full", content: [{ id: "d1", type: "dashlet", dashlet: "access_point_status" }] },
            ],
          },
        ],
      }),
    );
    const data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}`)).json();
    expect(data.dashlets.access_point_status).toMatchObject({ total: 2, online: 1 });
    expect(data.dashlets.access_point_status.rows.map((r: { name: string; online: boolean }) => [r.name, r.online])).toEqual([
      ["Alpha AP", true],
      ["Beta AP", false],
    ]);
  });

  it("draws the indoor heatmap of the chosen venue with its access points' footfall", async () => {
    const w = await world();
    await db.updateTable("access_points").set({ layout_x: 100, layout_y: 200 }).where("id", "=", w.apA.id).execute();
    await setStored(
      w.owner.id,
      JSON.stringify({
        content: [
          {
            id: "r1",
            type: "row",
            content: [{ id: "c1", type: "col", content: [{ id: "d1", type: "dashlet", dashlet: "indoor_heatmap" }] }],
          },
        ],
      }),
    );
    const data = await (await get(home.loader as Route, w.owner.id, w.org.id, `/${w.org.id}?${RANGE}&heatmap_venue=${w.venueA}`)).json();
    const heat = data.dashlets.indoor_heatmap;
    expect(heat.venues.map((v: { name: string }) => v.name)).toEqual(["Alpha Cafe", "Beta Mall"]);
    expect(heat.venue).toMatchObject({
      id: w.venueA,
      imageUrl: null,
      accessPoints: [{ name: "Alpha AP", x: 100, y: 200, footfall: 2, connections: 2 }],
    });
    expect(heat.venue.traffic).toEqual([
      { weekday: 1, hour: 9, footfall: 1 },
      { weekday: 1, hour: 10, footfall: 1 },
    ]);
  });
});

describe("dashboard edits", () => {
  it("adds a row with a layout, fills its cells, moves it and removes it, saving each change", async () => {
    const { org, owner } = await makeOrg();
    const added = await post(owner.id, org.id, { intent: "add-row", layout: "half_half" }, "edit=1&start=2026-11-01");
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/${org.id}?edit=1&start=2026-11-01`);
    let layout = await storedLayout(owner.id);
    expect(layout.content).toHaveLength(defaultLayout().content.length + 1);
    const row = layout.content.at(-1)!;
    expect(row.content.map((c) => [c.width, c.content.length])).toEqual([
      ["width-1-2", 0],
      ["width-1-2", 0],
    ]);

    // With JavaScript the fetcher gets JSON instead of a redirect.
    const filled = await post(owner.id, org.id, { intent: "set-dashlet", col: row.content[0].id, dashlet: "footfall", _fetcher: "1" });
    expect(filled.status).toBe(200);
    expect(await filled.json()).toEqual({ ok: true });
    await post(owner.id, org.id, { intent: "set-dashlet", col: row.content[1].id, dashlet: "dwell_time" });
    layout = await storedLayout(owner.id);
    expect(layout.content.at(-1)!.content.map((c) => c.content[0]?.dashlet)).toEqual(["footfall", "dwell_time"]);

    await post(owner.id, org.id, { intent: "move-row", row: row.id, direction: "up" });
    layout = await storedLayout(owner.id);
    expect(layout.content.at(-2)!.id).toBe(row.id);
    // Moving the first row up changes nothing.
    const first = layout.content[0].id;
    expect((await post(owner.id, org.id, { intent: "move-row", row: first, direction: "up" })).status).toBe(302);
    expect((await storedLayout(owner.id)).content.map((r) => r.id)).toEqual(layout.content.map((r) => r.id));

    const footfallId = layout.content.at(-2)!.content[0].content[0].id;
    await post(owner.id, org.id, { intent: "remove-dashlet", dashlet_id: footfallId });
    layout = await storedLayout(owner.id);
    expect(dashletsIn(layout)).not.toContain("footfall");
    expect(dashletsIn(layout)).toContain("dwell_time");

    await post(owner.id, org.id, { intent: "remove-row", row: row.id });
    expect((await storedLayout(owner.id)).content.map((r) => r.id)).toEqual(defaultLayout().content.map((r) => r.id));
  });

  it("refuses bad edits with a message and changes nothing", async () => {
    const { org, owner } = await makeOrg();
    await setStored(owner.id, serializeLayout(defaultLayout()));
    const unknownIntent = await post(owner.id, org.id, { intent: "drop" });
    expect(unknownIntent.status).toBe(400);
    const noLayout = await post(owner.id, org.id, { intent: "add-row", layout: "five_fifths" });
    expect(noLayout.status).toBe(400);
    expect(await noLayout.json()).toEqual({ ok: false, error: DASHBOARD_MESSAGES.layout });
    const gone = await post(owner.id, org.id, { intent: "remove-row", row: "r999" });
    expect(gone.status).toBe(409);
    expect((await gone.json()).error).toMatch(/no longer exists/);
    expect(await storedLayout(owner.id)).toEqual(defaultLayout());
  });

  it("replaces a corrupt stored layout with the edited default on the first change", async () => {
    const { org, owner } = await makeOrg();
    await setStored(owner.id, "{not json");
    await post(owner.id, org.id, { intent: "add-row", layout: "full" });
    const layout = await storedLayout(owner.id);
    expect(layout.content).toHaveLength(defaultLayout().content.length + 1);
  });

  it("keeps each user's dashboard to themselves", async () => {
    const { org, owner } = await makeOrg();
    const member = await makeMember(org.id, "r");
    await post(member.user.id, org.id, { intent: "add-row", layout: "full" });
    const row = await db.selectFrom("users").select("dashboard").where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(row.dashboard).toBeNull();
  });
});

describe("dashboard exports", () => {
  const exportOf = (userId: number, orgId: number, file: string, query = RANGE) =>
    get(exportRoute.loader as Route, userId, orgId, `/${orgId}/exports/${file}?${query}`, { file });

  it("names the summary after its dates and writes the summary's figures", async () => {
    const w = await world();
    const res = await exportOf(w.owner.id, w.org.id, "dashboard_summary_data.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="dashboard_summary_data_${DAY_ISO}_to_${DAY_ISO}.csv"`);
    const [header, row] = (await res.text()).trim().split("\n");
    expect(header).toBe(
      "Start,End,Upload (bytes),Download (bytes),Bandwidth (bytes),New customers,Repeat customers,Connections,Footfall,Dwell time (seconds),Abandoned,Average dwell time (seconds)",
    );
    // Numbers a spreadsheet can sum: bytes and seconds, the unit in the header.
    expect(row).toBe(`${DAY_ISO},${DAY_ISO},3500,11500,15000,2,0,3,4,6300,1,2100`);
  });

  it("writes the top networks, top access points and share summaries under the spec's names", async () => {
    const w = await world();
    const networks = await exportOf(w.owner.id, w.org.id, "top_networks.csv");
    expect(networks.headers.get("Content-Disposition")).toBe('attachment; filename="top_networks.csv"');
    expect((await networks.text()).trim().split("\n")).toEqual([
      "#,Venue,Footfall,Connections,Bandwidth (bytes)",
      "1,Alpha Cafe,2,2,14000",
      "2,Beta Mall,2,1,1000",
    ]);
    const aps = await exportOf(w.owner.id, w.org.id, "top_access_points.csv");
    expect(aps.headers.get("Content-Disposition")).toBe('attachment; filename="top_access_points.csv"');
    expect((await aps.text()).split("\n")[1]).toBe(`1,Alpha AP,${w.apA.mac_address},2,2,14000`);
    const modes = await exportOf(w.owner.id, w.org.id, "auth_mode_summary.csv");
    expect((await modes.text()).trim().split("\n")).toEqual(["Mode,Connections", "SMS,2", "Voucher,1"]);
    const types = await exportOf(w.owner.id, w.org.id, "device_type_summary.csv");
    expect((await types.text()).trim().split("\n").slice(1).sort()).toEqual(["Desktop,1,1", "Mobile,2,2", "Unknown,0,1"]);
    for (const file of ["os_summary.csv", "device_brand_summary.csv", "browser_summary.csv"]) {
      const res = await exportOf(w.owner.id, w.org.id, file);
      expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="${file}"`);
    }
    expect((await (await exportOf(w.owner.id, w.org.id, "browser_summary.csv")).text()).trim().split("\n").slice(1).sort()).toEqual([
      "Chrome,2,2",
      "Firefox,1,1",
      "Unknown,0,1",
    ]);
  });

  it("neutralises spreadsheet formulas in names", async () => {
    const w = await world();
    await db.updateTable("venues").set({ name: '=HYPERLINK("x")' }).where("id", "=", w.venueA).execute();
    const text = await (await exportOf(w.owner.id, w.org.id, "top_networks.csv")).text();
    expect(text).toContain(`1,"'=HYPERLINK(""x"")"`);
  });

  it("says 'No data available to export.' when there is nothing: back to the page for a browser, 404 for a script", async () => {
    const { org, owner } = await makeOrg();
    const res = await exportOf(owner.id, org.id, "top_networks.csv");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/top_networks?${RANGE}`);
    expect(await toastOf(res)).toEqual({ type: "error", message: "No data available to export." });
    const summary = await exportOf(owner.id, org.id, "dashboard_summary_data.csv");
    expect(summary.headers.get("Location")).toBe(`/${org.id}?${RANGE}`);
    const token = await issueToken(owner.id, "api");
    const script = await run(() =>
      exportRoute.loader({
        request: makeRequest(`/${org.id}/exports/os_summary.csv?${RANGE}`, { headers: { Authorization: `Bearer ${token}` } }),
        params: { orgId: String(org.id), file: "os_summary.csv" },
        context: {},
      }),
    );
    expect(script.status).toBe(404);
    expect(await script.text()).toBe("No data available to export.");
  });

  it("is reachable with a bearer token and 404 for another organisation, its venues or an unknown file", async () => {
    const w = await world();
    const token = await issueToken(w.owner.id, "api");
    const viaToken = await run(() =>
      exportRoute.loader({
        request: makeRequest(`/${w.org.id}/exports/top_networks.csv?${RANGE}`, { headers: { Authorization: `Bearer ${token}` } }),
        params: { orgId: String(w.org.id), file: "top_networks.csv" },
        context: {},
      }),
    );
    expect(viaToken.status).toBe(200);
    expect(await viaToken.text()).toContain("Alpha Cafe");
    const other = await makeOrg("Other Org");
    const foreignVenue = await db.insertInto("venues").values(buildVenue(other.org.id)).returning("id").executeTakeFirstOrThrow();
    expect((await exportOf(w.owner.id, other.org.id, "top_networks.csv")).status).toBe(404);
    expect((await exportOf(w.owner.id, w.org.id, "top_networks.csv", `${RANGE}&venues=${foreignVenue.id}`)).status).toBe(404);
    expect((await exportOf(w.owner.id, w.org.id, "passwords.csv")).status).toBe(404);
  });
});

describe("top networks and top access points pages", () => {
  it("list the top 5 by bandwidth by default, more on request, with the filters in the export link", async () => {
    const w = await world();
    for (let i = 0; i < 6; i++) {
      const v = await db
        .insertInto("venues")
        .values(buildVenue(w.org.id, { name: `Extra ${i}` }))
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("connections")
        .values({
          organization_id: w.org.id,
          venue_id: v.id,
          created_at: w.day + HOUR,
          authorized_at: w.day + HOUR,
          ended_at: w.day + 2 * HOUR,
          upload: 10 + i,
          download: 0,
        })
        .execute();
    }
    const res = await get(topNetworks.loader as Route, w.owner.id, w.org.id, `/${w.org.id}/top_networks?${RANGE}`);
    const data = await res.json();
    expect(data.rows).toHaveLength(5);
    expect(data.rows[0].venueName).toBe("Alpha Cafe");
    expect(data.exportHref).toBe(`/${w.org.id}/exports/top_networks.csv?${RANGE}`);
    const more = await (await get(topNetworks.loader as Route, w.owner.id, w.org.id, `/${w.org.id}/top_networks?${RANGE}&limit=10`)).json();
    expect(more.rows).toHaveLength(8);
    expect(more.exportHref).toBe(`/${w.org.id}/exports/top_networks.csv?${RANGE}&limit=10`);
    // An odd limit falls back to 5, never an error.
    expect(
      (await (await get(topNetworks.loader as Route, w.owner.id, w.org.id, `/${w.org.id}/top_networks?limit=99999`)).json()).limit,
    ).toBe(5);

    const aps = await (
      await get(topAccessPoints.loader as Route, w.owner.id, w.org.id, `/${w.org.id}/top_access_points?${RANGE}&venues=${w.venueB}`)
    ).json();
    expect(aps.rows.map((r: { apName: string }) => r.apName)).toEqual(["Beta AP"]);
    expect(aps.exportHref).toBe(`/${w.org.id}/exports/top_access_points.csv?${RANGE}&venues=${w.venueB}`);
    const other = await makeOrg("Other");
    expect((await get(topAccessPoints.loader as Route, w.owner.id, other.org.id, `/${other.org.id}/top_access_points`)).status).toBe(404);
  });
});

describe("the organization's today", () => {
  afterEach(() => vi.useRealTimers());

  it("starts at 21:00 UTC the day before in Nairobi: at 01:00 UTC the dashboard's today holds the guest of 22:00 UTC", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 10, 3, 1, 0)); // 01:00 UTC = 04:00 in Nairobi, 3 November
    const nairobi = await makeNetwork("Nairobi Org");
    const utc = await makeNetwork("UTC Org");
    await db
      .updateTable("organizations")
      .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * HOUR })
      .where("id", "=", nairobi.org.id)
      .execute();
    for (const net of [nairobi, utc]) {
      const guest = await net.customer();
      // 22:00 UTC on the 2nd is 01:00 on the 3rd in Nairobi; 20:30 UTC is still the 2nd there.
      await net.connect("a", {
        customer_id: guest,
        created_at: Date.UTC(2026, 10, 2, 22, 0),
        authorized_at: Date.UTC(2026, 10, 2, 22, 1),
        ended_at: Date.UTC(2026, 10, 2, 23, 1),
      });
      await net.connect("b", { created_at: Date.UTC(2026, 10, 2, 20, 30) });
    }

    const res = await get(home.loader as Route, nairobi.owner.id, nairobi.org.id, `/${nairobi.org.id}`);
    const data = await res.json();
    expect(data.range).toMatchObject({
      start: "2026-11-03",
      end: "2026-11-03",
      startMs: Date.UTC(2026, 10, 2, 21),
      endMs: Date.UTC(2026, 10, 3, 21),
      offsetMs: 3 * HOUR,
    });
    expect(data.summary).toMatchObject({ footfall: 1, connections: 1, newCustomers: 1, dwellTime: 3_600 });
    const yesterday = await (
      await get(home.loader as Route, nairobi.owner.id, nairobi.org.id, `/${nairobi.org.id}?start=2026-11-02&end=2026-11-02`)
    ).json();
    expect(yesterday.summary).toMatchObject({ footfall: 1, connections: 0 });

    // The same rows in a UTC organization: today (3 November) has neither, 2 November both.
    const utcToday = await (await get(home.loader as Route, utc.owner.id, utc.org.id, `/${utc.org.id}`)).json();
    expect(utcToday.range).toMatchObject({ start: "2026-11-03", startMs: Date.UTC(2026, 10, 3), offsetMs: 0 });
    expect(utcToday.summary).toMatchObject({ footfall: 0, connections: 0 });
    const utcYesterday = await (
      await get(home.loader as Route, utc.owner.id, utc.org.id, `/${utc.org.id}?start=2026-11-02&end=2026-11-02`)
    ).json();
    expect(utcYesterday.summary).toMatchObject({ footfall: 2, connections: 1 });
  });
});
