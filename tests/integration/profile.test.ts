import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import * as profileLayout from "~/routes/$orgId+/profile+/_layout";
import * as account from "~/routes/$orgId+/profile+/_index";
import * as password from "~/routes/$orgId+/profile+/password";
import { verifyLogin } from "~/services/auth.server";
import { userForToken } from "~/services/guard.server";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

function call(fn: RouteFunction, cookie: string, orgId: number, path: string, form?: Record<string, string>) {
  return run(() =>
    fn({ request: makeRequest(`/${orgId}/profile${path}`, { form, cookie }), params: { orgId: String(orgId) }, context: {} }),
  );
}

async function tokenOf(cookie: string): Promise<string> {
  return (await sessionStorage().getSession(cookie)).get("token")!;
}

const userRow = (id: number) =>
  db
    .selectFrom("users")
    .select(["first_name", "middle_name", "last_name", "email", "phone_number"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

/** An organisation and its owner, with the owner's full user record. */
async function orgOwnedBy() {
  const owner = await makeUser({ email: "achieng@example.com" });
  const { org } = await makeOrg("Acme Cafe", owner);
  return { org, owner };
}

const validProfile = {
  first_name: "Achieng",
  middle_name: "",
  last_name: "Odhiambo",
  email: "achieng@example.com",
  phone_number: "0722 000 111",
};

describe("profile (/{orgId}/profile)", () => {
  it("shows the signed-in user's name, phone and email to any member, without extra permission", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", [], { first_name: "Baraka", last_name: "Mwangi", phone_number: "0733111222" });
    const res = await call(profileLayout.loader, await sessionCookie(user.id), org.id, "");
    expect(await res.json()).toEqual({
      orgId: org.id,
      user: { name: "Baraka Mwangi", email: user.email, phoneNumber: "+254733111222" },
    });
    const form = await (await call(account.loader, await sessionCookie(user.id), org.id, "")).json();
    expect(form.user).toEqual({
      first_name: "Baraka",
      middle_name: "",
      last_name: "Mwangi",
      email: user.email,
      phone_number: "+254733111222",
    });
  });

  it("answers 404 under an organisation the user does not belong to, and sends a visitor to login", async () => {
    const { org } = await makeOrg();
    const stranger = await makeUser();
    expect((await call(account.loader, await sessionCookie(stranger.id), org.id, "")).status).toBe(404);
    expect((await call(account.action, await sessionCookie(stranger.id), org.id, "", validProfile)).status).toBe(404);
    const visitor = await call(password.loader, "", org.id, "/password");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("account details form", () => {
  it("requires first name, last name, phone number and email with the spec's messages; middle name is optional", async () => {
    const { org, owner } = await orgOwnedBy();
    const before = await userRow(owner.id);
    const res = await call(account.action, await sessionCookie(owner.id), org.id, "", {
      first_name: "",
      middle_name: "",
      last_name: " ",
      email: "",
      phone_number: "",
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toEqual({
      first_name: ["First name field is required."],
      last_name: ["Last name field is required."],
      phone_number: ["Phone number field is required."],
      email: ["Email field is required."],
    });
    expect(await userRow(owner.id)).toEqual(before);
  });

  it("refuses an invalid email and phone number", async () => {
    const { org, owner } = await orgOwnedBy();
    const res = await call(account.action, await sessionCookie(owner.id), org.id, "", {
      ...validProfile,
      email: "nope",
      phone_number: "12",
    });
    const { error } = await res.json();
    expect(error.email).toEqual(["Please enter a valid email address."]);
    expect(error.phone_number[0]).toMatch(/valid phone number/);
  });

  it("refuses an email or phone number that belongs to another account and changes nothing", async () => {
    const { org, owner } = await orgOwnedBy();
    const other = await makeUser({ email: "taken@example.com", phone_number: "0799000111" });
    const before = await userRow(owner.id);
    const res = await call(account.action, await sessionCookie(owner.id), org.id, "", {
      ...validProfile,
      email: "TAKEN@example.com",
      phone_number: "+254 799 000 111",
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.email).toEqual(["This email address is already used by another account."]);
    expect(error.phone_number).toEqual(["This phone number is already used by another account."]);
    expect(await userRow(owner.id)).toEqual(before);
    expect(other.id).not.toBe(owner.id);
  });

  // A new e-mail address needs the current password and a confirmation: tests/integration/registration.test.ts.
  it("updates the details, normalising email and phone, and keeps the user's own email and phone acceptable", async () => {
    const { org, owner } = await orgOwnedBy();
    const cookie = await sessionCookie(owner.id);
    const res = await call(account.action, cookie, org.id, "", { ...validProfile, middle_name: "Atieno", email: "Achieng@Example.com" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/profile`);
    expect(await userRow(owner.id)).toEqual({
      first_name: "Achieng",
      middle_name: "Atieno",
      last_name: "Odhiambo",
      email: "achieng@example.com",
      phone_number: "+254722000111",
    });
    // Saving again with the same email and phone is not a conflict; an empty middle name clears it.
    const again = await call(account.action, cookie, org.id, "", validProfile);
    expect(again.status).toBe(302);
    expect((await userRow(owner.id)).middle_name).toBeNull();
    expect(await verifyLogin("0722000111", "password123")).toMatchObject({ id: owner.id });
  });
});

describe("password change (/{orgId}/profile/password)", () => {
  it("requires the three fields with the spec's messages", async () => {
    const { org, owner } = await orgOwnedBy();
    const res = await call(password.action, await sessionCookie(owner.id), org.id, "/password", {});
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toEqual({
      old_password: ["Old Password field is required."],
      password: ["New password field is required."],
      password_confirmation: ["New password confirmation field is required."],
    });
  });

  it("refuses a short password and a mismatched confirmation, and never sends passwords back", async () => {
    const { org, owner } = await orgOwnedBy();
    const cookie = await sessionCookie(owner.id);
    const short = await call(password.action, cookie, org.id, "/password", {
      old_password: "password123",
      password: "short",
      password_confirmation: "short",
    });
    expect((await short.json()).error.password).toEqual(["The password must be at least 8 characters."]);
    const mismatch = await call(password.action, cookie, org.id, "/password", {
      old_password: "password123",
      password: "new-password-1",
      password_confirmation: "new-password-2",
    });
    const body = await mismatch.json();
    expect(body.error.password_confirmation).toEqual(["The password confirmation does not match."]);
    expect(JSON.stringify(body)).not.toContain("new-password-1");
    expect(await verifyLogin(owner.email, "password123")).toBeTruthy();
  });

  it("refuses a wrong old password and keeps the password", async () => {
    const { org, owner } = await orgOwnedBy();
    const res = await call(password.action, await sessionCookie(owner.id), org.id, "/password", {
      old_password: "not-my-password",
      password: "new-password-1",
      password_confirmation: "new-password-1",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.old_password).toEqual(["The old password is incorrect."]);
    expect(await verifyLogin(owner.email, "password123")).toBeTruthy();
    expect(await verifyLogin(owner.email, "new-password-1")).toBeNull();
  });

  it("changes the password, keeps this session and signs out every other one", async () => {
    const { org, owner } = await orgOwnedBy();
    const current = await sessionCookie(owner.id);
    const otherBrowser = await sessionCookie(owner.id);
    const res = await call(password.action, current, org.id, "/password", {
      old_password: "password123",
      password: "new-password-1",
      password_confirmation: "new-password-1",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/profile/password`);
    const toast = (await sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0])).get("toast");
    expect(toast?.type).toBe("success");

    expect(await verifyLogin(owner.email, "new-password-1")).toMatchObject({ id: owner.id });
    expect(await verifyLogin(owner.email, "password123")).toBeNull();
    expect(await userForToken(await tokenOf(current), "web")).toMatchObject({ id: owner.id });
    expect(await userForToken(await tokenOf(otherBrowser), "web")).toBeNull();
  });
});
