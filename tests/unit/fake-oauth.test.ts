import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOAuth, type FakeOAuth } from "../../scripts/fakes/oauth-provider";

const CLIENT = { clientId: "mlango-test", clientSecret: "mlango-test-secret" };
const REDIRECT = "http://localhost/guest/oauth/callback";

describe("fake OAuth provider", () => {
  let oauth: FakeOAuth;
  beforeAll(async () => {
    oauth = await startFakeOAuth({ clients: { google: CLIENT, twitter: CLIENT, fb: CLIENT } });
  });
  afterAll(() => oauth.close());

  function authorizeQuery(verifier: string | null, clientId = CLIENT.clientId): URLSearchParams {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: "st-42",
      scope: "openid email profile",
    });
    if (verifier !== null) {
      query.set("code_challenge", createHash("sha256").update(verifier).digest("base64url"));
      query.set("code_challenge_method", "S256");
    }
    return query;
  }

  /** Walks the consent page and returns where the provider redirects the browser. */
  async function consent(provider: string, query: URLSearchParams, decision: "allow" | "deny"): Promise<URL> {
    const page = await fetch(`${oauth.url}/${provider}/authorize?${query}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<form method="post" action="/${provider}/authorize">`);
    const form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) {
      form.set(name, value);
    }
    form.set("decision", decision);
    const res = await fetch(`${oauth.url}/${provider}/authorize`, { method: "POST", body: form, redirect: "manual" });
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location") ?? "");
  }

  const exchange = (provider: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${oauth.url}/${provider}/token`, {
      method: "POST",
      headers,
      body: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: REDIRECT, ...fields }),
    });
  const basic = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64")}`;

  it("shows a consent page with the identity", async () => {
    const res = await fetch(`${oauth.url}/google/authorize?${authorizeQuery("v")}`);
    const html = await res.text();
    expect(html).toContain("<title>Sign in with Google</title>");
    expect(html).toContain("Amina Otieno");
    expect(html).toContain("amina.otieno@example.com");
    expect(html).toContain('<button name="decision" value="allow">Allow</button>');
    expect(html).toContain('<button name="decision" value="deny">Cancel</button>');
    expect(html).not.toContain("<script");
  });

  it("runs the code flow with PKCE and refuses a wrong verifier and a reused code", async () => {
    const verifier = randomBytes(32).toString("base64url");

    const first = await consent("google", authorizeQuery(verifier), "allow");
    expect(first.origin + first.pathname).toBe(REDIRECT);
    expect(first.searchParams.get("state")).toBe("st-42");
    const wrong = await exchange(
      "google",
      { code: first.searchParams.get("code") ?? "", code_verifier: "wrong" },
      { Authorization: basic },
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "invalid_grant" });

    const code = (await consent("google", authorizeQuery(verifier), "allow")).searchParams.get("code") ?? "";
    const badSecret = await exchange("google", { code, code_verifier: verifier, client_id: CLIENT.clientId, client_secret: "nope" });
    expect(badSecret.status).toBe(401);
    expect(await badSecret.json()).toEqual({ error: "invalid_client" });

    const code2 = (await consent("google", authorizeQuery(verifier), "allow")).searchParams.get("code") ?? "";
    const ok = await exchange("google", { code: code2, code_verifier: verifier }, { Authorization: basic });
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid email profile" });

    const reused = await exchange("google", { code: code2, code_verifier: verifier }, { Authorization: basic });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ error: "invalid_grant" });

    const info = await fetch(`${oauth.url}/google/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toEqual({
      sub: "fake-1001",
      email: "amina.otieno@example.com",
      email_verified: true,
      given_name: "Amina",
      family_name: "Otieno",
      name: "Amina Otieno",
    });
    expect((await fetch(`${oauth.url}/google/userinfo`)).status).toBe(401);
    const otherProvider = await fetch(`${oauth.url}/twitter/users/me`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(otherProvider.status).toBe(401);
  });

  it("supports providers without PKCE and credentials in the body (fb)", async () => {
    const code = (await consent("fb", authorizeQuery(null), "allow")).searchParams.get("code") ?? "";
    const res = await exchange("fb", { code, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const me = await fetch(`${oauth.url}/fb/me`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(await me.json()).toEqual({
      id: "fake-1001",
      name: "Amina Otieno",
      email: "amina.otieno@example.com",
      first_name: "Amina",
      last_name: "Otieno",
    });
  });

  it("answers twitter's shape without an e-mail", async () => {
    const verifier = "twitter-verifier-0123456789-0123456789-0123";
    const code = (await consent("twitter", authorizeQuery(verifier), "allow")).searchParams.get("code") ?? "";
    const res = await exchange("twitter", { code, code_verifier: verifier }, { Authorization: basic });
    const { access_token } = (await res.json()) as { access_token: string };
    const me = await fetch(`${oauth.url}/twitter/users/me`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(await me.json()).toEqual({ data: { id: "fake-1001", name: "Amina Otieno", username: "amina_otieno" } });
  });

  it("redirects with access_denied on cancel", async () => {
    const target = await consent("google", authorizeQuery("v"), "deny");
    expect(target.searchParams.get("error")).toBe("access_denied");
    expect(target.searchParams.get("state")).toBe("st-42");
    expect(target.searchParams.has("code")).toBe(false);
  });

  it("refuses bad authorization requests, unknown paths, large bodies and fails on demand", async () => {
    expect((await fetch(`${oauth.url}/google/authorize?${authorizeQuery("v", "someone-else")}`)).status).toBe(400);
    expect((await fetch(`${oauth.url}/linkedin/authorize?${authorizeQuery("v")}`)).status).toBe(400); // not registered
    const badRedirect = authorizeQuery("v");
    badRedirect.set("redirect_uri", "javascript:alert(1)");
    expect((await fetch(`${oauth.url}/google/authorize?${badRedirect}`)).status).toBe(400);
    expect((await fetch(`${oauth.url}/github/authorize?${authorizeQuery("v")}`)).status).toBe(404);
    expect((await fetch(`${oauth.url}/google/me`)).status).toBe(404);
    expect((await exchange("google", { code: "x".repeat(70_000) }, { Authorization: basic })).status).toBe(413);

    oauth.failing = true;
    try {
      expect((await exchange("google", { code: "whatever" }, { Authorization: basic })).status).toBe(500);
    } finally {
      oauth.failing = false;
    }
  });
});
