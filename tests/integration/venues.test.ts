// Networks (venues): list with counts, create, settings, profile frame and delete
// (docs/guide/networks.md#network-profile, #validation,
// docs/guide/access-control.md#what-each-permission-shows), through the route loaders and actions, on
// SQLite and PostgreSQL.
import { describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage } from "~/lib/permissions";
import { VENUE_MESSAGES } from "~/lib/schemas/venues";
import * as createRoute from "~/routes/$orgId+/_networks+/venue.create";
import * as venuesList from "~/routes/$orgId+/_networks+/venues+/_index";
import * as profileIndex from "~/routes/$orgId+/_networks+/venues+/$venueId+/_index";
import * as profileLayout from "~/routes/$orgId+/_networks+/venues+/$venueId+/_layout";
import * as apsTab from "~/routes/$orgId+/_networks+/venues+/$venueId+/access-points";
import * as clientsTab from "~/routes/$orgId+/_networks+/venues+/$venueId+/clients";
import * as connectionsTab from "~/routes/$orgId+/_networks+/venues+/$venueId+/connections";
import * as devicesTab from "~/routes/$orgId+/_networks+/venues+/$venueId+/devices";
import * as overview from "~/routes/$orgId+/_networks+/venues+/$venueId+/overview";
import * as settings from "~/routes/$orgId+/_networks+/venues+/$venueId+/settings";
import { makeMember, makeOrg } from "../fixtures";
import { callRoute, insertAp, insertConnection, insertCustomer, insertVenue, toastOf } from "../fixtures/venues";

const HOUR = 3_600_000;

type Json = Record<string, any>;

describe("networks list", () => {
  it("needs view_networks: refused with the catalogue's message; another organisation is a 404", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_clients"]);
    const refused = await callRoute(venuesList.loader, user.id, `/${org.id}/venues`, { orgId: String(org.id) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(refusalMessage("view_networks"));

    const other = await makeOrg("Other Org");
    const foreign = await callRoute(venuesList.loader, other.owner.id, `/${org.id}/venues`, { orgId: String(org.id) });
    expect(foreign.status).toBe(404);
  });

  it("lists the organisation's venues by name with live counts of access points, clients, connections and online", async () => {
    const { org, owner } = await makeOrg();
    const zulu = await insertVenue(org.id, { name: "Zulu Mall", email: "zulu@example.com", phone_number: "+254712000001" });
    const alpha = await insertVenue(org.id, { name: "Alpha Cafe" });
    const other = await makeOrg("Other Org");
    await insertVenue(other.org.id, { name: "Foreign Venue" });

    const ap1 = await insertAp(org.id, alpha.id);
    await insertAp(org.id, alpha.id);
    const ap3 = await insertAp(org.id, zulu.id);
    const [c1, c2] = [await insertCustomer(org.id), await insertCustomer(org.id)];
    const now = Date.now();
    // Alpha: 3 authorized (2 distinct customers, one still online), 1 portal visit never authorized.
    await insertConnection(org.id, { venueId: alpha.id, ap: ap1 }, { customer_id: c1, ended_at: now - 10_000 });
    await insertConnection(
      org.id,
      { venueId: alpha.id, ap: ap1 },
      { customer_id: c1, created_at: now - 400 * 24 * HOUR, authorized_at: now - 400 * 24 * HOUR, ended_at: now - 399 * 24 * HOUR },
    );
    await insertConnection(org.id, { venueId: alpha.id, ap: ap1 }, { customer_id: c2 });
    await insertConnection(org.id, { venueId: alpha.id, ap: ap1 }, { customer_id: c2, authorized_at: null });
    // Zulu: one online.
    await insertConnection(org.id, { venueId: zulu.id, ap: ap3 }, { customer_id: c1 });

    const res = await callRoute(venuesList.loader, owner.id, `/${org.id}/venues`, { orgId: String(org.id) });
    expect(res.status).toBe(200);
    const body: Json = await res.json();
    expect(body.total).toBe(2);
    expect(body.canCreate).toBe(true);
    expect(body.venues.map((v: Json) => v.name)).toEqual(["Alpha Cafe", "Zulu Mall"]);
    expect(body.venues[0]).toMatchObject({ accessPointsCount: 2, customersCount: 2, connectionsCount: 3, onlineConnectionsCount: 1 });
    expect(body.venues[1]).toMatchObject({
      email: "zulu@example.com",
      phone_number: "+254712000001",
      accessPointsCount: 1,
      customersCount: 1,
      connectionsCount: 1,
      onlineConnectionsCount: 1,
    });
  });

  it("pages (sizes 1 to 250, default 10, clamped), searches by name or address, and hides New Network without create_networks", async () => {
    const { org } = await makeOrg();
    for (const name of ["Cafe One", "Cafe Two", "Hotel Three"]) await insertVenue(org.id, { name });
    await insertVenue(org.id, { name: "Mall", address: "Kimathi Street" });
    const { user } = await makeMember(org.id, "r");
    const get = async (query: string) =>
      (await (await callRoute(venuesList.loader, user.id, `/${org.id}/venues${query}`, { orgId: String(org.id) })).json()) as Json;

    const onePerPage = await get("?per_page=1&page=2");
    expect(onePerPage.list.pageSize).toBe(1);
    expect(onePerPage.venues.map((v: Json) => v.name)).toEqual(["Cafe Two"]);
    expect(onePerPage.canCreate).toBe(false);
    expect((await get("")).list.pageSize).toBe(10);
    expect((await get("?per_page=5")).list.pageSize).toBe(1);
    expect((await get("?per_page=99999&page=abc")).list).toMatchObject({ pageSize: 250, page: 1 });
    expect((await get("?page=999999999")).venues).toEqual([]);
    expect((await get("?search=cafe")).venues.map((v: Json) => v.name)).toEqual(["Cafe One", "Cafe Two"]);
    expect((await get("?search=kimathi")).venues.map((v: Json) => v.name)).toEqual(["Mall"]);
    expect((await get("?search=100%25")).total).toBe(0);
  });
});

describe("new network", () => {
  it("needs create_networks on the page and its action", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_networks", "edit_networks"]);
    const params = { orgId: String(org.id) };
    const page = await callRoute(createRoute.loader, user.id, `/${org.id}/venue/create`, params);
    expect(page.status).toBe(403);
    expect((await page.json()).message).toBe(refusalMessage("create_networks"));
    const post = await callRoute(createRoute.action, user.id, `/${org.id}/venue/create`, params, { name: "X", address: "Y" });
    expect(post.status).toBe(403);
    expect(await db.selectFrom("venues").select("id").execute()).toEqual([]);
  });

  it("requires name and address with the spec's messages and checks email and phone when given", async () => {
    const { org, owner } = await makeOrg();
    const params = { orgId: String(org.id) };
    const res = await callRoute(createRoute.action, owner.id, `/${org.id}/venue/create`, params, { name: " ", address: "" });
    expect(res.status).toBe(400);
    const body: Json = await res.json();
    expect(body.error).toMatchObject({ name: ["Name field is required."], address: ["Address field is required."] });

    const bad = await callRoute(createRoute.action, owner.id, `/${org.id}/venue/create`, params, {
      name: "Cafe",
      address: "Moi Avenue",
      email: "not-an-email",
      phone_number: "12",
      success_url: "javascript:alert(1)",
      custom_splash_url: "example.com",
    });
    expect((await bad.json()).error).toMatchObject({
      email: [VENUE_MESSAGES.emailInvalid],
      phone_number: [VENUE_MESSAGES.phoneInvalid],
      success_url: [VENUE_MESSAGES.urlInvalid],
      custom_splash_url: [VENUE_MESSAGES.urlInvalid],
    });
    expect(await db.selectFrom("venues").select("id").execute()).toEqual([]);
  });

  it("creates the network with normalised email and phone and lands on its profile with a toast", async () => {
    const { org, owner } = await makeOrg();
    const res = await callRoute(
      createRoute.action,
      owner.id,
      `/${org.id}/venue/create`,
      { orgId: String(org.id) },
      {
        name: " Java House ",
        address: "Kenyatta Avenue",
        email: "Info@Java.example",
        phone_number: "0712 345 678",
        custom_splash_url: "https://java.example/welcome",
        success_url: "http://java.example/thanks",
        more_info: "Ground floor",
      },
    );
    expect(res.status).toBe(302);
    const row = await db.selectFrom("venues").selectAll().executeTakeFirstOrThrow();
    // Spec 2: back to the networks list.
    expect(res.headers.get("Location")).toBe(`/${org.id}/venues`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Network Java House created." });
    expect(row).toMatchObject({
      organization_id: org.id,
      name: "Java House",
      address: "Kenyatta Avenue",
      email: "info@java.example",
      phone_number: "+254712345678",
      custom_splash_url: "https://java.example/welcome",
      success_url: "http://java.example/thanks",
      more_info: "Ground floor",
    });
  });
});

describe("network profile and settings", () => {
  it("answers 404 for another organisation's, an unknown or a malformed network on every page and action", async () => {
    const { org, owner } = await makeOrg();
    const other = await makeOrg("Other Org");
    const foreign = await insertVenue(other.org.id);
    for (const venueId of [String(foreign.id), "999999", "abc", "99999999999"]) {
      const params = { orgId: String(org.id), venueId };
      const path = `/${org.id}/venues/${venueId}`;
      for (const fn of [profileLayout.loader, profileIndex.loader, settings.loader, apsTab.loader]) {
        expect((await callRoute(fn, owner.id, path, params)).status).toBe(404);
      }
      expect((await callRoute(settings.action, owner.id, path, params, { intent: "update", name: "Hijack", address: "X" })).status).toBe(
        404,
      );
      expect((await callRoute(settings.action, owner.id, path, params, { intent: "update" })).status).toBe(404);
      expect((await callRoute(settings.action, owner.id, path, params, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    }
    expect(await db.selectFrom("venues").select(["name"]).where("id", "=", foreign.id).executeTakeFirst()).toEqual({ name: foreign.name });
  });

  it("shows the header, the date range (today by default) and New access point only with create_ap", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Sarit Centre", email: "sarit@example.com", phone_number: "+254700111222" });
    const params = { orgId: String(org.id), venueId: String(venue.id) };
    const res = await callRoute(profileLayout.loader, owner.id, `/${org.id}/venues/${venue.id}?start=2020-01-01&end=2999-01-01`, params);
    const body: Json = await res.json();
    expect(body.venue).toEqual({ id: venue.id, name: "Sarit Centre", email: "sarit@example.com", phone_number: "+254700111222" });
    expect(body.canCreateAp).toBe(true);
    expect(body.range.start).toBe("2020-01-01");
    expect(body.range.end).toBe(new Date().toISOString().slice(0, 10));

    const { user } = await makeMember(org.id, "r");
    expect((await (await callRoute(profileLayout.loader, user.id, `/${org.id}/venues/${venue.id}`, params)).json()).canCreateAp).toBe(
      false,
    );
    const index = await callRoute(profileIndex.loader, user.id, `/${org.id}/venues/${venue.id}?start=2026-01-01`, params);
    expect(index.headers.get("Location")).toBe(`/${org.id}/venues/${venue.id}/overview?start=2026-01-01`);
  });

  it("updates the settings with edit_networks; without it the form is read-only and the update refused", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Old Name" });
    const params = { orgId: String(org.id), venueId: String(venue.id) };
    const path = `/${org.id}/venues/${venue.id}/settings`;

    const { user: viewer } = await makeMember(org.id, "r");
    expect((await (await callRoute(settings.loader, viewer.id, path, params)).json()).canEdit).toBe(false);
    const refused = await callRoute(settings.action, viewer.id, path, params, { intent: "update", name: "New", address: "Here" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(refusalMessage("edit_networks"));

    const invalid = await callRoute(settings.action, owner.id, path, params, { intent: "update", name: "", address: "" });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toMatchObject({ name: [VENUE_MESSAGES.nameRequired], address: [VENUE_MESSAGES.addressRequired] });

    const ok = await callRoute(settings.action, owner.id, path, params, {
      intent: "update",
      name: "New Name",
      address: "Ngong Road",
      email: "",
    });
    expect(ok.headers.get("Location")).toBe(path);
    expect(await toastOf(ok)).toEqual({ type: "success", message: "Network updated." });
    const row = await db.selectFrom("venues").select(["name", "address", "email"]).where("id", "=", venue.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "New Name", address: "Ngong Road", email: null });
  });

  it("lists the network's access points with clients, connections and online in the date range", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const elsewhere = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id, { name: "B Lobby", make: "Meraki", serial_number: "Q2-1" });
    await insertAp(org.id, venue.id, { name: "A Bar" });
    await insertAp(org.id, elsewhere.id, { name: "Not here" });
    const customer = await insertCustomer(org.id);
    const old = Date.now() - 10 * 24 * HOUR;
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: customer });
    await insertConnection(
      org.id,
      { venueId: venue.id, ap },
      { customer_id: customer, created_at: old, authorized_at: old, ended_at: old + HOUR },
    );
    const params = { orgId: String(org.id), venueId: String(venue.id) };

    const today: Json = await (await callRoute(apsTab.loader, owner.id, `/${org.id}/venues/${venue.id}/access-points`, params)).json();
    expect(today.accessPoints.map((a: Json) => a.name)).toEqual(["A Bar", "B Lobby"]);
    expect(today.accessPoints[1]).toMatchObject({
      make: "Meraki",
      mac_address: ap.mac_address,
      serial_number: "Q2-1",
      customersCount: 1,
      connectionsCount: 1,
      onlineConnectionsCount: 1,
    });
    expect(today.accessPoints[0]).toMatchObject({ customersCount: 0, connectionsCount: 0, onlineConnectionsCount: 0 });

    const start = new Date(old).toISOString().slice(0, 10);
    const month: Json = await (
      await callRoute(apsTab.loader, owner.id, `/${org.id}/venues/${venue.id}/access-points?start=${start}`, params)
    ).json();
    expect(month.accessPoints[1]).toMatchObject({ customersCount: 1, connectionsCount: 2, onlineConnectionsCount: 1 });
  });
});

describe("deleting a network", () => {
  it("asks first, saying its access points go and its connection history stays", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Westgate" });
    await insertAp(org.id, venue.id);
    await insertAp(org.id, venue.id);
    const params = { orgId: String(org.id), venueId: String(venue.id) };
    const res = await callRoute(settings.action, owner.id, `/${org.id}/venues/${venue.id}/settings`, params, { intent: "delete" });
    expect(res.status).toBe(200);
    const body: Json = await res.json();
    expect(body.confirm.message).toBe(
      "Are you sure you want to delete the network Westgate? Its 2 access points are deleted with it. Its connection history is kept, no longer linked to a network.",
    );
    expect(await db.selectFrom("venues").select("id").where("id", "=", venue.id).executeTakeFirst()).toBeDefined();
    const page: Json = await (await callRoute(settings.loader, owner.id, `/${org.id}/venues/${venue.id}/settings`, params)).json();
    expect(page.deleteQuestion).toBe(body.confirm.message);
  });

  it("deletes the network and its access points once confirmed; connections stay, unlinked, with their MAC", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Westgate" });
    const kept = await insertVenue(org.id, { name: "Kept" });
    const ap = await insertAp(org.id, venue.id);
    const keptAp = await insertAp(org.id, kept.id);
    const connection = await insertConnection(org.id, { venueId: venue.id, ap });
    const other = await insertConnection(org.id, { venueId: kept.id, ap: keptAp });
    const params = { orgId: String(org.id), venueId: String(venue.id) };

    const { user } = await makeMember(org.id, "custom", ["view_networks", "create_networks", "delete_ap"]);
    const refused = await callRoute(settings.action, user.id, `/${org.id}/venues/${venue.id}/settings`, params, {
      intent: "delete",
      confirmed: "yes",
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(refusalMessage("edit_networks"));

    const res = await callRoute(settings.action, owner.id, `/${org.id}/venues/${venue.id}/settings`, params, {
      intent: "delete",
      confirmed: "yes",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/venues`);
    expect(await toastOf(res)).toEqual({ type: "info", message: "Network Westgate deleted. Its access point was deleted too." });
    expect(await db.selectFrom("venues").select("id").where("id", "=", venue.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("access_points").select("id").where("id", "=", ap.id).executeTakeFirst()).toBeUndefined();
    const row = await db
      .selectFrom("connections")
      .select(["venue_id", "access_point_id", "access_point_mac"])
      .where("id", "=", connection)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ venue_id: null, access_point_id: null, access_point_mac: ap.mac_address });
    const untouched = await db
      .selectFrom("connections")
      .select(["venue_id", "access_point_id"])
      .where("id", "=", other)
      .executeTakeFirstOrThrow();
    expect(untouched).toEqual({ venue_id: kept.id, access_point_id: keptAp.id });
  });
});

describe("network overview and record tabs", () => {
  it("shows the range's counts, dwell time, connections series, heatmap and who is online", async () => {
    // The online guest's dwell is its time so far: one fixed clock for the whole test.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const other = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id);
    await insertAp(org.id, venue.id);
    const [c1, c2] = [await insertCustomer(org.id), await insertCustomer(org.id)];
    const dayStart = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const at = Math.max(dayStart, Date.now() - 2 * HOUR);
    await insertConnection(
      org.id,
      { venueId: venue.id, ap },
      { customer_id: c1, created_at: at, authorized_at: at, ended_at: at + 600_000 },
    );
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: c2, created_at: at, authorized_at: at, ended_at: null });
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: c2, created_at: at, authorized_at: null });
    await insertConnection(org.id, { venueId: other.id }, { customer_id: c1, created_at: at, authorized_at: at });
    const params = { orgId: String(org.id), venueId: String(venue.id) };
    const body: Json = await (await callRoute(overview.loader, owner.id, `/${org.id}/venues/${venue.id}/overview`, params)).json();
    vi.useRealTimers();
    const dwell = Math.round((600_000 + now - at) / 1000);
    expect(body.overview).toMatchObject({
      accessPoints: 2,
      uniqueClients: 2,
      totalConnections: 2,
      currentlyConnected: 1,
      dwellTime: dwell,
    });
    expect(body.bucket).toBe("hour");
    expect(body.series.reduce((n: number, p: Json) => n + p.footfall, 0)).toBe(3);
    expect(body.series.reduce((n: number, p: Json) => n + p.connections, 0)).toBe(2);
    expect(body.dwell.reduce((n: number, p: Json) => n + p.dwellTime, 0)).toBe(dwell);
    expect(body.heatmap.reduce((n: number, c: Json) => n + c.footfall, 0)).toBe(3);
    expect(body.online.page.rows).toHaveLength(1);
    expect(body.online.page.rows[0].customer.id).toBe(c2);

    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    const withoutClients: Json = await (await callRoute(overview.loader, user.id, `/${org.id}/venues/${venue.id}/overview`, params)).json();
    expect(withoutClients.online).toBeNull();
    expect(withoutClients.overview.totalConnections).toBe(2);
  });

  it("lists the network's connections, devices and clients in the range; these tabs need view_clients and the network's organisation", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const elsewhere = await insertVenue(org.id);
    const customer = await insertCustomer(org.id);
    const stranger = await insertCustomer(org.id);
    await insertConnection(org.id, { venueId: venue.id }, { customer_id: customer });
    await insertConnection(org.id, { venueId: elsewhere.id }, { customer_id: stranger });
    const params = { orgId: String(org.id), venueId: String(venue.id) };
    const path = `/${org.id}/venues/${venue.id}`;

    const connections: Json = await (await callRoute(connectionsTab.loader, owner.id, `${path}/connections`, params)).json();
    expect(connections.connections.rows.map((r: Json) => r.customer.id)).toEqual([customer]);
    expect(connections.exportHref).toContain(`venue_id=${venue.id}`);
    const clients: Json = await (await callRoute(clientsTab.loader, owner.id, `${path}/clients`, params)).json();
    expect(clients.customers.rows.map((r: Json) => r.id)).toEqual([customer]);
    const devices = await callRoute(devicesTab.loader, owner.id, `${path}/devices`, params);
    expect(devices.status).toBe(200);

    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    for (const fn of [connectionsTab.loader, devicesTab.loader, clientsTab.loader]) {
      const refused = await callRoute(fn, user.id, path, params);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(refusalMessage("view_clients"));
    }
    const other = await makeOrg("Other Org");
    const foreign = await insertVenue(other.org.id);
    for (const fn of [overview.loader, connectionsTab.loader, devicesTab.loader, clientsTab.loader]) {
      expect((await callRoute(fn, owner.id, path, { orgId: String(org.id), venueId: String(foreign.id) })).status).toBe(404);
    }
  });
});
