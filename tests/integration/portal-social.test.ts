// Guests' social sign-in, over real HTTP against the built server with every
// provider played by the fake OAuth provider (OAUTH_PROVIDER_URL), on SQLite and PostgreSQL: a
// guest arrives through the Meraki entry, signs in at the provider and is let through; failures
// and forged states get readable pages; the console page keeps client secrets write-only.
import dns from "node:dns";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import type { OAuthProviderName } from "~/db/schema";
import { hashToken } from "~/services/crypto.server";
import { SOCIAL_LOGIN_MESSAGES } from "~/lib/schemas/social-login";
import { OUTBOUND_MESSAGES } from "~/services/outbound.server";
import { sealState, saveSocialProvider } from "~/services/portal/social.server";
import { decryptSecret } from "~/services/secrets.server";
import { startFakeOAuth, type FakeOAuth, type FakeIdentity } from "../../scripts/fakes/oauth-provider";
import { makeMember, makeOrg, sessionCookie } from "../fixtures";
import { withEnv } from "../fixtures/env";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { contextOf, insertVenue } from "../fixtures/records";

const PROVIDERS: OAuthProviderName[] = ["fb", "google", "twitter", "linkedin", "ajira"];
const client = (p: OAuthProviderName) => ({ clientId: `mlango-${p}`, clientSecret: `secret-${p}-9f3c1e7a` });
const AJIRA_URLS = {
  authorize_url: "https://id.ajiradigital.go.ke/authorize",
  token_url: "https://id.ajiradigital.go.ke/token",
  userinfo_url: "https://id.ajiradigital.go.ke/userinfo",
};
const NO_URLS = { authorize_url: null, token_url: null, userinfo_url: null };
const GRANT_URL = "https://n143.network-auth.com/splash/abc/grant";
// PUBLIC_URL of the tests (vitest.config.ts): redirect URIs and the same-origin check use it.
const PUBLIC = "http://localhost";

let fake: FakeOAuth;
let server: TestServer;
let defaultIdentity: FakeIdentity;

beforeAll(async () => {
  fake = await startFakeOAuth({ clients: Object.fromEntries(PROVIDERS.map((p) => [p, client(p)])) });
  defaultIdentity = { ...fake.identity };
  server = await startBuiltServer({ OAUTH_PROVIDER_URL: fake.url });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failing = false;
  fake.identity = { ...defaultIdentity };
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${path}`, { redirect: "manual", headers });

/** An organisation with a network and these providers configured through the service. */
async function guestWorld(providers: OAuthProviderName[]) {
  const { org, owner } = await makeOrg(`Social ${Math.random()}`);
  const venue = await insertVenue(org.id);
  const { portal_key } = await db.selectFrom("venues").select("portal_key").where("id", "=", venue.id).executeTakeFirstOrThrow();
  const ctx = await contextOf(owner.id, org.id);
  for (const p of providers) {
    const urls = p === "ajira" ? AJIRA_URLS : NO_URLS;
    await saveSocialProvider(ctx, { provider: p, client_id: client(p).clientId, client_secret: client(p).clientSecret, ...urls });
  }
  return { org, owner, portalKey: portal_key };
}

let macCounter = 0;
/** A new device arrives through the Meraki entry; returns its connect token. */
async function enter(portalKey: string): Promise<string> {
  const mac = `02:5a:00:00:00:${(++macCounter).toString(16).padStart(2, "0")}`;
  const query = new URLSearchParams({ base_grant_url: GRANT_URL, client_mac: mac, user_continue_url: "https://example.com/welcome" });
  const res = await get(`/hotspot/meraki/${portalKey}?${query}`);
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!, server.origin).searchParams.get("token")!;
}

/** /splash/{provider}/login: where it sends the guest (the fake's consent page). */
async function login(provider: string, token: string): Promise<URL> {
  const res = await get(`/splash/${provider}/login?token=${token}`);
  expect(res.status).toBe(302);
  expect(res.headers.get("set-cookie")).toBeNull();
  return new URL(res.headers.get("location")!);
}

/** The guest answers the fake's consent page; returns the callback URL the provider sends them to. */
async function consent(authorize: URL, decision: "allow" | "deny"): Promise<URL> {
  const html = await (await fetch(authorize)).text();
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g))
    form.set(name!, value!.replaceAll("&amp;", "&"));
  form.set("decision", decision);
  const res = await fetch(new URL(authorize.pathname, authorize.origin), { method: "POST", body: form, redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

/** The whole sign-in: login, consent, and the callback's answer. */
async function signIn(provider: OAuthProviderName, token: string, decision: "allow" | "deny" = "allow"): Promise<Response> {
  const callback = await consent(await login(provider, token), decision);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${PUBLIC}/splash/${provider}/callback`);
  return get(`${callback.pathname}${callback.search}`);
}

async function connectionOf(token: string) {
  return db
    .selectFrom("connections")
    .innerJoin("customers", "customers.id", "connections.customer_id")
    .select([
      "connections.authorized_at",
      "connections.authorization_mode",
      "customers.first_name",
      "customers.last_name",
      "customers.email_address",
      "customers.facebook",
      "customers.twitter",
    ])
    .where("connections.token", "=", hashToken(token))
    .executeTakeFirstOrThrow();
}

describe("the connect page's social buttons", () => {
  it("shows only the providers the guest's organisation configured", async () => {
    const { portalKey } = await guestWorld(["google", "twitter"]);
    await guestWorld(["fb", "linkedin"]);
    const token = await enter(portalKey);
    const html = await (await get(`/connect?token=${token}`)).text();
    expect(html).toContain(`href="/splash/google/login?token=${token}"`);
    expect(html).toContain("Continue with Google");
    expect(html).toContain(`href="/splash/twitter/login?token=${token}"`);
    for (const p of ["fb", "linkedin", "ajira"]) expect(html).not.toContain(`/splash/${p}/login`);
  });
});

describe("signing in with a provider", () => {
  it("signs a guest in with Google: state and PKCE, then a 303 to the Meraki grant URL, with the name and e-mail kept", async () => {
    const { portalKey } = await guestWorld(["google"]);
    const token = await enter(portalKey);
    const authorize = await login("google", token);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fake.url}/google/authorize`);
    expect(authorize.searchParams.get("client_id")).toBe("mlango-google");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${PUBLIC}/splash/google/callback`);
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const state = authorize.searchParams.get("state")!;
    expect(state).not.toContain(token); // the token and the verifier travel encrypted

    const callback = await consent(authorize, "allow");
    const res = await get(`${callback.pathname}${callback.search}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const grant = new URL(res.headers.get("location")!);
    expect(`${grant.origin}${grant.pathname}`).toBe(GRANT_URL);
    expect(grant.searchParams.get("continue_url")).toBe("https://example.com/welcome");
    expect(Number(grant.searchParams.get("duration"))).toBeGreaterThan(0);

    const row = await connectionOf(token);
    expect(row.authorized_at).not.toBeNull();
    expect(row).toMatchObject({
      authorization_mode: "google",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina.otieno@example.com",
    });

    // The code and state are spent: the same callback again is the already-authorized page.
    const again = await get(`${callback.pathname}${callback.search}`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Connection has already been authorized");
  });

  it("signs a guest in with X (Twitter), which gives no e-mail, keeping the @username", async () => {
    const { portalKey } = await guestWorld(["twitter"]);
    const token = await enter(portalKey);
    const authorize = await login("twitter", token);
    expect(authorize.searchParams.get("scope")).toBe("users.read tweet.read");
    const callback = await consent(authorize, "allow");
    const res = await get(`${callback.pathname}${callback.search}`);
    expect(res.status).toBe(303);
    const row = await connectionOf(token);
    expect(row).toMatchObject({
      authorization_mode: "twitter",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: null,
      twitter: "@amina_otieno",
    });
  });

  it("signs guests in with Facebook (the id kept), LinkedIn and Ajira Digital", async () => {
    const { portalKey } = await guestWorld(["fb", "linkedin", "ajira"]);
    for (const provider of ["fb", "linkedin", "ajira"] as const) {
      const token = await enter(portalKey);
      const res = await signIn(provider, token);
      expect(res.status).toBe(303);
      expect(new URL(res.headers.get("location")!).origin).toBe(new URL(GRANT_URL).origin);
      const row = await connectionOf(token);
      expect(row).toMatchObject({
        authorization_mode: provider,
        first_name: "Amina",
        last_name: "Otieno",
        email_address: "amina.otieno@example.com",
      });
      if (provider === "fb") expect(row.facebook).toBe("fake-1001");
    }
  });

  it("takes the spec's /splash/facebook/login for Facebook", async () => {
    const { portalKey } = await guestWorld(["fb"]);
    const token = await enter(portalKey);
    const authorize = await login("facebook", token);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fake.url}/fb/authorize`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${PUBLIC}/splash/fb/callback`);
  });
});

describe("when sign-in does not work", () => {
  it("says so plainly when the provider fails, leaves the connection unauthorized, and lets the guest try again", async () => {
    const { portalKey } = await guestWorld(["google", "twitter"]);
    const token = await enter(portalKey);
    fake.failing = true;
    const res = await signIn("google", token);
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(html).toContain("Sign-in with Google did not work. Try again or use another way to connect.");
    expect(html).toContain(`href="/splash/google/login?token=${token}"`);
    expect(html).toContain(`href="/splash/twitter/login?token=${token}"`);
    expect((await connectionOf(token)).authorized_at).toBeNull();

    fake.failing = false;
    expect((await signIn("google", token)).status).toBe(303);
  });

  it("calls no provider at an address the deployment does not allow (the stand-in on 127.0.0.1 without OUTBOUND_ALLOW)", async () => {
    const { portalKey } = await guestWorld(["google"]);
    const token = await enter(portalKey);
    const callback = await consent(await login("google", token), "allow");
    const res = await withEnv({ OUTBOUND_ALLOW: undefined }, () => get(`${callback.pathname}${callback.search}`));
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Sign-in with Google did not work.");
    expect((await connectionOf(token)).authorized_at).toBeNull();
  });

  it("shows the connect page again when the guest cancels at the provider (access_denied)", async () => {
    const { portalKey } = await guestWorld(["linkedin"]);
    const token = await enter(portalKey);
    const res = await signIn("linkedin", token, "deny");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Sign-in with LinkedIn was cancelled. Try again or use another way to connect.");
    expect(html).toContain("Get connected to WiFi");
    const row = await connectionOf(token);
    expect(row.authorized_at).toBeNull();
    expect(row.first_name).toBeNull();
  });

  it("keeps the language the guest chose through the provider and back (sealed in the state)", async () => {
    const { portalKey } = await guestWorld(["linkedin"]);
    const token = await enter(portalKey);
    const res = await get(`/splash/linkedin/login?token=${token}&lang=sw`);
    const callback = await consent(new URL(res.headers.get("location")!), "deny");
    // The provider's browser sends English; the guest chose Kiswahili on the page.
    const back = await get(`${callback.pathname}${callback.search}`, { "Accept-Language": "en" });
    const html = await back.text();
    expect(html).toContain('<html lang="sw"');
    expect(html).not.toContain("was cancelled");
  });

  it("refuses a forged, tampered, expired or other provider's state with a 400 page, authorizing nothing", async () => {
    const { portalKey } = await guestWorld(["google", "twitter"]);
    const token = await enter(portalKey);
    const state = (await login("google", token)).searchParams.get("state")!;
    const at = state.length - 5; // inside the ciphertext (the last character may only carry padding bits)
    const tampered = `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`;
    const expired = sealState({ token, provider: "google", verifier: "v".repeat(43) }, Date.now() - 11 * 60_000);
    const cases = [
      `/splash/google/callback?code=x&state=forged`,
      `/splash/google/callback?code=x&state=${encodeURIComponent(tampered)}`,
      `/splash/google/callback?code=x&state=${encodeURIComponent(expired)}`,
      `/splash/twitter/callback?code=x&state=${encodeURIComponent(state)}`,
      `/splash/google/callback?code=x`,
      `/splash/github/callback?code=x&state=${encodeURIComponent(state)}`,
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(await res.text()).toContain("This sign-in link is not valid or has expired.");
    }
    expect((await connectionOf(token)).authorized_at).toBeNull();
  });

  it("answers a provider the organisation has not configured with a 404 page", async () => {
    const { portalKey } = await guestWorld(["google"]);
    await guestWorld(["linkedin"]);
    const token = await enter(portalKey);
    for (const provider of ["linkedin", "github"]) {
      const res = await get(`/splash/${provider}/login?token=${token}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("This way of signing in is not available on this network.");
    }
    const state = sealState({ token, provider: "linkedin", verifier: "v".repeat(43) });
    expect((await get(`/splash/linkedin/callback?code=x&state=${encodeURIComponent(state)}`)).status).toBe(404);
    expect((await connectionOf(token)).authorized_at).toBeNull();
  });

  it("refuses unknown and used tokens at login with the connect page's refusals", async () => {
    const { portalKey } = await guestWorld(["google"]);
    const unknown = await get(`/splash/google/login?token=${"x".repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("This connection link is not valid.");
    const token = await enter(portalKey);
    expect((await signIn("google", token)).status).toBe(303);
    const used = await get(`/splash/google/login?token=${token}`);
    expect(used.status).toBe(409);
    expect(await used.text()).toContain("Connection has already been authorized");
  });

  it("sends the click method to the connect page", async () => {
    const res = await get(`/splash/click_through?token=abc_DEF-123456789012`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/connect?token=abc_DEF-123456789012");
  });
});

describe("the console's guest sign-in page", () => {
  const pagePath = (orgId: number) => `/${orgId}/organization/social-login`;
  const post = (orgId: number, cookie: string, fields: Record<string, string>) =>
    fetch(`${server.origin}${pagePath(orgId)}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: PUBLIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  const stored = (orgId: number, provider: OAuthProviderName) =>
    db
      .selectFrom("oauth_providers")
      .select(["client_id", "client_secret", "settings"])
      .where("organization_id", "=", orgId)
      .where("provider", "=", provider)
      .executeTakeFirst();

  it("stores the client secret encrypted, keeps it when the field is left empty and never shows it", async () => {
    const { org, owner } = await makeOrg(`Console ${Math.random()}`);
    const cookie = await sessionCookie(owner.id, org.id);
    const secret = "GOCSPX-very-secret-value-42";
    const saved = await post(org.id, cookie, {
      intent: "save",
      provider: "google",
      client_id: "1234.apps.googleusercontent.com",
      client_secret: secret,
    });
    expect(saved.status).toBe(302);
    const row = await stored(org.id, "google");
    expect(row!.client_secret).not.toContain(secret);
    expect(decryptSecret(row!.client_secret)).toBe(secret);

    const page = await get(pagePath(org.id), { Cookie: cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("1234.apps.googleusercontent.com");
    expect(html).toContain("Set. Leave empty to keep it");
    expect(html).toContain(`${PUBLIC}/splash/google/callback`);
    expect(html).not.toContain(secret);
    expect(html).not.toContain(row!.client_secret);

    expect(
      (await post(org.id, cookie, { intent: "save", provider: "google", client_id: "5678.apps.googleusercontent.com", client_secret: "" }))
        .status,
    ).toBe(302);
    const kept = await stored(org.id, "google");
    expect(kept!.client_id).toBe("5678.apps.googleusercontent.com");
    expect(decryptSecret(kept!.client_secret)).toBe(secret);

    // A refused form does not echo the typed secret either.
    const refused = await post(org.id, cookie, {
      intent: "save",
      provider: "google",
      client_id: "",
      client_secret: "typed-but-refused-secret",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Client ID field is required.");
    expect(refusedHtml).not.toContain("typed-but-refused-secret");
  });

  it("asks for a secret for a new provider and https addresses for Ajira Digital", async () => {
    const { org, owner } = await makeOrg(`Console ${Math.random()}`);
    const cookie = await sessionCookie(owner.id, org.id);
    const noSecret = await post(org.id, cookie, { intent: "save", provider: "linkedin", client_id: "li-client" });
    expect(noSecret.status).toBe(400);
    expect(await noSecret.text()).toContain("Client secret field is required.");
    const plainHttp = await post(org.id, cookie, {
      intent: "save",
      provider: "ajira",
      client_id: "aj",
      client_secret: "s",
      ...AJIRA_URLS,
      token_url: "http://id.ajiradigital.go.ke/token",
    });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.text()).toContain("Enter a full address starting with https://.");
    expect(await stored(org.id, "linkedin")).toBeUndefined();
    expect(await stored(org.id, "ajira")).toBeUndefined();
    expect(
      (await post(org.id, cookie, { intent: "save", provider: "ajira", client_id: "aj", client_secret: "s", ...AJIRA_URLS })).status,
    ).toBe(302);
    expect(JSON.parse((await stored(org.id, "ajira"))!.settings!)).toEqual(AJIRA_URLS);
  });

  it("keeps Ajira Digital's addresses on its domain, and refuses a name there that resolves inside the server's network", async () => {
    const { org, owner } = await makeOrg(`Console ${Math.random()}`);
    const cookie = await sessionCookie(owner.id, org.id);
    const save = (urls: Partial<typeof AJIRA_URLS>) =>
      post(org.id, cookie, { intent: "save", provider: "ajira", client_id: "aj", client_secret: "s", ...AJIRA_URLS, ...urls });
    const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;");
    for (const token_url of [
      "https://evil.example/token",
      "https://ajiradigital.go.ke.evil.example/token",
      "https://evilajiradigital.go.ke/token",
      "https://127.0.0.1/token",
      "https://[::1]/token",
      "https://user@id.ajiradigital.go.ke/token",
    ]) {
      const refused = await save({ token_url });
      expect(refused.status, token_url).toBe(400);
      expect(await refused.text(), token_url).toContain(html(SOCIAL_LOGIN_MESSAGES.ajiraHost));
    }
    // The programme's DNS (or an attacker who controls a name under it) can point a name at loopback.
    const lookup = vi.spyOn(dns.promises, "lookup").mockResolvedValue([{ address: "127.0.0.1", family: 4 }] as never);
    try {
      const refused = await withEnv({ OUTBOUND_ALLOW: undefined }, () => save({}));
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text).toContain(html(OUTBOUND_MESSAGES.internal("id.ajiradigital.go.ke")));
      expect(lookup).toHaveBeenCalledWith("id.ajiradigital.go.ke", expect.anything());
    } finally {
      lookup.mockRestore();
    }
    expect(await stored(org.id, "ajira")).toBeUndefined();
  });

  it("removes a provider only once confirmed", async () => {
    const { org, owner } = await makeOrg(`Console ${Math.random()}`);
    const cookie = await sessionCookie(owner.id, org.id);
    await post(org.id, cookie, { intent: "save", provider: "fb", client_id: "fb-app", client_secret: "fb-secret" });
    const asked = await post(org.id, cookie, { intent: "remove", provider: "fb" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Are you sure you want to remove Facebook sign-in?");
    expect(await stored(org.id, "fb")).toBeDefined();
    expect((await post(org.id, cookie, { intent: "remove", provider: "fb", confirmed: "yes" })).status).toBe(302);
    expect(await stored(org.id, "fb")).toBeUndefined();
  });

  it("needs view_settings to see the page and the owner to change it, and refuses another organisation's id", async () => {
    const { org } = await makeOrg(`Console ${Math.random()}`);
    const { org: other, owner: otherOwner } = await makeOrg(`Other ${Math.random()}`);
    const without = await makeMember(org.id, "custom", ["view_networks"]);
    const viewer = await makeMember(org.id, "r");
    const withoutCookie = await sessionCookie(without.user.id, org.id);
    const viewerCookie = await sessionCookie(viewer.user.id, org.id);

    expect((await get(pagePath(org.id), { Cookie: withoutCookie })).status).toBe(403);
    const viewerPage = await get(pagePath(org.id), { Cookie: viewerCookie });
    expect(viewerPage.status).toBe(200);
    expect(await viewerPage.text()).toContain("Only the organization&#x27;s administrator can change guest sign-in.");
    expect((await post(org.id, viewerCookie, { intent: "save", provider: "google", client_id: "x", client_secret: "y" })).status).toBe(403);
    expect(await stored(org.id, "google")).toBeUndefined();

    const otherCookie = await sessionCookie(otherOwner.id, other.id);
    expect((await get(pagePath(org.id), { Cookie: otherCookie })).status).toBe(404);
    expect((await post(org.id, otherCookie, { intent: "save", provider: "google", client_id: "x", client_secret: "y" })).status).toBe(404);
    expect(await stored(org.id, "google")).toBeUndefined();
  });
});
