// A network's RADIUS gateways in the console, and the RADIUS makes' HTTP entry and grant page, on
// SQLite and PostgreSQL (no FreeRADIUS needed: tests/integration/radius.test.ts goes through it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as radiusPage from "~/routes/$orgId+/_networks+/venues+/$venueId+/radius";
import { RADIUS_CLIENT_MESSAGES } from "~/lib/schemas/radius-clients";
import { authorizeGuest } from "~/services/portal/connect.server";
import { listRadiusClients, radiusClientByAddress } from "~/services/radius/clients.server";
import { bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import { createPlan } from "~/services/prepaid/plans.server";
import { createPolicy, updatePolicy } from "~/services/prepaid/policies.server";
import { makeMember, makeOrg } from "../fixtures";
import { makeNetwork, randomMac } from "../fixtures/portal";
import { callRoute, contextOf } from "../fixtures/records";
import { startGuestServer, type GuestServer } from "../fixtures/guest-server";

let guest: GuestServer;
let origin: string;
beforeAll(async () => {
  guest = await startGuestServer();
  origin = guest.origin;
});
afterAll(() => guest.close());

async function world() {
  const { org, owner } = await makeOrg(`Radius console ${Math.random()}`);
  const { venue, ap } = await makeNetwork(org.id, { guest_signup: 0 });
  return { org, owner, venue, ap, path: `/${org.id}/venues/${venue.id}/radius`, params: { venueId: String(venue.id) } };
}
type World = Awaited<ReturnType<typeof world>>;

const add = (w: World, form: Record<string, string>, userId = w.owner.id) =>
  callRoute(radiusPage.action, { userId, orgId: w.org.id, path: w.path, params: w.params, form: { intent: "add", ...form } });

describe("the RADIUS gateways page", () => {
  it("adds a gateway and shows its secret once; the list never carries it; FreeRADIUS's lookup gets it back", async () => {
    const w = await world();
    const response = await add(w, { name: "Lobby router", make: "mikrotik", ip_address: "41.90.12.7", coa_port: "3799" });
    const body = await response.json();
    expect(body.secret).toMatchObject({ name: "Lobby router", message: RADIUS_CLIENT_MESSAGES.added });
    expect(body.secret.value).toMatch(/^[\w-]{24}$/);
    const stored = await db.selectFrom("radius_clients").selectAll().where("venue_id", "=", w.venue.id).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(body.secret.value); // encrypted at rest
    expect(await radiusClientByAddress("41.90.12.7")).toEqual({ id: stored.id, secret: body.secret.value });

    const page = await (await callRoute(radiusPage.loader, { userId: w.owner.id, orgId: w.org.id, path: w.path, params: w.params })).json();
    expect(page.clients).toMatchObject([{ name: "Lobby router", make: "mikrotik", ip_address: "41.90.12.7", coa_port: 3799 }]);
    expect(JSON.stringify(page)).not.toContain(body.secret.value);
    expect(JSON.stringify(page)).not.toContain(stored.secret);

    // A new secret replaces the old one.
    const rotated = await (
      await callRoute(radiusPage.action, {
        userId: w.owner.id,
        orgId: w.org.id,
        path: w.path,
        params: w.params,
        form: { intent: "rotate", id: String(stored.id), name: "Lobby router" },
      })
    ).json();
    expect(rotated.secret.value).not.toBe(body.secret.value);
    expect((await radiusClientByAddress("41.90.12.7"))!.secret).toBe(rotated.secret.value);
  });

  it("refuses bad input with messages, and an address another gateway has", async () => {
    const w = await world();
    const bad = await (await add(w, { name: "", make: "juniper", ip_address: "41.90.12", coa_port: "70000" })).json();
    expect(bad.add.error).toMatchObject({
      name: [RADIUS_CLIENT_MESSAGES.nameRequired],
      make: [RADIUS_CLIENT_MESSAGES.makeInvalid],
      ip_address: [RADIUS_CLIENT_MESSAGES.addressInvalid],
      coa_port: [RADIUS_CLIENT_MESSAGES.portInvalid],
    });
    await add(w, { name: "A", make: "cisco", ip_address: "2001:DB8::9", coa_port: "3799" });
    const other = await world();
    const taken = await (await add(other, { name: "B", make: "ruckus", ip_address: "2001:db8::9", coa_port: "3799" })).json();
    expect(taken.add.error).toEqual({ ip_address: [RADIUS_CLIENT_MESSAGES.addressTaken] });
  });

  it("needs edit_networks to change anything, and another organisation's network is a 404", async () => {
    const w = await world();
    const reader = await makeMember(w.org.id, "r");
    const refused = await add(w, { name: "A", make: "mikrotik", ip_address: "10.9.9.9" }, reader.user.id);
    expect(refused.status).toBe(403);
    expect((await callRoute(radiusPage.loader, { userId: reader.user.id, orgId: w.org.id, path: w.path, params: w.params })).status).toBe(
      200,
    );
    const other = await world();
    const foreign = await callRoute(radiusPage.loader, { userId: other.owner.id, orgId: other.org.id, path: w.path, params: w.params });
    expect(foreign.status).toBe(404);
    const foreignAdd = await add({ ...other, params: w.params }, { name: "A", make: "mikrotik", ip_address: "10.9.9.8" });
    expect(foreignAdd.status).toBe(404);
    expect(await db.selectFrom("radius_clients").select("id").where("ip_address", "in", ["10.9.9.9", "10.9.9.8"]).execute()).toEqual([]);
  });

  it("removes a gateway after a confirmation", async () => {
    const w = await world();
    await add(w, { name: "A", make: "mikrotik", ip_address: "10.8.8.8" });
    const [client] = (await listRadiusClients(await contextOf(w.owner.id, w.org.id), w.venue.id)).clients;
    const ask = await (
      await callRoute(radiusPage.action, {
        userId: w.owner.id,
        orgId: w.org.id,
        path: w.path,
        params: w.params,
        form: { intent: "remove", id: String(client!.id) },
      })
    ).json();
    expect(ask.confirm.message).toBe(RADIUS_CLIENT_MESSAGES.removeQuestion);
    const done = await callRoute(radiusPage.action, {
      userId: w.owner.id,
      orgId: w.org.id,
      path: w.path,
      params: w.params,
      form: { intent: "remove", id: String(client!.id), confirmed: "yes" },
    });
    expect(done.status).toBe(302);
    expect(await radiusClientByAddress("10.8.8.8")).toBeNull();
  });
});

describe("the RADIUS makes over HTTP", () => {
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });

  it("a MikroTik login.html posts to the entry; the connect token's grant page is refused before authorization and for a wrong token", async () => {
    const w = await world();
    const mac = randomMac();
    const entry = await post(`/hotspot/mikrotik/${w.venue.portal_key}`, {
      mac,
      ip: "10.5.50.9",
      "link-login-only": "http://10.5.50.1/login",
      "link-orig": "",
      identity: w.ap.mac_address,
    });
    expect(entry.status).toBe(303);
    const token = entry.headers.get("location")!.replace("/connect?token=", "");
    const loginPath = `/hotspot/mikrotik/${w.venue.portal_key}/login?token=${token}`;
    expect((await fetch(`${origin}${loginPath}`)).status).toBe(409);
    expect((await fetch(`${origin}/hotspot/mikrotik/${w.venue.portal_key}/login?token=${"x".repeat(32)}`)).status).toBe(404);
    const granted = await authorizeGuest({ token, mode: "CLICK_THROUGH" });
    expect(granted).toMatchObject({ ok: true });
    const page = await fetch(`${origin}${loginPath}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'sha256-/);
    expect(await page.text()).toContain('action="http://10.5.50.1/login"');
    // The same token under another make's path, or another network's key, is not this connection's.
    expect((await fetch(`${origin}/hotspot/cisco/${w.venue.portal_key}/login?token=${token}`)).status).toBe(404);
    const other = await world();
    expect((await fetch(`${origin}/hotspot/mikrotik/${other.venue.portal_key}/login?token=${token}`)).status).toBe(404);
  });

  it("a bad entry is a readable 400, an unknown network a 404, and the login.html download names the network's entry", async () => {
    const w = await world();
    expect((await post(`/hotspot/mikrotik/${w.venue.portal_key}`, { mac: "nope" })).status).toBe(400);
    expect(
      (await post(`/hotspot/mikrotik/${"k".repeat(24)}`, { mac: randomMac(), "link-login-only": "http://10.5.50.1/login" })).status,
    ).toBe(404);
    const download = await fetch(`${origin}/hotspot/mikrotik/${w.venue.portal_key}/login.html`);
    expect(download.headers.get("content-disposition")).toContain("login.html");
    expect(await download.text()).toContain(`action="http://localhost/hotspot/mikrotik/${w.venue.portal_key}"`);
  });

  it("a Cisco controller's redirect and a Ruckus controller's both lead to the connect page and their grant forms", async () => {
    const w = await world();
    for (const [make, query, action] of [
      [
        "cisco",
        { switch_url: "https://1.1.1.1/login.html", client_mac: randomMac(), ap_mac: w.ap.mac_address, wlan: "Guest" },
        "https://1.1.1.1/login.html",
      ],
      [
        "ruckus",
        { sip: "192.168.0.10", client_mac: randomMac(), mac: w.ap.mac_address, uip: "10.0.0.9" },
        "http://192.168.0.10:9997/login",
      ],
    ] as const) {
      const entry = await fetch(`${origin}/hotspot/${make}/${w.venue.portal_key}?${new URLSearchParams(query)}`, { redirect: "manual" });
      expect(entry.status, make).toBe(302);
      const token = entry.headers.get("location")!.replace("/connect?token=", "");
      const granted = await authorizeGuest({ token, mode: "CLICK_THROUGH" });
      if (!granted.ok) throw new Error(granted.message);
      const url = new URL(granted.redirect);
      const page = await (await fetch(`${origin}${url.pathname}${url.search}`)).text();
      expect(page, make).toContain(`action="${action}"`);
    }
  });
});

describe("a plan's new speed", () => {
  it("editing a bandwidth policy updates its plans' Active subscriptions and queues a CoA for guests online through RADIUS", async () => {
    const w = await world();
    const ctx = await contextOf(w.owner.id, w.org.id);
    const now = Date.now();
    const policyId = (
      await createPolicy(
        ctx,
        bandwidthPolicySchema.parse({
          name: "Basic",
          max_upload: "1",
          max_upload_unit: "Mbps",
          max_download: "2",
          max_download_unit: "Mbps",
        }),
      )
    ).id;
    const created = await createPlan(
      ctx,
      servicePlanSchema(false).parse({ name: "Daily", price: "50", bandwidth_policy_id: String(policyId) }),
      false,
    );
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    const plan = { id: created.id };
    const sub = await db
      .insertInto("subscriptions")
      .values({
        organization_id: w.org.id,
        customer_id: null,
        device_id: null,
        service_plan_id: plan.id,
        plan_name: "Daily",
        price_cents: 5000,
        source: "mpesa",
        status: "Active",
        started_on: now,
        expires_on: now + 86_400_000,
        time_limit_minutes: null,
        usage_limit_bytes: null,
        simultaneous_connections: 1,
        max_upload_kbps: 1000,
        max_download_kbps: 2000,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const nas = await db
      .insertInto("radius_clients")
      .values({
        organization_id: w.org.id,
        venue_id: w.venue.id,
        name: "R",
        make: "mikrotik",
        ip_address: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        secret: "x",
        coa_port: 3799,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const connection = await db
      .insertInto("connections")
      .values({
        organization_id: w.org.id,
        venue_id: w.venue.id,
        authorized_at: now,
        session_expires_at: now + 3_600_000,
        subscription_id: sub.id,
        radius_client_id: nas.id,
        created_at: now,
        upload: 0,
        download: 0,
      } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    await updatePolicy(
      ctx,
      policyId,
      bandwidthPolicySchema.parse({
        name: "Basic",
        max_upload: "3",
        max_upload_unit: "Mbps",
        max_download: "6",
        max_download_unit: "Mbps",
      }),
    );
    expect(
      await db
        .selectFrom("subscriptions")
        .select(["max_upload_kbps", "max_download_kbps"])
        .where("id", "=", sub.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ max_upload_kbps: 3000, max_download_kbps: 6000 });
    const jobs = await db.selectFrom("jobs").select(["type", "payload"]).where("type", "=", "radius.coa").execute();
    expect(jobs.map((j) => JSON.parse(j.payload))).toContainEqual({ connectionId: Number(connection.id) });
  });
});
