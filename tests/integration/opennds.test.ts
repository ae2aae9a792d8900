// openNDS as openNDS 9.10 behaves, over real HTTP against the built server, on SQLite and
// PostgreSQL: `fas` arrives as unescaped base64 (a `+` in it must stay a `+`), the grant is
// opennds_auth with tok = sha256(hid + faskey), and a faskey openNDS's printf would mangle (`%`) is
// refused by the form and the API. The real daemon is driven by opennds-daemon.test.ts.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { GATEWAY_SETTINGS_MESSAGES as MSG } from "~/lib/schemas/gateway-settings";
import { issueToken } from "~/services/auth.server";
import { hashToken } from "~/services/crypto.server";
import { decryptSecret, encryptSecret } from "~/services/secrets.server";
import * as apCreate from "~/routes/$orgId+/_networks+/ap+/create";
import * as settings from "~/routes/$orgId+/_networks+/venues+/$venueId+/settings";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { openndsQuery } from "../fixtures/opennds";
import { enter, makeNetwork, postForm, randomMac } from "../fixtures/portal";
import { apForm, callRoute, insertVenue } from "../fixtures/venues";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.close();
});

const FASKEY = "kahawa-faskey-0123456789";

async function world(fields = {}) {
  const { org, owner } = await makeOrg(`openNDS ${Math.random()}`);
  const network = await makeNetwork(org.id, { opennds_faskey: encryptSecret(FASKEY), ...fields });
  return { org, owner, ...network };
}

describe("openNDS entry", () => {
  it("lets in a guest whose original URL holds ~ (a + in fas, sent unescaped) and grants with sha256(hid + faskey)", async () => {
    const { venue } = await world();
    const origin = "http://example.com/~amina/?q=~~~";
    const clientMac = randomMac();
    const query = openndsQuery(origin, { hid: "9c0ffee1", clientMac });
    expect(query).toContain("+");
    const entry = await enter(server.origin, `/hotspot/opennds/${venue.portal_key}?${query}`);
    expect(entry.status).toBe(302);
    expect(entry.token).not.toBeNull();
    const connection = await db
      .selectFrom("connections")
      .selectAll()
      .where("token", "=", hashToken(entry.token!))
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({ gateway: "opennds", client_ip: "198.51.100.20", ssid: "Kahawa Guest" });

    const granted = await postForm(server.origin, "/connect", {
      token: entry.token!,
      mode: "SIGNUP",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
      phone_number: "0712 345 678",
    });
    expect(granted.status).toBe(303);
    const grant = new URL(granted.headers.get("location")!);
    expect(`${grant.origin}${grant.pathname}`).toBe("http://198.51.100.1:2050/opennds_auth/");
    expect(grant.searchParams.get("tok")).toBe(crypto.createHash("sha256").update(`9c0ffee1${FASKEY}`).digest("hex"));
    expect(grant.searchParams.get("redir")).toBe(origin);
  });

  it("answers a fas that is not base64 with a 400 page, not a 500", async () => {
    const { venue } = await world();
    for (const fas of ["%25%25", "not%20base64!", Buffer.from("hello").toString("base64")]) {
      const answer = await fetch(`${server.origin}/hotspot/opennds/${venue.portal_key}?fas=${fas}`, { redirect: "manual" });
      expect(answer.status, fas).toBe(400);
      expect(await answer.text()).toContain("The router did not send a readable fas parameter.");
    }
  });
});

describe("openNDS faskey", () => {
  const storedFaskey = async (venueId: number) =>
    (await db.selectFrom("venues").select("opennds_faskey").where("id", "=", venueId).executeTakeFirstOrThrow()).opennds_faskey;

  it("refuses a faskey with % in the settings form and in the API, and keeps the stored one", async () => {
    const { org, owner, venue } = await world();
    const form = {
      intent: "gateway",
      gateway_secret: "",
      opennds_faskey: "50%off-faskey",
      unifi_url: "",
      unifi_username: "",
      unifi_password: "",
      session_minutes: "60",
      guest_signup: "1",
      terms_url: "",
      privacy_url: "",
    };
    const page = await callRoute(
      settings.action,
      owner.id,
      `/${org.id}/venues/${venue.id}/settings`,
      { orgId: String(org.id), venueId: String(venue.id) },
      form,
    );
    expect(page.status).toBe(400);
    expect(((await page.json()) as { gateway: { error: Record<string, string[]> } }).gateway.error.opennds_faskey).toEqual([
      MSG.faskeyPercent,
    ]);

    const token = await issueToken(owner.id, "api");
    const api = await fetch(`${server.origin}/account/api/v1/venues/${venue.id}/gateway`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id), "Content-Type": "application/json" },
      body: JSON.stringify({ opennds_faskey: "100%" }),
    });
    expect(api.status).toBe(422);
    expect(await api.json()).toEqual({ errors: { opennds_faskey: [MSG.faskeyPercent] } });
    expect(decryptSecret((await storedFaskey(venue.id))!)).toBe(FASKEY);

    const accepted = await fetch(`${server.origin}/account/api/v1/venues/${venue.id}/gateway`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id), "Content-Type": "application/json" },
      body: JSON.stringify({ opennds_faskey: "new-faskey-without-percent" }),
    });
    expect(accepted.status).toBe(200);
    expect(decryptSecret((await storedFaskey(venue.id))!)).toBe("new-faskey-without-percent");
  });
});

describe("openNDS access points", () => {
  it("registers an openNDS router in the access point form, and its guests are seen on it", async () => {
    const { org, owner } = await makeOrg(`openNDS AP ${Math.random()}`);
    const venue = await insertVenue(org.id, { name: "Kahawa", opennds_faskey: encryptSecret(FASKEY) });
    const created = await callRoute(
      apCreate.action,
      owner.id,
      `/${org.id}/ap/create`,
      { orgId: String(org.id) },
      apForm(venue.id, { make: "openNDS", mac_address: "02:00:5e:00:53:01", serial_number: "NDS-1" }),
    );
    expect(created.status).toBe(302);
    const ap = await db.selectFrom("access_points").select(["id", "make"]).where("venue_id", "=", venue.id).executeTakeFirstOrThrow();
    expect(ap.make).toBe("openNDS");
    const { portal_key } = await db.selectFrom("venues").select("portal_key").where("id", "=", venue.id).executeTakeFirstOrThrow();
    // openNDS sends gatewaymac as twelve hex digits without separators.
    const entry = await enter(server.origin, `/hotspot/opennds/${portal_key}?${openndsQuery("http://example.com/")}`);
    expect(entry.status).toBe(302);
    const connection = await db
      .selectFrom("connections")
      .select("access_point_id")
      .where("token", "=", hashToken(entry.token!))
      .executeTakeFirstOrThrow();
    expect(connection.access_point_id).toBe(ap.id);

    const unifi = await callRoute(
      apCreate.action,
      owner.id,
      `/${org.id}/ap/create`,
      { orgId: String(org.id) },
      apForm(venue.id, { make: "unifi", mac_address: "02:00:5e:00:53:02", serial_number: "U6-1" }),
    );
    expect(unifi.status).toBe(302);
  });
});
