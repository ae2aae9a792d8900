// UniFi's real entry path, over HTTP against the built server: a controller's External Portal Server
// is a host (Ubiquiti's UniFi Controller User Guide, "Authentication > External Portal Server"), so
// guests arrive at /guest/s/{site}/?id=&ap=&t=&url=&ssid= with no portal key (the fake controller's
// portalRedirect). The network is found from the access point `ap` among the organisations that
// registered it; an unknown or ambiguously registered MAC is refused with a readable page; the
// keyed path /hotspot/unifi/{key}/guest/s/{site}/ keeps working.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildAccessPoint } from "~/tools/factories.server";
import { ENTRY_MESSAGES } from "~/services/portal/entry.server";
import { encryptSecret } from "~/services/secrets.server";
import { portalRedirect, startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, postForm, randomMac } from "../fixtures/portal";

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

async function unifiNetwork() {
  const { org } = await makeOrg(`UniFi entry ${Math.random()}`);
  const network = await makeNetwork(org.id, {
    unifi_url: unifi.url,
    unifi_username: "admin",
    unifi_password: encryptSecret("unifi-fake-password"),
    session_minutes: 45,
  });
  return { org, ...network };
}

const pathOf = (url: string) => url.slice(server.origin.length);

describe("UniFi External Portal Server: /guest/s/{site}/", () => {
  it("finds the network from the access point's MAC, and the guest gets online through the controller", async () => {
    const w = await unifiNetwork();
    const clientMac = randomMac();
    // The controller writes MACs as it likes; Mlango normalises them.
    const url = portalRedirect(server.origin, { clientMac, apMac: w.ap.mac_address.toUpperCase(), url: "http://example.com/news" });
    expect(pathOf(url)).toMatch(/^\/guest\/s\/default\/\?id=/);
    const entry = await enter(server.origin, pathOf(url));
    expect(entry.status).toBe(302);
    expect(entry.token).toBeTruthy();
    const connection = await db
      .selectFrom("connections")
      .select(["organization_id", "venue_id", "access_point_id", "gateway", "gateway_context", "ssid"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({
      organization_id: w.org.id,
      venue_id: w.venue.id,
      access_point_id: w.ap.id,
      gateway: "unifi",
      ssid: "Guest",
    });
    expect(JSON.parse(connection.gateway_context!)).toMatchObject({
      site: "default",
      network_id: String(w.venue.id),
      continue_url: "http://example.com/news",
    });

    const granted = await postForm(server.origin, "/connect", {
      token: entry.token!,
      mode: "SIGNUP",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
      phone_number: "0712 345 678",
    });
    expect(granted.status).toBe(303);
    expect(unifi.commands.at(-1)).toEqual({
      site: "default",
      cmd: "authorize-guest",
      mac: clientMac,
      minutes: 45,
      ap_mac: w.ap.mac_address,
    });

    // HEAD answers too (every GET does), and a site of the controller's other than default.
    const head = await fetch(
      `${server.origin}${pathOf(portalRedirect(server.origin, { site: "hq2", clientMac: randomMac(), apMac: w.ap.mac_address }))}`,
      {
        method: "HEAD",
        redirect: "manual",
      },
    );
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toMatch(/^\/connect\?token=/);
  });

  it("refuses an access point MAC that more than one organisation registered, readably, and writes nothing", async () => {
    const w = await unifiNetwork();
    const { org: other } = await makeOrg(`Other ${Math.random()}`);
    const otherNetwork = await makeNetwork(other.id);
    await db
      .insertInto("access_points")
      .values(buildAccessPoint(other.id, otherNetwork.venue.id, { mac_address: w.ap.mac_address }))
      .execute();
    const before = await db
      .selectFrom("connections")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

    const response = await fetch(
      `${server.origin}${pathOf(portalRedirect(server.origin, { clientMac: randomMac(), apMac: w.ap.mac_address }))}`,
      {
        redirect: "manual",
      },
    );
    expect(response.status).toBe(409);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const page = await response.text();
    expect(page).toContain("We could not connect you");
    expect(page).toContain(ENTRY_MESSAGES.unifiAmbiguousAp(w.ap.mac_address).slice(0, 80));
    const after = await db
      .selectFrom("connections")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("refuses an unknown access point, a missing or malformed ap, and a bad site, each readably", async () => {
    const unknownMac = randomMac();
    const unknown = await fetch(`${server.origin}/guest/s/default/?id=${randomMac()}&ap=${unknownMac}`, { redirect: "manual" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(`This access point (${unknownMac}) is not registered in Mlango`);

    const noAp = await fetch(`${server.origin}/guest/s/default/?id=${randomMac()}`, { redirect: "manual" });
    expect(noAp.status).toBe(400);
    expect(await noAp.text()).toContain("did not say which access point you are on");

    const badAp = await fetch(`${server.origin}/guest/s/default/?id=${randomMac()}&ap=nonsense`, { redirect: "manual" });
    expect(badAp.status).toBe(400);
    expect(await badAp.text()).toContain("not a MAC address");

    const w = await unifiNetwork();
    const badSite = await fetch(`${server.origin}/guest/s/${encodeURIComponent("a b")}/?id=${randomMac()}&ap=${w.ap.mac_address}`, {
      redirect: "manual",
    });
    expect(badSite.status).toBe(400);
    expect(await badSite.text()).toContain("does not name a site");

    const badClient = await fetch(`${server.origin}/guest/s/default/?id=nonsense&ap=${w.ap.mac_address}`, { redirect: "manual" });
    expect(badClient.status).toBe(400);
    expect(await badClient.text()).toContain("valid id");
  });

  it("keeps the keyed path /hotspot/unifi/{key}/guest/s/{site}/ working", async () => {
    const w = await unifiNetwork();
    const url = portalRedirect(`${server.origin}/hotspot/unifi/${w.venue.portal_key}`, { clientMac: randomMac(), apMac: w.ap.mac_address });
    const entry = await enter(server.origin, pathOf(url));
    expect(entry.status).toBe(302);
    expect(entry.token).toBeTruthy();
  });
});
