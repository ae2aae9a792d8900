// The Account service REST API (docs/guide/api.md#account-service) under /account/api/v1/…:
// route loaders and actions called with a Request, on SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildVenue, insertMembership, insertRole } from "~/tools/factories.server";
import { refusalMessage } from "~/lib/permissions";
import { ACCESS_CONTROL_MESSAGES } from "~/lib/schemas/access-control";
import { MESSAGES } from "~/lib/schemas/accounts";
import { ORGANIZATION_MESSAGES } from "~/lib/schemas/organizations";
import * as administrators from "~/routes/account+/api.v1.administrators";
import * as forgot from "~/routes/account+/api.v1.auth.password.forgot";
import * as reset from "~/routes/account+/api.v1.auth.password.reset";
import * as register from "~/routes/account+/api.v1.auth.register";
import * as organizations from "~/routes/account+/api.v1.organizations";
import * as organization from "~/routes/account+/api.v1.organizations.$id";
import { API_MAX_BODY_BYTES, API_MESSAGES } from "~/services/api.server";
import { issueToken, verifyLogin } from "~/services/auth.server";
import { INVITATION_REFUSALS } from "~/services/invitations.server";
import { ORGANIZATION_REFUSALS } from "~/services/organizations.server";
import { FORGOT_PASSWORD_SENT, PASSWORD_RESET_DONE, RESET_LINK_INVALID, RESET_LOGIN_ID_MISMATCH } from "~/services/password-reset.server";
import { BASE, makeMember, makeOrg, makeUser, run } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";

type Route = {
  loader: (args: LoaderFunctionArgs) => Promise<Response>;
  action: (args: ActionFunctionArgs) => Promise<Response>;
};

interface CallOptions {
  method?: string;
  token?: string;
  /** A JSON body (serialised here) or a raw one with its content type. */
  json?: unknown;
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

/** Calls the route as Remix would: GET and HEAD to the loader, any other method to the action. */
function call(route: Route, path: string, options: CallOptions = {}) {
  const method = options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  }
  if (options.contentType) headers.set("Content-Type", options.contentType);
  const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method, headers, body });
  const args = { request, params: options.params ?? {}, context: { clientAddress: "203.0.113.9" } };
  return run(() => (method === "GET" || method === "HEAD" ? route.loader(args) : route.action(args)));
}

const uniqueEmail = (tag: string) => `${tag}-${randomUUID()}@example.com`;

async function bodyOf<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

async function tokenFor(user: { id: number }) {
  return issueToken(user.id, "api");
}

async function addVenue(organizationId: number, name: string) {
  await db.insertInto("venues").values(buildVenue(organizationId, { name })).execute();
}

// ---------------------------------------------------------------------------------------------

describe("API bodies and methods", () => {
  it("answers 400 for malformed JSON, a JSON array and invalid UTF-8", async () => {
    for (const body of ["{not json", "[1, 2]", "null"]) {
      const res = await call(register, "auth/register", { body, contentType: "application/json" });
      expect(res.status).toBe(400);
      expect((await bodyOf<{ error: { message: string } }>(res)).error.message).toMatch(/JSON/);
    }
    const res = await call(register, "auth/register", { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), contentType: "application/json" });
    expect(res.status).toBe(400);
  });

  it("answers 413 for a body over the limit and 415 for another content type", async () => {
    const huge = JSON.stringify({ first_name: "x".repeat(API_MAX_BODY_BYTES) });
    const tooLarge = await call(register, "auth/register", { body: huge, contentType: "application/json" });
    expect(tooLarge.status).toBe(413);
    expect(await bodyOf(tooLarge)).toEqual({ error: { message: API_MESSAGES.tooLarge } });
    const text = await call(register, "auth/register", { body: "first_name=A", contentType: "text/plain" });
    expect(text.status).toBe(415);
  });

  it("refuses wrong JSON types and long strings per field with 422, never a 500", async () => {
    const res = await call(register, "auth/register", {
      json: { first_name: { a: 1 }, last_name: ["x".repeat(500)], email: 12, phone_number: true, password: null },
    });
    expect(res.status).toBe(422);
    const { errors } = await bodyOf<{ errors: Record<string, string[]> }>(res);
    expect(errors.first_name).toEqual([API_MESSAGES.wrongType]);
    expect(errors.last_name).toEqual([MESSAGES.tooLong]);
    expect(errors.email).toEqual([MESSAGES.emailInvalid]);
    expect(errors.phone_number).toEqual([MESSAGES.phoneInvalid]);
    expect(errors.password).toEqual([MESSAGES.passwordRequired]);
  });

  it("reads a multipart body like a form, and refuses a file in a field", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      first_name: "Multi",
      last_name: "Part",
      phone_number: "0722 000 999",
      password: "long-enough-1",
    })) {
      form.append(k, v);
    }
    form.append("email", uniqueEmail("multipart"));
    const res = await call(register, "auth/register", { body: form });
    expect(res.status).toBe(201);
    const withFile = new FormData();
    withFile.append("first_name", new Blob(["x"]), "name.txt");
    const refused = await call(register, "auth/register", { body: withFile });
    expect(refused.status).toBe(422);
    expect((await bodyOf<{ errors: Record<string, string[]> }>(refused)).errors.first_name).toEqual([API_MESSAGES.wrongType]);
  });

  it("answers 405 with Allow for a method the path does not take", async () => {
    const res = await call(register, "auth/register");
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    const patch = await call(organization, "organizations/1", { method: "PATCH", params: { id: "1" } });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("Allow")).toBe("GET, PUT, DELETE, HEAD");
  });

  it("answers 401 without a bearer token, with an unknown one, and ignores the cookie session", async () => {
    const { org } = await makeOrg();
    const cases: [Route, string, CallOptions][] = [
      [organizations, "organizations", {}],
      [organizations, "organizations", { json: { name: "X" } }],
      [organization, `organizations/${org.id}`, { params: { id: String(org.id) } }],
      [organization, `organizations/${org.id}`, { method: "PUT", json: { name: "X" }, params: { id: String(org.id) } }],
      [organization, `organizations/${org.id}`, { method: "DELETE", params: { id: String(org.id) } }],
      [administrators, `administrators?organization_id=${org.id}`, {}],
      [administrators, "administrators", { json: { email: "a@example.com", role_id: 1, organization: org.id } }],
      [administrators, "administrators", { method: "PUT", json: { status: "Accepted", organization_id: org.id } }],
    ];
    for (const [route, path, options] of cases) {
      for (const token of [undefined, "not-a-token"]) {
        const res = await call(route, path, { ...options, token });
        expect(res.status, `${options.method ?? "GET/POST"} ${path} token=${token}`).toBe(401);
        expect(await bodyOf(res)).toEqual({ error: { message: API_MESSAGES.unauthenticated } });
      }
    }
    expect(await db.selectFrom("organizations").select("name").execute()).toEqual([{ name: "Acme Cafe" }]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("POST auth/register", () => {
  const person = (email: string) => ({
    first_name: "Wanjiru",
    last_name: "Kamau",
    phone_number: "0712 000 111",
    email,
    password: "long-enough-1",
  });

  it("creates an unconfirmed account like the sign-up page, with no token, and takes a form body", async () => {
    const email = uniqueEmail("Reg");
    const res = await call(register, "auth/register", { json: { ...person(email.toUpperCase()), login: true } });
    expect(res.status).toBe(201);
    expect(await bodyOf(res)).toEqual({
      data: { message: `We have sent a link to ${email.toLowerCase()}. Open it to finish signing up.` },
    });
    const row = await db.selectFrom("users").select(["email", "phone_number", "email_verified_at"]).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: email.toLowerCase(), phone_number: "+254712000111", email_verified_at: null });
    expect(await db.selectFrom("api_tokens").select("id").execute()).toEqual([]);
    const form = await call(register, "auth/register", {
      body: new URLSearchParams({ ...person(uniqueEmail("form")), phone_number: "0712 000 222", login: "false" }),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(201);
  });

  it("answers 422 with the spec's messages, and a taken address exactly like a new one", async () => {
    const empty = await call(register, "auth/register", { json: {} });
    expect(empty.status).toBe(422);
    expect(await bodyOf(empty)).toEqual({
      errors: {
        first_name: [MESSAGES.firstNameRequired],
        last_name: [MESSAGES.lastNameRequired],
        phone_number: [MESSAGES.phoneRequired],
        email: [MESSAGES.emailRequired],
        password: [MESSAGES.passwordRequired],
      },
    });
    const email = uniqueEmail("taken");
    await makeUser({ email });
    const taken = await call(register, "auth/register", { json: { ...person(email), phone_number: "0733 444 555" } });
    expect(taken.status).toBe(201);
    expect(await bodyOf(taken)).toEqual({
      data: { message: `We have sent a link to ${email.toLowerCase()}. Open it to finish signing up.` },
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe("POST auth/password/forgot and auth/password/reset", () => {
  const tokenOf = (link: string | undefined) => link!.split("/").pop()!;

  it("mails a reset link on our origin and answers the page's neutral message", async () => {
    const email = uniqueEmail("forgot");
    await makeUser({ email });
    const res = await call(forgot, "auth/password/forgot", { json: { login_id: email } });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ data: { message: FORGOT_PASSWORD_SENT } });
    const [mail] = await mailsTo(email);
    expect(mail.link).toMatch(new RegExp(`^${BASE}/password/reset/[\\w-]+$`));
    expect(mail.text).toContain(mail.link);
  });

  it("uses a reset_link template on our own origin", async () => {
    const email = uniqueEmail("template");
    await makeUser({ email });
    await call(forgot, "auth/password/forgot", { json: { login_id: email, reset_link: `${BASE}/password/reset/{token}?from=script` } });
    const [mail] = await mailsTo(email);
    expect(mail.link).toMatch(new RegExp(`^${BASE}/password/reset/[\\w-]+\\?from=script$`));
  });

  it("ignores a reset_link to a foreign host and mails our own link", async () => {
    const email = uniqueEmail("foreign");
    await makeUser({ email });
    const foreign = [
      "https://evil.example/reset/{token}",
      "http://localhost@evil.example/{token}",
      "http://{token}.evil.example/",
      "javascript:alert('{token}')",
      "//evil.example/{token}",
    ];
    for (const reset_link of foreign) {
      const res = await call(forgot, "auth/password/forgot", { json: { login_id: email, reset_link } });
      expect(res.status).toBe(200);
    }
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(foreign.length);
    for (const mail of mails) {
      expect(mail.link!.startsWith(`${BASE}/password/reset/`)).toBe(true);
      expect(mail.text).not.toContain("evil");
    }
  });

  it("answers an unknown login id like a known one, 422 without one, 429 past the page's limit", async () => {
    const unknown = uniqueEmail("nobody");
    const res = await call(forgot, "auth/password/forgot", { json: { login_id: unknown } });
    expect(await bodyOf(res)).toEqual({ data: { message: FORGOT_PASSWORD_SENT } });
    expect(await mailsTo(unknown)).toEqual([]);

    const empty = await call(forgot, "auth/password/forgot", { json: { login_id: "  " } });
    expect(empty.status).toBe(422);
    expect(await bodyOf(empty)).toEqual({ errors: { login_id: [MESSAGES.loginIdRequired] } });

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(forgot, "auth/password/forgot", { json: { login_id: unknown } })).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    const limited = await call(forgot, "auth/password/forgot", { json: { login_id: unknown } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await bodyOf<{ error: { message: string } }>(limited)).error.message).toMatch(/^Too many attempts/);
  });

  it("resets the password with the mailed token, once", async () => {
    const email = uniqueEmail("reset");
    await makeUser({ email, password: "old-password" });
    await call(forgot, "auth/password/forgot", { json: { login_id: email } });
    const reset_token = tokenOf((await mailsTo(email))[0].link);
    const body = { login_id: email, reset_token, password: "new-password-1", password_confirmation: "new-password-1" };

    const res = await call(reset, "auth/password/reset", { json: body });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ message: PASSWORD_RESET_DONE });
    expect(await verifyLogin(email, "new-password-1")).not.toBeNull();
    expect(await verifyLogin(email, "old-password")).toBeNull();

    const again = await call(reset, "auth/password/reset", { json: body });
    expect(again.status).toBe(401);
    expect(await bodyOf(again)).toEqual({ error: { message: RESET_LINK_INVALID } });
  });

  it("answers 422 with the messages of the reset page, and for another account's login id", async () => {
    const empty = await call(reset, "auth/password/reset", { json: {} });
    expect(empty.status).toBe(422);
    const { errors } = await bodyOf<{ errors: Record<string, string[]> }>(empty);
    expect(errors.login_id).toEqual([MESSAGES.loginIdRequired]);
    expect(errors.password).toEqual([MESSAGES.passwordRequired]);
    expect(errors.password_confirmation).toEqual([MESSAGES.confirmationRequired]);
    expect(errors.reset_token).toEqual(["Reset token field is required."]);

    const email = uniqueEmail("owner");
    const other = await makeUser({ email: uniqueEmail("other") });
    await makeUser({ email });
    await call(forgot, "auth/password/forgot", { json: { login_id: email } });
    const reset_token = tokenOf((await mailsTo(email))[0].link);
    const wrong = await call(reset, "auth/password/reset", {
      json: { login_id: other.email, reset_token, password: "new-password-1", password_confirmation: "new-password-1" },
    });
    expect(wrong.status).toBe(422);
    expect(await bodyOf(wrong)).toEqual({ errors: { login_id: [RESET_LOGIN_ID_MISMATCH] } });

    const mismatch = await call(reset, "auth/password/reset", {
      json: { login_id: email, reset_token, password: "new-password-1", password_confirmation: "new-password-2" },
    });
    expect(await bodyOf(mismatch)).toEqual({ errors: { password_confirmation: [MESSAGES.passwordMismatch] } });
  });
});

// ---------------------------------------------------------------------------------------------

describe("GET organizations and GET organizations/{id}", () => {
  it("lists the user's memberships with the spec's fields, ISO times, and filters by admin_status", async () => {
    const { org: own, owner } = await makeOrg("Own Org");
    const { org: invited } = await makeOrg("Inviting Org");
    await insertMembership(invited.id, owner.id, (await insertRole(invited.id, "r")).id, "Pending");
    const token = await tokenFor(owner);

    const res = await call(organizations, "organizations", { token });
    expect(res.status).toBe(200);
    const { data } = await bodyOf<{ data: { organizations: Record<string, unknown>[]; meta: unknown } }>(res);
    const byId = new Map(data.organizations.map((o) => [o.id, o]));
    expect(byId.get(own.id)).toEqual({
      id: own.id,
      name: "Own Org",
      address: "1 Moi Avenue",
      email_address: null,
      phone_number: null,
      more_info: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.stringMatching(/Z$/),
      admin_status: "Accepted",
      im_admin: true,
    });
    expect(byId.get(invited.id)).toMatchObject({ admin_status: "Pending", im_admin: false });
    expect(data.meta).toEqual({ page: 1, per_page: 100, total: 2 });

    const pending = await call(organizations, "organizations?admin_status=Pending", { token });
    expect((await bodyOf<{ data: { organizations: { id: number }[] } }>(pending)).data.organizations.map((o) => o.id)).toEqual([
      invited.id,
    ]);

    const bad = await call(organizations, "organizations?admin_status=Maybe", { token });
    expect(bad.status).toBe(422);
    expect(await bodyOf(bad)).toEqual({ errors: { admin_status: ["Admin status must be Accepted, Declined or Pending."] } });
  });

  it("answers one organisation with counts and its venues by name", async () => {
    const { org, owner } = await makeOrg("Counted");
    await addVenue(org.id, "Zebra Lounge");
    await addVenue(org.id, "Alpha Hall");
    const res = await call(organization, `organizations/${org.id}`, { token: await tokenFor(owner), params: { id: String(org.id) } });
    expect(res.status).toBe(200);
    const { data } = await bodyOf<{ data: { organization: Record<string, unknown> } }>(res);
    expect(data.organization).toMatchObject({
      id: org.id,
      name: "Counted",
      admin_status: "Accepted",
      im_admin: true,
      venuesCount: 2,
      accessPointsCount: 0,
      connectionsCount: 0,
      customersCount: 0,
      onlineConnectionsCount: 0,
      devicesCount: 0,
    });
    expect(data.organization.venues).toEqual([
      { id: expect.any(Number), name: "Alpha Hall" },
      { id: expect.any(Number), name: "Zebra Lounge" },
    ]);
  });

  it("answers 404 JSON for a foreign, unknown, malformed or not yet accepted organisation", async () => {
    const { owner } = await makeOrg("Mine");
    const { org: foreign } = await makeOrg("Theirs");
    const { org: pending } = await makeOrg("Pending");
    await insertMembership(pending.id, owner.id, null, "Pending");
    const token = await tokenFor(owner);
    for (const id of [String(foreign.id), String(pending.id), "999999", "abc", "99999999999999999999", "1.5", "-1"]) {
      const res = await call(organization, `organizations/${id}`, { token, params: { id } });
      expect(res.status, id).toBe(404);
      expect(await bodyOf(res)).toEqual({ error: { message: API_MESSAGES.organizationNotFound } });
    }
  });

  it("refuses a member without view_settings, like the details page", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    const res = await call(organization, `organizations/${org.id}`, { token: await tokenFor(user), params: { id: String(org.id) } });
    expect(res.status).toBe(403);
    expect(await bodyOf(res)).toEqual({ error: { message: refusalMessage("view_settings") } });
  });
});

describe("POST, PUT and DELETE organizations", () => {
  it("creates an organisation whose creator is its administrator", async () => {
    const user = await makeUser();
    const res = await call(organizations, "organizations", {
      token: await tokenFor(user),
      json: { name: " New Place ", address: "Biashara St", more_info: "Rooftop", phone_number: "0711 222 333", email: "Hi@Example.com" },
    });
    expect(res.status).toBe(201);
    const { data } = await bodyOf<{ data: { message: string; organization: Record<string, unknown> } }>(res);
    expect(data.message).toBe("Organization created.");
    expect(data.organization).toMatchObject({
      name: "New Place",
      address: "Biashara St",
      more_info: "Rooftop",
      phone_number: "+254711222333",
      email_address: "hi@example.com",
      im_admin: true,
      admin_status: "Accepted",
      venuesCount: 0,
      venues: [],
    });
  });

  it("answers 422 with the spec's message and 403 without create_organizations", async () => {
    const user = await makeUser();
    const token = await tokenFor(user);
    const invalid = await call(organizations, "organizations", { token, json: { name: "", email: "nope", phone_number: "12" } });
    expect(invalid.status).toBe(422);
    expect(await bodyOf(invalid)).toEqual({
      errors: {
        name: [ORGANIZATION_MESSAGES.nameRequired],
        email: [ORGANIZATION_MESSAGES.emailInvalid],
        phone_number: [ORGANIZATION_MESSAGES.phoneInvalid],
      },
    });

    const { org } = await makeOrg();
    const { user: member } = await makeMember(org.id, "custom", ["view_settings"]);
    const refused = await call(organizations, "organizations", { token: await tokenFor(member), json: { name: "Another" } });
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({ error: { message: ORGANIZATION_REFUSALS.create } });
    expect(await db.selectFrom("organizations").select("id").execute()).toHaveLength(1);
  });

  it("updates an organisation for its administrator only", async () => {
    const { org, owner } = await makeOrg("Before");
    const params = { id: String(org.id) };
    const res = await call(organization, `organizations/${org.id}`, {
      method: "PUT",
      token: await tokenFor(owner),
      json: { name: "After", address: "", more_info: "Open late" },
      params,
    });
    expect(res.status).toBe(200);
    const { data } = await bodyOf<{ data: { message: string; organization: Record<string, unknown> } }>(res);
    expect(data.message).toBe("Organization updated.");
    expect(data.organization).toMatchObject({ id: org.id, name: "After", address: null, more_info: "Open late" });

    const invalid = await call(organization, `organizations/${org.id}`, { method: "PUT", token: await tokenFor(owner), json: {}, params });
    expect(invalid.status).toBe(422);
    expect(await bodyOf(invalid)).toEqual({ errors: { name: [ORGANIZATION_MESSAGES.nameRequired] } });

    const { user: fullAccess } = await makeMember(org.id, "r_w");
    const refused = await call(organization, `organizations/${org.id}`, {
      method: "PUT",
      token: await tokenFor(fullAccess),
      json: { name: "Hijacked" },
      params,
    });
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({ error: { message: "Only the organization's administrator can do that." } });
    expect((await db.selectFrom("organizations").select("name").where("id", "=", org.id).executeTakeFirstOrThrow()).name).toBe("After");

    const { org: foreign } = await makeOrg("Foreign");
    const notMine = await call(organization, `organizations/${foreign.id}`, {
      method: "PUT",
      token: await tokenFor(owner),
      json: { name: "Mine now" },
      params: { id: String(foreign.id) },
    });
    expect(notMine.status).toBe(404);
  });

  it("deletes an organisation for its administrator only", async () => {
    const { org, owner } = await makeOrg("Doomed");
    const params = { id: String(org.id) };
    const { user: reader } = await makeMember(org.id, "r");
    const refused = await call(organization, `organizations/${org.id}`, { method: "DELETE", token: await tokenFor(reader), params });
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({ error: { message: "Only the organization's administrator can do that." } });

    const res = await call(organization, `organizations/${org.id}`, { method: "DELETE", token: await tokenFor(owner), params });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ data: { message: "Doomed has been deleted." } });
    expect(await db.selectFrom("organizations").select("id").where("id", "=", org.id).execute()).toEqual([]);

    const gone = await call(organization, `organizations/${org.id}`, { method: "DELETE", token: await tokenFor(owner), params });
    expect(gone.status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------

describe("administrators", () => {
  it("lists the administrators for view_settings, by query or X-Organization-Id", async () => {
    const { org, owner } = await makeOrg();
    const { user: reader } = await makeMember(org.id, "r", [], { first_name: "Amina", last_name: "Otieno" });
    await db
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: null,
        role_id: null,
        invited_email_address: "later@example.com",
        status: "Pending",
        is_owner: 0,
        invite_token_hash: null,
        invited_by_user_id: owner.id,
        created_at: Date.now() + 1000,
        updated_at: Date.now(),
      })
      .execute();
    const token = await tokenFor(reader);

    const res = await call(administrators, `administrators?organization_id=${org.id}`, { token });
    expect(res.status).toBe(200);
    const { data } = await bodyOf<{ data: Record<string, unknown>[] }>(res);
    expect(data).toHaveLength(3);
    expect(data[0]).toMatchObject({ im_admin: true, status: "Accepted", role_name: "Administrator", user: { id: owner.id } });
    expect(data[1]).toMatchObject({ im_admin: false, user: { id: reader.id, name: "Amina Otieno", email: reader.email } });
    expect(data[2]).toMatchObject({ status: "Pending", invited_email_address: "later@example.com", user: null });

    const byHeader = await call(administrators, "administrators", { token, headers: { "X-Organization-Id": String(org.id) } });
    expect((await bodyOf<{ data: unknown[] }>(byHeader)).data).toHaveLength(3);
  });

  it("answers 422 without an organisation, 404 for a foreign one, 403 without view_settings", async () => {
    const { org, owner } = await makeOrg();
    const { org: foreign } = await makeOrg("Foreign");
    const token = await tokenFor(owner);
    const none = await call(administrators, "administrators", { token });
    expect(none.status).toBe(422);
    expect(await bodyOf(none)).toEqual({ errors: { organization_id: [API_MESSAGES.organizationRequired] } });
    for (const id of [String(foreign.id), "x", "1e3"]) {
      const res = await call(administrators, `administrators?organization_id=${id}`, { token });
      expect(res.status, id).toBe(404);
      expect(await bodyOf(res)).toEqual({ error: { message: API_MESSAGES.organizationNotFound } });
    }
    const { user } = await makeMember(org.id, "custom", ["create_administrators"]);
    const refused = await call(administrators, `administrators?organization_id=${org.id}`, { token: await tokenFor(user) });
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({ error: { message: refusalMessage("view_settings") } });
  });

  it("invites by email with our own confirmation link, whatever confirmation_link the client sends", async () => {
    const { org, owner } = await makeOrg("Inviters");
    const role = await insertRole(org.id, "r", [], "Viewer");
    const email = uniqueEmail("Invitee");
    const res = await call(administrators, "administrators", {
      token: await tokenFor(owner),
      json: { email, role_id: role.id, organization: org.id, confirmation_link: "https://evil.example/accept/{token}" },
    });
    expect(res.status).toBe(201);
    expect(await bodyOf(res)).toEqual({
      // mail_delivery: no SMTP_URL in the tests, so the mail stays in the outbox folder.
      data: {
        message: `Invitation sent to ${email.toLowerCase()}.`,
        organization: { id: org.id, name: "Inviters" },
        mail_delivery: "outbox",
      },
    });
    const [mail] = await mailsTo(email);
    expect(mail.link!.startsWith(`${BASE}/invitations/`)).toBe(true);
    expect(mail.text).not.toContain("evil");
    const row = await db
      .selectFrom("administrators")
      .select(["status", "role_id"])
      .where("invited_email_address", "=", email.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "Pending", role_id: role.id });

    const again = await call(administrators, "administrators", {
      token: await tokenFor(owner),
      json: { email, role_id: role.id },
      headers: { "X-Organization-Id": String(org.id) },
    });
    expect(again.status).toBe(422);
    expect(await bodyOf(again)).toEqual({ errors: { email: [INVITATION_REFUSALS.alreadyInvited] } });
  });

  it("answers 422 with the spec's messages, 404 for a foreign organisation or role", async () => {
    const { org, owner } = await makeOrg();
    const { org: foreign } = await makeOrg("Foreign");
    const foreignRole = await insertRole(foreign.id, "r");
    const token = await tokenFor(owner);
    const empty = await call(administrators, "administrators", { token, json: { organization: org.id } });
    expect(empty.status).toBe(422);
    expect(await bodyOf(empty)).toEqual({
      errors: { email: [ACCESS_CONTROL_MESSAGES.emailRequired], role_id: [ACCESS_CONTROL_MESSAGES.roleRequired] },
    });
    const noOrg = await call(administrators, "administrators", { token, json: { email: "a@example.com", role_id: 1 } });
    expect(noOrg.status).toBe(422);
    expect(await bodyOf(noOrg)).toEqual({ errors: { organization: [API_MESSAGES.organizationRequired] } });
    const foreignOrg = await call(administrators, "administrators", {
      token,
      json: { email: "a@example.com", role_id: foreignRole.id, organization: foreign.id },
    });
    expect(foreignOrg.status).toBe(404);
    const otherRole = await call(administrators, "administrators", {
      token,
      json: { email: "a@example.com", role_id: foreignRole.id, organization: org.id },
    });
    expect(otherRole.status).toBe(404);
    expect(await bodyOf(otherRole)).toEqual({ error: { message: "Role not found." } });
    expect(await db.selectFrom("administrators").select("id").where("invited_email_address", "=", "a@example.com").execute()).toEqual([]);
  });

  it("refuses to invite without create_administrators, and for anyone but the administrator", async () => {
    const { org } = await makeOrg();
    const role = await insertRole(org.id, "r");
    const body = { email: uniqueEmail("x"), role_id: role.id, organization: org.id };
    const { user: viewer } = await makeMember(org.id, "custom", ["view_settings"]);
    const noPermission = await call(administrators, "administrators", { token: await tokenFor(viewer), json: body });
    expect(noPermission.status).toBe(403);
    expect(await bodyOf(noPermission)).toEqual({ error: { message: refusalMessage("create_administrators") } });
    const { user: fullAccess } = await makeMember(org.id, "r_w");
    const notOwner = await call(administrators, "administrators", { token: await tokenFor(fullAccess), json: body });
    expect(notOwner.status).toBe(403);
    expect(await bodyOf(notOwner)).toEqual({ error: { message: "Only the organization's administrator can do that." } });
    expect(await mailsTo(body.email)).toEqual([]);
  });

  it("answers an invitation: accept, decline, delete; the administrator cannot leave", async () => {
    const { org, owner } = await makeOrg("Host");
    const invitee = await makeUser();
    await insertMembership(org.id, invitee.id, (await insertRole(org.id, "r")).id, "Pending");
    const token = await tokenFor(invitee);
    const answer = (status: unknown, organization_id: unknown = org.id, t = token) =>
      call(administrators, "administrators", { method: "PUT", token: t, json: { status, organization_id } });

    const accepted = await answer("Accepted");
    expect(accepted.status).toBe(200);
    expect(await bodyOf(accepted)).toEqual({ data: { message: "You have joined Host." } });
    expect(await bodyOf(await answer("Declined"))).toEqual({ data: { message: "You have declined Host." } });
    expect(await bodyOf(await answer("Delete"))).toEqual({ data: { message: "You have left Host." } });
    expect(await db.selectFrom("administrators").select("id").where("user_id", "=", invitee.id).execute()).toEqual([]);

    const ownerLeaves = await answer("Delete", org.id, await tokenFor(owner));
    expect(ownerLeaves.status).toBe(403);
    expect(await bodyOf(ownerLeaves)).toEqual({ error: { message: ORGANIZATION_REFUSALS.ownerCannotLeave } });

    const bad = await answer("Maybe", null);
    expect(bad.status).toBe(422);
    expect(await bodyOf(bad)).toEqual({
      errors: { status: ["Status must be Accepted, Declined or Delete."], organization_id: [API_MESSAGES.organizationRequired] },
    });
    for (const id of [org.id, "abc", 99999999999]) {
      const res = await answer("Accepted", id);
      expect(res.status, String(id)).toBe(404);
      expect(await bodyOf(res)).toEqual({ error: { message: API_MESSAGES.organizationNotFound } });
    }
  });
});
