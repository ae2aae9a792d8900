import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as apiLogin from "~/routes/account+/api.v1.auth.login";
import * as login from "~/routes/_auth+/login";
import * as forgot from "~/routes/_auth+/password.forgot";
import { userForToken } from "~/services/guard.server";
import { LIMITS, clientAddress, limitLogin, pruneRateLimits, tooManyAttemptsMessage } from "~/services/rate-limit.server";
import { sessionStorage } from "~/services/session.server";
import { makeRequest, makeUser, run } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";

const TOO_MANY = /^Too many attempts\. Please try again in \d+ minutes?\.$/;

function postLogin(form: Record<string, string>, address: string) {
  return run(async () => login.action({ request: makeRequest("/login", { form }), params: {}, context: { clientAddress: address } }));
}

function postForgot(login_id: string, address: string) {
  return run(async () =>
    forgot.action({ request: makeRequest("/password/forgot", { form: { login_id } }), params: {}, context: { clientAddress: address } }),
  );
}

async function formError(res: Response): Promise<string | undefined> {
  const body = (await res.json()) as { error?: Record<string, string[]> };
  return body.error?.[""]?.[0];
}

describe("login rate limit", () => {
  it("refuses the 11th attempt for one login id within the window, even with the right password", async () => {
    const user = await makeUser({ email: "target@example.com", phone_number: "0700111222", password: "right-pass" });
    for (let i = 0; i < LIMITS.loginPerId.max; i++) {
      // Any notation of the same account counts against one counter.
      const login_id = ["target@example.com", "TARGET@example.com"][i % 2];
      expect((await postLogin({ login_id, password: `wrong-${i}` }, "203.0.113.1")).status).toBe(401);
    }
    const res = await postLogin({ login_id: "target@example.com", password: "right-pass" }, "203.0.113.1");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await formError(res)).toMatch(TOO_MANY);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await db.selectFrom("api_tokens").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    // Another address does not help the attacker: the counter is per login id.
    expect((await postLogin({ login_id: "target@example.com", password: "right-pass" }, "203.0.113.99")).status).toBe(429);
  });

  it("leaves a different login id from another address unaffected", async () => {
    await makeUser({ email: "target@example.com" });
    await makeUser({ email: "bystander@example.com", password: "right-pass" });
    for (let i = 0; i <= LIMITS.loginPerId.max; i++) await postLogin({ login_id: "target@example.com", password: "x" }, "203.0.113.1");
    const res = await postLogin({ login_id: "bystander@example.com", password: "right-pass" }, "203.0.113.2");
    expect(res.status).toBe(302);
    const token = (await sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0])).get("token");
    expect(await userForToken(token!, "web")).not.toBeNull();
  });

  it("limits one address across many login ids", async () => {
    await makeUser({ email: "someone@example.com", password: "right-pass" });
    for (let i = 0; i < LIMITS.loginPerAddress.max; i++) expect(await limitLogin(`guess-${i}@example.com`, "203.0.113.5")).toBeNull();
    const res = await postLogin({ login_id: "someone@example.com", password: "right-pass" }, "203.0.113.5");
    expect(res.status).toBe(429);
    expect(await formError(res)).toMatch(TOO_MANY);
    expect((await postLogin({ login_id: "someone@example.com", password: "right-pass" }, "203.0.113.6")).status).toBe(302);
  });

  it("counts phone notations of one number together", async () => {
    for (let i = 0; i < LIMITS.loginPerId.max; i++) {
      expect(await limitLogin(["0799000111", "+254799000111", "254 799 000 111"][i % 3], `198.51.100.${i}`)).toBeNull();
    }
    expect(await limitLogin("0799 000 111", "198.51.100.200")).not.toBeNull();
  });

  it("counts concurrent attempts exactly (one atomic statement per hit)", async () => {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => limitLogin("burst@example.com", `198.51.100.${100 + i}`)));
    expect(results.filter((r) => r === null)).toHaveLength(LIMITS.loginPerId.max);
  });

  it("starts afresh when the window is over", async () => {
    const start = Date.now();
    for (let i = 0; i <= LIMITS.loginPerId.max; i++) await limitLogin("window@example.com", "198.51.100.1", start);
    const limited = await limitLogin("window@example.com", "198.51.100.1", start + 60_000);
    expect(limited?.retryAfterMs).toBe(LIMITS.loginPerId.windowMs - 60_000);
    expect(limited?.message).toBe("Too many attempts. Please try again in 14 minutes.");
    expect(await limitLogin("window@example.com", "198.51.100.1", start + LIMITS.loginPerId.windowMs)).toBeNull();
  });

  it("forgets the login id's failures after a successful sign-in", async () => {
    await makeUser({ email: "forgetful@example.com", password: "right-pass" });
    for (let i = 0; i < LIMITS.loginPerId.max - 1; i++)
      await postLogin({ login_id: "forgetful@example.com", password: "x" }, "198.51.100.3");
    expect((await postLogin({ login_id: "forgetful@example.com", password: "right-pass" }, "198.51.100.3")).status).toBe(302);
    expect((await postLogin({ login_id: "forgetful@example.com", password: "x" }, "198.51.100.3")).status).toBe(401);
  });

  it("applies to the API login too", async () => {
    for (let i = 0; i < LIMITS.loginPerId.max; i++) await limitLogin("api-target@example.com", "198.51.100.9");
    const res = await run(async () =>
      apiLogin.action({
        request: new Request("http://localhost/account/api/v1/auth/login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ login_id: "api-target@example.com", password: "whatever" }),
        }),
        params: {},
        context: { clientAddress: "198.51.100.10" },
      }),
    );
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(TOO_MANY);
  });
});

describe("forgot-password rate limit", () => {
  it("refuses the 6th request for one login id within the hour and sends no mail for it", async () => {
    const email = `limited-${randomUUID()}@example.com`;
    await makeUser({ email });
    for (let i = 0; i < LIMITS.forgotPerId.max; i++) expect((await postForgot(email, "203.0.113.7")).status).toBe(302);
    const res = await postForgot(email, "203.0.113.8");
    expect(res.status).toBe(429);
    expect(await formError(res)).toMatch(TOO_MANY);
    expect(await mailsTo(email)).toHaveLength(LIMITS.forgotPerId.max);
  });

  it("limits one address across many login ids", async () => {
    for (let i = 0; i < LIMITS.forgotPerAddress.max; i++) {
      expect((await postForgot(`nobody-${i}-${randomUUID()}@example.com`, "203.0.113.9")).status).toBe(302);
    }
    expect((await postForgot(`nobody-${randomUUID()}@example.com`, "203.0.113.9")).status).toBe(429);
  });
});

describe("rate limit bookkeeping", () => {
  it("deletes counters whose window is over, keeps live ones", async () => {
    const now = Date.now();
    await limitLogin("old@example.com", "198.51.100.20", now - 2 * 60 * 60_000);
    await limitLogin("fresh@example.com", "198.51.100.21", now);
    await pruneRateLimits(now);
    const rows = await db.selectFrom("rate_limits").select(["key", "window_started_at"]).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => Number(r.window_started_at) === now)).toBe(true);
  });

  it("keeps no email address in the table", async () => {
    await limitLogin("private@example.com", "198.51.100.22");
    const keys = (await db.selectFrom("rate_limits").select("key").execute()).map((r) => r.key);
    expect(keys.some((k) => k.includes("private"))).toBe(false);
  });

  it("reads the client address from the server only: a forged X-Forwarded-For changes nothing", () => {
    const request = makeRequest("/login", { headers: { "X-Forwarded-For": "203.0.113.50" } });
    expect(clientAddress(request, { clientAddress: "10.1.2.3" })).toBe("10.1.2.3");
    expect(clientAddress(request, {})).toBe("unknown");
  });

  it("words the wait in whole minutes", () => {
    expect(tooManyAttemptsMessage(1)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(tooManyAttemptsMessage(15 * 60_000)).toBe("Too many attempts. Please try again in 15 minutes.");
  });
});
