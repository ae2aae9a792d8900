// Every query of the data API (docs/guide/api.md#data-api-graphql) over HTTP against the built server,
// on SQLite and PostgreSQL: the answer's shape and values (the same as the services give the pages),
// the permission refusals with the spec's messages, and another organisation's ids as not found.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_PERMISSIONS, VIEW_PERMISSIONS, refusalMessage } from "~/lib/permissions";
import { aggregateUsage } from "~/services/analytics.server";
import { issueToken } from "~/services/auth.server";
import { subscribeReport } from "~/services/report-subscriptions.server";
import { makeMember } from "../fixtures";
import { apiOrg, firstError, gql, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import {
  contextOf,
  insertAccessPoint,
  insertConnection,
  insertCustomer,
  insertDevice,
  insertVenue,
  makeConnectionWorld,
} from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const DAY = "2026-11-20";
const ON_DAY = `startDate: "${DAY}", endDate: "${DAY} 23:59:59"`;

/** An organisation with the small connections world (3 connections on DAY, the last online) and its owner's token. */
async function world() {
  const base = await apiOrg();
  const w = await makeConnectionWorld(base.org.id, 3, Date.UTC(2026, 10, 20, 12, 0));
  const caller: Caller = { token: base.token, org: base.org.id };
  return { ...base, ...w, caller };
}

/** A member's caller with a role of the given type and permissions. */
async function memberCaller(orgId: number, roleType: "r" | "r_w" | "custom", permissions: Parameters<typeof makeMember>[2] = []) {
  const { user } = await makeMember(orgId, roleType, permissions);
  return { token: await issueToken(user.id, "api"), org: orgId, userId: user.id };
}

/** Another organisation with a network, access point, customer, device, connection and role of its own. */
async function foreignWorld() {
  const other = await apiOrg("Another organisation");
  const w = await makeConnectionWorld(other.org.id, 1, Date.UTC(2026, 10, 20, 9, 0));
  const { role } = await makeMember(other.org.id, "r");
  return { ...w, role, org: other.org };
}

afterEach(() => vi.useRealTimers());

describe("profile", () => {
  it("answers the user, their permissions and role in the organisation, and their dashboard layout", async () => {
    const { owner, caller, org } = await world();
    const data = await gqlData(
      server,
      caller,
      "{ profile { id first_name middle_name last_name email phone_number permissions role dashboard } }",
    );
    expect(data.profile).toMatchObject({
      id: String(owner.id),
      first_name: owner.first_name,
      last_name: owner.last_name,
      email: owner.email,
      phone_number: owner.phone_number,
      role: "Administrator",
    });
    expect(data.profile.permissions).toEqual([...ALL_PERMISSIONS].sort());
    expect(JSON.parse(data.profile.dashboard).content.length).toBeGreaterThan(0);
    const reader = await memberCaller(org.id, "r");
    const read = await gqlData(server, reader, "{ profile { permissions role } }");
    expect(read.profile).toEqual({ permissions: [...VIEW_PERMISSIONS].sort(), role: "Role r" });
  });
});

describe("dashboard analytics", () => {
  it("answers every summary of the window as the analytics service does, for a member without any permission", async () => {
    const { org, venue, accessPoint } = await world();
    const member = await memberCaller(org.id, "custom");
    const data = await gqlData(
      server,
      member,
      `{
        usageSummary(${ON_DAY}) { footfall connections upload download created hour date }
        venueUsageSummary(${ON_DAY}, orderBy: "bandwidth", limit: 5) { venue_id venue_name footfall connections bandwidth formattedBandwidth }
        accessPointUsageSummary(${ON_DAY}) { access_point_id ap_name access_point_mac footfall connections formattedBandwidth }
        aggregateUsageSummary(${ON_DAY}) { upload download bandwidth formattedUpload formattedDownload formattedBandwidth new_customers repeat_customers connections footfall abandoned dwell_time avg_dwell_time }
        aggregateAuthModeSummary(${ON_DAY}) { mode connections }
        mobile: aggregateDeviceSummary(${ON_DAY}, groupBy: is_mobile) { key is_mobile os connections footfall }
        os: aggregateDeviceSummary(${ON_DAY}, groupBy: os) { key os brand }
        brand: aggregateDeviceSummary(${ON_DAY}, groupBy: brand) { key brand }
        browser: aggregateDeviceSummary(${ON_DAY}, groupBy: browser, limit: 3) { key browser }
      }`,
    );
    expect(data.usageSummary).toEqual([
      { footfall: 3, connections: 3, upload: 6144, download: 12288, created: "2026-11-20T12:00:00.000Z", hour: 12, date: DAY },
    ]);
    expect(data.venueUsageSummary).toEqual([
      { venue_id: String(venue.id), venue_name: venue.name, footfall: 3, connections: 3, bandwidth: 18432, formattedBandwidth: "18.00 KB" },
    ]);
    expect(data.accessPointUsageSummary).toEqual([
      {
        access_point_id: String(accessPoint.id),
        ap_name: accessPoint.name,
        access_point_mac: accessPoint.mac_address,
        footfall: 3,
        connections: 3,
        formattedBandwidth: "18.00 KB",
      },
    ]);
    const direct = await aggregateUsage({
      organizationId: org.id,
      range: { startMs: Date.UTC(2026, 10, 20), endMs: Date.UTC(2026, 10, 21), offsetMs: 0 },
    });
    expect(data.aggregateUsageSummary).toEqual({
      upload: direct.upload,
      download: direct.download,
      bandwidth: direct.bandwidth,
      formattedUpload: "6.00 KB",
      formattedDownload: "12.00 KB",
      formattedBandwidth: "18.00 KB",
      new_customers: 1,
      repeat_customers: 0,
      connections: 3,
      footfall: 3,
      abandoned: 0,
      dwell_time: direct.dwellTime,
      avg_dwell_time: direct.avgDwellTime,
    });
    expect(data.aggregateAuthModeSummary).toEqual([{ mode: "click", connections: 3 }]);
    expect(data.mobile).toEqual([{ key: "Mobile", is_mobile: true, os: null, connections: 3, footfall: 3 }]);
    expect(data.os).toEqual([{ key: "Android", os: "Android", brand: null }]);
    expect(data.brand).toEqual([{ key: "Samsung", brand: "Samsung" }]);
    expect(data.browser).toEqual([{ key: "Chrome", browser: "Chrome" }]);
  });

  it("narrows to chosen networks, and refuses another organisation's network as not found", async () => {
    const { org, caller } = await world();
    const empty = await insertVenue(org.id, { name: "Empty" });
    const data = await gqlData(server, caller, `{ aggregateUsageSummary(venues: ["${empty.id}"], ${ON_DAY}) { footfall } }`);
    expect(data.aggregateUsageSummary.footfall).toBe(0);
    const foreign = await foreignWorld();
    for (const field of ["aggregateUsageSummary", "usageSummary", "venueUsageSummary", "overview"]) {
      const answer = await gql(server, caller, `{ ${field}(venues: ["${foreign.venue.id}"], ${ON_DAY}) { footfall } }`);
      expect(firstError(answer), field).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });
});

describe("organization", () => {
  it("answers the organisation's details, counts, connections, figures and lists", async () => {
    const { org, caller, venue, accessPoint, customer, device, connections } = await world();
    // The online connection's dwell is its time so far: read at 12:12:01, 10 minutes after it was authorized.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 10, 20, 12, 12, 1));
    const data = await gqlData(
      server,
      caller,
      `{ organization(id: "${org.id}") {
          id name address email_address phone_number more_info created_at updated_at admin_status im_admin
          accessPointsCount venuesCount connectionsCount customersCount onlineConnectionsCount devicesCount
          online: connectionsCount(online: true)
          connections(limit: 2) { id isOnline status access_point_mac duration usage upload download ssid authorized_at created_at end_time authorization_mode
            customer { id identity name phone_number } device { id name mac_address } venue { id name } accessPoint { id name } }
          dwellTime(${ON_DAY}) { dwell_time time }
          footfall(${ON_DAY}) { footfall time }
          aggregateUsageSummary(${ON_DAY}) { footfall connections }
          venues { id name address accessPointsCount connectionsCount customersCount onlineConnectionsCount }
          accessPoints { id name mac_address make venue_id connectionsCount customersCount onlineConnectionsCount venue { id name } }
          devices { id name mac_address os is_mobile type blocked connectionsCount usage isOnline last_seen customer { id name } }
      } }`,
    );
    const o = data.organization;
    expect(o).toMatchObject({ id: String(org.id), name: org.name, address: "1 Moi Avenue", admin_status: "Accepted", im_admin: true });
    expect(o).toMatchObject({
      accessPointsCount: 1,
      venuesCount: 1,
      connectionsCount: 3,
      customersCount: 1,
      onlineConnectionsCount: 1,
      devicesCount: 1,
      online: 1,
    });
    expect(o.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const newest = connections[2];
    expect(o.connections).toHaveLength(2);
    expect(o.connections[0]).toEqual({
      id: String(newest.id),
      isOnline: true,
      status: "Online",
      access_point_mac: accessPoint.mac_address,
      duration: expect.any(Number),
      usage: 3072 * 3,
      upload: 3072,
      download: 6144,
      ssid: null,
      authorized_at: new Date(newest.created_at + 1000).toISOString(),
      created_at: new Date(newest.created_at).toISOString(),
      end_time: null,
      authorization_mode: "click",
      customer: { id: String(customer.id), identity: customer.identity, name: "Achieng Odhiambo", phone_number: "+254712000111" },
      device: { id: String(device.id), name: device.name, mac_address: device.mac_address },
      venue: { id: String(venue.id), name: venue.name },
      accessPoint: { id: String(accessPoint.id), name: accessPoint.name },
    });
    expect(o.connections[1]).toMatchObject({ isOnline: false, status: "Offline", end_time: expect.any(String) });
    expect(o.dwellTime).toEqual([{ dwell_time: 3600 + 600, time: "2026-11-20T12:00:00.000Z" }]);
    expect(o.footfall).toEqual([{ footfall: 3, time: "2026-11-20T12:00:00.000Z" }]);
    expect(o.aggregateUsageSummary).toEqual({ footfall: 3, connections: 3 });
    expect(o.venues).toEqual([
      {
        id: String(venue.id),
        name: venue.name,
        address: expect.any(String),
        accessPointsCount: 1,
        connectionsCount: 3,
        customersCount: 1,
        onlineConnectionsCount: 1,
      },
    ]);
    expect(o.accessPoints).toEqual([
      {
        id: String(accessPoint.id),
        name: accessPoint.name,
        mac_address: accessPoint.mac_address,
        make: expect.any(String),
        venue_id: String(venue.id),
        connectionsCount: 3,
        customersCount: 1,
        onlineConnectionsCount: 1,
        venue: { id: String(venue.id), name: venue.name },
      },
    ]);
    expect(o.devices).toEqual([
      {
        id: String(device.id),
        name: device.name,
        mac_address: device.mac_address,
        os: "Android",
        is_mobile: true,
        type: "Mobile",
        blocked: false,
        connectionsCount: 3,
        usage: 18432,
        isOnline: true,
        last_seen: expect.any(String),
        customer: { id: String(customer.id), name: "Achieng Odhiambo" },
      },
    ]);
  });

  it("filters connections by network, customer, device, access point, state, window and search, newest first, paged", async () => {
    const { caller, venue, accessPoint, customer, device, connections } = await world();
    const ids = (answer: Record<string, any>) => answer.organization.connections.map((c: { id: string }) => Number(c.id));
    const all = connections.map((c) => c.id).reverse();
    const ask = async (args: string) => ids(await gqlData(server, caller, `{ organization { connections(${args}) { id } } }`));
    expect(await ask(`venues: ["${venue.id}"]`)).toEqual(all);
    expect(await ask(`customers: ["${customer.id}"]`)).toEqual(all);
    expect(await ask(`devices: ["${device.id}"]`)).toEqual(all);
    expect(await ask(`accessPoints: ["${accessPoint.id}"]`)).toEqual(all);
    expect(await ask("online: true")).toEqual([all[0]]);
    expect(await ask("authorized: true, limit: 1, offset: 1")).toEqual([all[1]]);
    expect(await ask(`startDate: "2026-11-21", endDate: "2026-11-21"`)).toEqual([]);
    expect(await ask(`search: "Achieng", order: "created_at desc"`)).toEqual(all);
    const counted = await gqlData(server, caller, `{ organization { connectionsCount(search: "nobody-here") } }`);
    expect(counted.organization.connectionsCount).toBe(0);
    expect(firstError(await gql(server, caller, `{ organization { connections(venues: ["1", "2"]) { id } } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: "venues takes one id at a time.",
    });
  });

  it("refuses connections, devices and contact details without their permissions, with the catalogue's message", async () => {
    const { org } = await world();
    const member = await memberCaller(org.id, "custom");
    const basics = await gqlData(
      server,
      member,
      "{ organization { id name time_zone im_admin admin_status venuesCount devicesCount venues { id name } } }",
    );
    expect(basics.organization).toMatchObject({
      time_zone: "UTC",
      im_admin: false,
      admin_status: "Accepted",
      venuesCount: 1,
      venues: [{ id: expect.any(String), name: "Java House Westlands" }],
    });
    for (const field of [
      "connections { id }",
      "connectionsCount(online: true)",
      "devices { id }",
      "address",
      "accessPoints { id }",
      "venues { address }",
      "venues { connectionsCount }",
    ]) {
      const answer = await gql(server, member, `{ organization { ${field} } }`);
      expect(firstError(answer), field).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_clients") });
    }
  });

  it("treats another organisation's ids in filters as not found", async () => {
    const { caller } = await world();
    const foreign = await foreignWorld();
    for (const filter of [
      `venues: ["${foreign.venue.id}"]`,
      `customers: ["${foreign.customer.id}"]`,
      `devices: ["${foreign.device.id}"]`,
      `accessPoints: ["${foreign.accessPoint.id}"]`,
    ]) {
      expect(firstError(await gql(server, caller, `{ organization { connections(${filter}) { id } } }`)), filter).toEqual({
        code: "NOT_FOUND",
        message: "Not found",
      });
    }
  });
});

describe("networks and access points", () => {
  it("answers venue(id) with its access points over a window, venues by name, accessPoint(id) and accessPoints", async () => {
    const { org, caller, venue, accessPoint } = await world();
    const second = await insertAccessPoint(org.id, venue.id, { name: "Garden AP" });
    const alpha = await insertVenue(org.id, { name: "Alpha" });
    const data = await gqlData(
      server,
      caller,
      `{
        venue(id: "${venue.id}") { id name organization_id layout_image layout_polygon created_at accessPointsCount
          accessPoints(${ON_DAY}) { id name connectionsCount } }
        venues(order: "name asc") { id name }
        accessPoint(id: "${accessPoint.id}") { id name mac_address serial_number custom_success_url description venue { id name } onlineConnectionsCount }
        accessPoints(venues: ["${venue.id}"], limit: 1, offset: 1) { id name }
      }`,
    );
    expect(data.venue).toEqual({
      id: String(venue.id),
      name: venue.name,
      organization_id: String(org.id),
      layout_image: null,
      layout_polygon: "[]",
      created_at: expect.any(String),
      accessPointsCount: 2,
      accessPoints: [
        { id: String(second.id), name: "Garden AP", connectionsCount: 0 },
        { id: String(accessPoint.id), name: "Lobby AP", connectionsCount: 3 },
      ],
    });
    expect(data.venues.map((v: { name: string }) => v.name)).toEqual(["Alpha", venue.name]);
    expect(data.venues[0].id).toBe(String(alpha.id));
    expect(data.accessPoint).toMatchObject({
      id: String(accessPoint.id),
      mac_address: accessPoint.mac_address,
      venue: { id: String(venue.id), name: venue.name },
      onlineConnectionsCount: 1,
    });
    expect(data.accessPoints).toEqual([{ id: String(accessPoint.id), name: "Lobby AP" }]);
  });

  it("answers an access point's distinct devices (all time or in a window) and its status by the dashboard's rule", async () => {
    const { org, caller, venue, accessPoint, customer } = await world();
    const seen = await insertAccessPoint(org.id, venue.id, { name: "Seen AP", last_seen_at: Date.now() - 60_000 });
    const stale = await insertAccessPoint(org.id, venue.id, { name: "Stale AP", last_seen_at: Date.now() - 60 * 60_000 });
    // A second device through the lobby AP the day before, and a guest through the stale AP just now (which makes it online).
    const tablet = await insertDevice(org.id, { customer_id: customer.id, name: "Achieng's tablet" });
    const dayBefore = Date.UTC(2026, 10, 19, 12, 0);
    await insertConnection(org.id, {
      venue_id: venue.id,
      access_point_mac: accessPoint.mac_address,
      customer_id: customer.id,
      device_id: tablet.id,
      created_at: dayBefore,
      authorized_at: dayBefore + 1000,
      ended_at: dayBefore + 60_000,
    });
    await insertConnection(org.id, { venue_id: venue.id, access_point_mac: stale.mac_address, created_at: Date.now() - 60_000 });
    const data = await gqlData(
      server,
      caller,
      `{
        lobby: accessPoint(id: "${accessPoint.id}") { devicesCount status { status } }
        seen: accessPoint(id: "${seen.id}") { devicesCount status { status } }
        stale: accessPoint(id: "${stale.id}") { status { status } }
        venue(id: "${venue.id}") { accessPoints(${ON_DAY}) { name devicesCount customersCount status { status } } }
      }`,
    );
    // A guest online through it makes an access point online (the dashboard's rule, console-2).
    expect(data.lobby).toEqual({ devicesCount: 2, status: { status: "online" } });
    expect(data.seen).toEqual({ devicesCount: 0, status: { status: "online" } });
    expect(data.stale).toEqual({ status: { status: "online" } });
    expect(data.venue.accessPoints).toEqual([
      { name: "Lobby AP", devicesCount: 1, customersCount: 1, status: { status: "online" } },
      { name: "Seen AP", devicesCount: 0, customersCount: 0, status: { status: "online" } },
      { name: "Stale AP", devicesCount: 0, customersCount: 0, status: { status: "online" } },
    ]);
    const member = await memberCaller(org.id, "custom", ["view_clients"]);
    for (const query of [
      `{ accessPoints { status { status } } }`,
      "{ organization { connections { accessPoint { devicesCount } } } }",
      "{ organization { connections { accessPoint { status { status } } } } }",
    ]) {
      expect(firstError(await gql(server, member, query)), query).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_networks") });
    }
  });

  it("needs view_networks beyond ids and names; another organisation's network or access point is not found", async () => {
    const { org, venue, accessPoint, caller } = await world();
    const member = await memberCaller(org.id, "custom", ["view_clients"]);
    const names = await gqlData(
      server,
      member,
      "{ venues { id name } organization { connections { venue { id name } accessPoint { id name mac_address } } } }",
    );
    expect(names.venues).toEqual([{ id: String(venue.id), name: venue.name }]);
    expect(names.organization.connections[0].accessPoint).toEqual({
      id: String(accessPoint.id),
      name: accessPoint.name,
      mac_address: accessPoint.mac_address,
    });
    for (const query of [
      `{ venue(id: "${venue.id}") { id } }`,
      `{ accessPoint(id: "${accessPoint.id}") { id } }`,
      "{ accessPoints { id } }",
      "{ venues { email } }",
      "{ organization { connections { accessPoint { make } } } }",
    ]) {
      expect(firstError(await gql(server, member, query)), query).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_networks") });
    }
    const foreign = await foreignWorld();
    for (const query of [
      `{ venue(id: "${foreign.venue.id}") { id } }`,
      `{ accessPoint(id: "${foreign.accessPoint.id}") { id } }`,
      `{ accessPoints(venues: ["${foreign.venue.id}"]) { id } }`,
    ]) {
      expect(firstError(await gql(server, caller, query)), query).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });
});

describe("customers and devices", () => {
  it("answers customers with their counts, customer(id), devices and the capped counts, with filters and search", async () => {
    const { org, caller, venue, accessPoint, customer, device } = await world();
    const lonely = await insertCustomer(org.id, { first_name: "Baraka", last_name: "Mwangi", email_address: "baraka@example.com" });
    await insertDevice(org.id, { customer_id: lonely.id, name: "Baraka's laptop", is_mobile: 0 });
    const data = await gqlData(
      server,
      caller,
      `{
        customers { id identity name first_name middle_name last_name phone_number email_address facebook twitter more_info connectionsCount devicesCount }
        customersCount
        atVenue: customers(venues: ["${venue.id}"], ${ON_DAY}) { id }
        throughAp: customersCount(accessPoints: ["${accessPoint.id}"])
        searched: customers(search: "baraka") { id }
        customer(id: "${customer.id}") { id name connectionsCount devicesCount }
        devices(customers: ["${customer.id}"]) { id name brand browser }
        devicesCount
        desktop: devices(search: "laptop") { name type is_mobile customer { name email_address } }
      }`,
    );
    expect(data.customers).toEqual([
      {
        id: String(lonely.id),
        identity: lonely.identity,
        name: "Baraka Mwangi",
        first_name: "Baraka",
        middle_name: null,
        last_name: "Mwangi",
        phone_number: lonely.phone_number,
        email_address: "baraka@example.com",
        facebook: null,
        twitter: null,
        more_info: null,
        connectionsCount: 0,
        devicesCount: 1,
      },
      expect.objectContaining({ id: String(customer.id), name: "Achieng Odhiambo", connectionsCount: 3, devicesCount: 1 }),
    ]);
    expect(data.customersCount).toBe(2);
    expect(data.atVenue).toEqual([{ id: String(customer.id) }]);
    expect(data.throughAp).toBe(1);
    expect(data.searched).toEqual([{ id: String(lonely.id) }]);
    expect(data.customer).toEqual({ id: String(customer.id), name: "Achieng Odhiambo", connectionsCount: 3, devicesCount: 1 });
    expect(data.devices).toEqual([{ id: String(device.id), name: device.name, brand: "Samsung", browser: "Chrome" }]);
    expect(data.devicesCount).toBe(2);
    expect(data.desktop).toEqual([
      {
        name: "Baraka's laptop",
        type: "Desktop",
        is_mobile: false,
        customer: { name: "Baraka Mwangi", email_address: "baraka@example.com" },
      },
    ]);
  });

  it("filters customers by a device's owner, an online or an authorized connection, alone and with a network", async () => {
    const { org, caller, venue, customer, device } = await world();
    const at = Date.UTC(2026, 10, 20, 8, 0);
    const lonely = await insertCustomer(org.id, { first_name: "Baraka" });
    const laptop = await insertDevice(org.id, { customer_id: lonely.id, name: "Baraka's laptop" });
    const ownerless = await insertDevice(org.id, { name: "Nobody's tablet" });
    // Authorized once, ended: authorized, not online; at another network.
    const past = await insertCustomer(org.id, { first_name: "Wanjiru" });
    const elsewhere = await insertVenue(org.id, { name: "Elsewhere" });
    await insertConnection(org.id, {
      customer_id: past.id,
      venue_id: elsewhere.id,
      created_at: at,
      authorized_at: at + 1000,
      ended_at: at + 60_000,
    });
    // Never authorized (the portal was left): neither.
    const bounced = await insertCustomer(org.id, { first_name: "Otieno" });
    await insertConnection(org.id, { customer_id: bounced.id, venue_id: venue.id, created_at: at });
    const ids = (rows: { id: string }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    const data = await gqlData(
      server,
      caller,
      `{
        online: customers(online: true) { id name }
        onlineCount: customersCount(online: true)
        authorized: customers(authorized: true, limit: 250) { id }
        authorizedCount: customersCount(authorized: true)
        notFiltered: customersCount(online: false, authorized: false)
        all: customersCount
        owner: customers(devices: ["${laptop.id}"]) { id name devicesCount }
        ownerCount: customersCount(devices: ["${laptop.id}"])
        ownerOnline: customers(devices: ["${device.id}"], online: true) { id }
        ownerNotAuthorized: customers(devices: ["${laptop.id}"], authorized: true) { id }
        noOwner: customers(devices: ["${ownerless.id}"]) { id }
      }`,
    );
    // With a network or a window, the connection must be there and then too.
    const placed = await gqlData(
      server,
      caller,
      `{
        venueOnline: customers(venues: ["${venue.id}"], online: true) { id }
        venueAuthorized: customers(venues: ["${venue.id}"], authorized: true, limit: 250) { id }
        elsewhereAuthorized: customers(venues: ["${elsewhere.id}"], authorized: true) { id }
        elsewhereOnline: customersCount(venues: ["${elsewhere.id}"], online: true)
        onDayOnline: customersCount(online: true, ${ON_DAY})
        dayBeforeAuthorized: customersCount(authorized: true, startDate: "2026-11-19", endDate: "2026-11-19 23:59:59")
      }`,
    );
    expect(data.online).toEqual([{ id: String(customer.id), name: "Achieng Odhiambo" }]);
    expect(data.onlineCount).toBe(1);
    expect(ids(data.authorized)).toEqual([customer.id, past.id].sort((a, b) => a - b));
    expect(data.authorizedCount).toBe(2);
    expect(data.notFiltered).toBe(4);
    expect(data.all).toBe(4);
    expect(data.owner).toEqual([{ id: String(lonely.id), name: "Baraka", devicesCount: 1 }]);
    expect(data.ownerCount).toBe(1);
    expect(data.ownerOnline).toEqual([{ id: String(customer.id) }]);
    expect(data.ownerNotAuthorized).toEqual([]);
    expect(data.noOwner).toEqual([]);
    expect(placed.venueOnline).toEqual([{ id: String(customer.id) }]);
    expect(placed.venueAuthorized).toEqual([{ id: String(customer.id) }]);
    expect(placed.elsewhereAuthorized).toEqual([{ id: String(past.id) }]);
    expect(placed.elsewhereOnline).toBe(0);
    expect(placed.onDayOnline).toBe(1);
    expect(placed.dayBeforeAuthorized).toBe(0);
    expect(firstError(await gql(server, caller, `{ customers(devices: ["${laptop.id}", "${device.id}"]) { id } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: "devices takes one id at a time.",
    });
  });

  it("needs view_clients; another organisation's customer or filter ids are not found", async () => {
    const { org, caller, customer } = await world();
    const networks = await memberCaller(org.id, "custom", ["view_networks"]);
    for (const query of [
      "{ customers { id } }",
      "{ customers(online: true) { id } }",
      `{ customersCount(authorized: true) }`,
      "{ customersCount }",
      `{ customer(id: "${customer.id}") { id } }`,
      "{ devices { id } }",
      "{ devicesCount }",
    ]) {
      expect(firstError(await gql(server, networks, query)), query).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_clients") });
    }
    const foreign = await foreignWorld();
    for (const query of [
      `{ customer(id: "${foreign.customer.id}") { id } }`,
      `{ customers(venues: ["${foreign.venue.id}"]) { id } }`,
      `{ customers(devices: ["${foreign.device.id}"]) { id } }`,
      `{ customersCount(devices: ["${foreign.device.id}"], online: true) }`,
      `{ devices(customers: ["${foreign.customer.id}"]) { id } }`,
      `{ devicesCount(accessPoints: ["${foreign.accessPoint.id}"]) }`,
    ]) {
      expect(firstError(await gql(server, caller, query)), query).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });
});

describe("roles, permissions and administrators", () => {
  it("lists roles newest first with their permissions, role(id), rolesCount, the permission catalogue and the administrators", async () => {
    const { org, owner, caller } = await world();
    const custom = await makeMember(org.id, "custom", ["view_clients", "edit_connections"]);
    const reader = await makeMember(org.id, "r");
    const data = await gqlData(
      server,
      caller,
      `{
        roles(order: "created_at desc") { id name role_type permissions created_at }
        rolesCount
        searched: rolesCount(search: "custom")
        role(id: "${custom.role.id}") { id name description role_type permissions }
        permissions { id name identifier description }
        administrators { id role_id role_name status invited_email_address im_admin user { id name email phone_number } }
      }`,
    );
    expect(data.roles.map((r: { id: string }) => Number(r.id))).toEqual([reader.role.id, custom.role.id]);
    expect(data.roles[1]).toMatchObject({ name: "Role custom", role_type: "custom", permissions: ["view_clients", "edit_connections"] });
    expect(data.rolesCount).toBe(2);
    expect(data.searched).toBe(1);
    expect(data.role).toEqual({
      id: String(custom.role.id),
      name: "Role custom",
      description: null,
      role_type: "custom",
      permissions: ["view_clients", "edit_connections"],
    });
    expect(data.permissions.map((p: { identifier: string }) => p.identifier)).toEqual(ALL_PERMISSIONS);
    expect(data.administrators).toHaveLength(3);
    expect(data.administrators[0]).toMatchObject({
      im_admin: true,
      role_name: "Administrator",
      status: "Accepted",
      user: { id: String(owner.id), email: owner.email },
    });
  });

  it("needs view_settings, and another organisation's role is not found", async () => {
    const { org, caller } = await world();
    const reader = await memberCaller(org.id, "custom", ["view_clients"]);
    for (const query of [
      "{ roles { id } }",
      "{ rolesCount }",
      "{ permissions { id } }",
      "{ administrators { id } }",
      '{ role(id: "1") { id } }',
    ]) {
      expect(firstError(await gql(server, reader, query)), query).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_settings") });
    }
    const foreign = await foreignWorld();
    expect(firstError(await gql(server, caller, `{ role(id: "${foreign.role.id}") { id } }`))).toEqual({
      code: "NOT_FOUND",
      message: "Not found",
    });
  });
});

describe("reports", () => {
  it("answers the overview, every visitor list with its count, and the member's subscriptions", async () => {
    const { org, owner, caller, customer } = await world();
    // A repeat customer: online before the window and in it.
    const regular = await insertCustomer(org.id, { first_name: "Wanjiru" });
    for (const day of [18, 20]) {
      await insertConnection(org.id, {
        customer_id: regular.id,
        created_at: Date.UTC(2026, 10, day, 8),
        authorized_at: Date.UTC(2026, 10, day, 8, 1),
        ended_at: Date.UTC(2026, 10, day, 9),
      });
    }
    // Reached the portal only.
    const passer = await insertCustomer(org.id, { first_name: "Otieno" });
    await insertConnection(org.id, { customer_id: passer.id, created_at: Date.UTC(2026, 10, 20, 10) });
    const ctx = await contextOf(owner.id, org.id);
    const subscription = await subscribeReport(ctx, "overview", 18);
    const data = await gqlData(
      server,
      caller,
      `{
        overview(${ON_DAY}) { days weeks months years footfall connections abandoned upload download bandwidth dwellTime newCustomers repeatCustomers totalCustomers }
        newVisitors(${ON_DAY}) { id name identity phone_number email_address facebook twitter more_info devicesCount connectionsCount }
        newVisitorsCount(${ON_DAY})
        repeatVisitors(${ON_DAY}) { id }
        repeatVisitorsCount(${ON_DAY})
        uniqueVisitors(${ON_DAY}, order: "created_at desc") { id }
        uniqueVisitorsCount(${ON_DAY})
        allVisitors(${ON_DAY}, limit: 2) { id }
        allVisitorsCount(${ON_DAY})
        searched: allVisitorsCount(${ON_DAY}, search: "Otieno")
        myReports { id report send_at }
        overviewOnly: myReports(report: "overview") { id }
      }`,
    );
    expect(data.overview).toMatchObject({
      days: 1,
      weeks: 1,
      months: 1,
      years: 1,
      footfall: 5,
      connections: 4,
      abandoned: 1,
      newCustomers: 1,
      repeatCustomers: 1,
      totalCustomers: 2,
    });
    expect(data.newVisitors).toEqual([
      {
        id: String(customer.id),
        name: "Achieng Odhiambo",
        identity: customer.identity,
        phone_number: "+254712000111",
        email_address: null,
        facebook: null,
        twitter: null,
        more_info: null,
        devicesCount: 1,
        connectionsCount: 3,
      },
    ]);
    expect(data.newVisitorsCount).toBe(1);
    expect(data.repeatVisitors).toEqual([{ id: String(regular.id) }]);
    expect(data.repeatVisitorsCount).toBe(1);
    expect(data.uniqueVisitors.map((v: { id: string }) => Number(v.id)).sort()).toEqual([customer.id, regular.id].sort());
    expect(data.uniqueVisitorsCount).toBe(2);
    expect(data.allVisitors).toHaveLength(2);
    expect(data.allVisitorsCount).toBe(3);
    expect(data.searched).toBe(1);
    expect(data.myReports).toEqual([{ id: String(subscription.id), report: "overview", send_at: 18 }]);
    expect(data.overviewOnly).toEqual([{ id: String(subscription.id) }]);
  });

  it("shows counts without view_clients but not who visited, nor a count of a search; a foreign network is not found", async () => {
    const { org, caller } = await world();
    const member = await memberCaller(org.id, "custom");
    const counts = await gqlData(server, member, `{ newVisitorsCount(${ON_DAY}) overview(${ON_DAY}) { footfall } myReports { id } }`);
    expect(counts).toEqual({ newVisitorsCount: 1, overview: { footfall: 3 }, myReports: [] });
    for (const query of [`{ newVisitors(${ON_DAY}) { id } }`, `{ allVisitorsCount(${ON_DAY}, search: "Achieng") }`]) {
      expect(firstError(await gql(server, member, query)), query).toEqual({ code: "FORBIDDEN", message: refusalMessage("view_clients") });
    }
    expect(firstError(await gql(server, caller, '{ myReports(report: "weekly") { id } }')).code).toBe("BAD_USER_INPUT");
    const foreign = await foreignWorld();
    expect(firstError(await gql(server, caller, `{ newVisitors(venues: ["${foreign.venue.id}"], ${ON_DAY}) { id } }`)).code).toBe(
      "NOT_FOUND",
    );
  });
});
