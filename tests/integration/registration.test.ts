// Sign-up proves the e-mail address, and nobody claims an invitation by signing up with the invited
// address (docs/security.md, "Accounts and sessions"; decision 0013).
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { insertRole } from "~/tools/factories.server";
import * as invite from "~/routes/$orgId+/organization+/invite";
import * as profile from "~/routes/$orgId+/profile+/_index";
import * as apiAdministrators from "~/routes/account+/api.v1.administrators";
import * as login from "~/routes/_auth+/login";
import * as register from "~/routes/_auth+/register";
import * as verify from "~/routes/_auth+/register_.verify.$token";
import * as organizations from "~/routes/organizations+/_index";
import { issueToken, verifyLogin } from "~/services/auth.server";
import { outboxDir } from "~/services/email.server";
import { requireOrg } from "~/services/guard.server";
import { LIMITS } from "~/services/rate-limit.server";
import { sessionStorage } from "~/services/session.server";
import { makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";

const uniqueEmail = (tag: string) => `${tag}-${randomUUID()}@example.com`;
let phoneCounter = 0;
const newPhone = () => `0711${String(++phoneCounter).padStart(6, "0")}`;

function postRegister(form: Record<string, string>, address = "192.0.2.77", cookie?: string) {
  return run(async () =>
    register.action({ request: makeRequest("/register", { form, cookie }), params: {}, context: { clientAddress: address } }),
  );
}

const person = (email: string, phone = newPhone()) => ({
  first_name: "Amina",
  last_name: "Otieno",
  email,
  phone_number: phone,
  password: "attacker-pass-1",
});

async function answerOf(res: Response) {
  return { status: res.status, body: await res.text() };
}

const linkTokenOf = (link: string | undefined) => link!.split("/register/verify/")[1];

function confirm(token: string, password: string, cookie?: string) {
  return run(async () =>
    verify.action({
      request: makeRequest(`/register/verify/${token}`, { form: { password }, cookie }),
      params: { token },
      context: { clientAddress: "192.0.2.88" },
    }),
  );
}

const signedInUserIdOf = async (res: Response) => {
  const session = await sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0]);
  const token = session.get("token");
  return token ? (await db.selectFrom("api_tokens").select("user_id").where("label", "=", "web").execute()).map((r) => r.user_id) : [];
};

async function pendingInvitation(orgId: number, email: string) {
  const role = await insertRole(orgId, "r_w");
  const res = await run(async () =>
    invite.action({
      request: makeRequest(`/${orgId}/organization/invite`, {
        form: { email, role_id: String(role.id) },
        cookie: await sessionCookie(
          (
            await db
              .selectFrom("administrators")
              .select("user_id")
              .where("organization_id", "=", orgId)
              .where("is_owner", "=", 1)
              .executeTakeFirstOrThrow()
          ).user_id!,
        ),
      }),
      params: { orgId: String(orgId) },
      context: {},
    }),
  );
  expect(res.status).toBe(302);
  const mails = await mailsTo(email);
  return { role, inviteLink: mails[mails.length - 1].link! };
}

describe("invitation hijack", () => {
  it("gives an attacker who signs up with an invited address no invitation, no access and no way to accept", async () => {
    const { org } = await makeOrg(`Hijack ${randomUUID()}`);
    const invited = uniqueEmail("newhire");
    await pendingInvitation(org.id, invited);

    // The attacker signs up with the invited address. They cannot read its mail, so the account
    // stays unconfirmed: it cannot sign in, and the invitation is not theirs.
    expect((await postRegister(person(invited))).status).toBe(200);
    const attacker = await db
      .selectFrom("users")
      .select(["id", "email_verified_at"])
      .where("email", "=", invited)
      .executeTakeFirstOrThrow();
    expect(attacker.email_verified_at).toBeNull();
    const invitation = await db
      .selectFrom("administrators")
      .select(["user_id", "status"])
      .where("invited_email_address", "=", invited)
      .executeTakeFirstOrThrow();
    expect(invitation).toEqual({ user_id: null, status: "Pending" });
    const signIn = await run(async () =>
      login.action({
        request: makeRequest("/login", { form: { login_id: invited, password: "attacker-pass-1" } }),
        params: {},
        context: { clientAddress: "192.0.2.99" },
      }),
    );
    expect(signIn.status).toBe(403);

    // Even with a session made for the account, the organisations list shows nothing to accept,
    // accepting by id is refused, and the organisation stays closed.
    const cookie = await sessionCookie(attacker.id);
    const list = await (
      await run(async () => organizations.loader({ request: makeRequest("/organizations", { cookie }), params: {}, context: {} }))
    ).text();
    expect(list).not.toContain(org.name);
    const accept = await run(async () =>
      organizations.action({
        request: makeRequest("/organizations", { cookie, form: { intent: "accept", organization_id: String(org.id) } }),
        params: {},
        context: {},
      }),
    );
    expect(accept.status).toBe(404);
    const token = await issueToken(attacker.id, "api");
    const apiAccept = await run(async () =>
      apiAdministrators.action({
        request: new Request("http://localhost/account/api/v1/administrators", {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ status: "Accepted", organization_id: org.id }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(apiAccept.status).toBe(404);
    const orgAccess = await run(() => requireOrg(makeRequest(`/${org.id}`, { cookie }), { orgId: String(org.id) }));
    expect(orgAccess.status).toBe(404);
  });

  it("refuses to accept from /organizations an invitation bound to an account whose address is not the invited one", async () => {
    const { org } = await makeOrg(`Bound ${randomUUID()}`);
    const user = await makeUser({ email: uniqueEmail("someone") });
    const now = Date.now();
    // An invitation row naming this user for another address (how the old sign-up attached them).
    await db
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: user.id,
        role_id: null,
        invited_email_address: uniqueEmail("other"),
        status: "Pending",
        is_owner: 0,
        invite_token_hash: null,
        invited_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const cookie = await sessionCookie(user.id);
    const accept = await run(async () =>
      organizations.action({
        request: makeRequest("/organizations", { cookie, form: { intent: "accept", organization_id: String(org.id) } }),
        params: {},
        context: {},
      }),
    );
    expect(accept.status).toBe(403);
    expect((await db.selectFrom("administrators").select("status").where("user_id", "=", user.id).executeTakeFirstOrThrow()).status).toBe(
      "Pending",
    );
  });

  it("lets the real invitee confirm the address and accept, and the token link still works", async () => {
    const { org } = await makeOrg(`Real ${randomUUID()}`);
    const invited = uniqueEmail("realhire");
    await pendingInvitation(org.id, invited);
    expect((await postRegister({ ...person(invited), password: "real-pass-123" })).status).toBe(200);
    const link = (await mailsTo(invited)).find((m) => m.link?.includes("/register/verify/"))!.link;
    const confirmed = await confirm(linkTokenOf(link), "real-pass-123");
    expect(confirmed.status).toBe(302);
    const user = await db.selectFrom("users").select(["id", "email_verified_at"]).where("email", "=", invited).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();
    expect(
      (await db.selectFrom("administrators").select("user_id").where("invited_email_address", "=", invited).executeTakeFirstOrThrow())
        .user_id,
    ).toBe(user.id);
    const cookie = await sessionCookie(user.id);
    const accept = await run(async () =>
      organizations.action({
        request: makeRequest("/organizations", { cookie, form: { intent: "accept", organization_id: String(org.id) } }),
        params: {},
        context: {},
      }),
    );
    expect(accept.status).toBe(302);
    expect((await run(() => requireOrg(makeRequest(`/${org.id}`, { cookie }), { orgId: String(org.id) }))).status).toBe(200);
  });
});

describe("sign-up", () => {
  it("answers a taken address, a taken phone number and a new account exactly alike; only the mails differ", async () => {
    const existing = await makeUser({ email: uniqueEmail("exists"), phone_number: "0722 555 666" });
    const takenEmail = await answerOf(await postRegister(person(existing.email)));
    const takenPhone = await answerOf(await postRegister(person(uniqueEmail("phone"), "0722555666")));
    const fresh = await answerOf(await postRegister(person(uniqueEmail("fresh"))));
    const shape = (a: { status: number; body: string }) => ({
      status: a.status,
      body: a.body.replace(/We have sent a link to [^.]+@example\.com\./, "…"),
    });
    expect(shape(takenEmail)).toEqual(shape(fresh));
    expect(shape(takenPhone)).toEqual(shape(fresh));
    expect(fresh.status).toBe(200);
    expect((await mailsTo(existing.email)).at(-1)?.subject).toBe("Someone tried to sign up to Mlango with your address");
    expect(await verifyLogin(existing.email, "attacker-pass-1")).toBeNull();
  });

  it("creates the account unconfirmed with normalised fields, and signs in once the link is opened with the password", async () => {
    const email = uniqueEmail("Wanjiru");
    const cookie = (await postRegister({ ...person(email.toUpperCase(), "0722 123 456"), redirectTo: "/organizations" })).headers
      .get("Set-Cookie")!
      .split(";")[0];
    const row = await db.selectFrom("users").select(["id", "email", "phone_number", "email_verified_at"]).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: email.toLowerCase(), phone_number: "+254722123456", email_verified_at: null });
    const token = linkTokenOf((await mailsTo(email))[0].link);
    const page = await (
      await run(async () => verify.loader({ request: makeRequest(`/register/verify/${token}`), params: { token }, context: {} }))
    ).json();
    expect(page).toEqual({ email: email.toLowerCase(), linkError: null });
    expect((await db.selectFrom("users").select("email_verified_at").executeTakeFirstOrThrow()).email_verified_at).toBeNull(); // opening changes nothing

    const wrong = await confirm(token, "not-the-password", cookie);
    expect(wrong.status).toBe(400);
    const res = await confirm(token, "attacker-pass-1", cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/organizations");
    expect(await signedInUserIdOf(res)).toEqual([row.id]);
    expect((await confirm(token, "attacker-pass-1")).status).toBe(400); // used once
  });

  it("replaces an unconfirmed account that holds the address, so nobody can squat it", async () => {
    const email = uniqueEmail("squatted");
    await postRegister({ ...person(email), password: "squatter-pass" });
    await postRegister({ ...person(email), password: "owner-pass-12" });
    const links = (await mailsTo(email)).map((m) => linkTokenOf(m.link));
    expect((await confirm(links[0], "squatter-pass")).status).toBe(400); // the squatter's account is gone
    expect((await confirm(links[1], "owner-pass-12")).status).toBe(302);
    expect(await verifyLogin(email, "owner-pass-12")).not.toBeNull();
  });

  it("limits sign-ups per address mailed", async () => {
    const email = uniqueEmail("flood");
    for (let i = 0; i < LIMITS.registerPerEmail.max; i++) expect((await postRegister(person(email), `192.0.2.${i}`)).status).toBe(200);
    const res = await postRegister(person(email), "192.0.2.250");
    expect(res.status).toBe(429);
  });
});

describe("changing the account e-mail", () => {
  async function submitProfile(userId: number, orgId: number, fields: Record<string, string>) {
    const form = { first_name: "Test", last_name: "User", phone_number: newPhone(), ...fields };
    return run(async () =>
      profile.action({
        request: makeRequest(`/${orgId}/profile`, { form, cookie: await sessionCookie(userId) }),
        params: { orgId: String(orgId) },
        context: {},
      }),
    );
  }

  it("needs the current password, and keeps the old address until the new one is confirmed", async () => {
    const { org, owner } = await makeOrg();
    const target = uniqueEmail("invited-elsewhere");
    const without = await submitProfile(owner.id, org.id, { email: target });
    expect(without.status).toBe(400);
    expect((await without.json()).error.current_password).toEqual(["Enter your current password to change your e-mail address."]);
    const wrong = await submitProfile(owner.id, org.id, { email: target, current_password: "wrong" });
    expect(wrong.status).toBe(400);
    const ok = await submitProfile(owner.id, org.id, { email: target, current_password: "password123" });
    expect(ok.status).toBe(302);
    // No SMTP_URL in the tests: the toast does not claim the link was sent.
    const toast = (await sessionStorage().getSession(ok.headers.get("Set-Cookie")!.split(";")[0])).get("toast");
    expect(toast?.message).toBe(
      `Your account details have been updated. The link to confirm ${target.toLowerCase()} was not sent: no mail server is set (SMTP_URL), so it is kept in the outbox folder ${path.resolve(outboxDir())}. Your e-mail address changes when you open the link.`,
    );
    const before = (await db.selectFrom("users").select("email").where("id", "=", owner.id).executeTakeFirstOrThrow()).email;
    expect(before).not.toBe(target);
    const token = linkTokenOf((await mailsTo(target))[0].link);
    expect((await confirm(token, "password123")).status).toBe(302);
    expect((await db.selectFrom("users").select("email").where("id", "=", owner.id).executeTakeFirstOrThrow()).email).toBe(target);
  });
});

describe("unconfirmed accounts", () => {
  it("cannot sign in, even with the right password, and get a new link", async () => {
    const user = await makeUser({ email: uniqueEmail("unconfirmed"), password: "right-pass", verified: false });
    const res = await run(async () =>
      login.action({
        request: makeRequest("/login", { form: { login_id: user.email, password: "right-pass" } }),
        params: {},
        context: { clientAddress: "192.0.2.60" },
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect((await mailsTo(user.email)).at(-1)?.link).toContain("/register/verify/");
  });
});
