import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildConnection } from "~/tools/factories.server";
import { UPLOAD_MESSAGES } from "~/lib/image-type";
import { LAYOUT_MESSAGES } from "~/lib/schemas/layout";
import * as layoutImage from "~/routes/$orgId+/_networks+/venues+/$venueId+/layout-image";
import * as layoutPage from "~/routes/$orgId+/_networks+/venues+/$venueId+/layout";
import { JPEG, makeAccessPoint, makeVenue, multipartRequest, PNG, useTemporaryAssetStore, WEBP } from "../fixtures/layout";
import { makeMember, makeOrg, makeRequest, run, sessionCookie } from "../fixtures";

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

// The store outlives the tests of this file; each test checks its own keys.
const store = useTemporaryAssetStore();
afterAll(() => store.cleanup());

const params = (orgId: number, venueId: number | string) => ({ orgId: String(orgId), venueId: String(venueId) });
const call = (fn: RouteFunction, request: Request, orgId: number, venueId: number | string) =>
  run(() => fn({ request, params: params(orgId, venueId), context: {} }));

async function setup() {
  const { org, owner } = await makeOrg();
  const venue = await makeVenue(org.id, { name: "Java House" });
  const ap = await makeAccessPoint(org.id, venue.id, { name: "Lobby" });
  const cookie = await sessionCookie(owner.id);
  return { org, owner, venue, ap, cookie };
}

const venueRow = (id: number) => db.selectFrom("venues").select(["layout_image"]).where("id", "=", id).executeTakeFirstOrThrow();
const apRow = (id: number) =>
  db.selectFrom("access_points").select(["layout_x", "layout_y", "lat", "lng"]).where("id", "=", id).executeTakeFirstOrThrow();

function upload(orgId: number, venueId: number, cookie: string, bytes: Uint8Array, name: string) {
  return call(
    layoutPage.action,
    multipartRequest(`/${orgId}/venues/${venueId}/layout`, cookie, { bytes, name, type: "image/png" }),
    orgId,
    venueId,
  );
}

describe("floor-plan upload", () => {
  it.each([
    ["png", PNG, "plan.png", "image/png"],
    ["jpeg", JPEG, "plan.jpg", "image/jpeg"],
    ["webp", WEBP, "plan.webp", "image/webp"],
  ])("accepts a %s floor plan and serves it from the org-scoped image route", async (extension, bytes, name, contentType) => {
    const { org, venue, cookie } = await setup();
    const res = await upload(org.id, venue.id, cookie, bytes, name);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/venues/${venue.id}/layout`);
    const { layout_image } = await venueRow(venue.id);
    expect(layout_image).toMatch(new RegExp(`^floor-plans/${org.id}/venue-${venue.id}-[0-9a-f]+\\.${extension}$`));

    const page = await call(layoutPage.loader, makeRequest(`/${org.id}/venues/${venue.id}/layout`, { cookie }), org.id, venue.id);
    const data = await page.json();
    expect(data.imageUrl).toMatch(new RegExp(`^/${org.id}/venues/${venue.id}/layout-image\\?v=[0-9a-f]+$`));

    const image = await call(layoutImage.loader, makeRequest(data.imageUrl, { cookie }), org.id, venue.id);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe(contentType);
    expect(image.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(image.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const unversioned = await call(
      layoutImage.loader,
      makeRequest(`/${org.id}/venues/${venue.id}/layout-image`, { cookie }),
      org.id,
      venue.id,
    );
    expect(unversioned.headers.get("Cache-Control")).toBe("private, no-cache");
    const etag = unversioned.headers.get("ETag")!;
    const revalidated = await call(
      layoutImage.loader,
      makeRequest(`/${org.id}/venues/${venue.id}/layout-image`, { cookie, headers: { "If-None-Match": etag } }),
      org.id,
      venue.id,
    );
    expect(revalidated.status).toBe(304);
  });

  it("replaces the plan and removes the old file", async () => {
    const { org, venue, cookie } = await setup();
    await upload(org.id, venue.id, cookie, PNG, "first.png");
    const first = (await venueRow(venue.id)).layout_image!;
    expect(store.files().map((f) => f.split("\\").join("/"))).toContain(first);
    await upload(org.id, venue.id, cookie, JPEG, "second.jpg");
    const second = (await venueRow(venue.id)).layout_image!;
    expect(second).not.toBe(first);
    const files = store.files().map((f) => f.split("\\").join("/"));
    expect(files).toContain(second);
    expect(files).not.toContain(first);
  });

  it("refuses a text file named .png, a missing file and a file over 10 MB with clear messages, storing nothing", async () => {
    const { org, venue, cookie } = await setup();
    const before = store.files().length;
    const text = await upload(org.id, venue.id, cookie, Buffer.from("just some text, not a picture"), "plan.png");
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ form: "upload", message: UPLOAD_MESSAGES.wrongType });

    const missing = await call(
      layoutPage.action,
      multipartRequest(`/${org.id}/venues/${venue.id}/layout`, cookie, { bytes: new Uint8Array(), name: "" }),
      org.id,
      venue.id,
    );
    expect(await missing.json()).toEqual({ form: "upload", message: UPLOAD_MESSAGES.missing });

    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    PNG.copy(big);
    const tooLarge = await upload(org.id, venue.id, cookie, big, "huge.png");
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toEqual({ form: "upload", message: UPLOAD_MESSAGES.tooLarge });

    const exactly = Buffer.alloc(10 * 1024 * 1024);
    PNG.copy(exactly);
    expect((await upload(org.id, venue.id, cookie, exactly, "limit.png")).status).toBe(302);

    expect(store.files().length).toBe(before + 1);
  });

  it("needs edit_network_layout to upload; a member who may only view sees the plan", async () => {
    const { org, venue, cookie } = await setup();
    await upload(org.id, venue.id, cookie, PNG, "plan.png");
    const viewer = await makeMember(org.id, "custom", ["view_networks"]);
    const viewerCookie = await sessionCookie(viewer.user.id);
    const refused = await upload(org.id, venue.id, viewerCookie, JPEG, "other.jpg");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "You do not have permission to do that." });
    expect((await venueRow(venue.id)).layout_image).toMatch(/\.png$/);

    const page = await (
      await call(layoutPage.loader, makeRequest(`/${org.id}/venues/${venue.id}/layout`, { cookie: viewerCookie }), org.id, venue.id)
    ).json();
    expect(page.canEdit).toBe(false);
    const image = await call(layoutImage.loader, makeRequest(page.imageUrl, { cookie: viewerCookie }), org.id, venue.id);
    expect(image.status).toBe(200);

    const outsider = await makeMember(org.id, "custom", ["view_clients"]);
    const hidden = await call(
      layoutImage.loader,
      makeRequest(page.imageUrl, { cookie: await sessionCookie(outsider.user.id) }),
      org.id,
      venue.id,
    );
    expect(hidden.status).toBe(403);
  });

  it("answers 404 for another organisation's network, on the page, the upload and the image", async () => {
    const { org, venue, cookie } = await setup();
    await upload(org.id, venue.id, cookie, PNG, "plan.png");
    const other = await makeOrg("Other Org");
    const foreignVenue = await makeVenue(other.org.id);
    const otherCookie = await sessionCookie(other.owner.id);
    // The other owner, in their own organisation, asking for our venue's id.
    expect(
      (
        await call(
          layoutPage.loader,
          makeRequest(`/${other.org.id}/venues/${venue.id}/layout`, { cookie: otherCookie }),
          other.org.id,
          venue.id,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await call(
          layoutImage.loader,
          makeRequest(`/${other.org.id}/venues/${venue.id}/layout-image`, { cookie: otherCookie }),
          other.org.id,
          venue.id,
        )
      ).status,
    ).toBe(404);
    expect((await upload(other.org.id, venue.id, otherCookie, PNG, "x.png")).status).toBe(404);
    // …and in our organisation's URL, which they are no member of.
    expect(
      (await call(layoutPage.loader, makeRequest(`/${org.id}/venues/${venue.id}/layout`, { cookie: otherCookie }), org.id, venue.id))
        .status,
    ).toBe(404);
    // A venue without a plan, and malformed ids.
    expect(
      (
        await call(
          layoutImage.loader,
          makeRequest(`/${other.org.id}/venues/${foreignVenue.id}/layout-image`, { cookie: otherCookie }),
          other.org.id,
          foreignVenue.id,
        )
      ).status,
    ).toBe(404);
    expect((await call(layoutPage.loader, makeRequest(`/${org.id}/venues/abc/layout`, { cookie }), org.id, "abc")).status).toBe(404);
    expect(
      (await call(layoutPage.loader, makeRequest(`/${org.id}/venues/99999999999/layout`, { cookie }), org.id, "99999999999")).status,
    ).toBe(404);
  });
});

describe("access points on the floor plan", () => {
  const post = (orgId: number, venueId: number, cookie: string, form: Record<string, string>) =>
    call(layoutPage.action, makeRequest(`/${orgId}/venues/${venueId}/layout`, { cookie, form }), orgId, venueId);

  it("staggers unplaced access points and shows saved ones where they were put", async () => {
    const { org, venue, ap, cookie } = await setup();
    const placed = await makeAccessPoint(org.id, venue.id, { name: "Bar", layout_x: 640, layout_y: 350 });
    const another = await makeAccessPoint(org.id, venue.id, { name: "Terrace" });
    const data = await (
      await call(layoutPage.loader, makeRequest(`/${org.id}/venues/${venue.id}/layout`, { cookie }), org.id, venue.id)
    ).json();
    const byId = Object.fromEntries(data.markers.map((m: { id: number }) => [m.id, m]));
    expect(byId[placed.id]).toMatchObject({ x: 640, y: 350, placed: true });
    expect(byId[ap.id].placed).toBe(false);
    expect(byId[another.id].placed).toBe(false);
    expect([byId[ap.id].x, byId[ap.id].y]).not.toEqual([byId[another.id].x, byId[another.id].y]);
  });

  it("saves a dragged marker (fetcher) and typed positions (plain form), and clears a position left empty", async () => {
    const { org, venue, ap, cookie } = await setup();
    const second = await makeAccessPoint(org.id, venue.id, { name: "Bar", layout_x: 10, layout_y: 10 });
    const moved = await post(org.id, venue.id, cookie, { intent: "move", id: String(ap.id), layout_x: "1200.5", layout_y: "600" });
    expect(await moved.json()).toEqual({ ok: true });
    expect(await apRow(ap.id)).toMatchObject({ layout_x: 1200.5, layout_y: 600 });

    const typed = await post(org.id, venue.id, cookie, {
      intent: "positions",
      "positions[0].id": String(ap.id),
      "positions[0].layout_x": "100",
      "positions[0].layout_y": "200",
      "positions[1].id": String(second.id),
      "positions[1].layout_x": "",
      "positions[1].layout_y": "",
    });
    expect(typed.status).toBe(302);
    expect(await apRow(ap.id)).toMatchObject({ layout_x: 100, layout_y: 200 });
    expect(await apRow(second.id)).toMatchObject({ layout_x: null, layout_y: null });
  });

  it("refuses positions off the canvas or half given, changing nothing", async () => {
    const { org, venue, ap, cookie } = await setup();
    const off = await post(org.id, venue.id, cookie, { intent: "move", id: String(ap.id), layout_x: "1311", layout_y: "10" });
    expect(off.status).toBe(400);
    expect(await off.json()).toEqual({ ok: false, message: LAYOUT_MESSAGES.layoutX });
    const half = await post(org.id, venue.id, cookie, {
      intent: "positions",
      "positions[0].id": String(ap.id),
      "positions[0].layout_x": "5",
    });
    expect(half.status).toBe(400);
    const body = await half.json();
    expect(body.result.error["positions[0].layout_y"]).toEqual([LAYOUT_MESSAGES.layoutPair]);
    expect(await apRow(ap.id)).toMatchObject({ layout_x: null, layout_y: null });
  });

  it("answers a move without edit_network_layout with the refusal as data, and a foreign access point with 404", async () => {
    const { org, venue, ap, cookie } = await setup();
    const viewer = await makeMember(org.id, "r");
    const refused = await post(org.id, venue.id, await sessionCookie(viewer.user.id), {
      intent: "move",
      id: String(ap.id),
      layout_x: "1",
      layout_y: "1",
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, message: "You do not have permission to do that." });
    const typedRefused = await post(org.id, venue.id, await sessionCookie(viewer.user.id), {
      intent: "positions",
      "positions[0].id": String(ap.id),
    });
    expect(typedRefused.status).toBe(403);

    const other = await makeOrg("Other Org");
    const otherVenue = await makeVenue(other.org.id);
    const foreignAp = await makeAccessPoint(other.org.id, otherVenue.id);
    const otherVenueOurs = await makeVenue(org.id);
    const apOfAnotherVenue = await makeAccessPoint(org.id, otherVenueOurs.id);
    for (const id of [foreignAp.id, apOfAnotherVenue.id]) {
      const res = await post(org.id, venue.id, cookie, { intent: "move", id: String(id), layout_x: "1", layout_y: "1" });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ ok: false, message: "Access point not found." });
      const typed = await post(org.id, venue.id, cookie, {
        intent: "positions",
        "positions[0].id": String(id),
        "positions[0].layout_x": "1",
        "positions[0].layout_y": "1",
      });
      expect(typed.status).toBe(404);
    }
    expect(await apRow(foreignAp.id)).toMatchObject({ layout_x: null });
    expect((await post(org.id, venue.id, cookie, { intent: "dance" })).status).toBe(400);
  });

  it("heats access points by their authorized connections in the chosen period", async () => {
    const { org, venue, ap, cookie } = await setup();
    await db.updateTable("access_points").set({ layout_x: 100, layout_y: 100 }).where("id", "=", ap.id).execute();
    const quiet = await makeAccessPoint(org.id, venue.id, { name: "Quiet", layout_x: 900, layout_y: 500 });
    const day = Date.UTC(2026, 0, 15, 12);
    const connection = (fields: Parameters<typeof buildConnection>[1]) =>
      buildConnection(org.id, { venue_id: venue.id, created_at: day, ...fields });
    await db
      .insertInto("connections")
      .values([
        connection({ access_point_id: ap.id, authorized_at: day }),
        connection({ access_point_id: ap.id, authorized_at: day }),
        connection({ access_point_id: ap.id }), // a portal visit that never got online
        connection({ access_point_id: quiet.id, authorized_at: day }),
        connection({ access_point_id: ap.id, authorized_at: day - 5 * 86_400_000, created_at: day - 5 * 86_400_000 }), // outside
      ])
      .execute();
    const url = `/${org.id}/venues/${venue.id}/layout?mode=heatmap&start=2026-01-15&end=2026-01-15`;
    const data = await (await call(layoutPage.loader, makeRequest(url, { cookie }), org.id, venue.id)).json();
    expect(data.heatmap.points).toEqual(
      expect.arrayContaining([
        { id: ap.id, x: 100, y: 100, connections: 2 },
        { id: quiet.id, x: 900, y: 500, connections: 1 },
      ]),
    );
    expect(data.heatmap.range).toMatchObject({ start: "2026-01-15", end: "2026-01-15" });
  });
});
