// The network map page (positions, centre and polygon, zones) and the layout API routes
// (PUT access_points/map/{id}, POST/GET assets), on SQLite and PostgreSQL.
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { MAX_ZONES_PER_VENUE, POLYGON_MESSAGES } from "~/lib/layout";
import { LAYOUT_MESSAGES } from "~/lib/schemas/layout";
import * as apMap from "~/routes/account+/api.v1.access_points.map.$id";
import * as assets from "~/routes/account+/api.v1.assets";
import * as mapPage from "~/routes/$orgId+/_networks+/venues+/$venueId+/map";
import * as worker from "~/routes/vendor+/maplibre-gl-worker[.]mjs";
import { issueToken } from "~/services/auth.server";
import { BASE, makeMember, makeOrg, makeRequest, run, sessionCookie } from "../fixtures";
import { JPEG, makeAccessPoint, makeVenue, multipartRequest, PNG, useTemporaryAssetStore } from "../fixtures/layout";

const store = useTemporaryAssetStore();
afterAll(() => store.cleanup());

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function setup() {
  const { org, owner } = await makeOrg();
  const venue = await makeVenue(org.id, { name: "Java House" });
  const ap = await makeAccessPoint(org.id, venue.id, { name: "Lobby" });
  return { org, owner, venue, ap, cookie: await sessionCookie(owner.id) };
}

function page(fn: RouteFunction, orgId: number, venueId: number, cookie: string, form?: Record<string, string>) {
  const request = makeRequest(`/${orgId}/venues/${venueId}/map`, { cookie, form });
  return run(() => fn({ request, params: { orgId: String(orgId), venueId: String(venueId) }, context: {} }));
}

const apRow = (id: number) => db.selectFrom("access_points").select(["lat", "lng"]).where("id", "=", id).executeTakeFirstOrThrow();
const venueRow = (id: number) =>
  db
    .selectFrom("venues")
    .select(["lat", "lng", "map_zoom", "layout_polygon", "layout_image"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const zoneCount = (venueId: number) =>
  db
    .selectFrom("venue_zones")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("venue_id", "=", venueId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));

const polygon = [
  { lat: -1.2866, lng: 36.8169 },
  { lat: -1.2862, lng: 36.8169 },
  { lat: -1.2862, lng: 36.8175 },
];

describe("the map page", () => {
  it("centres on Nairobi at zoom 19 with no saved centre, and on the venue once it has one; no style URL by default", async () => {
    const { org, venue, ap, cookie } = await setup();
    const data = await (await page(mapPage.loader, org.id, venue.id, cookie)).json();
    expect(data).toMatchObject({ center: { lat: -1.286389, lng: 36.817223 }, zoom: 19, styleUrl: null, canEdit: true, zones: [] });
    expect(data.accessPoints).toEqual([expect.objectContaining({ id: ap.id, name: "Lobby", placed: false })]);

    await db.updateTable("venues").set({ lat: 0.5, lng: 30.25, map_zoom: 17 }).where("id", "=", venue.id).execute();
    await db.updateTable("access_points").set({ lat: 0.5001, lng: 30.2501 }).where("id", "=", ap.id).execute();
    const moved = await (await page(mapPage.loader, org.id, venue.id, cookie)).json();
    expect(moved).toMatchObject({ center: { lat: 0.5, lng: 30.25 }, zoom: 17 });
    expect(moved.accessPoints[0]).toMatchObject({ lat: 0.5001, lng: 30.2501, placed: true });
  });

  it("saves a dropped marker (fetcher) and typed positions (form), exactly, on both databases", async () => {
    const { org, venue, ap, cookie } = await setup();
    const dropped = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "ap-position",
      fetcher: "1",
      id: String(ap.id),
      lat: "-1.28641234567",
      lng: "36.81721234567",
    });
    expect(await dropped.json()).toEqual({ ok: true });
    expect(await apRow(ap.id)).toEqual({ lat: -1.28641234567, lng: 36.81721234567 });

    const typed = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "positions",
      "positions[0].id": String(ap.id),
      "positions[0].lat": "",
      "positions[0].lng": "",
    });
    expect(typed.status).toBe(302);
    expect(await apRow(ap.id)).toEqual({ lat: null, lng: null });

    const bad = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "ap-position",
      fetcher: "1",
      id: String(ap.id),
      lat: "91",
      lng: "0",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ ok: false, message: LAYOUT_MESSAGES.lat });
  });

  it("Update Layout saves the polygon with the map's centre and zoom; the typed form can clear it; bad polygons are refused", async () => {
    const { org, venue, cookie } = await setup();
    const update = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "update-layout",
      fetcher: "1",
      layout_polygon: JSON.stringify([polygon]),
      lat: "-1.2864",
      lng: "36.8172",
      map_zoom: "18.5",
    });
    expect(await update.json()).toEqual({ ok: true });
    expect(await venueRow(venue.id)).toMatchObject({ lat: -1.2864, lng: 36.8172, map_zoom: 18.5 });
    expect(JSON.parse((await venueRow(venue.id)).layout_polygon!)).toEqual([polygon]);

    const refused = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "venue-map",
      layout_polygon: '[[{"lat": 1}]]',
      map_zoom: "40",
    });
    expect(refused.status).toBe(400);
    const { result } = await refused.json();
    expect(result.error).toMatchObject({ layout_polygon: [POLYGON_MESSAGES.tooFewPoints], map_zoom: [LAYOUT_MESSAGES.zoom] });
    expect(JSON.parse((await venueRow(venue.id)).layout_polygon!)).toEqual([polygon]);

    const cleared = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "venue-map",
      lat: "-1.2864",
      lng: "36.8172",
      map_zoom: "",
      layout_polygon: "",
    });
    expect(cleared.status).toBe(302);
    expect(await venueRow(venue.id)).toMatchObject({ layout_polygon: null, map_zoom: 18.5 });
  });

  it("adds zones by click (fetcher) or corner (form) and removes them after a confirmation", async () => {
    const { org, venue, cookie } = await setup();
    expect(
      await (
        await page(mapPage.action, org.id, venue.id, cookie, { intent: "add-zone", fetcher: "1", lat: "-1.2865", lng: "36.8170" })
      ).json(),
    ).toEqual({ ok: true });
    expect((await page(mapPage.action, org.id, venue.id, cookie, { intent: "add-zone", lat: "-1.2875", lng: "36.8180" })).status).toBe(302);
    const { zones } = await (await page(mapPage.loader, org.id, venue.id, cookie)).json();
    expect(zones).toHaveLength(2);
    expect(zones[0].polygon).toEqual([
      { lat: -1.2865, lng: 36.817 },
      { lat: -1.2855, lng: 36.817 },
      { lat: -1.2855, lng: 36.818 },
      { lat: -1.2865, lng: 36.818 },
    ]);

    const ask = await page(mapPage.action, org.id, venue.id, cookie, { intent: "remove-zone", zone_id: String(zones[0].id) });
    expect(await ask.json()).toEqual({
      confirm: { message: "Remove this zone from the map?", intent: "remove-zone", fields: { zone_id: String(zones[0].id) } },
    });
    expect(await zoneCount(venue.id)).toBe(2);
    const removed = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "remove-zone",
      zone_id: String(zones[0].id),
      confirmed: "yes",
    });
    expect(removed.status).toBe(302);
    expect(await zoneCount(venue.id)).toBe(1);

    const missing = await page(mapPage.action, org.id, venue.id, cookie, { intent: "add-zone", lat: "", lng: "36" });
    expect((await missing.json()).result.error).toMatchObject({ lat: [LAYOUT_MESSAGES.lat] });
  });

  it(`stops at ${MAX_ZONES_PER_VENUE} zones with a message`, async () => {
    const { org, venue, cookie } = await setup();
    const row = { organization_id: org.id, venue_id: venue.id, polygon: "[]", created_at: Date.now() };
    await db
      .insertInto("venue_zones")
      .values(Array.from({ length: MAX_ZONES_PER_VENUE }, () => row))
      .execute();
    const refused = await page(mapPage.action, org.id, venue.id, cookie, { intent: "add-zone", fetcher: "1", lat: "0", lng: "0" });
    expect(await refused.json()).toEqual({ ok: false, message: `A network can have at most ${MAX_ZONES_PER_VENUE} zones.` });
    expect(await zoneCount(venue.id)).toBe(MAX_ZONES_PER_VENUE);
  });

  it("needs edit_network_layout for every change: refusals come back as data to fetchers and as 403 to forms", async () => {
    const { org, venue, ap, cookie } = await setup();
    await page(mapPage.action, org.id, venue.id, cookie, { intent: "add-zone", lat: "0", lng: "0" });
    const viewer = await makeMember(org.id, "r");
    const viewerCookie = await sessionCookie(viewer.user.id);
    const view = await (await page(mapPage.loader, org.id, venue.id, viewerCookie)).json();
    expect(view.canEdit).toBe(false);
    expect(view.zones).toHaveLength(1);

    for (const intent of ["ap-position", "update-layout", "add-zone"]) {
      const res = await page(mapPage.action, org.id, venue.id, viewerCookie, {
        intent,
        fetcher: "1",
        id: String(ap.id),
        lat: "1",
        lng: "1",
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ ok: false, message: "You do not have permission to do that." });
    }
    for (const intent of ["positions", "venue-map", "add-zone", "remove-zone"]) {
      const res = await page(mapPage.action, org.id, venue.id, viewerCookie, {
        intent,
        zone_id: String(view.zones[0].id),
        confirmed: "yes",
        lat: "1",
        lng: "1",
      });
      expect(res.status).toBe(403);
    }
    expect(await apRow(ap.id)).toEqual({ lat: null, lng: null });
    expect(await zoneCount(venue.id)).toBe(1);
  });

  it("answers 404 for another organisation's network, access point or zone", async () => {
    const { org, venue, cookie } = await setup();
    const other = await makeOrg("Other Org");
    const otherVenue = await makeVenue(other.org.id);
    const otherAp = await makeAccessPoint(other.org.id, otherVenue.id);
    const otherCookie = await sessionCookie(other.owner.id);
    await page(mapPage.action, other.org.id, otherVenue.id, otherCookie, { intent: "add-zone", lat: "0", lng: "0" });
    const [otherZone] = await db.selectFrom("venue_zones").select("id").where("venue_id", "=", otherVenue.id).execute();

    expect((await page(mapPage.loader, org.id, otherVenue.id, cookie)).status).toBe(404);
    expect((await page(mapPage.action, org.id, otherVenue.id, cookie, { intent: "add-zone", lat: "0", lng: "0" })).status).toBe(404);
    const foreignAp = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "ap-position",
      fetcher: "1",
      id: String(otherAp.id),
      lat: "1",
      lng: "1",
    });
    expect(foreignAp.status).toBe(404);
    expect(await foreignAp.json()).toEqual({ ok: false, message: "Access point not found." });
    const typedForeign = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "positions",
      "positions[0].id": String(otherAp.id),
      "positions[0].lat": "1",
      "positions[0].lng": "1",
    });
    expect(typedForeign.status).toBe(404);
    const foreignZone = await page(mapPage.action, org.id, venue.id, cookie, {
      intent: "remove-zone",
      zone_id: String(otherZone.id),
      confirmed: "yes",
    });
    expect(foreignZone.status).toBe(404);
    expect(await apRow(otherAp.id)).toEqual({ lat: null, lng: null });
    expect(await zoneCount(otherVenue.id)).toBe(1);
  });
});

describe("layout API", () => {
  async function apiSetup() {
    const base = await setup();
    return { ...base, token: await issueToken(base.owner.id, "api") };
  }
  const api = (
    fn: RouteFunction,
    path: string,
    init: { method: string; token: string; body?: BodyInit; headers?: Record<string, string> },
    params: Record<string, string> = {},
  ) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${init.token}`);
    const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method: init.method, headers, body: init.body });
    return run(() => fn({ request, params, context: {} }));
  };
  const json = { "Content-Type": "application/json" };

  it("PUT access_points/map/{id} saves lat and lng, validates them and needs edit_network_layout", async () => {
    const { org, ap, token } = await apiSetup();
    const put = (t: string, body: unknown, id = ap.id) =>
      api(
        apMap.action,
        `access_points/map/${id}`,
        { method: "PUT", token: t, body: JSON.stringify(body), headers: { ...json, "X-Organization-Id": String(org.id) } },
        { id: String(id) },
      );
    const ok = await put(token, { lat: -1.2864, lng: 36.8172 });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toMatchObject({
      message: "Access point position saved.",
      access_point: { id: ap.id, lat: -1.2864, lng: 36.8172 },
    });
    expect(await apRow(ap.id)).toEqual({ lat: -1.2864, lng: 36.8172 });

    const invalid = await put(token, { lat: "north", lng: 200 });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).errors).toEqual({ lat: [LAYOUT_MESSAGES.lat], lng: [LAYOUT_MESSAGES.lng] });

    const viewer = await makeMember(org.id, "r");
    const refused = await put(await issueToken(viewer.user.id, "api"), { lat: 1, lng: 1 });
    expect(refused.status).toBe(403);

    const other = await makeOrg("Other Org");
    const foreign = await makeAccessPoint(other.org.id, (await makeVenue(other.org.id)).id);
    const notFound = await put(token, { lat: 1, lng: 1 }, foreign.id);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ error: { message: "Access point not found." } });
    expect(await apRow(foreign.id)).toEqual({ lat: null, lng: null });
    expect((await api(apMap.loader, `access_points/map/${ap.id}`, { method: "GET", token }, { id: String(ap.id) })).status).toBe(405);
  });

  it("POST assets uploads a {venueId}_floor_plan as the network's plan; GET assets lists the plans", async () => {
    const { org, venue, token } = await apiSetup();
    const post = (
      fields: Record<string, string>,
      file: { bytes: Uint8Array; name: string } | null,
      headers: Record<string, string> = {},
    ) => {
      const request = multipartRequest("/account/api/v1/assets", null, file, fields, { Authorization: `Bearer ${token}`, ...headers });
      return run(() => assets.action({ request, params: {}, context: {} }));
    };
    const created = await post({ organization_id: String(org.id), name: `${venue.id}_floor_plan` }, { bytes: PNG, name: "plan.png" });
    expect(created.status).toBe(201);
    const { file } = (await created.json()).data;
    expect(file.name).toBe(`${venue.id}_floor_plan`);
    expect(file.url).toMatch(new RegExp(`^http://localhost/${org.id}/venues/${venue.id}/layout-image\\?v=[0-9a-f]+$`));
    expect((await venueRow(venue.id)).layout_image).toMatch(/\.png$/);

    const wrongType = await post(
      { name: `${venue.id}_floor_plan` },
      { bytes: Buffer.from("<svg/>"), name: "plan.png" },
      { "X-Organization-Id": String(org.id) },
    );
    expect(wrongType.status).toBe(422);
    expect((await wrongType.json()).errors).toEqual({ file: ["The file must be a PNG, JPEG or WebP image."] });
    // A name ending in _floor_plan without a network id is refused (any other name is a splash image: api-splash.test.ts).
    const badName = await post({ organization_id: String(org.id), name: "logo_floor_plan" }, { bytes: JPEG, name: "logo.jpg" });
    expect(badName.status).toBe(422);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    const tooLarge = await post({ organization_id: String(org.id), name: `${venue.id}_floor_plan` }, { bytes: big, name: "big.png" });
    expect(tooLarge.status).toBe(413);

    const other = await makeOrg("Other Org");
    const foreignVenue = await makeVenue(other.org.id);
    const foreign = await post(
      { organization_id: String(org.id), name: `${foreignVenue.id}_floor_plan` },
      { bytes: PNG, name: "plan.png" },
    );
    expect(foreign.status).toBe(404);
    expect((await venueRow(foreignVenue.id)).layout_image).toBeNull();

    const listed = await api(assets.loader, `assets?organization_id=${org.id}`, { method: "GET", token });
    expect((await listed.json()).data.files).toEqual([
      { name: `${venue.id}_floor_plan`, path: expect.stringMatching(`^/${org.id}/venues/${venue.id}/layout-image\\?v=`) },
    ]);
  });
});

describe("the map's worker", () => {
  it("is served from the installed maplibre-gl as JavaScript, immutable when versioned", async () => {
    const { version } = createRequire(import.meta.url)("maplibre-gl/package.json") as { version: string };
    const res = await run(() => worker.loader({ request: new Request(`${BASE}/vendor/maplibre-gl-worker.mjs?v=${version}`) }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.byteLength).toBe(Number(res.headers.get("Content-Length")));
    expect(body.toString("utf8")).toContain("MapLibre GL JS");
  });
});
