import { describe, expect, it } from "vitest";
import { requireOrg } from "~/services/guard.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

describe("requireOrg", () => {
  it("sends a visitor without a session to login, remembering the wanted URL", async () => {
    const res = await run(() => requireOrg(makeRequest("/5/venues?page=2"), { orgId: "5" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2F5%2Fvenues%3Fpage%3D2");
  });

  it("gives the owner every permission", async () => {
    const { org, owner } = await makeOrg();
    const ctx = await requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(owner.id) }), { orgId: String(org.id) });
    expect(ctx.isOwner).toBe(true);
    expect(ctx.permissions.has("delete_roles")).toBe(true);
  });

  it("gives a read-only member every view permission and nothing else", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r");
    const ctx = await requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(user.id) }), { orgId: String(org.id) });
    expect(ctx.permissions.has("view_networks")).toBe(true);
    expect(ctx.permissions.has("edit_networks")).toBe(false);
  });

  it("gives a custom member exactly the chosen permissions", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["edit_connections"]);
    const ctx = await requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(user.id) }), { orgId: String(org.id) });
    expect([...ctx.permissions]).toEqual(["edit_connections"]);
  });

  it("answers 404 for an organisation the user does not belong to", async () => {
    const { org } = await makeOrg("Other");
    const stranger = await makeUser();
    const res = await run(async () =>
      requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(stranger.id) }), { orgId: String(org.id) }),
    );
    expect(res.status).toBe(404);
  });

  it("answers 404 for a malformed organisation id", async () => {
    const user = await makeUser();
    const res = await run(async () => requireOrg(makeRequest(`/abc`, { cookie: await sessionCookie(user.id) }), { orgId: "abc" }));
    expect(res.status).toBe(404);
  });

  it("refuses with the spec's message when the permission is missing", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r");
    const res = await run(async () =>
      requireOrg(makeRequest(`/${org.id}`, { cookie: await sessionCookie(user.id) }), { orgId: String(org.id) }, "delete_roles"),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to delete administrator roles" });
  });

  it("accepts an API client's bearer token and organisation header", async () => {
    const { org, owner } = await makeOrg();
    const { issueToken } = await import("~/services/auth.server");
    const token = await issueToken(owner.id, "api");
    const ctx = await requireOrg(
      makeRequest("/account/api/v1/x", { headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id) } }),
      {},
    );
    expect(ctx.org.id).toBe(org.id);
    const res = await run(() => requireOrg(makeRequest("/x", { headers: { Authorization: "Bearer nope" } }), { orgId: "1" }));
    expect(res.status).toBe(401);
  });
});

describe("requireOrg on a path that names no organisation", () => {
  it("answers 404 even without a session", async () => {
    const res = await run(() => requireOrg(makeRequest("/no/such/page"), { orgId: "no" }));
    expect(res.status).toBe(404);
  });
});

describe("requireOrg with an id beyond the id column's range", () => {
  it("answers 404, not a database error", async () => {
    const user = await makeUser();
    const res = await run(async () =>
      requireOrg(makeRequest("/99999999999", { cookie: await sessionCookie(user.id) }), { orgId: "99999999999" }),
    );
    expect(res.status).toBe(404);
  });
});
