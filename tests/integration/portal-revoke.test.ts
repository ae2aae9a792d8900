// Closing a connection in the console reaches the gateway on SQLite and
// PostgreSQL: the UniFi controller is told by a retried job, Mlango's own make polls a revocation
// list (openNDS's too, for the agent on its routers), Meraki cannot be told and the console says so.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as closeRoute from "~/routes/$orgId+/_connections+/connections+/$connectionId.close";
import { CLOSE_MESSAGES, closeConnection } from "~/services/connections.server";
import { JOB_TYPES, runDueJobs } from "~/services/jobs/index.server";
import { claimJob } from "~/services/jobs/queue.server";
import { runJob } from "~/services/jobs/worker.server";
import { authorizeGuest } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { entryMessage, hmac } from "~/services/portal/gateways/mlango.server";
import { networkById } from "~/services/portal/network.server";
import { revocationsSince } from "~/services/portal/revoke.server";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { makeNetwork, merakiQuery, randomMac } from "../fixtures/portal";
import { callRoute, contextOf, insertConnection, toastOf } from "../fixtures/records";

let unifi: FakeUnifi;
let server: TestServer;
beforeAll(async () => {
  unifi = await startFakeUnifi();
  server = await startBuiltServer();
});
afterAll(async () => {
  await unifi?.close();
  await server?.close();
});

async function world(fields: Parameters<typeof makeNetwork>[1] = {}) {
  const { org, owner } = await makeOrg(`Revoke ${Math.random()}`);
  const { venue, ap, secret } = await makeNetwork(org.id, fields);
  return { org, owner, venue, ap, secret, ctx: await contextOf(owner.id, org.id) };
}

type World = Awaited<ReturnType<typeof world>>;

/** The query each make's gateway sends (and the path after the portal key). */
function entryOf(make: "meraki" | "opennds" | "unifi" | "mlango", w: World, clientMac: string): { rest: string; query: URLSearchParams } {
  if (make === "meraki") return { rest: "", query: new URLSearchParams(merakiQuery(w.ap.mac_address, clientMac)) };
  if (make === "unifi")
    return { rest: "guest/s/default/", query: new URLSearchParams({ id: clientMac, ap: w.ap.mac_address, ssid: "Guest" }) };
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

/** A guest online through the make's gateway (granted for real: the fake controller for UniFi). */
async function onlineGuest(make: Parameters<typeof entryOf>[0], w: World, clientMac = randomMac()) {
  const { rest, query } = entryOf(make, w, clientMac);
  const entry = await enterFromGateway({ make, portalKey: w.venue.portal_key, rest, query, userAgent: null });
  if (!entry.ok) throw new Error(entry.message);
  const granted = await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" });
  if (!granted.ok) throw new Error(granted.message);
  return { id: entry.connectionId, clientMac };
}

const unifiWorld = () => world({ unifi_url: unifi.url, unifi_username: "admin", unifi_password: encryptSecret("unifi-fake-password") });
const connectionOf = (id: number) => db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("closing a UniFi guest", () => {
  it("tells the controller to unauthorize the guest through a job, and says so", async () => {
    const w = await unifiWorld();
    const g = await onlineGuest("unifi", w);
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(true);
    const outcome = await closeConnection(w.ctx, g.id);
    expect(outcome).toEqual({
      ok: true,
      message: `${CLOSE_MESSAGES.closed} The UniFi controller is being told to disconnect the guest.`,
      gateway: { make: "unifi", revocation: "controller", note: "The UniFi controller is being told to disconnect the guest." },
    });
    expect(await connectionOf(g.id)).toMatchObject({ terminate_cause: "Admin-Reset" });
    expect(await runDueJobs()).toBe(1);
    expect(unifi.commands.at(-1)).toEqual({ site: "default", cmd: "unauthorize-guest", mac: g.clientMac });
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(false);
    // Closing again tells nobody anything.
    expect(await closeConnection(w.ctx, g.id)).toEqual({ ok: false, message: CLOSE_MESSAGES.alreadyClosed });
    expect(await runDueJobs()).toBe(0);
  });

  it("retries while the controller is down and gets through once it is back", async () => {
    const w = await unifiWorld();
    const g = await onlineGuest("unifi", w);
    await closeConnection(w.ctx, g.id);
    unifi.failing = true;
    try {
      await runJob((await claimJob())!, JOB_TYPES);
    } finally {
      unifi.failing = false;
    }
    const failed = await db
      .selectFrom("jobs")
      .select(["status", "attempts", "last_error", "run_at"])
      .where("type", "=", "gateway.revoke")
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({
      status: "queued",
      attempts: 1,
      last_error: expect.stringMatching(/UniFi controller refused the sign-in/),
    });
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(true);
    await runJob((await claimJob(Number(failed.run_at)))!, JOB_TYPES);
    expect(await db.selectFrom("jobs").select("status").where("type", "=", "gateway.revoke").executeTakeFirstOrThrow()).toEqual({
      status: "done",
    });
    expect(unifi.authorized.has(`default|${g.clientMac}`)).toBe(false);
  });
});

describe("closing a guest of Mlango's own make", () => {
  it("puts the guest on the revocation list the gateway polls with its secret", async () => {
    const w = await world();
    const other = await world();
    const g = await onlineGuest("mlango", w);
    const theirs = await onlineGuest("mlango", other);
    const outcome = await closeConnection(w.ctx, g.id);
    expect(outcome.message).toBe(`${CLOSE_MESSAGES.closed} The gateway will disconnect the guest when it next checks (within a minute).`);
    expect(outcome.gateway).toMatchObject({ make: "mlango", revocation: "poll" });
    await closeConnection(other.ctx, theirs.id);

    const poll = (key: string, secret: string, after?: number) =>
      fetch(`${server.origin}/hotspot/mlango/${key}/revocations${after === undefined ? "" : `?after=${after}`}`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
    const res = await poll(w.venue.portal_key, w.secret);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual({
      revocations: [{ id: expect.any(Number), client_mac: g.clientMac, connection_id: g.id, created_at: expect.any(Number) }],
      next_after: data.revocations[0].id,
    });
    expect((await (await poll(w.venue.portal_key, w.secret, data.next_after)).json()).data).toEqual({
      revocations: [],
      next_after: data.next_after,
    });
    // Another network's secret, or none, reads nothing of this network.
    expect((await poll(w.venue.portal_key, other.secret)).status).toBe(401);
    expect((await fetch(`${server.origin}/hotspot/mlango/${w.venue.portal_key}/revocations`)).status).toBe(401);
    expect(
      (await (await poll(other.venue.portal_key, other.secret)).json()).data.revocations.map(
        (r: { connection_id: number }) => r.connection_id,
      ),
    ).toEqual([theirs.id]);
  });

  it("hands the list out 500 at a time, oldest first", async () => {
    const w = await world();
    const network = (await networkById(w.venue.id))!;
    const { id } = await insertConnection(w.org.id, { venue_id: w.venue.id });
    const rows = Array.from({ length: 501 }, (_, i) => ({
      organization_id: w.org.id,
      venue_id: w.venue.id,
      connection_id: id,
      client_mac: randomMac(),
      created_at: Date.now() + i,
    }));
    await db.insertInto("gateway_revocations").values(rows).execute();
    const first = await revocationsSince(network, 0);
    expect(first.revocations).toHaveLength(500);
    expect(first.revocations.map((r) => r.client_mac)).toEqual(rows.slice(0, 500).map((r) => r.client_mac));
    const second = await revocationsSince(network, first.next_after);
    expect(second.revocations.map((r) => r.client_mac)).toEqual([rows[500]!.client_mac]);
  });
});

describe("closing where the gateway cannot be told", () => {
  it("says honestly that the Meraki guest stays online until the session ends", async () => {
    const w = await world();
    const g = await onlineGuest("meraki", w);
    const { session_expires_at } = await connectionOf(g.id);
    const ends = new Date(Number(session_expires_at)).toISOString();
    const outcome = await closeConnection(w.ctx, g.id);
    expect(outcome.message).toMatch(
      new RegExp(
        `^${CLOSE_MESSAGES.closed} This Meraki network cannot be told from Mlango: the guest stays online there until the session ends( on ${ends.slice(0, 10)})? at ${ends.slice(11, 16)} UTC\\.$`,
      ),
    );
    expect(outcome.gateway).toMatchObject({ make: "meraki", revocation: "none" });
    expect(await db.selectFrom("jobs").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("gateway_revocations").select("id").execute()).toEqual([]);
  });

  // openNDS takes no orders from outside: only routers running Mlango's agent read the revocation
  // list, and Mlango cannot know which do; without it the router's own sessiontimeout ends the guest,
  // not Mlango's end time (docs/decisions/0075).
  it("lists the openNDS guest for the router's agent, and says what happens without one", async () => {
    const w = await world({ opennds_faskey: encryptSecret("faskey-of-the-router") });
    const g = await onlineGuest("opennds", w);
    const outcome = await closeConnection(w.ctx, g.id);
    expect(outcome.message).toBe(
      `${CLOSE_MESSAGES.closed} openNDS routers that run Mlango's agent disconnect the guest when they next check (within a minute); without the agent, openNDS keeps the guest online until its own sessiontimeout runs out.`,
    );
    expect(outcome.gateway).toMatchObject({ make: "opennds", revocation: "poll" });
    expect(await db.selectFrom("jobs").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("gateway_revocations").select(["client_mac", "connection_id"]).execute()).toEqual([
      { client_mac: g.clientMac, connection_id: g.id },
    ]);
  });

  it("shows the note in the console's toast, and only the usual message for a connection no gateway handed over", async () => {
    const w = await world();
    const g = await onlineGuest("meraki", w);
    const res = await callRoute(closeRoute.action, {
      userId: w.owner.id,
      orgId: w.org.id,
      path: `/${w.org.id}/connections/${g.id}/close`,
      params: { connectionId: String(g.id) },
      form: { confirmed: "yes" },
    });
    expect(await toastOf(res)).toEqual({
      type: "success",
      message: expect.stringMatching(/^Connection closed successfully\. This Meraki network cannot be told from Mlango: /),
    });
    const plain = await insertConnection(w.org.id, { venue_id: w.venue.id, authorized_at: Date.now() - 60_000 });
    expect(await closeConnection(w.ctx, plain.id)).toEqual({ ok: true, message: CLOSE_MESSAGES.closed });
  });
});
