import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { MESSAGES } from "~/lib/schemas/accounts";
import * as apiLogin from "~/routes/account+/api.v1.auth.login";
import * as login from "~/routes/_auth+/login";
import * as forgot from "~/routes/_auth+/password.forgot";
import * as reset from "~/routes/_auth+/password.reset.$token";
import * as register from "~/routes/_auth+/register";
import * as logout from "~/routes/logout";
import { CREDENTIALS_MISMATCH, verifyLogin } from "~/services/auth.server";
import { requireUser, userForToken } from "~/services/guard.server";
import { FORGOT_PASSWORD_SENT, RESET_LINK_INVALID, RESET_LOGIN_ID_MISMATCH } from "~/services/password-reset.server";
import { commitSession, sessionStorage } from "~/services/session.server";
import { makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";
import { OFF_SITE_REDIRECTS } from "../fixtures/redirects";

type Route = {
  loader?: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
};

interface CallOptions {
  form?: Record<string, string>;
  cookie?: string;
  params?: Record<string, string>;
  method?: string;
}

function callAction(route: Route, path: string, { form = {}, cookie, params = {}, method }: CallOptions = {}) {
  const request = makeRequest(path, { method: method ?? "POST", form, cookie });
  return run(async () => route.action!({ request, params, context: { clientAddress: "192.0.2.10" } }));
}

function callLoader(route: Route, path: string, { cookie, params = {} }: CallOptions = {}) {
  return run(async () => route.loader!({ request: makeRequest(path, { cookie }), params, context: {} }));
}

/** The field errors of a conform reply; the form-level ones are under "". */
async function errorsOf(res: Response): Promise<Record<string, string[]>> {
  const body = (await res.json()) as { error?: Record<string, string[]> };
  return body.error ?? {};
}

/** The cookie session a response sets, read back. */
async function sessionOf(res: Response) {
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return sessionStorage().getSession(setCookie.split(";")[0]);
}

/** A Cookie header carrying only a remembered redirect (a visitor sent to /login by the guard). */
async function cookieWithRedirect(redirectTo: string) {
  const session = await sessionStorage().getSession();
  session.set("redirectTo", redirectTo);
  return (await commitSession(session)).split(";")[0];
}

const uniqueEmail = (tag: string) => `${tag}-${randomUUID()}@example.com`;

async function signedInUserOf(res: Response) {
  const token = (await sessionOf(res)).get("token");
  return token ? userForToken(token, "web") : null;
}

describe("login", () => {
  it("asks for the login id and the password with the spec's messages", async () => {
    const res = await callAction(login, "/login", { form: { login_id: "", password: "" } });
    expect(res.status).toBe(400);
    const errors = await errorsOf(res);
    expect(errors.login_id).toEqual([MESSAGES.loginIdRequired]);
    expect(errors.password).toEqual([MESSAGES.passwordRequired]);
  });

  it("signs in by email in any letter case and goes home", async () => {
    const user = await makeUser({ email: "mary@example.com", password: "secret-pass" });
    const res = await callAction(login, "/login", { form: { login_id: "  MARY@Example.COM ", password: "secret-pass" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect((await signedInUserOf(res))?.id).toBe(user.id);
  });

  it.each(["0712000111", "+254712000111", "254712000111", "0712 000 111", "+254 712-000-111"])(
    "signs in by phone typed as %s",
    async (typed) => {
      const user = await makeUser({ phone_number: "0712000111", password: "secret-pass" });
      const res = await callAction(login, "/login", { form: { login_id: typed, password: "secret-pass" } });
      expect(res.status).toBe(302);
      expect((await signedInUserOf(res))?.id).toBe(user.id);
    },
  );

  it("refuses a wrong password or an unknown account with one form error and keeps the login id", async () => {
    await makeUser({ email: "joe@example.com", password: "right-pass" });
    for (const login_id of ["joe@example.com", "nobody@example.com"]) {
      const res = await callAction(login, "/login", { form: { login_id, password: "wrong-pass" } });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
      expect(body.error[""]).toEqual([CREDENTIALS_MISMATCH]);
      expect(body.initialValue.login_id).toBe(login_id);
      expect(body.initialValue.password).toBeUndefined();
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("goes to the page remembered in the session and forgets it", async () => {
    await makeUser({ email: "ann@example.com", password: "secret-pass" });
    const cookie = await cookieWithRedirect("/12/venues?page=2");
    const res = await callAction(login, "/login", { form: { login_id: "ann@example.com", password: "secret-pass" }, cookie });
    expect(res.headers.get("Location")).toBe("/12/venues?page=2");
    expect((await sessionOf(res)).get("redirectTo")).toBeUndefined();
  });

  it("prefers the form's redirectTo over the session's", async () => {
    await makeUser({ email: "ann@example.com", password: "secret-pass" });
    const cookie = await cookieWithRedirect("/from-session");
    const res = await callAction(login, "/login", {
      form: { login_id: "ann@example.com", password: "secret-pass", redirectTo: "/from-form" },
      cookie,
    });
    expect(res.headers.get("Location")).toBe("/from-form");
  });

  it.each(["https://evil.example", "//evil.example", "/\\evil.example", ...OFF_SITE_REDIRECTS])(
    "never redirects off-site (%j lands on /)",
    async (target) => {
      await makeUser({ email: "ann@example.com", password: "secret-pass" });
      const res = await callAction(login, `/login?redirectTo=${encodeURIComponent(target)}`, {
        form: { login_id: "ann@example.com", password: "secret-pass", redirectTo: target },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    },
  );
});

describe("guest-only pages", () => {
  const pages: [string, Route, string, Record<string, string>][] = [
    ["login", login, "/login", {}],
    ["register", register, "/register", {}],
    ["forgot password", forgot, "/password/forgot", {}],
    ["reset password", reset, "/password/reset/some-token", { token: "some-token" }],
  ];

  it.each(pages)("sends a signed-in user from %s to / (loader and action)", async (_name, route, path, params) => {
    const user = await makeUser();
    const cookie = await sessionCookie(user.id);
    for (const res of [await callLoader(route, path, { cookie, params }), await callAction(route, path, { cookie, params })]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it.each(pages)("shows %s to a visitor", async (_name, route, path, params) => {
    const res = await callLoader(route, path, { params });
    expect(res.status).toBe(200);
  });
});

describe("register", () => {
  const valid = () => ({
    first_name: "Wanjiru",
    last_name: "Kamau",
    email: uniqueEmail("Wanjiru"),
    phone_number: "0722 123 456",
    password: "long-enough",
  });

  it("asks for every field with the spec's messages", async () => {
    const res = await callAction(register, "/register", {
      form: { first_name: " ", last_name: "", email: "", phone_number: "", password: "" },
    });
    expect(res.status).toBe(400);
    expect(await errorsOf(res)).toEqual({
      first_name: [MESSAGES.firstNameRequired],
      last_name: [MESSAGES.lastNameRequired],
      email: [MESSAGES.emailRequired],
      phone_number: [MESSAGES.phoneRequired],
      password: [MESSAGES.passwordRequired],
    });
    expect(await db.selectFrom("users").select("id").execute()).toEqual([]);
  });

  it("explains an invalid email, an invalid phone and a short password, keeping the input", async () => {
    const res = await callAction(register, "/register", {
      form: { ...valid(), email: "not-an-email", phone_number: "12", password: "short" },
    });
    const body = (await res.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(body.error.email).toEqual([MESSAGES.emailInvalid]);
    expect(body.error.phone_number).toEqual([MESSAGES.phoneInvalid]);
    expect(body.error.password).toEqual([MESSAGES.passwordTooShort]);
    expect(body.initialValue).toMatchObject({ first_name: "Wanjiru", email: "not-an-email", phone_number: "12" });
    expect(body.initialValue.password).toBeUndefined();
  });

  // What a valid sign-up does (mail, link, confirmation): tests/integration/registration.test.ts.
});

describe("password reset", () => {
  const tokenOf = (link: string | undefined) => link!.split("/password/reset/")[1];

  it("asks for the login id on the forgot page", async () => {
    const res = await callAction(forgot, "/password/forgot", { form: { login_id: "" } });
    expect(res.status).toBe(400);
    expect((await errorsOf(res)).login_id).toEqual([MESSAGES.loginIdRequired]);
  });

  it("asks for every reset field and checks the confirmation", async () => {
    const params = { token: "whatever" };
    let res = await callAction(reset, "/password/reset/whatever", {
      params,
      form: { login_id: "", password: "", password_confirmation: "" },
    });
    expect(await errorsOf(res)).toEqual({
      login_id: [MESSAGES.loginIdRequired],
      password: [MESSAGES.passwordRequired],
      password_confirmation: [MESSAGES.confirmationRequired],
    });
    res = await callAction(reset, "/password/reset/whatever", {
      params,
      form: { login_id: "a@example.com", password: "new-password", password_confirmation: "other-password" },
    });
    expect(await errorsOf(res)).toEqual({ password_confirmation: [MESSAGES.passwordMismatch] });
    res = await callAction(reset, "/password/reset/whatever", {
      params,
      form: { login_id: "a@example.com", password: "short", password_confirmation: "short" },
    });
    expect((await errorsOf(res)).password).toEqual([MESSAGES.passwordTooShort]);
  });

  it("resets through the emailed link: old password refused, new accepted, sessions ended, link single-use", async () => {
    const email = uniqueEmail("reset");
    const user = await makeUser({ email, phone_number: "0733000222", password: "old-password" });
    const oldSession = await sessionCookie(user.id);

    const asked = await callAction(forgot, "/password/forgot", { form: { login_id: "0733 000 222" } });
    expect(asked.status).toBe(302);
    expect((await sessionOf(asked)).get("toast")).toEqual({ type: "success", message: FORGOT_PASSWORD_SENT });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].link).toMatch(/^http:\/\/localhost\/password\/reset\/[\w-]{40,}$/);
    expect(mails[0].text).toContain(mails[0].link);
    const token = tokenOf(mails[0].link);

    expect(await (await callLoader(reset, mails[0].link!, { params: { token } })).json()).toEqual({ linkError: null });
    const form = { login_id: email.toUpperCase(), password: "brand-new-pass", password_confirmation: "brand-new-pass" };
    const done = await callAction(reset, `/password/reset/${token}`, { params: { token }, form });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ done: true });

    expect(await verifyLogin(email, "old-password")).toBeNull();
    expect(await verifyLogin(email, "brand-new-pass")).toMatchObject({ id: user.id });
    const stale = await run(() => requireUser(makeRequest("/", { cookie: oldSession })));
    expect(stale.headers.get("Location")).toBe("/login");

    const again = await callAction(reset, `/password/reset/${token}`, {
      params: { token },
      form: { ...form, password: "third-password", password_confirmation: "third-password" },
    });
    expect((await errorsOf(again))[""]).toEqual([RESET_LINK_INVALID]);
    expect(await verifyLogin(email, "brand-new-pass")).not.toBeNull();
    expect(await (await callLoader(reset, `/password/reset/${token}`, { params: { token } })).json()).toEqual({
      linkError: RESET_LINK_INVALID,
    });
  });

  it("refuses an expired link", async () => {
    const email = uniqueEmail("expired");
    await makeUser({ email, password: "old-password" });
    await callAction(forgot, "/password/forgot", { form: { login_id: email } });
    const token = tokenOf((await mailsTo(email))[0].link);
    await db
      .updateTable("password_resets")
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const res = await callAction(reset, `/password/reset/${token}`, {
      params: { token },
      form: { login_id: email, password: "brand-new-pass", password_confirmation: "brand-new-pass" },
    });
    expect((await errorsOf(res))[""]).toEqual([RESET_LINK_INVALID]);
    expect(await verifyLogin(email, "old-password")).not.toBeNull();
  });

  it("refuses a login id that is not the link's account, and an unknown token", async () => {
    const email = uniqueEmail("owner");
    const other = await makeUser({ email: uniqueEmail("other") });
    await makeUser({ email, password: "old-password" });
    await callAction(forgot, "/password/forgot", { form: { login_id: email } });
    const token = tokenOf((await mailsTo(email))[0].link);
    const form = { login_id: other.email, password: "brand-new-pass", password_confirmation: "brand-new-pass" };
    let res = await callAction(reset, `/password/reset/${token}`, { params: { token }, form });
    expect((await errorsOf(res)).login_id).toEqual([RESET_LOGIN_ID_MISMATCH]);
    res = await callAction(reset, "/password/reset/made-up", { params: { token: "made-up" }, form: { ...form, login_id: email } });
    expect((await errorsOf(res))[""]).toEqual([RESET_LINK_INVALID]);
    expect(await verifyLogin(email, "old-password")).not.toBeNull();
  });

  it("invalidates an older link when a new one is requested", async () => {
    const email = uniqueEmail("twice");
    await makeUser({ email, password: "old-password" });
    await callAction(forgot, "/password/forgot", { form: { login_id: email } });
    await callAction(forgot, "/password/forgot", { form: { login_id: email } });
    const [first, second] = (await mailsTo(email)).map((m) => tokenOf(m.link));
    const form = { login_id: email, password: "brand-new-pass", password_confirmation: "brand-new-pass" };
    const res = await callAction(reset, `/password/reset/${first}`, { params: { token: first }, form });
    expect((await errorsOf(res))[""]).toEqual([RESET_LINK_INVALID]);
    expect((await callAction(reset, `/password/reset/${second}`, { params: { token: second }, form })).status).toBe(200);
  });

  it("answers an unknown login id exactly as a known one and sends nothing", async () => {
    const known = uniqueEmail("known");
    await makeUser({ email: known });
    const unknown = uniqueEmail("unknown");
    const a = await callAction(forgot, "/password/forgot", { form: { login_id: known } });
    const b = await callAction(forgot, "/password/forgot", { form: { login_id: unknown } });
    expect(b.status).toBe(a.status);
    expect(b.headers.get("Location")).toBe(a.headers.get("Location"));
    expect((await sessionOf(b)).get("toast")).toEqual((await sessionOf(a)).get("toast"));
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await mailsTo(known)).toHaveLength(1);
  });
});

describe("logout", () => {
  it.each(["GET", "POST"])("revokes the token and goes to /login (%s)", async (method) => {
    const user = await makeUser();
    const cookie = await sessionCookie(user.id);
    const request = makeRequest("/logout", { method, cookie });
    const res = await run(async () => (method === "GET" ? logout.loader : logout.action)({ request, params: {}, context: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    const token = (await sessionStorage().getSession(cookie)).get("token")!;
    expect(await userForToken(token, "web")).toBeNull();
    expect((await sessionOf(res)).get("token")).toBeUndefined();
  });

  it("sends a visitor without a session to /login too", async () => {
    const res = await run(async () => logout.loader({ request: makeRequest("/logout"), params: {}, context: {} }));
    expect(res.headers.get("Location")).toBe("/login");
  });
});

describe("API login", () => {
  const post = (body: BodyInit, contentType: string) =>
    run(async () =>
      apiLogin.action({
        request: new Request("http://localhost/account/api/v1/auth/login", {
          method: "POST",
          body,
          headers: { "Content-Type": contentType },
        }),
        params: {},
        context: { clientAddress: "198.51.100.7" },
      }),
    );

  it("answers a bearer token that works for API calls (JSON body)", async () => {
    const user = await makeUser({ email: "api@example.com", password: "secret-pass" });
    const res = await post(JSON.stringify({ login_id: "API@example.com", password: "secret-pass" }), "application/json");
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { api_token: string } };
    const signedIn = await requireUser(makeRequest("/account/api/v1/x", { headers: { Authorization: `Bearer ${data.api_token}` } }));
    expect(signedIn.id).toBe(user.id);
    const label = await db.selectFrom("api_tokens").select("label").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(label.label).toBe("api");
  });

  it("takes a form-encoded body and a phone number", async () => {
    await makeUser({ phone_number: "0711222333", password: "secret-pass" });
    const res = await post(new URLSearchParams({ login_id: "254711222333", password: "secret-pass" }), "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
  });

  it("answers 422 with the first message of each field", async () => {
    const res = await post(JSON.stringify({ login_id: "" }), "application/json");
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ errors: { login_id: [MESSAGES.loginIdRequired], password: [MESSAGES.passwordRequired] } });
  });

  it("answers 401 with a message for wrong credentials, 400 for a malformed body", async () => {
    await makeUser({ email: "api@example.com", password: "secret-pass" });
    const res = await post(JSON.stringify({ login_id: "api@example.com", password: "nope-nope" }), "application/json");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: CREDENTIALS_MISMATCH } });
    expect((await post("{not json", "application/json")).status).toBe(400);
  });
});
