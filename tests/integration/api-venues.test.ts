// The networks and access points REST API (docs/guide/api.md#account-service) under
// /account/api/v1/: route loaders and actions called with a Request and a bearer token, on
// SQLite and PostgreSQL.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage } from "~/lib/permissions";
import { ACCESS_POINT_MESSAGES } from "~/lib/schemas/access-points";
import { VENUE_MESSAGES } from "~/lib/schemas/venues";
import * as accessPoint from "~/routes/account+/api.v1.access_points.$id";
import * as accessPoints from "~/routes/account+/api.v1.access_points";
import * as venue from "~/routes/account+/api.v1.venues.$id";
import * as venues from "~/routes/account+/api.v1.venues";
import { ACCESS_POINT_REFUSALS } from "~/services/access-points.server";
import { API_MESSAGES } from "~/services/api.server";
import { issueToken } from "~/services/auth.server";
import { BASE, makeMember, makeOrg, run } from "../fixtures";
import { insertAp, insertConnection, insertCustomer, insertVenue } from "../fixtures/venues";

type Route = { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: ActionFunctionArgs) => Promise<Response> };
type Json = Record<string, any>;

interface CallOptions {
  method?: string;
  token?: string;
  org?: number | string;
  json?: unknown;
  params?: Record<string, string>;
}

function call(route: Route, path: string, options: CallOptions = {}) {
  const method = options.method ?? (options.json !== undefined ? "POST" : "GET");
  const headers = new Headers();
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.org !== undefined) headers.set("X-Organization-Id", String(options.org));
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  }
  const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method, headers, body });
  const args = { request, params: options.params ?? {}, context: {} };
  return run(() => (method === "GET" || method === "HEAD" ? route.loader(args) : route.action(args)));
}

async function setup() {
  const { org, owner } = await makeOrg();
  return { org, owner, token: await issueToken(owner.id, "api") };
}

const venueBody = { name: "Two Rivers", address: "Limuru Road", email: "TR@example.com", phone_number: "0722 000 111" };

describe("venues API", () => {
  it("needs a bearer token and an organisation", async () => {
    const { org, token } = await setup();
    expect((await call(venues, "venues", { org: org.id })).status).toBe(401);
    const missing = await call(venues, "venues", { token });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({ errors: { organization_id: [API_MESSAGES.organizationRequired] } });
    const other = await makeOrg("Other Org");
    expect((await call(venues, "venues", { token, org: other.org.id })).status).toBe(404);
    expect((await call(venues, `venues?organization_id=${org.id}`, { token })).status).toBe(200);
  });

  it("creates with the form's rules (422 in the API's shape), lists by name with counts, and searches with query", async () => {
    const { org, token } = await setup();
    const invalid = await call(venues, "venues", { token, org: org.id, json: { email: "nope" } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: { name: [VENUE_MESSAGES.nameRequired], address: [VENUE_MESSAGES.addressRequired], email: [VENUE_MESSAGES.emailInvalid] },
    });

    const created = await call(venues, "venues", { token, json: { ...venueBody, organization_id: org.id } });
    expect(created.status).toBe(201);
    const body: Json = await created.json();
    expect(body.data.message).toBe("Network Two Rivers created.");
    expect(body.data.venue).toMatchObject({
      organization_id: org.id,
      name: "Two Rivers",
      email: "tr@example.com",
      phone_number: "+254722000111",
      layout_polygon: [],
      accessPointsCount: 0,
      connectionsCount: 0,
    });

    const alpha = await insertVenue(org.id, { name: "Alpha" });
    const ap = await insertAp(org.id, alpha.id);
    await insertConnection(org.id, { venueId: alpha.id, ap }, { customer_id: await insertCustomer(org.id) });
    const list: Json = await (await call(venues, "venues", { token, org: org.id })).json();
    expect(list.data.venues.map((v: Json) => v.name)).toEqual(["Alpha", "Two Rivers"]);
    expect(list.data.venues[0]).toMatchObject({ accessPointsCount: 1, customersCount: 1, connectionsCount: 1, onlineConnectionsCount: 1 });
    expect(list.data.meta).toEqual({ page: 1, per_page: 10, total: 2 });
    const found: Json = await (await call(venues, "venues?query=rivers", { token, org: org.id })).json();
    expect(found.data.venues.map((v: Json) => v.name)).toEqual(["Two Rivers"]);
  });

  it("refuses each call without its permission, with the catalogue's message", async () => {
    const { org } = await setup();
    const v = await insertVenue(org.id);
    const { user } = await makeMember(org.id, "r");
    const token = await issueToken(user.id, "api");
    const post = await call(venues, "venues", { token, org: org.id, json: venueBody });
    expect(post.status).toBe(403);
    expect(await post.json()).toEqual({ error: { message: refusalMessage("create_networks") } });
    const put = await call(venue, `venues/${v.id}`, { token, org: org.id, method: "PUT", json: venueBody, params: { id: String(v.id) } });
    expect((await put.json()).error.message).toBe(refusalMessage("edit_networks"));
    const del = await call(venue, `venues/${v.id}`, { token, org: org.id, method: "DELETE", params: { id: String(v.id) } });
    expect(del.status).toBe(403);
    const map = await call(venue, `venues/${v.id}`, {
      token,
      org: org.id,
      method: "PUT",
      json: { map_zoom: 18 },
      params: { id: String(v.id) },
    });
    expect((await map.json()).error.message).toBe(refusalMessage("edit_network_layout"));
    expect((await call(venue, `venues/${v.id}`, { token, org: org.id, params: { id: String(v.id) } })).status).toBe(200);
  });

  it("reads, updates (form or map fields) and deletes one network; another organisation's, unknown or malformed ids are 404", async () => {
    const { org, token } = await setup();
    const v = await insertVenue(org.id, { name: "Garden City" });
    const ap = await insertAp(org.id, v.id, { name: "Gate" });
    const connection = await insertConnection(org.id, { venueId: v.id, ap });
    const other = await makeOrg("Other Org");
    const foreign = await insertVenue(other.org.id);
    for (const id of [String(foreign.id), "987654", "abc"]) {
      const params = { id };
      expect((await call(venue, `venues/${id}`, { token, org: org.id, params })).status).toBe(404);
      expect((await call(venue, `venues/${id}`, { token, org: org.id, params, method: "PUT", json: venueBody })).status).toBe(404);
      expect((await call(venue, `venues/${id}`, { token, org: org.id, params, method: "DELETE" })).status).toBe(404);
    }
    const params = { id: String(v.id) };
    const one: Json = await (await call(venue, `venues/${v.id}`, { token, org: org.id, params })).json();
    expect(one.data.venue).toMatchObject({
      id: v.id,
      name: "Garden City",
      accessPointsCount: 1,
      accessPoints: [{ id: ap.id, name: "Gate", mac_address: ap.mac_address }],
    });

    const bad = await call(venue, `venues/${v.id}`, { token, org: org.id, params, method: "PUT", json: { name: "", address: "X" } });
    expect(await bad.json()).toEqual({ errors: { name: [VENUE_MESSAGES.nameRequired] } });
    const put: Json = await (await call(venue, `venues/${v.id}`, { token, org: org.id, params, method: "PUT", json: venueBody })).json();
    expect(put.data).toMatchObject({ message: "Network updated.", venue: { name: "Two Rivers", address: "Limuru Road" } });

    const polygon = [
      [
        { lat: -1.2, lng: 36.8 },
        { lat: -1.2, lng: 36.81 },
        { lat: -1.21, lng: 36.81 },
      ],
    ];
    const map: Json = await (
      await call(venue, `venues/${v.id}`, {
        token,
        org: org.id,
        params,
        method: "PUT",
        json: { name: "Two Rivers", map_zoom: 18, lat: -1.2, lng: 36.8, layout_polygon: JSON.stringify(polygon) },
      })
    ).json();
    expect(map.data.venue).toMatchObject({
      name: "Two Rivers",
      address: "Limuru Road",
      map_zoom: 18,
      lat: -1.2,
      lng: 36.8,
      layout_polygon: polygon,
    });

    const deleted: Json = await (await call(venue, `venues/${v.id}`, { token, org: org.id, params, method: "DELETE" })).json();
    expect(deleted.data.message).toBe("Network Two Rivers deleted. Its access point was deleted too.");
    expect(deleted.data.venue.id).toBe(v.id);
    expect(await db.selectFrom("access_points").select("id").where("id", "=", ap.id).executeTakeFirst()).toBeUndefined();
    expect(
      await db.selectFrom("connections").select(["venue_id", "access_point_mac"]).where("id", "=", connection).executeTakeFirst(),
    ).toEqual({
      venue_id: null,
      access_point_mac: ap.mac_address,
    });
    expect(await db.selectFrom("venues").select("id").where("id", "=", foreign.id).executeTakeFirst()).toBeDefined();
  });
});

describe("access points API", () => {
  const apBody = (venueId: number, fields: Json = {}) => ({
    name: "Reception",
    make: "Meraki",
    mac_address: "00-11-22-AA-BB-CC",
    serial_number: "Q2XX-1",
    venue_id: venueId,
    lat: -1.3,
    lng: 36.82,
    ...fields,
  });

  it("creates with the spec's required messages, a normalised MAC and a 422 for a MAC in use; a foreign network is a 404", async () => {
    const { org, token } = await setup();
    const v = await insertVenue(org.id, { name: "Village Market" });
    const empty = await call(accessPoints, "access_points", { token, org: org.id, json: {} });
    expect(empty.status).toBe(422);
    expect((await empty.json()).errors).toMatchObject({
      name: [ACCESS_POINT_MESSAGES.nameRequired],
      make: [ACCESS_POINT_MESSAGES.makeRequired],
      mac_address: [ACCESS_POINT_MESSAGES.macRequired],
      serial_number: [ACCESS_POINT_MESSAGES.serialRequired],
    });
    const created = await call(accessPoints, "access_points", { token, org: org.id, json: apBody(v.id) });
    expect(created.status).toBe(201);
    const body: Json = await created.json();
    expect(body.data.message).toBe("Access point Reception created.");
    expect(body.data.access_point).toMatchObject({
      name: "Reception",
      make: "Meraki",
      mac_address: "00:11:22:aa:bb:cc",
      venue_id: v.id,
      venue: { id: v.id, name: "Village Market" },
      lat: -1.3,
      lng: 36.82,
      connectionsCount: 0,
    });

    const again = await call(accessPoints, "access_points", { token, org: org.id, json: apBody(v.id, { mac_address: "001122aabbcc" }) });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ errors: { mac_address: [ACCESS_POINT_REFUSALS.macTaken("Reception")] } });

    const other = await makeOrg("Other Org");
    const foreign = await insertVenue(other.org.id);
    const elsewhere = await call(accessPoints, "access_points", {
      token,
      org: org.id,
      json: apBody(foreign.id, { mac_address: "02:00:00:00:00:09" }),
    });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: { message: "Network not found." } });
  });

  it("lists by name with counts, filtered by network; reads, updates and deletes one; foreign ids are 404", async () => {
    const { org, token } = await setup();
    const v1 = await insertVenue(org.id);
    const v2 = await insertVenue(org.id);
    const b = await insertAp(org.id, v1.id, { name: "B" });
    await insertAp(org.id, v1.id, { name: "A" });
    await insertAp(org.id, v2.id, { name: "C" });
    await insertConnection(org.id, { venueId: v1.id, ap: b });
    const list: Json = await (await call(accessPoints, `access_points?venue_id=${v1.id}`, { token, org: org.id })).json();
    expect(list.data.access_points.map((a: Json) => a.name)).toEqual(["A", "B"]);
    expect(list.data.access_points[1]).toMatchObject({ connectionsCount: 1, onlineConnectionsCount: 1 });
    expect(list.data.meta.total).toBe(2);
    const other = await makeOrg("Other Org");
    const foreignVenue = await insertVenue(other.org.id);
    const foreign = await insertAp(other.org.id, foreignVenue.id);
    expect((await call(accessPoints, `access_points?venue_id=${foreignVenue.id}`, { token, org: org.id })).status).toBe(404);

    for (const id of [String(foreign.id), "555555", "-1"]) {
      const params = { id };
      expect((await call(accessPoint, `access_points/${id}`, { token, org: org.id, params })).status).toBe(404);
      expect(
        (await call(accessPoint, `access_points/${id}`, { token, org: org.id, params, method: "PUT", json: apBody(v1.id) })).status,
      ).toBe(404);
      expect((await call(accessPoint, `access_points/${id}`, { token, org: org.id, params, method: "DELETE" })).status).toBe(404);
    }
    expect(await db.selectFrom("access_points").select("id").where("id", "=", foreign.id).executeTakeFirst()).toBeDefined();

    const params = { id: String(b.id) };
    const one: Json = await (await call(accessPoint, `access_points/${b.id}`, { token, org: org.id, params })).json();
    expect(one.data.access_point).toMatchObject({ id: b.id, name: "B", mac_address: b.mac_address, connectionsCount: 1 });
    const moved = await call(accessPoint, `access_points/${b.id}`, {
      token,
      org: org.id,
      params,
      method: "PUT",
      json: apBody(v2.id, { layout_x: 100, layout_y: 200 }),
    });
    expect((await moved.json()).data).toMatchObject({
      message: "Access point updated.",
      access_point: { venue_id: v2.id, layout_x: 100, layout_y: 200, mac_address: "00:11:22:aa:bb:cc" },
    });
    const intoForeign = await call(accessPoint, `access_points/${b.id}`, {
      token,
      org: org.id,
      params,
      method: "PUT",
      json: apBody(foreignVenue.id),
    });
    expect(intoForeign.status).toBe(404);

    const deleted = await call(accessPoint, `access_points/${b.id}`, { token, org: org.id, params, method: "DELETE" });
    expect(await deleted.json()).toEqual({ data: { message: "Access point Reception deleted." } });
    expect((await call(accessPoint, `access_points/${b.id}`, { token, org: org.id, params })).status).toBe(404);
  });

  it("refuses create, update and delete without create_ap, edit_ap and delete_ap", async () => {
    const { org } = await setup();
    const v = await insertVenue(org.id);
    const ap = await insertAp(org.id, v.id);
    const { user } = await makeMember(org.id, "r");
    const token = await issueToken(user.id, "api");
    const params = { id: String(ap.id) };
    const post = await call(accessPoints, "access_points", { token, org: org.id, json: apBody(v.id) });
    expect(await post.json()).toEqual({ error: { message: refusalMessage("create_ap") } });
    const put = await call(accessPoint, `access_points/${ap.id}`, { token, org: org.id, params, method: "PUT", json: apBody(v.id) });
    expect(await put.json()).toEqual({ error: { message: refusalMessage("edit_ap") } });
    const del = await call(accessPoint, `access_points/${ap.id}`, { token, org: org.id, params, method: "DELETE" });
    expect(await del.json()).toEqual({ error: { message: refusalMessage("delete_ap") } });
    expect((await call(accessPoints, "access_points", { token, org: org.id })).status).toBe(200);
    expect(await db.selectFrom("access_points").select("id").execute()).toHaveLength(1);
  });
});
