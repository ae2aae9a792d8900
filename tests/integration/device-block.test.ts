// Block cuts a device off now, on SQLite and PostgreSQL: its live connections end in Mlango and
// every gateway that can be told is told — the UniFi controller (unauthorize-guest, the fake written
// from the controller API reference), Mlango's own make and openNDS's agent (the revocation list
// they poll) — and where a gateway cannot be told (Meraki without an API key) the message says so,
// as Close does. RADIUS Disconnect on Block goes through the real FreeRADIUS in radius.test.ts.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as blockRoute from "~/routes/$orgId+/_customers+/devices+/$deviceId.block";
import { setDeviceBlocked } from "~/services/devices.server";
import { runDueJobs } from "~/services/jobs/index.server";
import { authorizeGuest } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { entryMessage, hmac } from "~/services/portal/gateways/mlango.server";
import { networkById } from "~/services/portal/network.server";
import { revocationsSince } from "~/services/portal/revoke.server";
import { encryptSecret } from "~/services/secrets.server";
import { DEVICE_MESSAGES } from "~/lib/records";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { makeNetwork, merakiQuery, randomMac } from "../fixtures/portal";
import { callRoute, contextOf, toastOf } from "../fixtures/records";

let unifi: FakeUnifi;
beforeAll(async () => {
  unifi = await startFakeUnifi();
});
afterAll(async () => {
  await unifi?.close();
});

async function world(fields: Parameters<typeof makeNetwork>[1] = {}) {
  const { org, owner } = await makeOrg(`Block ${Math.random()}`);
  const { venue, ap, secret } = await makeNetwork(org.id, fields);
  return { org, owner, venue, ap, secret, ctx: await contextOf(owner.id, org.id) };
}
type World = Awaited<ReturnType<typeof world>>;

function entryOf(make: "meraki" | "opennds" | "unifi" | "mlango", w: World, clientMac: string) {
  if (make === "meraki") return { rest: "", query: new URLSearchParams(merakiQuery(w.ap.mac_address, clientMac)) };
  if (make === "unifi") return { rest: "guest/s/default/", query: new URLSearchParams({ id: clientMac, ap: w.ap.mac_address }) };
  if (make === "opennds") {
    const fas = `clientip=10.0.0.5, clientmac=${clientMac}, gatewayname=Cafe, hid=abc123, gatewayaddress=127.0.0.1:2050, gatewaymac=${w.ap.mac_address}`;
    return { rest: "", query: new URLSearchParams({ fas: Buffer.from(fas).toString("base64") }) };
  }
  const values = {
    ap_mac: w.ap.mac_address,
    client_mac: clientMac,
    grant_url: "http://127.0.0.1:2050/mlango/grant",
    ts: String(Math.floor(Date.now() / 1000)),
    nonce: crypto.randomBytes(12).toString("base64url"),
  };
  return { rest: "", query: new URLSearchParams({ ...values, signature: hmac(w.secret, entryMessage(values)) }) };
}

async function onlineGuest(make: Parameters<typeof entryOf>[0], w: World, clientMac = randomMac()) {
  const { rest, query } = entryOf(make, w, clientMac);
  const entry = await enterFromGateway({ make, portalKey: w.venue.portal_key, rest, query, userAgent: null });
  if (!entry.ok) throw new Error(entry.message);
  const granted = await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" });
  if (!granted.ok) throw new Error(granted.message);
  const row = await db.selectFrom("connections").select("device_id").where("id", "=", entry.connectionId).executeTakeFirstOrThrow();
  return { id: entry.connectionId, deviceId: Number(row.device_id), clientMac };
}

const connectionOf = (id: number) => db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("blocking a device cuts it off now", () => {
  it("UniFi: ends the live connections and tells the controller to unauthorize the guest", async () => {
    const w = await world({ unifi_url: unifi.url, unifi_username: "admin", unifi_password: encryptSecret("unifi-fake-password") });
    const g = await onlineGuest("unifi", w);
    // A second live connection of the same device (another visit), and another device's, untouched.
    const again = await onlineGuest("unifi", w, g.clientMac);
    const other = await onlineGuest("unifi", w);
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(true);

    const outcome = await setDeviceBlocked(w.ctx, g.deviceId, true);
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toBe(`${DEVICE_MESSAGES.blocked} The UniFi controller is being told to disconnect the guest.`);
    for (const id of [g.id, again.id]) {
      const row = await connectionOf(id);
      expect(row.ended_at).not.toBeNull();
      expect(row.terminate_cause).toBe("Admin-Reset");
    }
    expect((await connectionOf(other.id)).ended_at).toBeNull();

    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    expect(unifi.commands.filter((c) => c.cmd === "unauthorize-guest" && c.mac === g.clientMac).length).toBeGreaterThanOrEqual(1);
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(false);
    expect(unifi.authorized.has(`default|${other.clientMac}`)).toBe(true);
  });

  it("Mlango's make and openNDS: the device goes on the revocation list the gateway polls", async () => {
    for (const make of ["mlango", "opennds"] as const) {
      const w = await world(make === "opennds" ? { opennds_faskey: encryptSecret("faskey-of-the-router") } : {});
      const g = await onlineGuest(make, w);
      const outcome = await setDeviceBlocked(w.ctx, g.deviceId, true);
      expect(outcome.ok).toBe(true);
      expect(outcome.gateways?.map((n) => n.revocation)).toEqual(["poll"]);
      const list = await revocationsSince((await networkById(w.venue.id))!, 0);
      expect(list.revocations).toMatchObject([{ client_mac: g.clientMac, connection_id: g.id }]);
      expect((await connectionOf(g.id)).ended_at).not.toBeNull();
    }
  });

  it("Meraki: says honestly what happens at a gateway that cannot be told, in the console's toast", async () => {
    const w = await world();
    const g = await onlineGuest("meraki", w);
    const res = await callRoute(blockRoute.action, {
      userId: w.owner.id,
      orgId: w.org.id,
      path: `/${w.org.id}/devices/${g.deviceId}/block`,
      params: { deviceId: String(g.deviceId) },
      form: { intent: "block", confirmed: "yes", redirectTo: `/${w.org.id}/customers` },
    });
    const toast = await toastOf(res);
    expect(toast?.message).toMatch(
      /^Device blocked successfully! This Meraki network cannot be told from Mlango: the guest stays online there until the session ends/,
    );
    expect((await connectionOf(g.id)).ended_at).not.toBeNull();
  });

  it("a device with no live connection is blocked as before; unblocking tells no gateway", async () => {
    const w = await world({ unifi_url: unifi.url, unifi_username: "admin", unifi_password: encryptSecret("unifi-fake-password") });
    const g = await onlineGuest("unifi", w);
    await setDeviceBlocked(w.ctx, g.deviceId, true);
    await runDueJobs();
    const sent = unifi.commands.length;
    expect(await setDeviceBlocked(w.ctx, g.deviceId, false)).toEqual({ ok: true, message: DEVICE_MESSAGES.unblocked });
    expect(await setDeviceBlocked(w.ctx, g.deviceId, true)).toMatchObject({ ok: true, message: DEVICE_MESSAGES.blocked, gateways: [] });
    await runDueJobs();
    expect(unifi.commands.length).toBe(sent);
  });
});
