// UniFi controllers as they are really set up, against the fake controller written from the
// community's API reference (scripts/fakes/unifi-controller.ts): UniFi OS consoles and classic
// controllers told apart and each called its own way, success judged by the answer's meta.rc, and a
// controller with its default self-signed certificate trusted only by the fingerprint the operator
// pinned after the settings page's question.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as settings from "~/routes/$orgId+/_networks+/venues+/$venueId+/settings";
import { closeConnection } from "~/services/connections.server";
import { runDueJobs } from "~/services/jobs/index.server";
import { authorizeGuest } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { GatewayError } from "~/services/portal/gateways/types";
import { forgetControllerKinds, unifi } from "~/services/portal/gateways/unifi.server";
import { networkById } from "~/services/portal/network.server";
import { getGatewaySettings, testUnifiConnection, trustQuestion } from "~/services/portal/settings.server";
import { formatFingerprint } from "~/services/outbound.server";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { makeNetwork, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";
import { callRoute, toastOf } from "../fixtures/venues";

let classic: FakeUnifi;
let unifiOs: FakeUnifi;
let selfSigned: FakeUnifi;
beforeAll(async () => {
  [classic, unifiOs, selfSigned] = await Promise.all([
    startFakeUnifi(),
    startFakeUnifi({ kind: "unifi-os" }),
    startFakeUnifi({ kind: "unifi-os", https: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([classic?.close(), unifiOs?.close(), selfSigned?.close()]);
});
beforeEach(() => {
  // Network ids start again with every test's empty tables: what a process learnt about id 1 is another network's now.
  forgetControllerKinds();
  for (const fake of [classic, unifiOs, selfSigned]) {
    fake.requests.length = 0;
    fake.commands.length = 0;
    fake.refuse = null;
  }
});

async function world(controller: FakeUnifi, fields: Record<string, unknown> = {}) {
  const { org, owner } = await makeOrg(`UniFi ${Math.random()}`);
  const { venue, ap } = await makeNetwork(org.id, {
    unifi_url: controller.url,
    unifi_username: "admin",
    unifi_password: encryptSecret("unifi-fake-password"),
    session_minutes: 60,
    ...fields,
  });
  return { org, owner, venue, ap, ctx: await contextOf(owner.id, org.id) };
}
type World = Awaited<ReturnType<typeof world>>;

/** A guest entering from the controller's redirect and clicking through: the grant's outcome. */
async function guest(w: World, clientMac = randomMac()) {
  const query = new URLSearchParams({ ap: w.ap.mac_address, id: clientMac, t: "1700000000", url: "http://example.com/", ssid: "Guest" });
  const entry = await enterFromGateway({ make: "unifi", portalKey: w.venue.portal_key, rest: "guest/s/default/", query, userAgent: null });
  if (!entry.ok) throw new Error(entry.message);
  const granted = await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" });
  const row = await db.selectFrom("connections").select(["authorized_at"]).where("id", "=", entry.connectionId).executeTakeFirstOrThrow();
  return { id: entry.connectionId, clientMac, granted, authorized: row.authorized_at !== null };
}

/** The adapter's own answer (the guest only reads that the network could not let them through). */
async function grantError(w: World): Promise<string> {
  const network = (await networkById(w.venue.id))!;
  const request = {
    network,
    connectionId: 1,
    token: "t",
    clientMac: randomMac(),
    apMac: null,
    context: { site: "default" },
    successUrl: "http://example.com/",
    seconds: 60,
  };
  const error = await unifi.grant(request).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return (error as Error).message;
}

describe("UniFi OS consoles and classic controllers", () => {
  it("UniFi OS: signs in at /api/auth/login, sends its X-CSRF-Token and calls the network API under /proxy/network", async () => {
    const w = await world(unifiOs);
    const g = await guest(w);
    expect(g.granted).toMatchObject({ ok: true, redirect: "http://example.com/" });
    expect(g.authorized).toBe(true);
    expect(unifiOs.commands).toEqual([
      { site: "default", cmd: "authorize-guest", mac: g.clientMac, minutes: 60, ap_mac: w.ap.mac_address },
    ]);
    expect(unifiOs.requests).toEqual(
      expect.arrayContaining(["GET /", "POST /api/auth/login", "POST /proxy/network/api/s/default/cmd/stamgr"]),
    );
    expect(unifiOs.requests).not.toContain("POST /api/login");

    // Closing reaches the console the same way (the fake refuses a write without the session's CSRF token).
    expect(await closeConnection(w.ctx, g.id)).toMatchObject({ ok: true });
    await runDueJobs();
    expect(unifiOs.commands.at(-1)).toEqual({ site: "default", cmd: "unauthorize-guest", mac: g.clientMac });
    expect(unifiOs.authorized.has(`default|${g.clientMac}`)).toBe(false);
  });

  it("classic: keeps /api/login and /api/s/{site}/…; the kind is asked once per network and process", async () => {
    const w = await world(classic);
    expect((await guest(w)).authorized).toBe(true);
    expect((await guest(w)).authorized).toBe(true);
    expect(classic.requests.filter((r) => r === "GET /")).toHaveLength(1);
    expect(classic.requests.filter((r) => r === "POST /api/login")).toHaveLength(2);
    expect(classic.requests.filter((r) => r === "POST /api/s/default/cmd/stamgr")).toHaveLength(2);
    expect(classic.requests.some((r) => r.includes("/proxy/network") || r.includes("/api/auth/"))).toBe(false);
  });

  it("a refused sign-in is a failed grant with the controller's reason, and the guest is not let through", async () => {
    for (const controller of [classic, unifiOs]) {
      const w = await world(controller, { unifi_password: encryptSecret("not-the-password") });
      expect(await grantError(w)).toMatch(/^The UniFi controller refused the sign-in/);
      const g = await guest(w);
      expect(g.granted.ok).toBe(false);
      expect(g.authorized).toBe(false);
    }
  });
});

describe("success is the answer's meta.rc", () => {
  it("an HTTP 200 whose meta.rc is error is a refusal with its msg: the guest is not let through", async () => {
    for (const controller of [classic, unifiOs]) {
      const w = await world(controller);
      controller.refuse = "api.err.UnknownStation";
      expect(await grantError(w)).toBe("The UniFi controller refused authorize-guest (api.err.UnknownStation, HTTP 200).");
      const g = await guest(w);
      expect(g.granted.ok).toBe(false);
      expect(g.authorized).toBe(false);
      controller.refuse = null;
      expect((await guest(w)).authorized).toBe(true);
    }
  });
});

describe("a controller with its own self-signed certificate", () => {
  it("is not called until its fingerprint is pinned, and then only while it presents that certificate", async () => {
    const w = await world(selfSigned);
    // Not trusted: no sign-in is sent (the password never reaches a server that might not be the controller).
    expect(await grantError(w)).toMatch(/certificate is not trusted/);
    expect((await guest(w)).authorized).toBe(false);
    expect(selfSigned.requests.filter((r) => r !== "POST /api/auth/logout")).toEqual([]);

    // A wrong pin is no better.
    await db
      .updateTable("venues")
      .set({ unifi_fingerprint: "ab".repeat(32) })
      .where("id", "=", w.venue.id)
      .execute();
    expect(await grantError(w)).toMatch(/not the certificate whose fingerprint was pinned/);
    expect(selfSigned.requests.filter((r) => r !== "POST /api/auth/logout")).toEqual([]);

    await db.updateTable("venues").set({ unifi_fingerprint: selfSigned.fingerprint }).where("id", "=", w.venue.id).execute();
    const g = await guest(w);
    expect(g.authorized).toBe(true);
    expect(selfSigned.commands.at(-1)).toMatchObject({ cmd: "authorize-guest", mac: g.clientMac });
  });

  it("Test connection shows the fingerprint with the question; trusting it stores exactly that one; it can be removed", async () => {
    const w = await world(selfSigned);
    const path = `/${w.org.id}/venues/${w.venue.id}/settings`;
    const params = { orgId: String(w.org.id), venueId: String(w.venue.id) };

    const tested = await callRoute(settings.action, w.owner.id, path, params, { intent: "test-unifi" });
    expect(tested.status).toBe(200);
    const question = `The controller presented a certificate with SHA-256 fingerprint ${formatFingerprint(selfSigned.fingerprint!)}: trust it?`;
    expect(await tested.json()).toEqual({
      confirm: {
        message: trustQuestion(selfSigned.fingerprint!),
        intent: "trust-unifi-certificate",
        fields: { fingerprint: selfSigned.fingerprint },
      },
    });
    expect(trustQuestion(selfSigned.fingerprint!)).toContain(question);
    expect(selfSigned.requests.filter((r) => r !== "POST /api/auth/logout")).toEqual([]);

    // Not confirmed yet: asked again, nothing stored. A garbled fingerprint is a 400.
    const unconfirmed = await callRoute(settings.action, w.owner.id, path, params, {
      intent: "trust-unifi-certificate",
      fingerprint: selfSigned.fingerprint!,
    });
    expect(await unconfirmed.json()).toMatchObject({ confirm: { intent: "trust-unifi-certificate" } });
    const garbled = await callRoute(settings.action, w.owner.id, path, params, {
      intent: "trust-unifi-certificate",
      fingerprint: "not-a-fingerprint",
      confirmed: "yes",
    });
    expect(garbled.status).toBe(400);
    expect((await getGatewaySettings(w.ctx, w.venue.id)).unifi_fingerprint).toBeNull();

    const trusted = await callRoute(settings.action, w.owner.id, path, params, {
      intent: "trust-unifi-certificate",
      fingerprint: selfSigned.fingerprint!,
      confirmed: "yes",
    });
    expect(trusted.status).toBe(302);
    expect((await getGatewaySettings(w.ctx, w.venue.id)).unifi_fingerprint).toBe(formatFingerprint(selfSigned.fingerprint!));
    const again = await callRoute(settings.action, w.owner.id, path, params, { intent: "test-unifi" });
    expect(again.status).toBe(302);
    expect((await toastOf(again))?.message).toMatch(/^Connected: Mlango signed in to a UniFi OS console/);
    expect(selfSigned.requests).toEqual(expect.arrayContaining(["POST /api/auth/login", "GET /proxy/network/api/self"]));

    const removed = await callRoute(settings.action, w.owner.id, path, params, { intent: "forget-unifi-certificate", confirmed: "yes" });
    expect(removed.status).toBe(302);
    expect((await getGatewaySettings(w.ctx, w.venue.id)).unifi_fingerprint).toBeNull();
  });

  it("a new controller address forgets the pinned certificate; a classic controller over plain http tests fine", async () => {
    const w = await world(selfSigned, { unifi_fingerprint: selfSigned.fingerprint });
    const path = `/${w.org.id}/venues/${w.venue.id}/settings`;
    const params = { orgId: String(w.org.id), venueId: String(w.venue.id) };
    const saved = await callRoute(settings.action, w.owner.id, path, params, {
      intent: "gateway",
      unifi_url: classic.url,
      unifi_username: "admin",
      session_minutes: "60",
      guest_signup: "1",
    });
    expect(saved.status).toBe(302);
    const stored = await db
      .selectFrom("venues")
      .select(["unifi_url", "unifi_fingerprint"])
      .where("id", "=", w.venue.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ unifi_url: classic.url, unifi_fingerprint: null });
    expect(await testUnifiConnection(w.ctx, w.venue.id)).toEqual({
      ok: true,
      message: "Connected: Mlango signed in to a UniFi Network controller and can let guests through.",
    });
  });
});
