// A connection's timeline on SQLite and PostgreSQL (decision 0081): entry, sign-in, the grant sent
// to the UniFi controller (the fake written from the controller API reference) and its answer, the
// close sent and the controller's answer, the end — from the service the console page, REST and
// GraphQL share; another organisation's connection is a 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as timelineRoute from "~/routes/$orgId+/_connections+/connections+/$connectionId.timeline";
import { connectionTimeline } from "~/services/connection-timeline.server";
import { closeConnection } from "~/services/connections.server";
import { runDueJobs } from "~/services/jobs/index.server";
import { authorizeGuest } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { makeNetwork, randomMac } from "../fixtures/portal";
import { callRoute, contextOf } from "../fixtures/records";

let unifi: FakeUnifi;
beforeAll(async () => {
  unifi = await startFakeUnifi();
});
afterAll(async () => {
  await unifi?.close();
});

describe("a connection's timeline", () => {
  it("lists entry, sign-in, grant with the controller's answer, close sent and answered, end", async () => {
    const { org, owner } = await makeOrg(`Timeline ${Math.random()}`);
    const { venue, ap } = await makeNetwork(org.id, {
      unifi_url: unifi.url,
      unifi_username: "admin",
      unifi_password: encryptSecret("unifi-fake-password"),
      session_minutes: 30,
    });
    const ctx = await contextOf(owner.id, org.id);
    const query = new URLSearchParams({ id: randomMac(), ap: ap.mac_address, ssid: "Guest" });
    const entry = await enterFromGateway({ make: "unifi", portalKey: venue.portal_key, rest: "guest/s/default/", query, userAgent: null });
    if (!entry.ok) throw new Error(entry.message);
    expect((await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" })).ok).toBe(true);
    expect((await closeConnection(ctx, entry.connectionId)).ok).toBe(true);
    await runDueJobs();

    const events = await connectionTimeline(ctx, entry.connectionId);
    expect(events.map((e) => e.kind)).toEqual(["entry", "authorized", "grant", "revoke", "ended", "revoke_answer"]);
    const grant = events.find((e) => e.kind === "grant")!;
    expect(grant.detail).toMatchObject({ gateway: "unifi", sent: { seconds: 1800 }, answer: "accepted" });
    expect(events.find((e) => e.kind === "revoke")!.summary).toContain("The UniFi controller is being told to disconnect the guest.");
    expect(events.find((e) => e.kind === "revoke_answer")!.detail).toMatchObject({ gateway: "unifi", ok: true });
    expect(events.find((e) => e.kind === "ended")!.detail).toMatchObject({ terminate_cause: "Admin-Reset" });

    // The console's page reads the same service.
    const page = (await callRoute(timelineRoute.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/connections/${entry.connectionId}/timeline`,
      params: { connectionId: String(entry.connectionId) },
    })) as Response;
    const body = (await page.json()) as { events: { kind: string }[] };
    expect(body.events.map((e) => e.kind)).toEqual(events.map((e) => e.kind));

    // Another organisation cannot read it.
    const { org: other, owner: stranger } = await makeOrg(`Other ${Math.random()}`);
    await expect(connectionTimeline(await contextOf(stranger.id, other.id), entry.connectionId)).rejects.toMatchObject({ status: 404 });
  });

  it("records a refused grant with the controller's reason", async () => {
    const { org, owner } = await makeOrg(`Timeline ${Math.random()}`);
    const { venue, ap } = await makeNetwork(org.id, {
      unifi_url: unifi.url,
      unifi_username: "admin",
      unifi_password: encryptSecret("not-the-password"),
    });
    const query = new URLSearchParams({ id: randomMac(), ap: ap.mac_address });
    const entry = await enterFromGateway({ make: "unifi", portalKey: venue.portal_key, rest: "guest/s/default/", query, userAgent: null });
    if (!entry.ok) throw new Error(entry.message);
    expect((await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" })).ok).toBe(false);
    const events = await connectionTimeline(await contextOf(owner.id, org.id), entry.connectionId);
    const failed = events.find((e) => e.kind === "grant_failed")!;
    expect(failed.summary).toMatch(/^The unifi gateway refused the grant: The UniFi controller refused the sign-in/);
  });
});
