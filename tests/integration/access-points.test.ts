// Access points: create (New hotspot), details frame, overview, settings and delete
// (docs/guide/access-points.md, docs/guide/access-control.md#what-each-permission-shows), through the
// route loaders and actions, on SQLite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildDevice } from "~/tools/factories.server";
import { refusalMessage } from "~/lib/permissions";
import { ACCESS_POINT_MESSAGES, makeLabel } from "~/lib/schemas/access-points";
import { VENUE_MESSAGES } from "~/lib/schemas/venues";
import * as apIndex from "~/routes/$orgId+/_networks+/ap+/$apId+/_index";
import * as apConnections from "~/routes/$orgId+/_networks+/ap+/$apId+/connections";
import * as apCustomers from "~/routes/$orgId+/_networks+/ap+/$apId+/customers";
import * as apDevices from "~/routes/$orgId+/_networks+/ap+/$apId+/devices";
import * as apLayout from "~/routes/$orgId+/_networks+/ap+/$apId+/_layout";
import * as apOverview from "~/routes/$orgId+/_networks+/ap+/$apId+/overview";
import * as apSettings from "~/routes/$orgId+/_networks+/ap+/$apId+/settings";
import * as apCreate from "~/routes/$orgId+/_networks+/ap+/create";
import { ACCESS_POINT_REFUSALS } from "~/services/access-points.server";
import { makeMember, makeOrg } from "../fixtures";
import { apForm, callRoute, insertAp, insertConnection, insertCustomer, insertVenue, toastOf } from "../fixtures/venues";

type Json = Record<string, any>;
const DAY = 86_400_000;

const apRow = (id: number) =>
  db
    .selectFrom("access_points")
    .select([
      "name",
      "make",
      "mac_address",
      "serial_number",
      "venue_id",
      "lat",
      "lng",
      "layout_x",
      "layout_y",
      "success_url",
      "custom_splash_url",
      "description",
    ])
    .where("id", "=", id)
    .executeTakeFirst();

describe("new hotspot", () => {
  it("opens with the network chosen by venue_id; another organisation's, unknown or malformed network is a 404", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Yaya Centre" });
    const other = await makeOrg("Other Org");
    const foreign = await insertVenue(other.org.id);
    const params = { orgId: String(org.id) };
    const page: Json = await (await callRoute(apCreate.loader, owner.id, `/${org.id}/ap/create?venue_id=${venue.id}`, params)).json();
    expect(page.venue).toEqual({ id: venue.id, name: "Yaya Centre" });
    expect(page.venues).toEqual([{ value: String(venue.id), label: "Yaya Centre" }]);
    for (const id of [String(foreign.id), "0", "abc", "123456789012"]) {
      expect((await callRoute(apCreate.loader, owner.id, `/${org.id}/ap/create?venue_id=${id}`, params)).status).toBe(404);
    }
    expect((await callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, apForm(foreign.id))).status).toBe(404);
    expect(await db.selectFrom("access_points").select("id").execute()).toEqual([]);
  });

  it("needs create_ap", async () => {
    const { org } = await makeOrg();
    const venue = await insertVenue(org.id);
    const { user } = await makeMember(org.id, "custom", ["view_networks", "edit_ap", "delete_ap"]);
    const params = { orgId: String(org.id) };
    const page = await callRoute(apCreate.loader, user.id, `/${org.id}/ap/create?venue_id=${venue.id}`, params);
    expect(page.status).toBe(403);
    expect((await page.json()).message).toBe(refusalMessage("create_ap"));
    expect((await callRoute(apCreate.action, user.id, `/${org.id}/ap/create`, params, apForm(venue.id))).status).toBe(403);
    expect(await db.selectFrom("access_points").select("id").execute()).toEqual([]);
  });

  it("requires name, make, MAC and serial number with the spec's messages, and checks make, MAC, URLs and positions", async () => {
    const { org, owner } = await makeOrg();
    const params = { orgId: String(org.id) };
    const empty: Json = await (await callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, { name: "" })).json();
    expect(empty.error).toMatchObject({
      name: ["Name field is required."],
      make: ["Make field is required."],
      mac_address: ["Mac address field is required."],
      serial_number: ["Serial number field is required."],
      venue_id: [ACCESS_POINT_MESSAGES.venueRequired],
    });
    const venue = await insertVenue(org.id);
    const bad = await callRoute(
      apCreate.action,
      owner.id,
      `/${org.id}/ap/create`,
      params,
      apForm(venue.id, { make: "Ubiquiti", mac_address: "aa:bb:cc:dd:ee", success_url: "ftp://x", lat: "91", lng: "abc" }),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toEqual({
      make: [ACCESS_POINT_MESSAGES.makeInvalid],
      mac_address: [ACCESS_POINT_MESSAGES.macInvalid],
      success_url: [VENUE_MESSAGES.urlInvalid],
      lat: [ACCESS_POINT_MESSAGES.latInvalid],
      lng: [ACCESS_POINT_MESSAGES.lngInvalid],
    });
    const half: Json = await (
      await callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, apForm(venue.id, { layout_x: "5", lat: "-1.2" }))
    ).json();
    expect(half.error).toEqual({ layout_y: [ACCESS_POINT_MESSAGES.layoutPair], lng: [ACCESS_POINT_MESSAGES.latLngPair] });
    const overCanvas: Json = await (
      await callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, apForm(venue.id, { layout_x: "1311", layout_y: "10" }))
    ).json();
    expect(overCanvas.error).toEqual({ layout_x: [ACCESS_POINT_MESSAGES.layoutXInvalid] });
    expect(await db.selectFrom("access_points").select("id").execute()).toEqual([]);
  });

  it("takes the brand's spelling Ruckus and the spec's Rukus alike, and stores the spec's value", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const params = { orgId: String(org.id) };
    for (const [make, mac] of [
      ["Ruckus", "aa:bb:cc:00:00:01"],
      ["Rukus", "aa:bb:cc:00:00:02"],
    ]) {
      const res = await callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, apForm(venue.id, { make, mac_address: mac }));
      expect(res.status).toBe(302);
    }
    expect((await db.selectFrom("access_points").select("make").execute()).map((r) => r.make)).toEqual(["Rukus", "Rukus"]);
    // What a person reads names the brand as it is spelt.
    expect(ACCESS_POINT_MESSAGES.makeInvalid).toBe("Choose one of Meraki, Mikrotik, Cisco Controller, Ruckus, openNDS, UniFi or Mlango.");
    expect(makeLabel("Rukus")).toBe("Ruckus");
    expect(makeLabel("Meraki")).toBe("Meraki");
  });

  it("creates the access point with its MAC normalised and its typed positions, then opens its details", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const res = await callRoute(
      apCreate.action,
      owner.id,
      `/${org.id}/ap/create`,
      { orgId: String(org.id) },
      apForm(venue.id, {
        make: "mlango",
        mac_address: "A0B1.C2D3.E4F5",
        lat: "-1.286389",
        lng: "36.817223",
        layout_x: "640",
        layout_y: "350",
        success_url: "https://example.com/ok",
        description: "Above the bar",
      }),
    );
    expect(res.status).toBe(302);
    const [row] = await db.selectFrom("access_points").select("id").execute();
    expect(res.headers.get("Location")).toBe(`/${org.id}/ap/${row.id}/overview`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Access point Lobby AP created." });
    expect(await apRow(row.id)).toEqual({
      name: "Lobby AP",
      make: "Mlango",
      mac_address: "a0:b1:c2:d3:e4:f5",
      serial_number: "MK-0001",
      venue_id: venue.id,
      lat: -1.286389,
      lng: 36.817223,
      layout_x: 640,
      layout_y: 350,
      success_url: "https://example.com/ok",
      custom_splash_url: null,
      description: "Above the bar",
    });
  });

  it("refuses a MAC address already used in the organisation, however it is written; another organisation may use it", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    await insertAp(org.id, venue.id, { name: "Existing AP", mac_address: "aa:bb:cc:00:11:22" });
    const res = await callRoute(
      apCreate.action,
      owner.id,
      `/${org.id}/ap/create`,
      { orgId: String(org.id) },
      apForm(venue.id, { mac_address: "AABBCC001122" }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({ mac_address: [ACCESS_POINT_REFUSALS.macTaken("Existing AP")] });

    const other = await makeOrg("Other Org");
    const otherVenue = await insertVenue(other.org.id);
    const elsewhere = await callRoute(
      apCreate.action,
      other.owner.id,
      `/${other.org.id}/ap/create`,
      { orgId: String(other.org.id) },
      apForm(otherVenue.id, { mac_address: "aa-bb-cc-00-11-22" }),
    );
    expect(elsewhere.status).toBe(302);
  });
});

describe("MAC uniqueness under concurrency", () => {
  it("two simultaneous creations with one MAC: one is saved, the other gets a message (never a server error)", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const params = { orgId: String(org.id) };
    const results = await Promise.all(
      ["AA:BB:CC:DD:EE:01", "aabb.ccdd.ee01", "aa-bb-cc-dd-ee-01"].map((mac, i) =>
        callRoute(apCreate.action, owner.id, `/${org.id}/ap/create`, params, apForm(venue.id, { mac_address: mac, name: `AP ${i}` })),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([302, 400, 400]);
    for (const refused of results.filter((r) => r.status === 400)) {
      const message = (await refused.json()).error.mac_address[0];
      expect([
        ACCESS_POINT_REFUSALS.macTakenRace,
        ACCESS_POINT_REFUSALS.macTaken("AP 0"),
        ACCESS_POINT_REFUSALS.macTaken("AP 1"),
        ACCESS_POINT_REFUSALS.macTaken("AP 2"),
      ]).toContain(message);
    }
    expect(await db.selectFrom("access_points").select("mac_address").execute()).toEqual([{ mac_address: "aa:bb:cc:dd:ee:01" }]);
  });
});

describe("access point details", () => {
  it("answers 404 for another organisation's, an unknown or a malformed access point on every page and action", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const other = await makeOrg("Other Org");
    const foreign = await insertAp(other.org.id, (await insertVenue(other.org.id)).id);
    for (const apId of [String(foreign.id), "424242", "x1", "99999999999"]) {
      const params = { orgId: String(org.id), apId };
      const path = `/${org.id}/ap/${apId}`;
      for (const fn of [apLayout.loader, apIndex.loader, apOverview.loader, apSettings.loader]) {
        expect((await callRoute(fn, owner.id, path, params)).status).toBe(404);
      }
      expect(
        (await callRoute(apSettings.action, owner.id, `${path}/settings`, params, { intent: "update", ...apForm(venue.id) })).status,
      ).toBe(404);
      expect(
        (await callRoute(apSettings.action, owner.id, `${path}/settings`, params, { intent: "delete", confirmed: "yes" })).status,
      ).toBe(404);
    }
    expect(await apRow(foreign.id)).toMatchObject({ name: foreign.name });
  });

  it("shows the breadcrumb data, the MAC and Delete only with delete_ap", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id, { name: "Junction" });
    const ap = await insertAp(org.id, venue.id, { name: "Food court" });
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const frame: Json = await (await callRoute(apLayout.loader, owner.id, `/${org.id}/ap/${ap.id}`, params)).json();
    expect(frame.ap).toEqual({ id: ap.id, name: "Food court", mac_address: ap.mac_address, venue_id: venue.id, venue_name: "Junction" });
    expect(frame.deleteQuestion).toBe("Are you sure you want to delete the access point Food court? Its connection history is kept.");
    const { user } = await makeMember(org.id, "r");
    expect((await (await callRoute(apLayout.loader, user.id, `/${org.id}/ap/${ap.id}`, params)).json()).deleteQuestion).toBeNull();
    expect((await callRoute(apIndex.loader, user.id, `/${org.id}/ap/${ap.id}`, params)).headers.get("Location")).toBe(
      `/${org.id}/ap/${ap.id}/overview`,
    );
  });

  it("counts authorized connections and their devices and clients by the access point's MAC over the last year, and who is online now", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id);
    const neighbour = await insertAp(org.id, venue.id);
    const [c1, c2] = [await insertCustomer(org.id), await insertCustomer(org.id)];
    const device = (
      await db
        .insertInto("devices")
        .values(buildDevice(org.id, { customer_id: c1 }))
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const now = Date.now();
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: c1, device_id: device }); // online
    await insertConnection(
      org.id,
      { venueId: venue.id, ap },
      { customer_id: c2, created_at: now - 100 * DAY, authorized_at: now - 100 * DAY, ended_at: now - 100 * DAY + 1000 },
    );
    const visitor = await insertCustomer(org.id);
    const visitorDevice = (
      await db
        .insertInto("devices")
        .values(buildDevice(org.id, { customer_id: visitor }))
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: visitor, device_id: visitorDevice, authorized_at: null }); // a portal visit only
    await insertConnection(
      org.id,
      { venueId: venue.id, ap },
      { customer_id: c2, created_at: now - 400 * DAY, authorized_at: now - 400 * DAY, ended_at: now - 400 * DAY + 1 },
    ); // over a year ago
    await insertConnection(org.id, { venueId: venue.id, ap: neighbour }, { customer_id: c1 });
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const body: Json = await (await callRoute(apOverview.loader, owner.id, `/${org.id}/ap/${ap.id}/overview`, params)).json();
    expect(body.overview).toEqual({ devices: 1, uniqueClients: 2, totalConnections: 2, online: 1 });
    expect(body.range.end).toBe(new Date().toISOString().slice(0, 10));
  });
});

describe("access point settings", () => {
  it("updates with edit_ap (moving to another network, keeping its own MAC); refuses without it", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const second = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id, { mac_address: "02:00:00:00:00:aa" });
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const path = `/${org.id}/ap/${ap.id}/settings`;

    const { user } = await makeMember(org.id, "custom", ["view_networks", "create_ap", "delete_ap"]);
    expect((await (await callRoute(apSettings.loader, user.id, path, params)).json()).canEdit).toBe(false);
    const refused = await callRoute(apSettings.action, user.id, path, params, { intent: "update", ...apForm(venue.id) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(refusalMessage("edit_ap"));

    const form = apForm(second.id, { name: "Renamed", mac_address: "02-00-00-00-00-AA", make: "Cisco Controller", lat: "", lng: "" });
    const res = await callRoute(apSettings.action, owner.id, path, params, { intent: "update", ...form });
    expect(res.headers.get("Location")).toBe(path);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Access point updated." });
    expect(await apRow(ap.id)).toMatchObject({
      name: "Renamed",
      venue_id: second.id,
      make: "Cisco Controller",
      mac_address: "02:00:00:00:00:aa",
      lat: null,
    });
  });

  it("refuses another access point's MAC, and a network of another organisation is a 404", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id);
    await insertAp(org.id, venue.id, { name: "Taken", mac_address: "02:00:00:00:00:bb" });
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const path = `/${org.id}/ap/${ap.id}/settings`;
    const taken = await callRoute(apSettings.action, owner.id, path, params, {
      intent: "update",
      ...apForm(venue.id, { mac_address: "0200.0000.00BB" }),
    });
    expect(taken.status).toBe(400);
    expect((await taken.json()).error).toEqual({ mac_address: [ACCESS_POINT_REFUSALS.macTaken("Taken")] });

    const other = await makeOrg("Other Org");
    const foreignVenue = await insertVenue(other.org.id);
    expect((await callRoute(apSettings.action, owner.id, path, params, { intent: "update", ...apForm(foreignVenue.id) })).status).toBe(404);
    expect(await apRow(ap.id)).toMatchObject({ venue_id: venue.id, mac_address: ap.mac_address });
  });

  it("deletes after confirmation with delete_ap, back to the network's access points; connections keep their MAC", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id, { name: "Gate" });
    const connection = await insertConnection(org.id, { venueId: venue.id, ap });
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const path = `/${org.id}/ap/${ap.id}/settings`;

    const { user } = await makeMember(org.id, "custom", ["view_networks", "edit_ap", "edit_networks"]);
    const refused = await callRoute(apSettings.action, user.id, path, params, { intent: "delete", confirmed: "yes" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(refusalMessage("delete_ap"));

    const ask: Json = await (await callRoute(apSettings.action, owner.id, path, params, { intent: "delete" })).json();
    expect(ask.confirm).toEqual({
      intent: "delete",
      message: "Are you sure you want to delete the access point Gate? Its connection history is kept.",
      fields: {},
    });
    expect(await apRow(ap.id)).toBeDefined();

    const res = await callRoute(apSettings.action, owner.id, path, params, { intent: "delete", confirmed: "yes" });
    expect(res.headers.get("Location")).toBe(`/${org.id}/venues/${venue.id}/access-points`);
    expect(await toastOf(res)).toEqual({ type: "info", message: "Access point Gate deleted." });
    expect(await apRow(ap.id)).toBeUndefined();
    const kept = await db
      .selectFrom("connections")
      .select(["venue_id", "access_point_id", "access_point_mac"])
      .where("id", "=", connection)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ venue_id: venue.id, access_point_id: null, access_point_mac: ap.mac_address });
  });

  it("answers 400 for an unknown intent", async () => {
    const { org, owner } = await makeOrg();
    const ap = await insertAp(org.id, (await insertVenue(org.id)).id);
    const res = await callRoute(
      apSettings.action,
      owner.id,
      `/${org.id}/ap/${ap.id}/settings`,
      { orgId: String(org.id), apId: String(ap.id) },
      { intent: "explode" },
    );
    expect(res.status).toBe(400);
  });
});

describe("access point record tabs", () => {
  it("list connections, devices and clients by the access point's MAC over the last year; they need view_clients", async () => {
    const { org, owner } = await makeOrg();
    const venue = await insertVenue(org.id);
    const ap = await insertAp(org.id, venue.id);
    const neighbour = await insertAp(org.id, venue.id);
    const [mine, theirs, old] = [await insertCustomer(org.id), await insertCustomer(org.id), await insertCustomer(org.id)];
    await insertConnection(org.id, { venueId: venue.id, ap }, { customer_id: mine });
    await insertConnection(org.id, { venueId: venue.id, ap: neighbour }, { customer_id: theirs });
    const longAgo = Date.now() - 400 * DAY;
    await insertConnection(
      org.id,
      { venueId: venue.id, ap },
      { customer_id: old, created_at: longAgo, authorized_at: longAgo, ended_at: longAgo + 1 },
    );
    const params = { orgId: String(org.id), apId: String(ap.id) };
    const path = `/${org.id}/ap/${ap.id}`;

    const connections: Json = await (await callRoute(apConnections.loader, owner.id, `${path}/connections`, params)).json();
    expect(connections.connections.rows.map((r: Json) => r.customer.id)).toEqual([mine]);
    expect(connections.exportHref).toContain(`access_point_mac=${encodeURIComponent(ap.mac_address)}`);
    const customers: Json = await (await callRoute(apCustomers.loader, owner.id, `${path}/customers`, params)).json();
    expect(customers.customers.rows.map((r: Json) => r.id)).toEqual([mine]);
    expect((await callRoute(apDevices.loader, owner.id, `${path}/devices`, params)).status).toBe(200);

    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    for (const fn of [apConnections.loader, apDevices.loader, apCustomers.loader]) {
      const refused = await callRoute(fn, user.id, path, params);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(refusalMessage("view_clients"));
    }
    expect((await (await callRoute(apLayout.loader, user.id, path, params)).json()).canViewClients).toBe(false);
    const other = await makeOrg("Other Org");
    const foreign = await insertAp(other.org.id, (await insertVenue(other.org.id)).id);
    for (const fn of [apConnections.loader, apDevices.loader, apCustomers.loader]) {
      expect((await callRoute(fn, owner.id, path, { orgId: String(org.id), apId: String(foreign.id) })).status).toBe(404);
    }
  });
});
