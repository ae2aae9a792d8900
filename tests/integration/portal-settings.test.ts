// A network's guest portal settings: the settings page's "Guest portal" section and
// GET/PUT /account/api/v1/venues/{id}/gateway, on SQLite and PostgreSQL. Secrets are stored
// encrypted and never reach a browser or an API client.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { refusalMessage } from "~/lib/permissions";
import { GATEWAY_SETTINGS_MESSAGES as MSG } from "~/lib/schemas/gateway-settings";
import { VENUE_MESSAGES } from "~/lib/schemas/venues";
import * as gatewayApi from "~/routes/account+/api.v1.venues.$id.gateway";
import * as settings from "~/routes/$orgId+/_networks+/venues+/$venueId+/settings";
import { issueToken } from "~/services/auth.server";
import { hashToken } from "~/services/crypto.server";
import { networkByGatewaySecret } from "~/services/portal/network.server";
import { regenerateQuestion } from "~/services/portal/settings.server";
import { OUTBOUND_MESSAGES } from "~/services/outbound.server";
import { decryptSecret } from "~/services/secrets.server";
import { BASE, makeMember, makeOrg, run, sessionCookie } from "../fixtures";
import { withEnv } from "../fixtures/env";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { INTERNAL_URLS } from "../fixtures/outbound";
import { callRoute, insertConnection, insertVenue, toastOf } from "../fixtures/venues";

type Json = Record<string, any>;

const SECRET = "gw-secret-0123456789-abcdefghij";
const FASKEY = "faskey-0123456789-klmnop";
const PASSWORD = "unifi-password-0123-qrstuv";
const MAKES = ["meraki", "opennds", "unifi", "mlango", "mikrotik", "cisco", "ruckus"] as const;

/** The page's form as a browser posts it: every field, secrets empty unless given. */
function gatewayForm(fields: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "gateway",
    gateway_secret: "",
    opennds_faskey: "",
    unifi_url: "",
    unifi_username: "",
    unifi_password: "",
    session_minutes: "60",
    guest_signup: "1",
    terms_url: "",
    privacy_url: "",
    ...fields,
  };
}

const FULL = {
  gateway_secret: SECRET,
  opennds_faskey: FASKEY,
  unifi_url: "https://unifi.example.com:8443",
  unifi_username: "mlango",
  unifi_password: PASSWORD,
  session_minutes: "90",
  guest_signup: "0",
  terms_url: "https://example.com/terms",
  privacy_url: "https://example.com/privacy",
};

async function setup() {
  const { org, owner } = await makeOrg();
  const venue = await insertVenue(org.id, { name: "Garden City" });
  const path = `/${org.id}/venues/${venue.id}/settings`;
  const params = { orgId: String(org.id), venueId: String(venue.id) };
  return { org, owner, venue, path, params };
}

function storedVenue(id: number) {
  return db
    .selectFrom("venues")
    .select([
      "portal_key",
      "gateway_secret",
      "gateway_secret_hash",
      "opennds_faskey",
      "unifi_url",
      "unifi_username",
      "unifi_password",
      "session_minutes",
      "guest_signup",
      "terms_url",
      "privacy_url",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("guest portal settings page", () => {
  it("gives each make's URL under PUBLIC_URL with the portal key and its steps, never the request's host or a secret", async () => {
    const { owner, venue, path, params } = await setup();
    expect((await callRoute(settings.action, owner.id, path, params, gatewayForm(FULL))).status).toBe(302);
    const stored = await storedVenue(venue.id);

    // The request names another host: the URLs still come from PUBLIC_URL.
    const request = new Request(`http://evil.example${path}`, { headers: { Cookie: await sessionCookie(owner.id) } });
    const res = await run(() => settings.loader({ request, params, context: {} }));
    expect(res.status).toBe(200);
    const text = await res.text();
    const { gateway } = JSON.parse(text) as Json;
    const origin = new URL(getEnv().PUBLIC_URL).origin;
    expect(gateway.portal_key).toBe(stored.portal_key);
    expect(gateway.urls).toEqual(Object.fromEntries(MAKES.map((m) => [m, `${origin}/hotspot/${m}/${stored.portal_key}`])));
    expect(gateway.gateways.map((g: Json) => g.make)).toEqual([...MAKES]);
    for (const g of gateway.gateways) {
      expect(g.url).toBe(gateway.urls[g.make]);
      expect(g.steps.length).toBeGreaterThan(0);
      expect(["controller", "poll", "none"]).toContain(g.revocation);
    }
    expect(gateway).toMatchObject({
      gateway_secret_set: true,
      opennds_faskey_set: true,
      unifi_url: FULL.unifi_url,
      unifi_username: "mlango",
      unifi_password_set: true,
      session_minutes: 90,
      guest_signup: false,
      terms_url: FULL.terms_url,
      privacy_url: FULL.privacy_url,
    });
    expect(text).not.toContain("evil.example");
    for (const secret of [
      SECRET,
      FASKEY,
      PASSWORD,
      stored.gateway_secret!,
      stored.gateway_secret_hash!,
      stored.opennds_faskey!,
      stored.unifi_password!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it("stores secrets encrypted, with the gateway secret's hash; an empty secret keeps the stored one; the clear boxes remove them", async () => {
    const { owner, venue, path, params } = await setup();
    const saved = await callRoute(settings.action, owner.id, path, params, gatewayForm(FULL));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path);
    expect(await toastOf(saved)).toEqual({ type: "success", message: "Guest portal settings updated." });
    const first = await storedVenue(venue.id);
    expect(first.gateway_secret).not.toBe(SECRET);
    expect(decryptSecret(first.gateway_secret!)).toBe(SECRET);
    expect(first.gateway_secret_hash).toBe(hashToken(SECRET));
    expect(first.opennds_faskey).not.toBe(FASKEY);
    expect(decryptSecret(first.opennds_faskey!)).toBe(FASKEY);
    expect(first.unifi_password).not.toBe(PASSWORD);
    expect(decryptSecret(first.unifi_password!)).toBe(PASSWORD);
    expect(first).toMatchObject({
      unifi_url: FULL.unifi_url,
      unifi_username: "mlango",
      terms_url: FULL.terms_url,
      privacy_url: FULL.privacy_url,
    });
    expect(Number(first.session_minutes)).toBe(90);
    expect(Number(first.guest_signup)).toBe(0);
    // The accounting endpoint finds the network by this secret.
    expect((await networkByGatewaySecret(SECRET))?.id).toBe(venue.id);

    // The page posts the secret fields empty: the stored secrets stay; the other fields change.
    const kept = await callRoute(
      settings.action,
      owner.id,
      path,
      params,
      gatewayForm({ unifi_url: FULL.unifi_url, unifi_username: "mlango", session_minutes: "120", guest_signup: "1", terms_url: "" }),
    );
    expect(kept.status).toBe(302);
    const second = await storedVenue(venue.id);
    expect(second).toMatchObject({
      gateway_secret: first.gateway_secret,
      gateway_secret_hash: first.gateway_secret_hash,
      opennds_faskey: first.opennds_faskey,
      unifi_password: first.unifi_password,
      terms_url: null,
      privacy_url: null,
    });
    expect(Number(second.session_minutes)).toBe(120);
    expect(Number(second.guest_signup)).toBe(1);

    const cleared = await callRoute(
      settings.action,
      owner.id,
      path,
      params,
      gatewayForm({ unifi_url: FULL.unifi_url, unifi_username: "mlango", clear_opennds_faskey: "on", clear_unifi: "on" }),
    );
    expect(cleared.status).toBe(302);
    const third = await storedVenue(venue.id);
    expect(third).toMatchObject({
      opennds_faskey: null,
      unifi_url: null,
      unifi_username: null,
      unifi_password: null,
      gateway_secret: first.gateway_secret,
    });
  });

  it("refuses invalid settings with a message per field, changes nothing and sends no typed secret back", async () => {
    const { owner, venue, path, params } = await setup();
    const typedSecret = "short-secret-XYZ";
    const typedPassword = "typed-password-XYZ";
    const res = await callRoute(
      settings.action,
      owner.id,
      path,
      params,
      gatewayForm({
        gateway_secret: typedSecret,
        opennds_faskey: "has a space",
        unifi_url: "ftp://unifi.example.com",
        unifi_password: typedPassword,
        clear_unifi: "on",
        session_minutes: "0",
        guest_signup: "maybe",
        terms_url: "javascript:alert(1)",
        privacy_url: "not a url",
      }),
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    const { gateway } = JSON.parse(text) as Json;
    expect(gateway.error).toMatchObject({
      gateway_secret: [MSG.secretLength],
      opennds_faskey: [MSG.faskeyInvalid],
      unifi_url: [VENUE_MESSAGES.urlInvalid],
      session_minutes: [MSG.sessionInvalid],
      guest_signup: [MSG.guestSignupInvalid],
      terms_url: [VENUE_MESSAGES.urlInvalid],
      privacy_url: [VENUE_MESSAGES.urlInvalid],
    });
    expect(text).not.toContain(typedSecret);
    expect(text).not.toContain(typedPassword);

    const errorOf = async (fields: Record<string, string>) => {
      const answer = await callRoute(settings.action, owner.id, path, params, gatewayForm(fields));
      expect(answer.status).toBe(400);
      return ((await answer.json()) as Json).gateway.error;
    };
    expect((await errorOf({ gateway_secret: "a".repeat(257) })).gateway_secret).toEqual([MSG.secretLength]);
    expect((await errorOf({ gateway_secret: "spaces are not allowed in it at all" })).gateway_secret).toEqual([MSG.secretCharacters]);
    expect((await errorOf({ session_minutes: "" })).session_minutes).toEqual([MSG.sessionRequired]);
    for (const minutes of ["abc", "1.5", "43201", "-5"])
      expect((await errorOf({ session_minutes: minutes })).session_minutes).toEqual([MSG.sessionInvalid]);
    expect((await errorOf({ opennds_faskey: FASKEY, clear_opennds_faskey: "on" })).opennds_faskey).toEqual([MSG.faskeyAndClear]);
    expect((await errorOf({ unifi_password: PASSWORD, clear_unifi: "on" })).unifi_password).toEqual([MSG.unifiPasswordAndClear]);
    // A controller Mlango cannot sign in to is refused: address, username and password go together.
    expect(await errorOf({ unifi_url: FULL.unifi_url })).toEqual({
      unifi_username: [MSG.unifiUsernameMissing],
      unifi_password: [MSG.unifiPasswordMissing],
    });
    expect(await errorOf({ unifi_username: "mlango", unifi_password: PASSWORD })).toEqual({ unifi_url: [MSG.unifiUrlMissing] });

    const stored = await storedVenue(venue.id);
    expect(stored).toMatchObject({
      gateway_secret: null,
      gateway_secret_hash: null,
      opennds_faskey: null,
      unifi_url: null,
      unifi_password: null,
    });
    expect(Number(stored.session_minutes)).toBe(60);
  });

  it("refuses a controller address inside the server's network in any spelling, or with a query or fragment, and stores nothing", async () => {
    const { org, owner, venue, path, params } = await setup();
    const controller = { unifi_username: "mlango", unifi_password: PASSWORD };
    const token = await issueToken(owner.id, "api");
    // As in production: no OUTBOUND_ALLOW (the tests' one lets the fakes on 127.0.0.1 through).
    await withEnv({ OUTBOUND_ALLOW: undefined }, async () => {
      for (const url of INTERNAL_URLS) {
        const message = OUTBOUND_MESSAGES.internal(new URL(url).hostname);
        const res = await callRoute(settings.action, owner.id, path, params, gatewayForm({ unifi_url: url, ...controller }));
        expect(res.status, url).toBe(400);
        expect(((await res.json()) as Json).gateway.error, url).toEqual({ unifi_url: [message] });
        const api = await callApi(gatewayApi, venue.id, { token, org: org.id, method: "PUT", json: { unifi_url: url, ...controller } });
        expect(api.status, url).toBe(422);
        expect(((await api.json()) as Json).errors, url).toEqual({ unifi_url: [message] });
      }
    });
    for (const url of [
      "https://unifi.example.com:8443/?x=/api/s/other/cmd/stamgr",
      "https://unifi.example.com:8443?",
      "https://unifi.example.com:8443/#/api",
      "https://admin:pw@unifi.example.com:8443",
    ]) {
      const res = await callRoute(settings.action, owner.id, path, params, gatewayForm({ unifi_url: url, ...controller }));
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as Json).gateway.error, url).toEqual({ unifi_url: [MSG.unifiUrlParts] });
    }
    expect(await storedVenue(venue.id)).toMatchObject({ unifi_url: null, unifi_password: null });
    // A deployment that lists its on-premise controller's range in OUTBOUND_ALLOW can save it.
    await withEnv({ OUTBOUND_ALLOW: "10.0.0.0/8" }, async () => {
      const res = await callRoute(
        settings.action,
        owner.id,
        path,
        params,
        gatewayForm({ unifi_url: "http://10.0.0.5:8443", ...controller }),
      );
      expect(res.status).toBe(302);
    });
    expect((await storedVenue(venue.id)).unifi_url).toBe("http://10.0.0.5:8443");
  });

  it("refuses a gateway secret another network uses, whatever its organisation; saving one's own again is fine", async () => {
    const { owner, path, params } = await setup();
    const other = await makeOrg("Other Org");
    const taken = await insertVenue(other.org.id, { gateway_secret_hash: hashToken(SECRET) });
    const res = await callRoute(settings.action, owner.id, path, params, gatewayForm({ gateway_secret: SECRET }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).gateway.error).toEqual({ gateway_secret: [MSG.secretTaken] });

    await db.deleteFrom("venues").where("id", "=", taken.id).execute();
    expect((await callRoute(settings.action, owner.id, path, params, gatewayForm({ gateway_secret: SECRET }))).status).toBe(302);
    expect((await callRoute(settings.action, owner.id, path, params, gatewayForm({ gateway_secret: SECRET }))).status).toBe(302);
  });

  it("shows view_networks the URLs but refuses their changes (403); another organisation's network is a 404", async () => {
    const { org, owner, venue, path, params } = await setup();
    const before = await storedVenue(venue.id);
    const { user: viewer } = await makeMember(org.id, "custom", ["view_networks"]);
    const page: Json = await (await callRoute(settings.loader, viewer.id, path, params)).json();
    expect(page.canEdit).toBe(false);
    expect(page.gateway.urls.meraki).toContain(`/hotspot/meraki/${before.portal_key}`);
    for (const form of [gatewayForm({ gateway_secret: SECRET }), { intent: "regenerate-portal-key", confirmed: "yes" }]) {
      const refused = await callRoute(settings.action, viewer.id, path, params, form);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as Json).message).toBe(refusalMessage("edit_networks"));
    }
    expect(await storedVenue(venue.id)).toEqual(before);

    // Another organisation's network named under this organisation, and this one asked for by a stranger.
    const stranger = await makeOrg("Other Org");
    const foreign = await insertVenue(stranger.org.id);
    const foreignPath = `/${org.id}/venues/${foreign.id}/settings`;
    const foreignParams = { orgId: String(org.id), venueId: String(foreign.id) };
    for (const [userId, at, atParams] of [
      [owner.id, foreignPath, foreignParams],
      [stranger.owner.id, path, params],
    ] as const) {
      expect((await callRoute(settings.loader, userId, at, atParams)).status).toBe(404);
      expect((await callRoute(settings.action, userId, at, atParams, gatewayForm({ gateway_secret: SECRET }))).status).toBe(404);
      expect((await callRoute(settings.action, userId, at, atParams, gatewayForm({ session_minutes: "x" }))).status).toBe(404);
      expect((await callRoute(settings.action, userId, at, atParams, { intent: "regenerate-portal-key", confirmed: "yes" })).status).toBe(
        404,
      );
    }
    expect(await storedVenue(venue.id)).toEqual(before);
    expect((await storedVenue(foreign.id)).gateway_secret).toBeNull();
  });

  it("asks before making a new portal key, then changes it and says the old URLs stop working", async () => {
    const { owner, venue, path, params } = await setup();
    const before = await storedVenue(venue.id);
    const asked = await callRoute(settings.action, owner.id, path, params, { intent: "regenerate-portal-key" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({
      confirm: { message: regenerateQuestion("Garden City"), intent: "regenerate-portal-key", fields: {} },
    });
    expect(regenerateQuestion("Garden City")).toContain("stop working");
    expect((await storedVenue(venue.id)).portal_key).toBe(before.portal_key);

    const done = await callRoute(settings.action, owner.id, path, params, { intent: "regenerate-portal-key", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(await toastOf(done)).toEqual({
      type: "info",
      message: "New portal key made. The old gateway URLs no longer work: paste the new URL into each gateway of this network.",
    });
    const after = await storedVenue(venue.id);
    expect(after.portal_key).not.toBe(before.portal_key);
    expect(after.portal_key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const page: Json = await (await callRoute(settings.loader, owner.id, path, params)).json();
    expect(page.gateway.urls.meraki).toBe(`${new URL(getEnv().PUBLIC_URL).origin}/hotspot/meraki/${after.portal_key}`);
  });
});

type Route = { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: ActionFunctionArgs) => Promise<Response> };

interface CallOptions {
  method?: string;
  token?: string;
  org?: number;
  json?: unknown;
  form?: Record<string, string>;
}

/** A call of the gateway API route with a bearer token, as a script makes it. */
function callApi(route: Route, venueId: number | string, options: CallOptions = {}) {
  const method = options.method ?? "GET";
  const headers = new Headers();
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.org !== undefined) headers.set("X-Organization-Id", String(options.org));
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  } else if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  const request = new Request(new URL(`/account/api/v1/venues/${venueId}/gateway`, BASE), { method, headers, body });
  const args = { request, params: { id: String(venueId) }, context: {} };
  return run(() => (method === "GET" ? route.loader(args) : route.action(args)));
}

describe("guest portal settings API", () => {
  it("reads the settings with view_networks: URLs of every make and whether each secret is set, never a secret", async () => {
    const { org, owner, venue, path, params } = await setup();
    await callRoute(settings.action, owner.id, path, params, gatewayForm(FULL));
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    const res = await callApi(gatewayApi, venue.id, { token: await issueToken(user.id, "api"), org: org.id });
    expect(res.status).toBe(200);
    const text = await res.text();
    const { data } = JSON.parse(text) as Json;
    const stored = await storedVenue(venue.id);
    const origin = new URL(getEnv().PUBLIC_URL).origin;
    expect(data.gateway).toMatchObject({
      portal_key: stored.portal_key,
      urls: Object.fromEntries(MAKES.map((m) => [m, `${origin}/hotspot/${m}/${stored.portal_key}`])),
      gateway_secret_set: true,
      opennds_faskey_set: true,
      unifi_password_set: true,
      unifi_url: FULL.unifi_url,
      session_minutes: 90,
      guest_signup: false,
    });
    for (const secret of [SECRET, FASKEY, PASSWORD, stored.gateway_secret!, stored.unifi_password!]) expect(text).not.toContain(secret);
  });

  it("updates only the fields sent (JSON or form data) with the form's rules, answering 422 per field", async () => {
    const { org, owner, venue } = await setup();
    const token = await issueToken(owner.id, "api");
    const put = await callApi(gatewayApi, venue.id, {
      token,
      org: org.id,
      method: "PUT",
      json: { gateway_secret: SECRET, session_minutes: 30, guest_signup: false },
    });
    expect(put.status).toBe(200);
    const body: Json = await put.json();
    expect(body.data.message).toBe("Guest portal settings updated.");
    expect(body.data.gateway).toMatchObject({
      gateway_secret_set: true,
      session_minutes: 30,
      guest_signup: false,
      opennds_faskey_set: false,
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    const first = await storedVenue(venue.id);
    expect(decryptSecret(first.gateway_secret!)).toBe(SECRET);
    expect(first.gateway_secret_hash).toBe(hashToken(SECRET));

    // Form data; the fields left out keep their values, the secret included.
    const form = await callApi(gatewayApi, venue.id, {
      token,
      org: org.id,
      method: "PUT",
      form: { opennds_faskey: FASKEY, terms_url: "https://example.com/terms" },
    });
    expect(form.status).toBe(200);
    const second = await storedVenue(venue.id);
    expect(second).toMatchObject({ gateway_secret: first.gateway_secret, terms_url: "https://example.com/terms" });
    expect(Number(second.session_minutes)).toBe(30);
    expect(decryptSecret(second.opennds_faskey!)).toBe(FASKEY);

    // An empty string clears a plain field and keeps a secret; a clear flag removes a secret.
    await callApi(gatewayApi, venue.id, {
      token,
      org: org.id,
      method: "PUT",
      json: { terms_url: "", gateway_secret: "", clear_opennds_faskey: true },
    });
    expect(await storedVenue(venue.id)).toMatchObject({ terms_url: null, gateway_secret: first.gateway_secret, opennds_faskey: null });

    const invalid = await callApi(gatewayApi, venue.id, {
      token,
      org: org.id,
      method: "PUT",
      json: {
        gateway_secret: "too-short",
        session_minutes: 0,
        unifi_url: "javascript:alert(1)",
        guest_signup: "maybe",
        privacy_url: { nested: true },
      },
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: {
        gateway_secret: [MSG.secretLength],
        session_minutes: [MSG.sessionInvalid],
        unifi_url: [VENUE_MESSAGES.urlInvalid],
        guest_signup: [MSG.guestSignupInvalid],
        privacy_url: ["This field must be text, a number or true/false."],
      },
    });
    const incomplete = await callApi(gatewayApi, venue.id, {
      token,
      org: org.id,
      method: "PUT",
      json: { unifi_url: "https://unifi.example.com" },
    });
    expect(await incomplete.json()).toEqual({
      errors: { unifi_username: [MSG.unifiUsernameMissing], unifi_password: [MSG.unifiPasswordMissing] },
    });
    const other = await insertVenue(org.id);
    const taken = await callApi(gatewayApi, other.id, { token, org: org.id, method: "PUT", json: { gateway_secret: SECRET } });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toEqual({ errors: { gateway_secret: [MSG.secretTaken] } });
    expect((await storedVenue(venue.id)).gateway_secret).toBe(first.gateway_secret);
  });

  it("refuses a change without edit_networks (403) and answers 404 for another organisation's, an unknown or a malformed network", async () => {
    const { org, owner, venue } = await setup();
    const before = await storedVenue(venue.id);
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    const refused = await callApi(gatewayApi, venue.id, {
      token: await issueToken(user.id, "api"),
      org: org.id,
      method: "PUT",
      json: { gateway_secret: SECRET },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { message: refusalMessage("edit_networks") } });
    expect((await callApi(gatewayApi, venue.id, { org: org.id })).status).toBe(401);

    const stranger = await makeOrg("Other Org");
    const foreign = await insertVenue(stranger.org.id);
    const ownerToken = await issueToken(owner.id, "api");
    for (const id of [foreign.id, 987654, "abc"]) {
      const read = await callApi(gatewayApi, id, { token: ownerToken, org: org.id });
      expect(read.status).toBe(404);
      expect(await read.json()).toEqual({ error: { message: "Network not found." } });
      expect(
        (await callApi(gatewayApi, id, { token: ownerToken, org: org.id, method: "PUT", json: { gateway_secret: SECRET } })).status,
      ).toBe(404);
    }
    // Naming the other organisation, which this user is no member of, is a 404 too.
    expect((await callApi(gatewayApi, foreign.id, { token: ownerToken, org: stranger.org.id })).status).toBe(404);
    expect(await storedVenue(venue.id)).toEqual(before);
    expect((await storedVenue(foreign.id)).gateway_secret).toBeNull();
  });
});

describe("over HTTP (the built server)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBuiltServer();
  });
  afterAll(() => server?.close());

  const merakiQuery = new URLSearchParams({
    base_grant_url: "https://n1.network-auth.com/splash/grant",
    user_continue_url: "https://example.com/",
    node_mac: "aa:bb:cc:00:11:22",
    client_mac: "11:22:33:44:55:66",
    client_ip: "10.0.0.5",
    node_id: "1",
    gateway_id: "1",
  });

  /** The URL of a make as an operator (or an external check) reads it from the settings page. */
  async function pageUrl(cookie: string, path: string, make: string): Promise<string> {
    const html = await (await fetch(`${server.origin}${path}`, { headers: { Cookie: cookie } })).text();
    const match = new RegExp(`<code[^>]*data-gateway-url="${make}"[^>]*>([^<]+)</code>`).exec(html);
    expect(match, `no data-gateway-url="${make}" on the page`).not.toBeNull();
    return match![1]!;
  }

  /** A gateway's redirect to that URL, sent to the test server (the URL's origin is PUBLIC_URL). */
  function enter(url: string) {
    return fetch(`${server.origin}${new URL(url).pathname}?${merakiQuery}`, { redirect: "manual" });
  }

  it("shows the full Meraki URL on the settings page; after a new portal key the old one answers 404 and the new one lets guests in", async () => {
    const { owner, venue, path, params } = await setup();
    const cookie = await sessionCookie(owner.id);
    const oldUrl = await pageUrl(cookie, path, "meraki");
    const { portal_key: oldKey } = await storedVenue(venue.id);
    expect(oldUrl).toBe(`${new URL(getEnv().PUBLIC_URL).origin}/hotspot/meraki/${oldKey}`);
    const before = await enter(oldUrl);
    expect(before.status).toBe(302);
    expect(before.headers.get("Location")).toMatch(/^\/connect\?token=/);

    expect((await callRoute(settings.action, owner.id, path, params, { intent: "regenerate-portal-key", confirmed: "yes" })).status).toBe(
      302,
    );
    const gone = await enter(oldUrl);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("not set up in Mlango");
    const newUrl = await pageUrl(cookie, path, "meraki");
    expect(newUrl).not.toBe(oldUrl);
    expect((await enter(newUrl)).status).toBe(302);
  });

  it("answers GET /account/api/v1/venues/{id}/gateway from the gateway route, not the network's", async () => {
    const { org, owner, venue } = await setup();
    const res = await fetch(`${server.origin}/account/api/v1/venues/${venue.id}/gateway?organization_id=${org.id}`, {
      headers: { Authorization: `Bearer ${await issueToken(owner.id, "api")}` },
    });
    expect(res.status).toBe(200);
    const body: Json = await res.json();
    expect(Object.keys(body.data)).toEqual(["gateway"]);
    expect(body.data.gateway.urls.meraki).toContain(`/hotspot/meraki/${(await storedVenue(venue.id)).portal_key}`);
  });

  it("marks a connection through an access point the operator never added as unregistered", async () => {
    const { org, owner, venue } = await setup();
    await insertConnection(org.id, { venueId: venue.id }, { access_point_mac: "de:ad:be:ef:00:01", access_point_id: null });
    const html = await (
      await fetch(`${server.origin}/${org.id}/connections`, { headers: { Cookie: await sessionCookie(owner.id) } })
    ).text();
    expect(html).toMatch(/de:ad:be:ef:00:01<\/span>(<!-- -->)? <span[^>]*>unregistered<\/span>/);
  });
});
