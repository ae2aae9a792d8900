// Browser sessions and API tokens are separate, expire and can be revoked; passwords are hashed at
// OWASP's scrypt cost and older hashes are upgraded at sign-in.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as tokensPage from "~/routes/$orgId+/profile+/tokens";
import * as apiToken from "~/routes/account+/api.v1.auth.token";
import * as organizations from "~/routes/account+/api.v1.organizations";
import { issueToken, verifyLogin } from "~/services/auth.server";
import { hashToken } from "~/services/crypto.server";
import { commitSession, sessionStorage } from "~/services/session.server";
import { makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

const bearer = (token: string, method = "GET") =>
  new Request("http://localhost/account/api/v1/organizations", { method, headers: { Authorization: `Bearer ${token}` } });
const listOrganizations = (token: string) => run(() => organizations.loader({ request: bearer(token), params: {}, context: {} }));

async function cookieWith(token: string) {
  const session = await sessionStorage().getSession();
  session.set("token", token);
  return (await commitSession(session)).split(";")[0];
}

describe("API tokens and browser sessions", () => {
  it("refuses a browser session's token as a bearer token", async () => {
    const { owner } = await makeOrg();
    const cookie = await sessionCookie(owner.id);
    const webToken = (await sessionStorage().getSession(cookie)).get("token")!;
    expect((await listOrganizations(webToken)).status).toBe(401);
    expect((await listOrganizations(await issueToken(owner.id, "api"))).status).toBe(200);
  });

  it("does not sign in a browser whose cookie carries an API token", async () => {
    const { org, owner } = await makeOrg();
    const cookie = await cookieWith(await issueToken(owner.id, "api"));
    const res = await run(() =>
      tokensPage.loader({ request: makeRequest(`/${org.id}/profile/tokens`, { cookie }), params: { orgId: String(org.id) }, context: {} }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
  });

  it("refuses an expired token", async () => {
    const user = await makeUser();
    const token = await issueToken(user.id, "api");
    await db
      .updateTable("api_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("token_hash", "=", hashToken(token))
      .execute();
    expect((await listOrganizations(token)).status).toBe(401);
  });

  it("records when a token was last used, at most once every few minutes", async () => {
    const user = await makeUser();
    const token = await issueToken(user.id, "api");
    const lastUsed = async () =>
      (await db.selectFrom("api_tokens").select("last_used_at").where("token_hash", "=", hashToken(token)).executeTakeFirstOrThrow())
        .last_used_at;
    expect(await lastUsed()).toBeNull();
    await listOrganizations(token);
    const first = Number(await lastUsed());
    expect(first).toBeGreaterThan(Date.now() - 10_000);
    await listOrganizations(token);
    expect(Number(await lastUsed())).toBe(first);
  });

  it("revokes the bearer token of the request with DELETE auth/token", async () => {
    const user = await makeUser();
    const token = await issueToken(user.id, "api");
    const other = await issueToken(user.id, "api");
    const request = new Request("http://localhost/account/api/v1/auth/token", {
      method: "DELETE",
      headers: { Authorization: `Bearer ${token}` },
    });
    const res = await run(() => apiToken.action({ request, params: {}, context: {} }));
    expect(res.status).toBe(200);
    expect((await listOrganizations(token)).status).toBe(401);
    expect((await listOrganizations(other)).status).toBe(200);
  });

  it("lists only the user's own API tokens and revokes them; another user's token id is a 404", async () => {
    const { org, owner } = await makeOrg();
    const stranger = await makeUser();
    await issueToken(owner.id, "api");
    const theirs = await issueToken(stranger.id, "api");
    const cookie = await sessionCookie(owner.id);
    const params = { orgId: String(org.id) };
    const page = await (
      await run(() => tokensPage.loader({ request: makeRequest(`/${org.id}/profile/tokens`, { cookie }), params, context: {} }))
    ).json();
    expect(page.tokens).toHaveLength(1); // the browser session itself is not listed
    const strangerTokenId = (
      await db.selectFrom("api_tokens").select("id").where("token_hash", "=", hashToken(theirs)).executeTakeFirstOrThrow()
    ).id;
    const revoke = (id: number) =>
      run(() =>
        tokensPage.action({
          request: makeRequest(`/${org.id}/profile/tokens`, { cookie, form: { intent: "revoke", id: String(id) } }),
          params,
          context: {},
        }),
      );
    expect((await revoke(strangerTokenId)).status).toBe(404);
    expect((await listOrganizations(theirs)).status).toBe(200);
    expect((await revoke(page.tokens[0].id)).status).toBe(302);
    const after = await (
      await run(() => tokensPage.loader({ request: makeRequest(`/${org.id}/profile/tokens`, { cookie }), params, context: {} }))
    ).json();
    expect(after.tokens).toEqual([]);
  });
});

describe("password hashes", () => {
  it("upgrades a hash made at a lower cost to the current one at sign-in", async () => {
    const user = await makeUser({ email: `old-hash-${crypto.randomUUID()}@example.com` });
    const salt = crypto.randomBytes(16);
    // N=2^10: lower than the test runs' 2^12 (and than OWASP's 2^17 everywhere else).
    const oldHash = [
      "scrypt",
      1024,
      8,
      1,
      salt.toString("base64"),
      crypto.scryptSync("legacy-pass", salt, 64, { N: 1024, r: 8, p: 1 }).toString("base64"),
    ].join("$");
    await db.updateTable("users").set({ password_hash: oldHash }).where("id", "=", user.id).execute();
    expect(await verifyLogin(user.email, "legacy-pass")).toMatchObject({ id: user.id });
    const stored = (await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow()).password_hash;
    expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", "4096", "8", "1"]);
    expect(await verifyLogin(user.email, "legacy-pass")).toMatchObject({ id: user.id });
    expect(await verifyLogin(user.email, "wrong-pass")).toBeNull();
  });
});
