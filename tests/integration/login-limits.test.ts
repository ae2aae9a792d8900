// Sign-in limits count per account and per address: the e-mail and
// the phone number of one account share one counter, and successful sign-ins leave nothing behind.
import { describe, expect, it } from "vitest";
import * as apiLogin from "~/routes/account+/api.v1.auth.login";
import * as login from "~/routes/_auth+/login";
import { LIMITS } from "~/services/rate-limit.server";
import { makeRequest, makeUser, run } from "../fixtures";

function postLogin(form: Record<string, string>, address: string) {
  return run(async () => login.action({ request: makeRequest("/login", { form }), params: {}, context: { clientAddress: address } }));
}

function apiLoginAs(login_id: string, password: string, address: string) {
  const request = new Request("http://localhost/account/api/v1/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ login_id, password }),
  });
  return run(async () => apiLogin.action({ request, params: {}, context: { clientAddress: address } }));
}

describe("sign-in limits", () => {
  it("counts an account's e-mail and phone number against one limit", async () => {
    await makeUser({ email: "both@example.com", phone_number: "0700333444", password: "right-pass" });
    for (let i = 0; i < LIMITS.loginPerId.max; i++) {
      const login_id = i % 2 ? "both@example.com" : "0700333444";
      expect((await postLogin({ login_id, password: `wrong-${i}` }, `192.0.2.${i}`)).status).toBe(401);
    }
    // The 11th try, by phone in another notation and from a new address, is over the account's limit.
    expect((await postLogin({ login_id: "+254700333444", password: "wrong" }, "192.0.2.200")).status).toBe(429);
    expect((await apiLoginAs("both@example.com", "right-pass", "192.0.2.201")).status).toBe(429);
  });

  it("does not count successful sign-ins against the address", async () => {
    const user = await makeUser({ email: "busy@example.com", password: "right-pass" });
    // An office behind one address: more successful sign-ins than the address limit allows tries.
    for (let i = 0; i < LIMITS.loginPerAddress.max + 5; i++) {
      expect((await apiLoginAs(user.email, "right-pass", "198.51.100.7")).status, `sign-in ${i + 1}`).toBe(200);
    }
    expect((await postLogin({ login_id: user.email, password: "right-pass" }, "198.51.100.7")).status).toBe(302);
  }, 60_000);
});
