// The guest path over real HTTP against the built server, on SQLite and PostgreSQL: gateway entries
// of every make, the connect page, sign-up and click-through, authorization exactly once, the
// /splash JSON calls, the Captive Portal API, and bad input of every kind.
import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildDevice } from "~/tools/factories.server";
import { hashToken } from "~/services/crypto.server";
import { loadGuestView } from "~/services/portal/connect.server";
import { ENTRY_MESSAGES, pruneGatewayNonces } from "~/services/portal/entry.server";
import { grantIsValid, hmac } from "~/services/portal/gateways/mlango.server";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeOrg } from "../fixtures";
import { withEnv } from "../fixtures/env";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { connectionCounter } from "../fixtures/outbound";
import { enter, GRANT_URL, makeNetwork, merakiQuery, mlangoEntryPath, postForm, randomMac } from "../fixtures/portal";

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

const SIGNUP = {
  mode: "SIGNUP",
  first_name: "Amina",
  last_name: "Otieno",
  email_address: "Amina@Example.com",
  phone_number: "0712 345 678",
};

async function world(fields = {}) {
  const { org } = await makeOrg(`Portal ${Math.random()}`);
  const network = await makeNetwork(org.id, fields);
  return { org, ...network };
}

async function merakiGuest(clientMac = randomMac()) {
  const w = await world();
  const entry = await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, clientMac)}`);
  return { ...w, token: entry.token!, clientMac };
}

const insertKnown = (orgId: number, contact: { email_address?: string; phone_number?: string }) =>
  db
    .insertInto("customers")
    .values({
      organization_id: orgId,
      identity: contact.email_address ?? contact.phone_number ?? "guest",
      created_at: Date.now(),
      updated_at: Date.now(),
      ...contact,
    })
    .returning(["id", "email_address", "phone_number"])
    .executeTakeFirstOrThrow();
const connectionOf = (token: string) =>
  db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();

describe("gateway entry", () => {
  it("records the visit, the access point seen, the device and its customer, and sends the guest to /connect with a token kept hashed", async () => {
    const { org, venue, ap } = await world();
    const clientMac = "AA-BB-CC-DD-EE-01";
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(ap.mac_address, clientMac)}`);
    expect(entry.status).toBe(302);
    expect(entry.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const connection = await connectionOf(entry.token!);
    expect(connection).toMatchObject({
      organization_id: org.id,
      venue_id: venue.id,
      access_point_id: ap.id,
      access_point_mac: ap.mac_address,
      authorized_at: null,
      gateway: "meraki",
      client_ip: "10.0.0.23",
    });
    expect(connection.token).not.toContain(entry.token!);
    const device = await db.selectFrom("devices").selectAll().where("id", "=", connection.device_id!).executeTakeFirstOrThrow();
    expect(device.mac_address).toBe("aa:bb:cc:dd:ee:01");
    expect(device.customer_id).toBe(connection.customer_id);
    const seen = await db.selectFrom("access_points").select("last_seen_at").where("id", "=", ap.id).executeTakeFirstOrThrow();
    expect(Number(seen.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("serves a guest behind an access point the operator never registered, attributed to the network", async () => {
    const { venue } = await world();
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery("02:00:00:99:99:99")}`);
    expect(entry.status).toBe(302);
    expect(await connectionOf(entry.token!)).toMatchObject({
      venue_id: venue.id,
      access_point_id: null,
      access_point_mac: "02:00:00:99:99:99",
    });
  });

  it("never attributes a guest to another organisation's access point with the same MAC", async () => {
    const other = await world();
    const { venue } = await world();
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(other.ap.mac_address)}`);
    const connection = await connectionOf(entry.token!);
    expect(connection.access_point_id).toBeNull();
    expect(connection.venue_id).toBe(venue.id);
    const otherAp = await db.selectFrom("access_points").select("last_seen_at").where("id", "=", other.ap.id).executeTakeFirstOrThrow();
    expect(otherAp.last_seen_at).toBeNull();
  });

  it("answers bad entries with a readable 4xx page and writes nothing", async () => {
    const { venue, ap } = await world();
    const key = venue.portal_key;
    const fas = (text: string) => Buffer.from(text).toString("base64");
    const cases: [string, number, string][] = [
      [`/hotspot/juniper/${key}?${merakiQuery(ap.mac_address)}`, 404, "not supported"],
      [`/hotspot/meraki/not-a-real-key-at-all-xx?${merakiQuery(ap.mac_address)}`, 404, "not set up in Mlango"],
      [`/hotspot/meraki/${key}?${merakiQuery(ap.mac_address, "not-a-mac")}`, 400, "client_mac"],
      [`/hotspot/meraki/${key}?client_mac=02:00:00:00:00:01`, 400, "base_grant_url"],
      [
        `/hotspot/meraki/${key}?${merakiQuery(ap.mac_address, randomMac(), { base_grant_url: "javascript:alert(1)" })}`,
        400,
        "base_grant_url",
      ],
      [`/hotspot/meraki/${key}?${merakiQuery("zz:zz", randomMac())}`, 400, "node_mac"],
      [`/hotspot/opennds/${key}?fas=%%%garbage`, 400, "fas"],
      [
        `/hotspot/opennds/${key}?fas=${fas("clientip=1.2.3.4, clientmac=02:00:00:00:00:02, hid=abc, gatewayaddress=evil.example/path")}`,
        400,
        "gatewayaddress",
      ],
      [`/hotspot/unifi/${key}/guest/s/default/?id=nonsense`, 400, "id"],
      [`/hotspot/unifi/${key}/somewhere/?id=02:00:00:00:00:03`, 400, "site"],
      [
        `/hotspot/mlango/${key}?client_mac=02:00:00:00:00:04&grant_url=http://gw/&ts=1&nonce=0123456789abcdef&signature=${"0".repeat(64)}`,
        400,
        "signature",
      ],
      [`/hotspot/meraki/${key}?${merakiQuery(ap.mac_address)}&x=%00`, 400, "not allowed"],
      [`/hotspot/meraki/${key}?${merakiQuery(ap.mac_address)}&pad=${"a".repeat(9000)}`, 414, "too long"],
    ];
    for (const [path, status, words] of cases) {
      const response = await fetch(`${server.origin}${path}`, { redirect: "manual" });
      expect(response.status, path.slice(0, 80)).toBe(status);
      const text = await response.text();
      expect(text, path.slice(0, 80)).toContain(words);
      expect(response.headers.get("content-type")).toContain("text/html");
    }
    expect((await db.selectFrom("connections").select("id").execute()).length).toBe(0);
    expect((await db.selectFrom("devices").select("id").execute()).length).toBe(0);
  });

  it("answers a 10 MB query string with a 4xx, not a crash", async () => {
    const { venue } = await world();
    const response = await fetch(`${server.origin}/hotspot/meraki/${venue.portal_key}?pad=${"a".repeat(10 * 1024 * 1024)}`);
    expect(response.status).toBe(431);
    expect(await response.text()).toBe("The address or headers of this request are too long.");
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });
});

describe("connect page", () => {
  it("shows the sign-up form in a sandbox, without cookies, small", async () => {
    const { token, venue } = await merakiGuest();
    const response = await fetch(`${server.origin}/connect?token=${token}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("Get connected to WiFi");
    expect(page).toContain(venue.name);
    expect(page).toMatch(/name="phone_number"[^>]*value="07"/);
    expect(page).not.toContain("<script");
    expect(Buffer.byteLength(page)).toBeLessThan(15 * 1024);
    expect(response.headers.get("content-security-policy")).toMatch(/^sandbox allow-forms allow-top-navigation;/);
    expect(response.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers many guests' pages at once each with its own network, and unknown tokens with a 404 (lookups gathered into one statement)", async () => {
    const guests = await Promise.all(Array.from({ length: 6 }, () => merakiGuest()));
    const asks = [...guests, ...guests].flatMap((g, i) => [
      { token: g.token, venue: g.venue.name },
      { token: `unknown${i}${"x".repeat(30)}`, venue: null },
    ]);
    const pages = await Promise.all(
      asks.map(async (ask) => {
        const response = await fetch(`${server.origin}/connect?token=${ask.token}`);
        return { ask, status: response.status, page: await response.text() };
      }),
    );
    for (const { ask, status, page } of pages) {
      expect(status).toBe(ask.venue ? 200 : 404);
      if (ask.venue) expect(page).toContain(`<p class="venue">${ask.venue}</p>`);
      for (const other of guests.filter((g) => g.venue.name !== ask.venue))
        expect(page).not.toContain(`<p class="venue">${other.venue.name}</p>`);
    }
  });

  it("gives each of the tokens looked up in one moment its own view (one statement on PostgreSQL)", async () => {
    const [a, b, c] = await Promise.all([merakiGuest(), merakiGuest(), merakiGuest()]);
    await db
      .updateTable("connections")
      .set({ authorized_at: Date.now(), authorization_mode: "CLICK_THROUGH" })
      .where("token", "=", hashToken(b!.token))
      .execute();
    const tokens = [a!.token, "unknown-token-of-nobody-at-all", b!.token, a!.token, c!.token, "bad token"];
    const views = await Promise.all(tokens.map((token) => loadGuestView(token)));
    expect(views.map((v) => (v ? [v.network.name, v.state] : null))).toEqual([
      [a!.venue.name, "form"],
      null,
      [b!.venue.name, "authorized"],
      [a!.venue.name, "form"],
      [c!.venue.name, "form"],
      null,
    ]);
  });

  it("refuses an empty sign-up with the spec's messages, keeping what was typed, and authorizes nothing", async () => {
    const { token } = await merakiGuest();
    const response = await postForm(server.origin, "/connect", { token, mode: "SIGNUP", first_name: "Amina", phone_number: "07" });
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(page).toContain("Email address is required.");
    expect(page).toContain("Phone number is required.");
    expect(page).toContain('value="Amina"');
    expect((await connectionOf(token)).authorized_at).toBeNull();
  });

  it("accepts a sign-up sent from the sandboxed page (Origin: null) and grants through Meraki", async () => {
    const { token, org } = await merakiGuest();
    // The privacy notice the page showed: its version is what the guest accepts (decision 0080).
    const form = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    const shown = /name="notice_version" value="([^"]+)"/.exec(form)?.[1];
    expect(shown).toMatch(/^[0-9a-f]{16}$/);
    const response = await postForm(server.origin, "/connect", { token, ...SIGNUP, marketing_opt_in: "on" }, { Origin: "null" });
    expect(response.status).toBe(303);
    const grant = new URL(response.headers.get("location")!);
    expect(`${grant.origin}${grant.pathname}`).toBe(GRANT_URL);
    expect(grant.searchParams.get("duration")).toBe("3600");
    expect(grant.searchParams.get("continue_url")).toBe("http://example.com/news");
    const connection = await connectionOf(token);
    expect(connection.authorization_mode).toBe("SIGNUP");
    expect(Number(connection.session_expires_at) - Number(connection.authorized_at)).toBe(3600_000);
    const customer = await db.selectFrom("customers").selectAll().where("id", "=", connection.customer_id!).executeTakeFirstOrThrow();
    expect(customer).toMatchObject({
      organization_id: org.id,
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
      phone_number: "+254712345678",
      identity: "+254712345678",
    });
    expect(customer.terms_accepted_at).not.toBeNull();
    expect(customer.marketing_opt_in_at).not.toBeNull();
    const consents = await db
      .selectFrom("customer_consents")
      .select(["kind", "granted", "wording_version", "connection_id"])
      .where("customer_id", "=", customer.id)
      .orderBy("kind")
      .execute();
    expect(consents).toEqual([
      { kind: "marketing", granted: 1, wording_version: shown, connection_id: connection.id },
      { kind: "terms", granted: 1, wording_version: shown, connection_id: connection.id },
    ]);
  });

  it("records the terms as accepted at the Connect button, and marketing only when ticked", async () => {
    const { token } = await merakiGuest();
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain("By connecting you accept");
    expect(page).toMatch(/<input type="checkbox" name="marketing_opt_in"\/>/); // unticked
    expect((await postForm(server.origin, "/connect", { token, ...SIGNUP })).status).toBe(303);
    const connection = await connectionOf(token);
    const customer = await db.selectFrom("customers").selectAll().where("id", "=", connection.customer_id!).executeTakeFirstOrThrow();
    expect(customer.marketing_opt_in_at).toBeNull();
    expect(customer.terms_accepted_at).toBe(connection.authorized_at);
    const consents = await db
      .selectFrom("customer_consents")
      .select(["kind", "granted"])
      .where("connection_id", "=", connection.id)
      .orderBy("kind")
      .execute();
    expect(consents).toEqual([
      { kind: "marketing", granted: 0 },
      { kind: "terms", granted: 1 },
    ]);
  });

  it("authorizes exactly once when the guest double-submits or two requests race", async () => {
    const { token } = await merakiGuest();
    const answers = await Promise.all(Array.from({ length: 4 }, () => postForm(server.origin, "/connect", { token, ...SIGNUP })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([303, 409, 409, 409]);
    // The refused requests' consents went with their rolled-back transactions: one record of each kind.
    const kinds = (
      await db
        .selectFrom("customer_consents")
        .select("kind")
        .where("connection_id", "=", (await connectionOf(token)).id)
        .execute()
    )
      .map((c) => c.kind)
      .sort();
    expect(kinds).toEqual(["marketing", "terms"]);
    const refused = answers.find((a) => a.status === 409)!;
    const page = await refused.text();
    expect(page).toContain("Connection has already been authorized");
    expect(page).toContain("Reconnect to WiFi for a new connection session");
    const again = await fetch(`${server.origin}/connect?token=${token}`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Connection has already been authorized");
  });

  it("keeps a second device's sign-up with a known, unproved phone number on a record of its own (decision 0086)", async () => {
    const first = await merakiGuest();
    await postForm(server.origin, "/connect", { token: first.token, ...SIGNUP });
    const known = (await connectionOf(first.token)).customer_id;
    const entry = await enter(server.origin, `/hotspot/meraki/${first.venue.portal_key}?${merakiQuery(first.ap.mac_address)}`);
    const answer = await postForm(server.origin, "/connect", {
      token: entry.token!,
      ...SIGNUP,
      email_address: "amina.work@example.com",
      phone_number: "+254 712 345 678",
    });
    expect(answer.status).toBe(303);
    const second = await connectionOf(entry.token!);
    expect(second.customer_id).not.toBe(known);
    const device = await db.selectFrom("devices").select("customer_id").where("id", "=", second.device_id!).executeTakeFirstOrThrow();
    expect(device.customer_id).toBe(second.customer_id);
    const firstRecord = await db.selectFrom("customers").selectAll().where("id", "=", known!).executeTakeFirstOrThrow();
    expect(firstRecord.email_address).toBe(SIGNUP.email_address.toLowerCase());
  });

  it("joins no customer a phone or e-mail names when no code can prove it (no SMS set up)", async () => {
    const first = await merakiGuest();
    const byEmail = await insertKnown(first.org.id, { email_address: `older.${Date.now()}@example.com` });
    const byPhone = await insertKnown(first.org.id, {
      phone_number: `+25471${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`,
    });
    await db.updateTable("customers").set({ phone_proved_at: Date.now() }).where("id", "=", byPhone.id).execute();
    const answer = await postForm(server.origin, "/connect", {
      token: first.token,
      ...SIGNUP,
      email_address: byEmail.email_address!,
      phone_number: byPhone.phone_number!,
    });
    expect(answer.status).toBe(303);
    const connection = await connectionOf(first.token);
    expect([byEmail.id, byPhone.id]).not.toContain(connection.customer_id);
    const untouched = await db.selectFrom("customers").selectAll().where("id", "in", [byEmail.id, byPhone.id]).execute();
    expect(untouched.map((c) => c.first_name)).not.toContain(SIGNUP.first_name);
  });

  it("gives a returning guest with a complete record one Connect button, where the gateway vouches for the device", async () => {
    const w = await world();
    const clientMac = randomMac();
    const first = { ...w, token: (await enter(server.origin, mlangoEntryPath(w, clientMac))).token! };
    await postForm(server.origin, "/connect", { token: first.token, ...SIGNUP });
    const entry = await enter(server.origin, mlangoEntryPath(w, clientMac));
    const page = await (await fetch(`${server.origin}/connect?token=${entry.token}`)).text();
    expect(page).not.toContain('name="email_address"');
    expect(page).toContain('value="CLICK_THROUGH"');
    expect((await postForm(server.origin, "/connect", { token: entry.token!, mode: "CLICK_THROUGH" })).status).toBe(303);
    expect((await connectionOf(entry.token!)).authorization_mode).toBe("CLICK_THROUGH");
    // On Meraki the same MAC is anyone's: the form asks again and shows none of the details.
    const meraki = await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, clientMac)}`);
    const asked = await (await fetch(`${server.origin}/connect?token=${meraki.token}`)).text();
    expect(asked).toContain('name="email_address"');
    expect(asked).not.toContain(SIGNUP.last_name);
  });

  it("offers click-through only on a network that does not ask for sign-up", async () => {
    const { venue, ap } = await world({ guest_signup: 0 });
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(ap.mac_address)}`);
    const page = await (await fetch(`${server.origin}/connect?token=${entry.token}`)).text();
    expect(page).not.toContain('name="first_name"');
    // A sign-up payload sent anyway is a click-through: nothing asked, nothing kept.
    expect((await postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP })).status).toBe(303);
    const connection = await connectionOf(entry.token!);
    expect(connection.authorization_mode).toBe("CLICK_THROUGH");
    // "By connecting you accept the terms…": the terms are recorded, marketing is not asked.
    const consents = await db
      .selectFrom("customer_consents")
      .select(["kind", "granted"])
      .where("connection_id", "=", connection.id)
      .execute();
    expect(consents).toEqual([{ kind: "terms", granted: 1 }]);
  });

  it("refuses expired and unknown tokens and blocked devices with readable pages", async () => {
    const expired = await merakiGuest();
    await db
      .updateTable("connections")
      .set({ token_expires_at: Date.now() - 1 })
      .where("token", "=", hashToken(expired.token))
      .execute();
    const expiredPage = await fetch(`${server.origin}/connect?token=${expired.token}`);
    expect(expiredPage.status).toBe(410);
    expect(await expiredPage.text()).toContain("This connection link has expired.");
    expect((await postForm(server.origin, "/connect", { token: expired.token, ...SIGNUP })).status).toBe(410);

    for (const token of ["x".repeat(32), "short", "", "<script>"]) {
      const unknown = await fetch(`${server.origin}/connect?token=${encodeURIComponent(token)}`);
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toContain("This connection link is not valid.");
    }
    expect((await fetch(`${server.origin}/connect`)).status).toBe(404);

    const blocked = await merakiGuest();
    await db.updateTable("devices").set({ blocked_at: Date.now() }).where("mac_address", "=", blocked.clientMac).execute();
    const blockedPage = await fetch(`${server.origin}/connect?token=${blocked.token}`);
    expect(blockedPage.status).toBe(403);
    expect(await blockedPage.text()).toContain("This device has been blocked");
    expect((await postForm(server.origin, "/connect", { token: blocked.token, ...SIGNUP })).status).toBe(403);
    expect((await connectionOf(blocked.token)).authorized_at).toBeNull();
  });

  it("sends the guest to the access point's success page, else the network's, else the gateway's, else Mlango's", async () => {
    const guest = await merakiGuest();
    await db.updateTable("access_points").set({ success_url: "https://ap.example/welcome" }).where("id", "=", guest.ap.id).execute();
    await db.updateTable("venues").set({ success_url: "https://venue.example/hello" }).where("id", "=", guest.venue.id).execute();
    const grant = async (token: string) =>
      new URL((await postForm(server.origin, "/connect", { token, ...SIGNUP })).headers.get("location")!).searchParams.get("continue_url");
    expect(await grant(guest.token)).toBe("https://ap.example/welcome");
    const second = await enter(server.origin, `/hotspot/meraki/${guest.venue.portal_key}?${merakiQuery("02:00:00:00:00:aa")}`);
    expect(await grant(second.token!)).toBe("https://venue.example/hello");
    await db.updateTable("venues").set({ success_url: null }).where("id", "=", guest.venue.id).execute();
    const third = await enter(
      server.origin,
      `/hotspot/meraki/${guest.venue.portal_key}?${merakiQuery("02:00:00:00:00:aa", randomMac(), { user_continue_url: "" })}`,
    );
    const online = await grant(third.token!);
    expect(online).toMatch(/\/connect\/online\?token=/);
    const onlinePage = await fetch(online!.replace(/^https?:\/\/[^/]+/, server.origin));
    expect(await onlinePage.text()).toContain("You are online");
  });
});

describe("other makes", () => {
  it("openNDS: reads fas and grants through opennds_auth with sha256(hid + faskey)", async () => {
    const { venue } = await world({ opennds_faskey: encryptSecret("fas-key-123") });
    const fas = Buffer.from(
      "clientip=192.168.8.20, clientmac=02:11:22:33:44:55, client_type=cpd_can, gatewayname=Java%20House, gatewayurl=http%3A%2F%2F127.0.0.1%3A2050, version=10.1.3, hid=ab12cd34, gatewayaddress=127.0.0.1:2050, gatewaymac=02:aa:bb:cc:dd:ee, originurl=http%3A%2F%2Fexample.com, clientif=br-lan",
    ).toString("base64");
    const entry = await enter(server.origin, `/hotspot/opennds/${venue.portal_key}?fas=${encodeURIComponent(fas)}`);
    expect(entry.status).toBe(302);
    expect(await connectionOf(entry.token!)).toMatchObject({ client_ip: "192.168.8.20", ssid: "Java House", gateway: "opennds" });
    const grant = new URL((await postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP })).headers.get("location")!);
    expect(grant.origin).toBe("http://127.0.0.1:2050");
    expect(grant.pathname).toBe("/opennds_auth/");
    expect(grant.searchParams.get("tok")).toBe(crypto.createHash("sha256").update("ab12cd34fas-key-123").digest("hex"));
    expect(grant.searchParams.get("redir")).toBe("http://example.com/");
  });

  it("UniFi: authorizes the guest at the controller, and undoes the authorization when the controller fails", async () => {
    const { venue, ap } = await world({
      unifi_url: unifi.url,
      unifi_username: "admin",
      unifi_password: encryptSecret("unifi-fake-password"),
      session_minutes: 90,
    });
    const clientMac = randomMac();
    const path = `/hotspot/unifi/${venue.portal_key}/guest/s/default/?ap=${ap.mac_address}&id=${clientMac}&t=1700000000&url=http%3A%2F%2Fexample.com%2F&ssid=Guest`;
    const entry = await enter(server.origin, path);
    expect(entry.status).toBe(302);
    const granted = await postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP });
    expect(granted.status).toBe(303);
    expect(granted.headers.get("location")).toBe("http://example.com/");
    expect(unifi.commands.at(-1)).toEqual({ site: "default", cmd: "authorize-guest", mac: clientMac, minutes: 90, ap_mac: ap.mac_address });

    unifi.failing = true;
    try {
      const second = await enter(server.origin, path.replace(clientMac, randomMac()));
      const failed = await postForm(server.origin, "/connect", {
        token: second.token!,
        ...SIGNUP,
        phone_number: "0722000111",
        email_address: "b@example.com",
      });
      expect(failed.status).toBe(502);
      expect(await failed.text()).toContain("The network could not let you through just now.");
      expect((await connectionOf(second.token!)).authorized_at).toBeNull();
      unifi.failing = false;
      expect(
        (
          await postForm(server.origin, "/connect", {
            token: second.token!,
            ...SIGNUP,
            phone_number: "0722000111",
            email_address: "b@example.com",
          })
        ).status,
      ).toBe(303);
    } finally {
      unifi.failing = false;
    }
  });

  it("UniFi: never calls a controller whose name resolves to loopback (DNS can change after saving), and makes no connection", async () => {
    const counter = await connectionCounter();
    try {
      // Stored as it might be from before the check, or from a name that pointed elsewhere when saved.
      const { venue, ap } = await world({
        unifi_url: `http://localhost:${counter.port}`,
        unifi_username: "admin",
        unifi_password: encryptSecret("unifi-fake-password"),
      });
      const clientMac = randomMac();
      const entry = await enter(
        server.origin,
        `/hotspot/unifi/${venue.portal_key}/guest/s/default/?ap=${ap.mac_address}&id=${clientMac}&url=http%3A%2F%2Fexample.com%2F`,
      );
      const refused = await withEnv({ OUTBOUND_ALLOW: undefined }, () =>
        postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP }),
      );
      expect(refused.status).toBe(502);
      expect(await refused.text()).toContain("The network could not let you through just now.");
      expect((await connectionOf(entry.token!)).authorized_at).toBeNull();
      expect(counter.connections()).toBe(0);
    } finally {
      await counter.close();
    }
  });

  it("UniFi: a query or fragment in a stored controller URL does not choose the API path", async () => {
    const { venue, ap } = await world({
      unifi_url: `${unifi.url}/?x=`,
      unifi_username: "admin",
      unifi_password: encryptSecret("unifi-fake-password"),
    });
    const clientMac = randomMac();
    const entry = await enter(
      server.origin,
      `/hotspot/unifi/${venue.portal_key}/guest/s/default/?ap=${ap.mac_address}&id=${clientMac}&url=http%3A%2F%2Fexample.com%2F`,
    );
    expect((await postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP })).status).toBe(303);
    expect(unifi.commands.at(-1)).toMatchObject({ site: "default", cmd: "authorize-guest", mac: clientMac });
  });

  it("Mlango: takes only signed entries, each once, and signs a grant bound to the device", async () => {
    const { venue, ap, secret } = await world();
    const values = {
      ap_mac: ap.mac_address,
      client_mac: randomMac(),
      client_ip: "10.1.1.9",
      ssid: "Kahawa Guest",
      grant_url: "http://127.0.0.1:9/grant",
      continue_url: "",
      ts: String(Math.floor(Date.now() / 1000)),
      nonce: crypto.randomBytes(12).toString("base64url"),
    };
    // The README's entry message, written out here rather than taken from the code under test.
    const message = (v: typeof values) =>
      ["mlango-entry-v2", v.ap_mac, v.client_mac, v.client_ip, v.ssid, v.grant_url, v.continue_url, v.ts, v.nonce].join("\n");
    const url = (v: typeof values, signature = hmac(secret, message(v))) =>
      `/hotspot/mlango/${venue.portal_key}?${new URLSearchParams({ ...v, signature })}`;
    expect((await enter(server.origin, url(values, hmac(secret, message(values) + "x")))).status).toBe(400);
    expect((await enter(server.origin, url({ ...values, ts: String(Math.floor(Date.now() / 1000) - 3600) }))).status).toBe(400);
    // The SSID is signed: an entry whose SSID was changed on the way is refused.
    expect((await enter(server.origin, url(values).replace("Kahawa", "Other"))).status).toBe(400);
    const entry = await enter(server.origin, url(values));
    expect(entry.status).toBe(302);
    // The attack: the same signed URL, replayed within its five minutes, makes no second connection.
    const replay = await fetch(`${server.origin}${url(values)}`, { redirect: "manual" });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain(ENTRY_MESSAGES.replayed);
    expect(
      Number(
        (
          await db
            .selectFrom("connections")
            .where("venue_id", "=", venue.id)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);

    const grant = new URL((await postForm(server.origin, "/connect", { token: entry.token!, ...SIGNUP })).headers.get("location")!);
    expect(`${grant.origin}${grant.pathname}`).toBe("http://127.0.0.1:9/grant");
    expect(grant.searchParams.get("token")).toBe(entry.token);
    expect(grant.searchParams.get("client_mac")).toBe(values.client_mac);
    expect(grantIsValid(secret, grant.searchParams, values.client_mac)).toBe(true);
    // Taken to another device, the grant opens nothing there.
    expect(grantIsValid(secret, grant.searchParams, randomMac())).toBe(false);

    // The nonce is kept for the signature's window, then pruned (by then the URL has expired anyway).
    const nonces = () => db.selectFrom("gateway_nonces").where("venue_id", "=", venue.id).select("nonce").execute();
    expect(await nonces()).toEqual([{ nonce: values.nonce }]);
    await pruneGatewayNonces(Date.now());
    expect(await nonces()).toHaveLength(1);
    await pruneGatewayNonces(Date.now() + 11 * 60_000);
    expect(await nonces()).toEqual([]);
  });
});

describe("/splash JSON calls and the Captive Portal API", () => {
  it("GET /splash/connection/{token} returns the connection and its customer; an unknown token is a 404", async () => {
    const { token } = await merakiGuest();
    const answer = await (await fetch(`${server.origin}/splash/connection/${token}`)).json();
    expect(answer.data.connection).toMatchObject({ authorizedAt: null, status: "form", needsSignup: true, customer: { firstName: null } });
    expect((await fetch(`${server.origin}/splash/connection/${"z".repeat(32)}`)).status).toBe(404);
  });

  it("POST /splash/connect/auto answers the error, then redirect_to", async () => {
    const { token } = await merakiGuest();
    const post = (body: unknown) =>
      fetch(`${server.origin}/splash/connect/auto`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const invalid = await post({ token, mode: "SIGNUP" });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).error).toBe("Email address is required.");
    expect((await post({ token, first_name: 5 })).status).toBe(422);
    const ok = await post({ token, ...SIGNUP });
    expect(ok.status).toBe(200);
    expect((await ok.json()).redirect_to).toContain(GRANT_URL);
    const again = await post({ token, ...SIGNUP });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("Connection has already been authorized. Reconnect to WiFi for a new connection session");
    const broken = await fetch(`${server.origin}/splash/connect/auto`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(broken.status).toBe(400);
    const huge = await fetch(`${server.origin}/splash/connect/auto`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token, first_name: "a".repeat(100_000) }),
    });
    expect(huge.status).toBe(413);
  });

  it("answers RFC 8908: captive before, time left after", async () => {
    const { token, venue } = await merakiGuest();
    const ask = async () => {
      const response = await fetch(`${server.origin}/captive/${venue.portal_key}?token=${token}`);
      expect(response.headers.get("content-type")).toContain("application/captive+json");
      return response.json();
    };
    const before = await ask();
    expect(before.captive).toBe(true);
    expect(before["user-portal-url"]).toContain(`/connect?token=${token}`);
    await postForm(server.origin, "/connect", { token, ...SIGNUP });
    const after = await ask();
    expect(after.captive).toBe(false);
    expect(after["seconds-remaining"]).toBeGreaterThan(3500);
    expect(after["can-extend-session"]).toBe(false);
  });
});

describe("failures", () => {
  it("answers a database failure with a readable 503 and keeps serving", async () => {
    const { token } = await merakiGuest();
    await sql`alter table oauth_providers rename to oauth_providers_away`.execute(db);
    try {
      const page = await fetch(`${server.origin}/connect?token=${token}`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("Something went wrong on our side.");
      const json = await fetch(`${server.origin}/splash/connection/${token}`);
      expect(json.status).toBe(503);
      expect(await json.json()).toEqual({ error: { message: "Something went wrong on our side. Please try again in a moment." } });
    } finally {
      await sql`alter table oauth_providers_away rename to oauth_providers`.execute(db);
    }
    expect((await fetch(`${server.origin}/connect?token=${token}`)).status).toBe(200);
  });
});

describe("devices seen before", () => {
  it("keeps a known device's customer and facts", async () => {
    const { org, venue, ap } = await world();
    const device = await db
      .insertInto("devices")
      .values(buildDevice(org.id, { mac_address: "02:de:ad:be:ef:01" }))
      .returning("id")
      .executeTakeFirstOrThrow();
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(ap.mac_address, "02:DE:AD:BE:EF:01")}`);
    const connection = await connectionOf(entry.token!);
    expect(connection.device_id).toBe(device.id);
    expect((await db.selectFrom("devices").select("id").where("organization_id", "=", org.id).execute()).length).toBe(1);
  });
});
