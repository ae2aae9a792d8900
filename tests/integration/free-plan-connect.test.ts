// The free plan on the connect page over HTTP against the built server, on SQLite and PostgreSQL:
// signing up or clicking through takes it (a subscription), the gateway gets the plan's time, a
// device takes it once in its period, and a grant the gateway refuses gives it back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { hashToken } from "~/services/crypto.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { FREE_PLAN_MESSAGES } from "~/services/prepaid/subscriptions.server";
import { escapeHtml } from "~/lib/escape-html";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let unifi: FakeUnifi;
beforeAll(async () => {
  server = await startBuiltServer();
  unifi = await startFakeUnifi();
});
afterAll(async () => {
  await server?.close();
  await unifi?.close();
});

async function world(plan: Record<string, string> | null, fields = {}) {
  const { org, owner } = await makeOrg(`Free plan ${Math.random()}`);
  const network = await makeNetwork(org.id, { session_minutes: 90, ...fields });
  if (plan) {
    const ctx = await contextOf(owner.id, org.id);
    const created = await createPlan(ctx, servicePlanSchema(true).parse({ name: "Free hour", ...plan }), true);
    expect(created.ok).toBe(true);
  }
  return { org, ...network };
}

const connectionOf = (token: string) =>
  db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();

async function visit(w: Awaited<ReturnType<typeof world>>, clientMac = randomMac()) {
  const entry = await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, clientMac)}`);
  return { token: entry.token!, clientMac };
}

const CLICK = { mode: "CLICK_THROUGH" };

describe("the free plan on the connect page", () => {
  it("is taken by connecting: a subscription, and the gateway lets the guest through for the plan's time", async () => {
    const w = await world(
      {
        plan_kind: "Limited",
        limit_type: "Time",
        time_limit: "30",
        time_limit_unit: "Mins",
        validity: "1",
        validity_units: "Hrs",
        free_every: "day",
      },
      { guest_signup: 0 },
    );
    const { token } = await visit(w);
    expect(await (await fetch(`${server.origin}/connect?token=${token}`)).text()).toContain(
      '<p class="plan">Free Wi-Fi: 30 minutes, once a day.</p>',
    );
    const before = Date.now();
    const granted = await postForm(server.origin, "/connect", { token, ...CLICK });
    expect(granted.status).toBe(303);
    expect(new URL(granted.headers.get("location")!).searchParams.get("duration")).toBe("1800");
    const connection = await connectionOf(token);
    expect(Number(connection.session_expires_at) - Number(connection.authorized_at)).toBe(1_800_000);
    const subscription = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", "=", Number(connection.subscription_id))
      .executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({
      organization_id: w.org.id,
      device_id: connection.device_id,
      customer_id: connection.customer_id,
      source: "free",
      status: "Active",
      plan_name: "Free hour",
      price_cents: 0,
      time_limit_minutes: 30,
    });
    expect(Number(subscription.expires_on) - Number(subscription.started_on)).toBe(3_600_000);
    expect(Number(subscription.started_on)).toBeGreaterThanOrEqual(before);
  });

  it("is taken once a day per device: the same device is refused in plain words, another device is not", async () => {
    const w = await world({ free_every: "day" }, { guest_signup: 0 });
    const clientMac = randomMac();
    const first = await visit(w, clientMac);
    expect((await postForm(server.origin, "/connect", { token: first.token, ...CLICK })).status).toBe(303);
    const again = await visit(w, clientMac);
    const refused = await postForm(server.origin, "/connect", { token: again.token, ...CLICK });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(escapeHtml(FREE_PLAN_MESSAGES.day));
    expect((await connectionOf(again.token)).authorized_at).toBeNull();
    expect(await db.selectFrom("subscriptions").select("id").where("organization_id", "=", w.org.id).execute()).toHaveLength(1);
    const other = await visit(w);
    expect((await postForm(server.origin, "/connect", { token: other.token, ...CLICK })).status).toBe(303);
  });

  it("can be taken again when its validity is the period and the last one has ended", async () => {
    const w = await world({ free_every: "validity", validity: "1", validity_units: "Hrs" }, { guest_signup: 0 });
    const clientMac = randomMac();
    const first = await visit(w, clientMac);
    expect((await postForm(server.origin, "/connect", { token: first.token, ...CLICK })).status).toBe(303);
    const again = await visit(w, clientMac);
    const refused = await postForm(server.origin, "/connect", { token: again.token, ...CLICK });
    expect(await refused.text()).toContain(escapeHtml(FREE_PLAN_MESSAGES.validity));
    await db
      .updateTable("subscriptions")
      .set({ expires_on: Date.now() - 1000 })
      .where("organization_id", "=", w.org.id)
      .execute();
    expect((await postForm(server.origin, "/connect", { token: again.token, ...CLICK })).status).toBe(303);
  });

  it("without a free plan, the network's session length applies and no subscription is made", async () => {
    const w = await world(null, { guest_signup: 0 });
    const { token } = await visit(w);
    const granted = await postForm(server.origin, "/connect", { token, ...CLICK });
    expect(new URL(granted.headers.get("location")!).searchParams.get("duration")).toBe("5400");
    expect((await connectionOf(token)).subscription_id).toBeNull();
  });

  it("is given back when the gateway refuses the grant", async () => {
    const w = await world(
      { free_every: "day" },
      { guest_signup: 0, unifi_url: unifi.url, unifi_username: "admin", unifi_password: encryptSecret("unifi-fake-password") },
    );
    const clientMac = randomMac();
    const path = `/hotspot/unifi/${w.venue.portal_key}/guest/s/default/?ap=${w.ap.mac_address}&id=${clientMac}&t=1700000000&url=http%3A%2F%2Fexample.com%2F&ssid=Guest`;
    const entry = await enter(server.origin, path);
    unifi.failing = true;
    try {
      expect((await postForm(server.origin, "/connect", { token: entry.token!, ...CLICK })).status).toBe(502);
      expect(await db.selectFrom("subscriptions").select("id").where("organization_id", "=", w.org.id).execute()).toEqual([]);
    } finally {
      unifi.failing = false;
    }
    expect((await postForm(server.origin, "/connect", { token: entry.token!, ...CLICK })).status).toBe(303);
    expect(unifi.commands.at(-1)).toMatchObject({ cmd: "authorize-guest", mac: clientMac, minutes: 60 });
  });

  it("ends the session and exhausts the subscription when accounting reaches the plan's data limit", async () => {
    const w = await world(
      { plan_kind: "Limited", limit_type: "Data", usage_limit: "1", usage_limit_unit: "MBs", free_every: "day" },
      { guest_signup: 0 },
    );
    const { token } = await visit(w);
    expect(await (await fetch(`${server.origin}/connect?token=${token}`)).text()).toContain("Free Wi-Fi: 1 hour, up to 1 MB, once a day.");
    expect((await postForm(server.origin, "/connect", { token, ...CLICK })).status).toBe(303);
    const account = (upload: number, download: number) =>
      fetch(`${server.origin}/hotspot/accounting`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${w.secret}` },
        body: JSON.stringify({ status: "interim", token, input_octets: upload, output_octets: download, session_time: 60 }),
      });
    expect((await account(300_000, 400_000)).status).toBe(200);
    let connection = await connectionOf(token);
    expect(connection.ended_at).toBeNull();
    const subscriptionOf = () =>
      db.selectFrom("subscriptions").selectAll().where("id", "=", Number(connection.subscription_id)).executeTakeFirstOrThrow();
    expect(await subscriptionOf()).toMatchObject({ status: "Active", used_bytes: 700_000 });
    expect((await account(500_000, 600_000)).status).toBe(200);
    connection = await connectionOf(token);
    expect(connection.ended_at).not.toBeNull();
    expect(connection.terminate_cause).toBe("Data-Limit");
    expect(await subscriptionOf()).toMatchObject({ status: "Exhausted", used_bytes: 1_100_000 });
    // Repeats change nothing twice.
    expect((await account(500_000, 600_000)).status).toBe(200);
    expect((await connectionOf(token)).ended_at).toBe(connection.ended_at);
  });
});
