import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { insertRole } from "~/tools/factories.server";
import * as administrators from "~/routes/$orgId+/organization+/administrators";
import * as invite from "~/routes/$orgId+/organization+/invite";
import * as invitation from "~/routes/invitations.$token";
import * as register from "~/routes/_auth+/register";
import * as verify from "~/routes/_auth+/register_.verify.$token";
import { getEnv } from "~/env.server";
import { hashToken } from "~/services/crypto.server";
import { mailGoesOut, outboxDir } from "~/services/email.server";
import { requireOrg } from "~/services/guard.server";
import { attachInvitationsToUser } from "~/services/invitations.server";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";

/** An organisation and its owner, with the owner's full user record. */
async function orgOwnedBy(name = "Acme Cafe") {
  const owner = await makeUser();
  const { org } = await makeOrg(name, owner);
  return { org, owner };
}

const uniqueEmail = (label = "invitee") => `${label}-${randomUUID()}@example.com`;

async function postInvite(userId: number, orgId: number, form: Record<string, string>) {
  const request = makeRequest(`/${orgId}/organization/invite`, { form, cookie: await sessionCookie(userId) });
  return run(() => invite.action({ request, params: { orgId: String(orgId) }, context: {} }));
}

async function openInvitation(token: string, cookie?: string) {
  return run(() => invitation.loader({ request: makeRequest(`/invitations/${token}`, { cookie }), params: { token }, context: {} }));
}

async function answerInvitation(token: string, intent: string, cookie?: string) {
  const request = makeRequest(`/invitations/${token}`, { form: { intent }, cookie });
  return run(() => invitation.action({ request, params: { token }, context: {} }));
}

const invitationRow = (orgId: number, email: string) =>
  db
    .selectFrom("administrators")
    .select(["id", "user_id", "role_id", "status", "invite_token_hash", "invited_by_user_id", "invited_email_address"])
    .where("organization_id", "=", orgId)
    .where("invited_email_address", "=", email)
    .executeTakeFirst();

/** The token of the last invitation mailed to this address, read from the link in the mail. */
async function tokenMailedTo(email: string): Promise<string> {
  const mails = await mailsTo(email);
  expect(mails.length).toBeGreaterThan(0);
  const link = mails[mails.length - 1].link!;
  const match = link.match(/\/invitations\/([A-Za-z0-9_-]+)$/);
  expect(match).toBeTruthy();
  return match![1];
}

async function canOpenOrg(userId: number, orgId: number) {
  const res = await run(async () =>
    requireOrg(makeRequest(`/${orgId}`, { cookie: await sessionCookie(userId) }), { orgId: String(orgId) }),
  );
  return res.status === 200;
}

async function sessionOf(res: Response) {
  return sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0]);
}

describe("inviting an administrator (/organization/invite)", () => {
  it("refuses a member without create_administrators, in the page and the action, and sends nothing", async () => {
    const { org } = await makeOrg();
    const role = await insertRole(org.id, "r");
    const { user } = await makeMember(org.id, "custom", ["view_settings", "edit_administrators"]);
    const email = uniqueEmail();
    const page = await run(async () =>
      invite.loader({
        request: makeRequest(`/${org.id}/organization/invite`, { cookie: await sessionCookie(user.id) }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(page.status).toBe(403);
    const res = await postInvite(user.id, org.id, { email, role_id: String(role.id) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "You do not have permission to do that." });
    expect(await invitationRow(org.id, email)).toBeUndefined();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("refuses a member with create_administrators who is not the organisation's administrator (im_admin)", async () => {
    const { org } = await makeOrg();
    const role = await insertRole(org.id, "r");
    const { user } = await makeMember(org.id, "r_w");
    const email = uniqueEmail();
    const res = await postInvite(user.id, org.id, { email, role_id: String(role.id) });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe("Only the organization's administrator can do that.");
    expect(await invitationRow(org.id, email)).toBeUndefined();
  });

  it("requires the email and the role with the spec's messages", async () => {
    const { org, owner } = await orgOwnedBy();
    const res = await postInvite(owner.id, org.id, { email: "", role_id: "" });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.email).toEqual(["Email field is required."]);
    expect(error.role_id).toEqual(["Role field is required."]);
    const invalid = await postInvite(owner.id, org.id, { email: "not-an-email", role_id: "1" });
    expect((await invalid.json()).error.email).toEqual(["Please enter a valid email address."]);
  });

  it("answers 404 for a role of another organisation or a malformed role id", async () => {
    const { org, owner } = await orgOwnedBy();
    const { org: other } = await makeOrg("Other");
    const foreign = await insertRole(other.id, "r_w");
    const email = uniqueEmail();
    for (const roleId of [String(foreign.id), "abc", "99999999999999999999"]) {
      const res = await postInvite(owner.id, org.id, { email, role_id: roleId });
      expect(res.status, roleId).toBe(404);
    }
    expect(await invitationRow(org.id, email)).toBeUndefined();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("says 'Invitation sent' only when mail really goes out, and the invite page tells where mail is kept otherwise", async () => {
    const { org, owner } = await orgOwnedBy();
    const role = await insertRole(org.id, "r", [], "Cashier");
    const cookie = await sessionCookie(owner.id);
    const page = async () =>
      (
        await run(() =>
          invite.loader({
            request: makeRequest(`/${org.id}/organization/invite`, { cookie }),
            params: { orgId: String(org.id) },
            context: {},
          }),
        )
      ).json();
    expect((await page()).outbox).toBe(path.resolve(outboxDir()));
    const env = getEnv() as { SMTP_URL?: string };
    const email = uniqueEmail();
    let res: Response;
    try {
      env.SMTP_URL = "smtp://127.0.0.1:1"; // only read here; the queued mail is delivered later, to the outbox
      expect(mailGoesOut()).toBe(true);
      expect((await page()).outbox).toBeNull();
      res = await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    } finally {
      env.SMTP_URL = undefined;
    }
    expect((await sessionOf(res)).get("toast")).toEqual({ type: "success", message: `Invitation sent to ${email.toLowerCase()}.` });
    expect(mailGoesOut()).toBe(false);
  });

  it("records a pending invitation, mails the confirmation link and lists the invitee as pending registration", async () => {
    const { org, owner } = await orgOwnedBy("Java House");
    const role = await insertRole(org.id, "r", [], "Cashier");
    const email = uniqueEmail("Mixed.Case");
    const res = await postInvite(owner.id, org.id, { email: email.toUpperCase(), role_id: String(role.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/organization/administrators`);
    // No SMTP_URL in the tests: the toast says the mail is kept in the outbox folder, with its path.
    expect((await sessionOf(res)).get("toast")).toEqual({
      type: "info",
      message: `The invitation to ${email.toLowerCase()} was not sent: no mail server is set (SMTP_URL), so it is kept in the outbox folder ${path.resolve(outboxDir())}.`,
    });

    const row = await invitationRow(org.id, email.toLowerCase());
    expect(row).toMatchObject({ user_id: null, role_id: role.id, status: "Pending", invited_by_user_id: owner.id });
    const token = await tokenMailedTo(email);
    expect(row!.invite_token_hash).toBe(hashToken(token));

    const [mail] = await mailsTo(email);
    expect(mail.link).toBe(`http://localhost/invitations/${token}`);
    expect(mail.subject).toContain("Java House");
    expect(mail.text).toContain(`${owner.first_name} ${owner.last_name}`);
    expect(mail.text).toContain("Cashier");
    expect(mail.text).toContain(mail.link);

    const list = await run(async () =>
      administrators.loader({
        request: makeRequest(`/${org.id}/organization/administrators`, { cookie: await sessionCookie(owner.id) }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    const pending = (await list.json()).administrators.find((a: { invitedEmail: string }) => a.invitedEmail === email.toLowerCase());
    expect(pending).toMatchObject({ userId: null, name: null, status: "Pending", roleName: "Cashier" });
  });

  it("names an invitee who already has an account at once, without giving access before acceptance", async () => {
    const { org, owner } = await orgOwnedBy();
    const role = await insertRole(org.id, "r_w");
    const email = uniqueEmail();
    const existing = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    expect(await invitationRow(org.id, email)).toMatchObject({ user_id: existing.id, status: "Pending" });
    expect(await canOpenOrg(existing.id, org.id)).toBe(false);
  });

  it("refuses to invite an email twice, or the email of a member", async () => {
    const { org, owner } = await orgOwnedBy();
    const role = await insertRole(org.id, "r");
    const email = uniqueEmail();
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const again = await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    expect(again.status).toBe(400);
    expect((await again.json()).error.email).toEqual(["This email has already been invited."]);

    const memberEmail = uniqueEmail("member");
    await makeMember(org.id, "r", [], { email: memberEmail });
    const member = await postInvite(owner.id, org.id, { email: memberEmail, role_id: String(role.id) });
    expect((await member.json()).error.email).toEqual(["This email already belongs to an administrator of this organization."]);
    const self = await postInvite(owner.id, org.id, { email: owner.email, role_id: String(role.id) });
    expect((await self.json()).error.email).toEqual(["This email already belongs to an administrator of this organization."]);
    expect(await mailsTo(email)).toHaveLength(1);
  });
});

describe("answering an invitation (/invitations/:token)", () => {
  async function invited(label = "invitee") {
    const { org, owner } = await orgOwnedBy("Java House");
    const role = await insertRole(org.id, "custom", ["view_networks", "edit_networks"], "Network admin");
    const email = uniqueEmail(label);
    return { org, owner, role, email };
  }

  it("explains the invitation to a visitor without a session, with sign-in and sign-up links that come back; answering needs the account", async () => {
    const { org, owner, role, email } = await invited();
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const res = await openInvitation(token);
    expect(res.status).toBe(200);
    const back = encodeURIComponent(`/invitations/${token}`);
    expect(await res.json()).toEqual({
      organizationName: "Java House",
      roleName: "Network admin",
      inviterName: `${owner.first_name} ${owner.last_name}`,
      signedOut: {
        invitedEmail: email.toLowerCase(),
        loginHref: `/login?redirectTo=${back}`,
        registerHref: `/register?redirectTo=${back}`,
      },
    });
    // Unknown tokens tell a visitor nothing either.
    expect((await openInvitation("no-such-token")).status).toBe(404);
    // Answering without a session still goes to sign in, remembering the invitation; nothing changes.
    const answer = await answerInvitation(token, "accept");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`/login?redirectTo=${back}`);
    expect((await sessionOf(answer)).get("redirectTo")).toBe(`/invitations/${token}`);
    expect((await invitationRow(org.id, email))?.status).toBe("Pending");
  });

  it("lets an existing user accept: shows who invited them, changes nothing on GET, joins on Accept", async () => {
    const { org, owner, role, email } = await invited();
    const user = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const cookie = await sessionCookie(user.id);

    const page = await openInvitation(token, cookie);
    expect(await page.json()).toEqual({
      organizationName: "Java House",
      roleName: "Network admin",
      inviterName: `${owner.first_name} ${owner.last_name}`,
      signedOut: null,
    });
    expect((await invitationRow(org.id, email))?.status).toBe("Pending");

    const res = await answerInvitation(token, "accept", cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}`);
    const session = await sessionOf(res);
    expect(session.get("orgId")).toBe(org.id);
    expect(session.get("toast")?.message).toBe("Welcome to Java House.");
    expect(await invitationRow(org.id, email)).toMatchObject({ user_id: user.id, status: "Accepted", invite_token_hash: null });
    const ctx = await requireOrg(makeRequest(`/${org.id}`, { cookie }), { orgId: String(org.id) });
    expect([...ctx.permissions].sort()).toEqual(["edit_networks", "view_networks"]);
  });

  it("lets an invitee without an account sign up through the link and join", async () => {
    const { org, owner, role, email } = await invited("newcomer");
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);

    // Opening the link without a session explains it and offers sign up, which comes back to the invitation.
    const opened = await openInvitation(token);
    const redirectTo = new URL((await opened.json()).signedOut.registerHref, "http://localhost").searchParams.get("redirectTo")!;
    const registered = await run(() =>
      register.action({
        request: makeRequest("/register", {
          form: { first_name: "Amina", last_name: "Otieno", email, phone_number: "0711000999", password: "a-long-password", redirectTo },
        }),
        params: {},
        context: {},
      }),
    );
    // Sign-up mails a link; confirming the address with the password signs in and comes back.
    expect(registered.status).toBe(200);
    const signUpCookie = registered.headers.get("Set-Cookie")!.split(";")[0];
    const verifyToken = (await mailsTo(email)).find((m) => m.link?.includes("/register/verify/"))!.link!.split("/register/verify/")[1];
    const confirmed = await run(() =>
      verify.action({
        request: makeRequest(`/register/verify/${verifyToken}`, { form: { password: "a-long-password" }, cookie: signUpCookie }),
        params: { token: verifyToken },
        context: {},
      }),
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe(`/invitations/${token}`);
    const cookie = confirmed.headers.get("Set-Cookie")!.split(";")[0];
    const newcomer = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    // The confirmed address claimed its invitation: no longer 'Pending registration'.
    expect((await invitationRow(org.id, email))?.user_id).toBe(newcomer.id);

    expect((await openInvitation(token, cookie)).status).toBe(200);
    const res = await answerInvitation(token, "accept", cookie);
    expect(res.headers.get("Location")).toBe(`/${org.id}`);
    expect(await canOpenOrg(newcomer.id, org.id)).toBe(true);
  });

  it("lets a user attached after registering accept through the link", async () => {
    const { org, owner, role, email } = await invited();
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const user = await makeUser({ email });
    await attachInvitationsToUser(user.id, email.toUpperCase());
    const res = await answerInvitation(token, "accept", await sessionCookie(user.id));
    expect(res.status).toBe(302);
    expect(await canOpenOrg(user.id, org.id)).toBe(true);
  });

  it("attaching invitations skips an organisation the user already belongs to", async () => {
    const { org, owner, role, email } = await invited();
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const { user: member } = await makeMember(org.id, "r");
    await attachInvitationsToUser(member.id, email);
    // still unnamed in the organisation the user already belongs to (one membership per user)
    expect((await invitationRow(org.id, email))?.user_id).toBeNull();
  });

  it("declines: the invitation is closed and the user goes home", async () => {
    const { org, owner, role, email } = await invited();
    const user = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const cookie = await sessionCookie(user.id);
    const res = await answerInvitation(token, "decline", cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect((await sessionOf(res)).get("toast")).toEqual({ type: "info", message: "You declined the invitation to Java House." });
    expect(await invitationRow(org.id, email)).toMatchObject({ status: "Declined", invite_token_hash: null });
    expect(await canOpenOrg(user.id, org.id)).toBe(false);
    expect((await openInvitation(token, cookie)).status).toBe(404);
  });

  it("answers 404 to a used token and to an unknown one", async () => {
    const { org, owner, role, email } = await invited();
    const user = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const cookie = await sessionCookie(user.id);
    await answerInvitation(token, "accept", cookie);
    expect((await openInvitation(token, cookie)).status).toBe(404);
    expect((await answerInvitation(token, "accept", cookie)).status).toBe(404);
    expect((await answerInvitation(token, "decline", cookie)).status).toBe(404);
    expect((await invitationRow(org.id, email))?.status).toBe("Accepted");
    expect((await openInvitation("no-such-token", cookie)).status).toBe(404);
    expect((await openInvitation("x".repeat(5000), cookie)).status).toBe(404);
  });

  it("does not let another user take an invitation that names its invitee", async () => {
    const { org, owner, role, email } = await invited();
    const invitee = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const intruder = await makeUser();
    const cookie = await sessionCookie(intruder.id);
    expect((await openInvitation(token, cookie)).status).toBe(404);
    expect((await answerInvitation(token, "accept", cookie)).status).toBe(404);
    expect((await answerInvitation(token, "decline", cookie)).status).toBe(404);
    expect(await invitationRow(org.id, email)).toMatchObject({ user_id: invitee.id, status: "Pending" });
    expect(await canOpenOrg(intruder.id, org.id)).toBe(false);
  });

  it("tells a user who is already a member and leaves the invitation open", async () => {
    const { org, owner, role, email } = await invited();
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const token = await tokenMailedTo(email);
    const { user: member } = await makeMember(org.id, "r");
    const res = await answerInvitation(token, "accept", await sessionCookie(member.id));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "You are already a member of Java House." });
    expect(await invitationRow(org.id, email)).toMatchObject({ user_id: null, status: "Pending" });
  });

  it("answers 400 to an unknown intent", async () => {
    const { org, owner, role, email } = await invited();
    const user = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const res = await answerInvitation(await tokenMailedTo(email), "steal", await sessionCookie(user.id));
    expect(res.status).toBe(400);
    expect((await invitationRow(org.id, email))?.status).toBe("Pending");
  });

  it("can invite again after a decline, with a fresh link", async () => {
    const { org, owner, role, email } = await invited();
    const user = await makeUser({ email });
    await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    const first = await tokenMailedTo(email);
    await answerInvitation(first, "decline", await sessionCookie(user.id));
    const again = await postInvite(owner.id, org.id, { email, role_id: String(role.id) });
    expect(again.status).toBe(302);
    const second = await tokenMailedTo(email);
    expect(second).not.toBe(first);
    expect((await invitationRow(org.id, email))?.status).toBe("Pending");
    expect((await answerInvitation(second, "accept", await sessionCookie(user.id))).status).toBe(302);
    expect(await canOpenOrg(user.id, org.id)).toBe(true);
  });
});
