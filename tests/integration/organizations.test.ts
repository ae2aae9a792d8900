import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { insertMembership, insertRole } from "~/tools/factories.server";
import { loader as chooserLoader } from "~/routes/_index";
import { action as detailsAction, loader as detailsLoader } from "~/routes/$orgId+/organization+/details";
import { action as createAction, loader as createLoader } from "~/routes/organizations+/create";
import { action as listAction, loader as listLoader } from "~/routes/organizations+/_index";
import { requireOrg } from "~/services/guard.server";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

const noParams = { params: {}, context: {} };

/** The session a response's Set-Cookie stores. */
async function sessionOf(res: Response) {
  const setCookie = res.headers.get("Set-Cookie");
  expect(setCookie).toBeTruthy();
  return sessionStorage().getSession(setCookie!.split(";")[0]);
}

async function membershipStatus(orgId: number, userId: number) {
  const row = await db
    .selectFrom("administrators")
    .select("status")
    .where("organization_id", "=", orgId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.status ?? null;
}

describe("organisation chooser (/)", () => {
  it("lists only the organisations the user has accepted, and notes pending invitations", async () => {
    const user = await makeUser();
    const { org: mine } = await makeOrg("Mine Cafe", user);
    const { org: pending } = await makeOrg("Pending Hotel");
    const { org: declined } = await makeOrg("Declined Mall");
    await insertMembership(pending.id, user.id, null, "Pending");
    await insertMembership(declined.id, user.id, null, "Declined");
    const res = await run(async () => chooserLoader({ request: makeRequest("/", { cookie: await sessionCookie(user.id) }), ...noParams }));
    const data = await res.json();
    expect(data.organizations).toEqual([{ id: mine.id, name: "Mine Cafe", address: "1 Moi Avenue" }]);
    expect(data.pendingInvitations).toBe(1);
    expect(data.canCreate).toBe(true);
  });

  it("sends a member of one organisation, with no invitation waiting, straight to it", async () => {
    const user = await makeUser();
    const { org } = await makeOrg("Only Cafe", user);
    const res = await run(async () => chooserLoader({ request: makeRequest("/", { cookie: await sessionCookie(user.id) }), ...noParams }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}`);

    const { org: second } = await makeOrg("Second Hotel");
    await insertMembership(second.id, user.id, null, "Accepted");
    const both = await run(async () => chooserLoader({ request: makeRequest("/", { cookie: await sessionCookie(user.id) }), ...noParams }));
    expect(both.status).toBe(200);
    expect((await both.json()).organizations).toHaveLength(2);
  });

  it("sends a visitor without a session to login", async () => {
    const res = await run(() => chooserLoader({ request: makeRequest("/"), ...noParams }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
  });
});

describe("creating an organisation (/organizations/create)", () => {
  const post = async (userId: number, form: Record<string, string>) =>
    run(async () =>
      createAction({ request: makeRequest("/organizations/create", { form, cookie: await sessionCookie(userId) }), ...noParams }),
    );

  it("requires a name with the spec's message and creates nothing", async () => {
    const user = await makeUser();
    const res = await post(user.id, { name: "  ", address: "Nairobi" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.name).toEqual(["Name field is required."]);
    expect(await db.selectFrom("organizations").select("id").execute()).toEqual([]);
  });

  it("rejects a malformed phone number and email with clear messages", async () => {
    const user = await makeUser();
    const res = await post(user.id, { name: "Cafe", phone_number: "12ab", email: "not-an-email" });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.phone_number[0]).toMatch(/valid phone number/);
    expect(error.email).toEqual(["Please enter a valid email address."]);
  });

  it("rejects huge values with a message instead of failing", async () => {
    const user = await makeUser();
    const res = await post(user.id, { name: "x".repeat(10_000) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.name).toEqual(["This value is too long."]);
  });

  it("makes the creator the owner with every permission, stores the organisation in the session and goes to it", async () => {
    const user = await makeUser();
    const res = await post(user.id, {
      name: "Java House",
      address: "Kimathi Street",
      phone_number: "0712 345 678",
      email: "Info@JavaHouse.example",
      more_info: "Coffee",
    });
    expect(res.status).toBe(302);
    const org = await db.selectFrom("organizations").selectAll().executeTakeFirstOrThrow();
    expect(res.headers.get("Location")).toBe(`/${org.id}`);
    expect(org).toMatchObject({
      name: "Java House",
      address: "Kimathi Street",
      phone_number: "+254712345678",
      email_address: "info@javahouse.example",
      more_info: "Coffee",
      created_by_user_id: user.id,
    });
    const session = await sessionOf(res);
    expect(session.get("orgId")).toBe(org.id);
    expect(session.get("toast")).toEqual({ type: "success", message: "Organization created." });
    const ctx = await requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(user.id) }), { orgId: String(org.id) });
    expect(ctx.isOwner).toBe(true);
    expect(ctx.permissions.has("delete_roles")).toBe(true);
    expect(ctx.permissions.has("create_organizations")).toBe(true);
  });
});

describe("who may create an organisation", () => {
  it("lets a user without an accepted membership create a first one, even with pending invitations", async () => {
    const user = await makeUser();
    const { org } = await makeOrg("Inviter");
    await insertMembership(org.id, user.id, null, "Pending");
    const cookie = await sessionCookie(user.id);
    expect((await run(() => createLoader({ request: makeRequest("/organizations/create", { cookie }), ...noParams }))).status).toBe(200);
    const res = await run(() =>
      createAction({ request: makeRequest("/organizations/create", { form: { name: "First" }, cookie }), ...noParams }),
    );
    expect(res.status).toBe(302);
  });

  it("refuses a member without create_organizations with 403 in the action and creates nothing", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r");
    const cookie = await sessionCookie(user.id);
    const res = await run(() =>
      createAction({ request: makeRequest("/organizations/create", { form: { name: "Sneaky" }, cookie }), ...noParams }),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to create organizations." });
    expect(await db.selectFrom("organizations").select("name").where("name", "=", "Sneaky").execute()).toEqual([]);
    expect((await run(() => createLoader({ request: makeRequest("/organizations/create", { cookie }), ...noParams }))).status).toBe(403);
    const list = await (await run(() => listLoader({ request: makeRequest("/organizations", { cookie }), ...noParams }))).json();
    expect(list.canCreate).toBe(false);
  });

  it("allows a member whose role holds create_organizations", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["create_organizations"]);
    const cookie = await sessionCookie(user.id);
    const res = await run(() =>
      createAction({ request: makeRequest("/organizations/create", { form: { name: "Branch" }, cookie }), ...noParams }),
    );
    expect(res.status).toBe(302);
  });

  it("allows a full-access member", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r_w");
    const res = await run(async () =>
      createAction({
        request: makeRequest("/organizations/create", { form: { name: "Branch" }, cookie: await sessionCookie(user.id) }),
        ...noParams,
      }),
    );
    expect(res.status).toBe(302);
  });
});

describe("organisations list and invitations (/organizations)", () => {
  async function setup() {
    const user = await makeUser();
    const { org: owned } = await makeOrg("Owned", user);
    const { org: invited } = await makeOrg("Invited");
    const { org: declined } = await makeOrg("Declined");
    const { org: joined } = await makeOrg("Joined");
    await insertMembership(invited.id, user.id, (await insertRole(invited.id, "r")).id, "Pending");
    await insertMembership(declined.id, user.id, null, "Declined");
    await insertMembership(joined.id, user.id, null, "Accepted");
    return { user, owned, invited, declined, joined, cookie: await sessionCookie(user.id) };
  }

  const post = (cookie: string, form: Record<string, string>) =>
    run(() => listAction({ request: makeRequest("/organizations", { form, cookie }), ...noParams }));

  it("lists every membership with the answers each one offers", async () => {
    const { cookie, owned, invited, declined, joined } = await setup();
    const data = await (await run(() => listLoader({ request: makeRequest("/organizations", { cookie }), ...noParams }))).json();
    const byId = Object.fromEntries(data.memberships.map((m: { organizationId: number }) => [m.organizationId, m]));
    expect(Object.keys(byId)).toHaveLength(4);
    expect(byId[invited.id]).toMatchObject({ status: "Pending", actions: { accept: true, decline: true, delete: true } });
    expect(byId[declined.id]).toMatchObject({ status: "Declined", actions: { accept: true, decline: false, delete: true } });
    expect(byId[joined.id]).toMatchObject({ status: "Accepted", actions: { accept: false, decline: true, delete: true } });
    expect(byId[owned.id]).toMatchObject({ isOwner: true, actions: { accept: false, decline: false, delete: false } });
    expect(byId[joined.id]).toMatchObject({ name: "Joined", address: "1 Moi Avenue" });
    expect(data.canCreate).toBe(true);
  });

  it("accepts an invitation", async () => {
    const { user, cookie, invited } = await setup();
    const res = await post(cookie, { intent: "accept", organization_id: String(invited.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/organizations");
    expect(await membershipStatus(invited.id, user.id)).toBe("Accepted");
  });

  it("declines an invitation and forgets it as the session's organisation", async () => {
    const { user, joined } = await setup();
    const cookie = await sessionCookie(user.id, joined.id);
    const res = await post(cookie, { intent: "decline", organization_id: String(joined.id) });
    expect(res.status).toBe(302);
    expect(await membershipStatus(joined.id, user.id)).toBe("Declined");
    expect((await sessionOf(res)).get("orgId")).toBeUndefined();
  });

  it("asks 'Are you sure you want to delete {name}?' before deleting and changes nothing until confirmed", async () => {
    const { user, cookie, declined } = await setup();
    const res = await post(cookie, { intent: "delete", organization_id: String(declined.id) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      confirm: { message: "Are you sure you want to delete Declined?", intent: "delete", fields: { organization_id: String(declined.id) } },
    });
    expect(await membershipStatus(declined.id, user.id)).toBe("Declined");
  });

  it("deletes the membership once confirmed and returns to the list", async () => {
    const { user, cookie, joined } = await setup();
    const res = await post(cookie, { intent: "delete", organization_id: String(joined.id), confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/organizations");
    expect(await membershipStatus(joined.id, user.id)).toBeNull();
    expect(await db.selectFrom("organizations").select("id").where("id", "=", joined.id).execute()).toHaveLength(1);
  });

  it("refuses to let the owner decline or leave their own organisation", async () => {
    const { user, cookie, owned } = await setup();
    for (const intent of ["decline", "delete"]) {
      const res = await post(cookie, { intent, organization_id: String(owned.id), confirmed: "yes" });
      expect(res.status).toBe(403);
      expect((await res.json()).message).toMatch(/administrator/);
    }
    expect(await membershipStatus(owned.id, user.id)).toBe("Accepted");
  });

  it("answers 404 for an organisation the user has no membership of, and for malformed ids", async () => {
    const { cookie } = await setup();
    const { org: foreign } = await makeOrg("Foreign");
    for (const id of [String(foreign.id), "abc", "99999999999999999999", "0", "-1", ""]) {
      const res = await post(cookie, { intent: "accept", organization_id: id });
      expect(res.status, id).toBe(404);
    }
    expect((await post(cookie, { intent: "delete", organization_id: String(foreign.id), confirmed: "yes" })).status).toBe(404);
    expect(await db.selectFrom("administrators").select("user_id").where("organization_id", "=", foreign.id).execute()).toHaveLength(1);
  });

  it("answers 400 to an unknown intent", async () => {
    const { cookie, invited } = await setup();
    for (const intent of ["promote", "constructor", ""]) {
      expect((await post(cookie, { intent, organization_id: String(invited.id) })).status).toBe(400);
    }
  });
});

describe("organisation details (/{orgId}/organization/details)", () => {
  const params = (orgId: number) => ({ orgId: String(orgId) });
  const url = (orgId: number) => `/${orgId}/organization/details`;

  it("shows the form with details and counts; the Update button only to the administrator", async () => {
    const { org, owner } = await makeOrg("Details Cafe");
    const { user: reader } = await makeMember(org.id, "r");
    const asOwner = await (
      await run(async () =>
        detailsLoader({
          request: makeRequest(url(org.id), { cookie: await sessionCookie(owner.id) }),
          params: params(org.id),
          context: {},
        }),
      )
    ).json();
    expect(asOwner).toMatchObject({ organization: { name: "Details Cafe", address: "1 Moi Avenue" }, isAdministrator: true });
    expect(asOwner.counts).toEqual({
      venuesCount: 0,
      accessPointsCount: 0,
      customersCount: 0,
      devicesCount: 0,
      connectionsCount: 0,
      onlineConnectionsCount: 0,
    });
    const asReader = await (
      await run(async () =>
        detailsLoader({
          request: makeRequest(url(org.id), { cookie: await sessionCookie(reader.id) }),
          params: params(org.id),
          context: {},
        }),
      )
    ).json();
    expect(asReader.isAdministrator).toBe(false);
  });

  it("refuses a member without view_settings", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    const res = await run(async () =>
      detailsLoader({ request: makeRequest(url(org.id), { cookie: await sessionCookie(user.id) }), params: params(org.id), context: {} }),
    );
    expect(res.status).toBe(403);
  });

  it("lets the administrator update the organisation", async () => {
    const { org, owner } = await makeOrg("Old Name");
    const res = await run(async () =>
      detailsAction({
        request: makeRequest(url(org.id), {
          form: { intent: "update", name: "New Name", address: "", email: "a@b.example", phone_number: "+254 712 000 111", more_info: "x" },
          cookie: await sessionCookie(owner.id),
        }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(url(org.id));
    const row = await db.selectFrom("organizations").selectAll().where("id", "=", org.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: "New Name",
      address: null,
      email_address: "a@b.example",
      phone_number: "+254712000111",
      more_info: "x",
    });
  });

  it("validates the update with the spec's message", async () => {
    const { org, owner } = await makeOrg("Keep");
    const res = await run(async () =>
      detailsAction({
        request: makeRequest(url(org.id), { form: { intent: "update", name: "" }, cookie: await sessionCookie(owner.id) }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.name).toEqual(["Name field is required."]);
  });

  it("refuses an update by a non-administrator, even with full access, and changes nothing", async () => {
    const { org } = await makeOrg("Unchanged");
    const { user } = await makeMember(org.id, "r_w");
    const res = await run(async () =>
      detailsAction({
        request: makeRequest(url(org.id), { form: { intent: "update", name: "Hijacked" }, cookie: await sessionCookie(user.id) }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(403);
    const row = await db.selectFrom("organizations").select("name").where("id", "=", org.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Unchanged");
  });

  it("refuses deletion by a non-administrator", async () => {
    const { org } = await makeOrg("Stays");
    const { user } = await makeMember(org.id, "r_w");
    const res = await run(async () =>
      detailsAction({
        request: makeRequest(url(org.id), { form: { intent: "delete", confirmed: "yes" }, cookie: await sessionCookie(user.id) }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(403);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", org.id).execute()).toHaveLength(1);
  });

  it("asks before deleting, then deletes the organisation with its memberships and roles", async () => {
    const { org, owner } = await makeOrg("Doomed");
    const { org: other } = await makeOrg("Survivor");
    await makeMember(org.id, "r");
    await makeMember(other.id, "r");
    const cookie = await sessionCookie(owner.id, org.id);
    const ask = await run(() =>
      detailsAction({ request: makeRequest(url(org.id), { form: { intent: "delete" }, cookie }), params: params(org.id), context: {} }),
    );
    expect(await ask.json()).toEqual({ confirm: { message: "Are you sure you want to delete Doomed?", intent: "delete", fields: {} } });
    expect(await db.selectFrom("organizations").select("id").where("id", "=", org.id).execute()).toHaveLength(1);

    const res = await run(() =>
      detailsAction({
        request: makeRequest(url(org.id), { form: { intent: "delete", confirmed: "yes" }, cookie }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/organizations");
    expect((await sessionOf(res)).get("orgId")).toBeUndefined();
    expect(await db.selectFrom("organizations").select("id").where("id", "=", org.id).execute()).toEqual([]);
    expect(await db.selectFrom("administrators").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
    expect(await db.selectFrom("roles").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
    expect(await db.selectFrom("administrators").select("id").where("organization_id", "=", other.id).execute()).toHaveLength(2);
  });

  it("answers 404 for another organisation's id and for malformed ids", async () => {
    const { owner } = await makeOrg("Mine");
    const { org: foreign } = await makeOrg("Theirs");
    const cookie = await sessionCookie(owner.id);
    for (const orgId of [String(foreign.id), "abc", "99999999999999999999"]) {
      const loaded = await run(() =>
        detailsLoader({ request: makeRequest(`/${orgId}/organization/details`, { cookie }), params: { orgId }, context: {} }),
      );
      expect(loaded.status, orgId).toBe(404);
      const posted = await run(() =>
        detailsAction({
          request: makeRequest(`/${orgId}/organization/details`, { form: { intent: "delete", confirmed: "yes" }, cookie }),
          params: { orgId },
          context: {},
        }),
      );
      expect(posted.status, orgId).toBe(404);
    }
    expect(await db.selectFrom("organizations").select("id").where("id", "=", foreign.id).execute()).toHaveLength(1);
  });

  it("answers 400 to an unknown intent", async () => {
    const { org, owner } = await makeOrg();
    const res = await run(async () =>
      detailsAction({
        request: makeRequest(url(org.id), { form: { intent: "nope" }, cookie: await sessionCookie(owner.id) }),
        params: params(org.id),
        context: {},
      }),
    );
    expect(res.status).toBe(400);
  });
});
