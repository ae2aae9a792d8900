import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer } from "@remix-run/react";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { insertMembership, insertRole } from "~/tools/factories.server";
import { VIEW_PERMISSIONS, type Permission } from "~/lib/permissions";
import * as administrators from "~/routes/$orgId+/organization+/administrators";
import * as organizationIndex from "~/routes/$orgId+/organization+/_index";
import * as organizationLayout from "~/routes/$orgId+/organization+/_layout";
import * as roleDetail from "~/routes/$orgId+/organization+/roles+/$roleId";
import * as roles from "~/routes/$orgId+/organization+/roles+/_index";
import * as newRole from "~/routes/$orgId+/organization+/roles+/new";
import { requireOrg } from "~/services/guard.server";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

/** Calls a loader (no form) or an action (form) of an organisation route as a signed-in user. */
async function call(
  fn: RouteFunction,
  userId: number,
  orgId: number,
  path: string,
  form?: Record<string, string | string[]>,
  params: Record<string, string> = {},
) {
  const cookie = await sessionCookie(userId);
  const request = makeRequest(`/${orgId}/organization/${path}`, { form, cookie });
  return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
}

async function permissionsOf(userId: number, orgId: number): Promise<string[]> {
  const ctx = await requireOrg(makeRequest(`/${orgId}`, { cookie: await sessionCookie(userId) }), { orgId: String(orgId) });
  return [...ctx.permissions].sort();
}

async function toastOf(res: Response) {
  const session = await sessionStorage().getSession(res.headers.get("Set-Cookie")!.split(";")[0]);
  return session.get("toast");
}

const adminRow = (id: number) =>
  db.selectFrom("administrators").select(["id", "role_id", "status"]).where("id", "=", id).executeTakeFirst();
const roleRow = (id: number) =>
  db.selectFrom("roles").select(["id", "name", "description", "role_type"]).where("id", "=", id).executeTakeFirst();
const ownerRow = (orgId: number) =>
  db
    .selectFrom("administrators")
    .select(["id", "role_id"])
    .where("organization_id", "=", orgId)
    .where("is_owner", "=", 1)
    .executeTakeFirstOrThrow();

/**
 * Server-renders a route component with the data its loader returned (what a browser without
 * JavaScript gets): a one-page Remix build, rendered by Remix's own request handler and RemixServer.
 */
async function renderPage(Component: ComponentType, loaderResponse: Response): Promise<string> {
  const data = await loaderResponse.json();
  const entryRoute = { hasAction: false, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: false };
  const build: ServerBuild = {
    mode: "test",
    entry: {
      module: {
        default: (request, status, headers, context) =>
          new Response(renderToString(createElement(RemixServer, { context, url: request.url })), { status, headers }),
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: Outlet } },
      page: { id: "page", parentId: "root", index: true, module: { default: Component, loader: () => data } },
    },
    assets: {
      url: "/build/manifest.js",
      version: "test",
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: {
        root: { id: "root", path: "", module: "/build/root.js", hasLoader: false, ...entryRoute },
        page: { id: "page", parentId: "root", index: true, module: "/build/page.js", hasLoader: true, ...entryRoute },
      },
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: false,
    },
    isSpaMode: false,
  };
  const res = await createRequestHandler(build, "test")(new Request("http://localhost/"));
  if (res.status !== 200) throw new Error(`page rendered with status ${res.status}`);
  return res.text();
}

/** A member holding view_settings plus the given permissions (a custom role). */
const memberWith = (orgId: number, ...permissions: Permission[]) => makeMember(orgId, "custom", ["view_settings", ...permissions]);

describe("organisation profile pages", () => {
  it("need view_settings: a member without it is refused, the owner sees the menu", async () => {
    const { org, owner } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    expect((await call(organizationLayout.loader, user.id, org.id, "")).status).toBe(403);
    expect((await call(administrators.loader, user.id, org.id, "administrators")).status).toBe(403);
    expect((await call(roles.loader, user.id, org.id, "roles")).status).toBe(403);
    const res = await call(organizationLayout.loader, owner.id, org.id, "");
    expect(await res.json()).toEqual({ orgName: "Acme Cafe", canInvite: true, canAddRole: true });
  });

  it("opens on the administrators list", async () => {
    const { org, owner } = await makeOrg();
    const res = await call(organizationIndex.loader, owner.id, org.id, "");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/organization/administrators`);
  });

  it("hides Invite from a member with create_administrators who is not the organisation's administrator", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r_w");
    const res = await call(organizationLayout.loader, user.id, org.id, "");
    expect(await res.json()).toMatchObject({ canInvite: false, canAddRole: true });
  });
});

describe("administrators list", () => {
  it("lists every administrator, the owner first as Administrator, an invitee without an account as pending registration", async () => {
    const { org, owner } = await makeOrg();
    const { user, role } = await makeMember(org.id, "r", [], { first_name: "Wanjiku", last_name: "Kamau" });
    await db
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: null,
        role_id: role.id,
        invited_email_address: "newcomer@example.com",
        status: "Pending",
        is_owner: 0,
        invite_token_hash: "x",
        invited_by_user_id: owner.id,
        created_at: Date.now() + 1,
        updated_at: Date.now(),
      })
      .execute();
    const { org: other } = await makeOrg("Other");
    await makeMember(other.id, "r");

    const res = await call(administrators.loader, owner.id, org.id, "administrators");
    const data = await res.json();
    expect(data.administrators).toHaveLength(3);
    expect(data.administrators[0]).toMatchObject({ userId: owner.id, isOwner: true, roleName: "Administrator", status: "Accepted" });
    expect(data.administrators[1]).toMatchObject({
      userId: user.id,
      name: "Wanjiku Kamau",
      email: user.email,
      phoneNumber: user.phone_number,
      roleName: "Role r",
    });
    expect(data.administrators[2]).toMatchObject({ userId: null, name: null, invitedEmail: "newcomer@example.com", status: "Pending" });
    expect(data).toMatchObject({ canEdit: true, canDelete: true });
    expect(data.roles).toEqual([{ value: String(role.id), label: "Role r" }]);

    const html = await renderPage(administrators.default, await call(administrators.loader, owner.id, org.id, "administrators"));
    expect(html).toContain("Pending registration");
    expect(html).toContain("newcomer@example.com");
    expect(html).toContain("Wanjiku Kamau");
    // Change and Remove for the members, never for the owner's row.
    expect(html.match(/value="change-role"/g)).toHaveLength(2);
    expect(html.match(/value="remove"/g)).toHaveLength(2);
  });

  it("tells a read-only member it may neither change roles nor remove administrators", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r");
    const data = await (await call(administrators.loader, user.id, org.id, "administrators")).json();
    expect(data).toMatchObject({ canEdit: false, canDelete: false, roles: [] });
    const html = await renderPage(administrators.default, await call(administrators.loader, user.id, org.id, "administrators"));
    expect(html).not.toContain('value="change-role"');
    expect(html).not.toContain('value="remove"');
  });
});

describe("changing an administrator's role", () => {
  it("refuses without edit_administrators and changes nothing", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "delete_administrators");
    const target = await makeMember(org.id, "r");
    const other = await insertRole(org.id, "r_w");
    const res = await call(administrators.action, user.id, org.id, "administrators", {
      intent: "change-role",
      admin_id: String(target.membership.id),
      role_id: String(other.id),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to edit organization administrators" });
    expect((await adminRow(target.membership.id))?.role_id).toBe(target.role.id);
  });

  it("changes the role with edit_administrators, and the member holds the new role's permissions", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["edit_administrators"]);
    const target = await makeMember(org.id, "r");
    const full = await insertRole(org.id, "r_w");
    const res = await call(administrators.action, user.id, org.id, "administrators", {
      intent: "change-role",
      admin_id: String(target.membership.id),
      role_id: String(full.id),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/organization/administrators`);
    expect((await adminRow(target.membership.id))?.role_id).toBe(full.id);
    expect(await permissionsOf(target.user.id, org.id)).toContain("delete_roles");
  });

  it("never demotes the organisation's administrator, not even at the owner's own request", async () => {
    const { org, owner } = await makeOrg();
    const role = await insertRole(org.id, "r");
    const ownerAdmin = await ownerRow(org.id);
    const res = await call(administrators.action, owner.id, org.id, "administrators", {
      intent: "change-role",
      admin_id: String(ownerAdmin.id),
      role_id: String(role.id),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/cannot be changed/);
    expect((await adminRow(ownerAdmin.id))?.role_id).toBeNull();
    expect(await permissionsOf(owner.id, org.id)).toContain("delete_roles");
  });

  it("answers 404 for another organisation's administrator or role, and for malformed ids", async () => {
    const { org, owner } = await makeOrg();
    const target = await makeMember(org.id, "r");
    const { org: other } = await makeOrg("Other");
    const foreignMember = await makeMember(other.id, "r");
    const foreignRole = await insertRole(other.id, "r_w");
    const ownRole = await insertRole(org.id, "r_w");
    const attempts = [
      { admin_id: String(foreignMember.membership.id), role_id: String(ownRole.id) },
      { admin_id: String(target.membership.id), role_id: String(foreignRole.id) },
      { admin_id: "abc", role_id: String(ownRole.id) },
      { admin_id: "99999999999999999999", role_id: String(ownRole.id) },
      { admin_id: String(target.membership.id), role_id: "99999999999" },
    ];
    for (const form of attempts) {
      const res = await call(administrators.action, owner.id, org.id, "administrators", { intent: "change-role", ...form });
      expect(res.status, JSON.stringify(form)).toBe(404);
    }
    expect((await adminRow(target.membership.id))?.role_id).toBe(target.role.id);
    expect((await adminRow(foreignMember.membership.id))?.role_id).toBe(foreignMember.role.id);
  });

  it("asks for a role with the spec's message", async () => {
    const { org, owner } = await makeOrg();
    const target = await makeMember(org.id, "r");
    const res = await call(administrators.action, owner.id, org.id, "administrators", {
      intent: "change-role",
      admin_id: String(target.membership.id),
      role_id: "",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Role field is required." });
  });

  it("answers 400 to an unknown intent", async () => {
    const { org, owner } = await makeOrg();
    const res = await call(administrators.action, owner.id, org.id, "administrators", { intent: "promote" });
    expect(res.status).toBe(400);
  });
});

describe("removing an administrator", () => {
  it("refuses without delete_administrators and keeps the administrator", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "edit_administrators");
    const target = await makeMember(org.id, "r");
    const res = await call(administrators.action, user.id, org.id, "administrators", {
      intent: "remove",
      admin_id: String(target.membership.id),
      confirmed: "yes",
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to delete organization administrators" });
    expect(await adminRow(target.membership.id)).toBeTruthy();
  });

  it("asks for confirmation first, then removes with delete_administrators and the member loses access", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["delete_administrators"]);
    const target = await makeMember(org.id, "r_w");
    const form = { intent: "remove", admin_id: String(target.membership.id) };

    const asked = await call(administrators.action, user.id, org.id, "administrators", form);
    expect(asked.status).toBe(200);
    expect((await asked.json()).confirm).toMatchObject({ intent: "remove", fields: { admin_id: String(target.membership.id) } });
    expect(await adminRow(target.membership.id)).toBeTruthy();

    const res = await call(administrators.action, user.id, org.id, "administrators", { ...form, confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(await adminRow(target.membership.id)).toBeUndefined();
    const denied = await run(async () => permissionsOf(target.user.id, org.id));
    expect(denied.status).toBe(404);
  });

  it("lets an administrator with delete_administrators leave, sending them home", async () => {
    const { org } = await makeOrg();
    const { user, membership } = await makeMember(org.id, "custom", ["delete_administrators"]);
    const res = await call(administrators.action, user.id, org.id, "administrators", {
      intent: "remove",
      admin_id: String(membership.id),
      confirmed: "yes",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await adminRow(membership.id)).toBeUndefined();
  });

  it("never removes the organisation's administrator", async () => {
    const { org, owner } = await makeOrg();
    const { user } = await makeMember(org.id, "r_w");
    const ownerAdmin = await ownerRow(org.id);
    for (const actor of [user.id, owner.id]) {
      const res = await call(administrators.action, actor, org.id, "administrators", {
        intent: "remove",
        admin_id: String(ownerAdmin.id),
        confirmed: "yes",
      });
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe("The organization's administrator cannot be removed.");
    }
    expect(await adminRow(ownerAdmin.id)).toBeTruthy();
  });

  it("answers 404 for another organisation's administrator", async () => {
    const { org, owner } = await makeOrg();
    const { org: other } = await makeOrg("Other");
    const foreign = await makeMember(other.id, "r");
    const res = await call(administrators.action, owner.id, org.id, "administrators", {
      intent: "remove",
      admin_id: String(foreign.membership.id),
      confirmed: "yes",
    });
    expect(res.status).toBe(404);
    expect(await adminRow(foreign.membership.id)).toBeTruthy();
  });
});

describe("roles list", () => {
  it("lists the organisation's roles newest first, searches by name and pages", async () => {
    const { org, owner } = await makeOrg();
    const { org: other } = await makeOrg("Other");
    await insertRole(other.id, "r", [], "Foreign cashier");
    for (let i = 1; i <= 7; i++) {
      const role = await insertRole(org.id, "r", [], i % 2 ? `Cashier ${i}` : `Manager ${i}`);
      await db
        .updateTable("roles")
        .set({ created_at: 1_700_000_000_000 + i * 1000 })
        .where("id", "=", role.id)
        .execute();
    }
    const page1 = await (await call(roles.loader, owner.id, org.id, "roles?per_page=5")).json();
    expect(page1.total).toBe(7);
    expect(page1.roles.map((r: { name: string }) => r.name)).toEqual(["Cashier 7", "Manager 6", "Cashier 5", "Manager 4", "Cashier 3"]);
    expect(page1.roles[0]).toMatchObject({ role_type: "r", created: "14-11-2023" });
    const page2 = await (await call(roles.loader, owner.id, org.id, "roles?per_page=5&page=2")).json();
    expect(page2.roles.map((r: { name: string }) => r.name)).toEqual(["Manager 2", "Cashier 1"]);
    const search = await (await call(roles.loader, owner.id, org.id, "roles?search=cASHier")).json();
    expect(search.total).toBe(4);
    expect(search.roles.every((r: { name: string }) => r.name.startsWith("Cashier"))).toBe(true);
  });

  it("refuses to remove a role without delete_roles and keeps it", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "update_roles", "edit_roles", "create_roles");
    const role = await insertRole(org.id, "r");
    const res = await call(roles.action, user.id, org.id, "roles", { intent: "remove", role_id: String(role.id), confirmed: "yes" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to delete administrator roles" });
    expect(await roleRow(role.id)).toBeTruthy();
  });

  it("removes a role with delete_roles; its members stay but lose its permissions, and an info message says so", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["delete_roles"]);
    const holder = await makeMember(org.id, "custom", ["view_networks", "edit_networks"]);
    expect(await permissionsOf(holder.user.id, org.id)).toEqual(["edit_networks", "view_networks"]);
    const form = { intent: "remove", role_id: String(holder.role.id) };
    const asked = await call(roles.action, user.id, org.id, "roles", form);
    expect((await asked.json()).confirm.intent).toBe("remove");
    expect(await roleRow(holder.role.id)).toBeTruthy();

    const res = await call(roles.action, user.id, org.id, "roles", { ...form, confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(await roleRow(holder.role.id)).toBeUndefined();
    expect((await adminRow(holder.membership.id))?.role_id).toBeNull();
    expect(await permissionsOf(holder.user.id, org.id)).toEqual([]);
    const toast = (await toastOf(res))!;
    expect(toast.type).toBe("info");
    expect(toast.message).toMatch(/removed.*One administrator who had it no longer holds its permissions/);
  });

  it("answers 404 when removing another organisation's role or a malformed id", async () => {
    const { org, owner } = await makeOrg();
    const { org: other } = await makeOrg("Other");
    const foreign = await insertRole(other.id, "r");
    for (const roleId of [String(foreign.id), "abc", "-1", "1e3", ""]) {
      const res = await call(roles.action, owner.id, org.id, "roles", { intent: "remove", role_id: roleId, confirmed: "yes" });
      expect(res.status, roleId).toBe(404);
    }
    expect(await roleRow(foreign.id)).toBeTruthy();
  });
});

describe("adding a role", () => {
  it("opens only with create_administrators (the menu item)", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "create_roles");
    expect((await call(newRole.loader, user.id, org.id, "roles/new")).status).toBe(403);
    const { user: inviter } = await memberWith(org.id, "create_administrators");
    const res = await call(newRole.loader, inviter.id, org.id, "roles/new");
    expect(await res.json()).toEqual({ canCreate: false });
  });

  it("refuses to create a role without create_roles and creates nothing", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "create_administrators", "update_roles", "edit_roles");
    const before = await db.selectFrom("roles").select("id").where("organization_id", "=", org.id).execute();
    const res = await call(newRole.action, user.id, org.id, "roles/new", { name: "Cashier", role_type: "r_w" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "You do not have permission to do that." });
    const after = await db.selectFrom("roles").select("id").where("organization_id", "=", org.id).execute();
    expect(after).toHaveLength(before.length);
  });

  it("requires a role name with the spec's message", async () => {
    const { org, owner } = await makeOrg();
    for (const name of [undefined, "", "   "]) {
      const form: Record<string, string> = { description: "Till staff" };
      if (name !== undefined) form.name = name;
      const res = await call(newRole.action, owner.id, org.id, "roles/new", form);
      expect(res.status).toBe(400);
      expect((await res.json()).error.name).toEqual(["Role name field is required."]);
    }
    expect(await db.selectFrom("roles").select("id").execute()).toHaveLength(0);
  });

  it("creates a Read only role by default, whose members hold every view permission and nothing else", async () => {
    const { org, owner } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["create_roles"]);
    const res = await call(newRole.action, user.id, org.id, "roles/new", { name: "Auditor", description: "Looks only" });
    expect(res.status).toBe(302);
    const role = await db.selectFrom("roles").selectAll().where("name", "=", "Auditor").executeTakeFirstOrThrow();
    expect(role).toMatchObject({ organization_id: org.id, description: "Looks only", role_type: "r" });
    expect(res.headers.get("Location")).toBe(`/${org.id}/organization/roles/${role.id}`);
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    expect(await permissionsOf(member.id, org.id)).toEqual([...VIEW_PERMISSIONS].sort());
    expect(owner.id).toBeGreaterThan(0);
  });

  it("creates a Custom role whose members hold exactly the chosen permissions", async () => {
    const { org, owner } = await makeOrg();
    const res = await call(newRole.action, owner.id, org.id, "roles/new", {
      name: "Marketer",
      role_type: "custom",
      permissions: ["view_broadcasts", "create_broadcasts", "view_broadcasts"],
    });
    expect(res.status).toBe(302);
    const role = await db.selectFrom("roles").select("id").where("name", "=", "Marketer").executeTakeFirstOrThrow();
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    expect(await permissionsOf(member.id, org.id)).toEqual(["create_broadcasts", "view_broadcasts"]);
  });

  it("accepts a single chosen permission", async () => {
    const { org, owner } = await makeOrg();
    await call(newRole.action, owner.id, org.id, "roles/new", { name: "Closer", role_type: "custom", permissions: "edit_connections" });
    const role = await db.selectFrom("roles").select("id").where("name", "=", "Closer").executeTakeFirstOrThrow();
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    expect(await permissionsOf(member.id, org.id)).toEqual(["edit_connections"]);
  });

  it("refuses unknown permission identifiers and an unknown role type, creating nothing", async () => {
    const { org, owner } = await makeOrg();
    const bad = await call(newRole.action, owner.id, org.id, "roles/new", {
      name: "Hacker",
      role_type: "custom",
      permissions: ["view_networks", "be_root"],
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.permissions).toEqual(["Unknown permission: be_root."]);
    const badType = await call(newRole.action, owner.id, org.id, "roles/new", { name: "Hacker", role_type: "superuser" });
    expect(badType.status).toBe(400);
    expect((await badType.json()).error.role_type[0]).toMatch(/Full access, Read only or Custom/);
    expect(await db.selectFrom("roles").select("id").execute()).toHaveLength(0);
  });
});

describe("role detail", () => {
  it("shows the role with its permissions and what the viewer may change", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "update_roles");
    const role = await insertRole(org.id, "custom", ["view_clients", "edit_clients"], "Support");
    const data = await (await call(roleDetail.loader, user.id, org.id, `roles/${role.id}`, undefined, { roleId: String(role.id) })).json();
    expect(data.role).toMatchObject({ id: role.id, name: "Support", role_type: "custom" });
    expect([...data.permissions].sort()).toEqual(["edit_clients", "view_clients"]);
    expect(data).toMatchObject({ canUpdate: true, canEditPermissions: false });
  });

  it("answers 404 for an unknown role, another organisation's role or a malformed id", async () => {
    const { org, owner } = await makeOrg();
    const { org: other } = await makeOrg("Other");
    const foreign = await insertRole(other.id, "r", [], "Foreign");
    for (const roleId of [String(foreign.id), "999999", "abc", "99999999999999999999"]) {
      const params = { roleId };
      expect((await call(roleDetail.loader, owner.id, org.id, `roles/${roleId}`, undefined, params)).status, roleId).toBe(404);
      const update = await call(roleDetail.action, owner.id, org.id, `roles/${roleId}`, { intent: "update-role", name: "Mine" }, params);
      expect(update.status, roleId).toBe(404);
      const perms = await call(
        roleDetail.action,
        owner.id,
        org.id,
        `roles/${roleId}`,
        { intent: "save-permissions", permissions: ["view_networks"] },
        params,
      );
      expect(perms.status, roleId).toBe(404);
    }
    expect((await roleRow(foreign.id))?.name).toBe("Foreign");
  });

  it("refuses to update a role without update_roles and changes nothing", async () => {
    const { org } = await makeOrg();
    const { user } = await memberWith(org.id, "edit_roles", "create_roles");
    const role = await insertRole(org.id, "r", [], "Auditor");
    const res = await call(
      roleDetail.action,
      user.id,
      org.id,
      `roles/${role.id}`,
      { intent: "update-role", name: "Boss", role_type: "r_w" },
      { roleId: String(role.id) },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Not allowed to update role details." });
    expect(await roleRow(role.id)).toMatchObject({ name: "Auditor", role_type: "r" });
  });

  it("updates name, description and role type with update_roles; requires the name", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["update_roles"]);
    const role = await insertRole(org.id, "r", [], "Auditor");
    const params = { roleId: String(role.id) };
    const empty = await call(roleDetail.action, user.id, org.id, `roles/${role.id}`, { intent: "update-role", name: " " }, params);
    expect(empty.status).toBe(400);
    expect((await empty.json()).result.error.name).toEqual(["Role name field is required."]);

    const res = await call(
      roleDetail.action,
      user.id,
      org.id,
      `roles/${role.id}`,
      { intent: "update-role", name: "Manager", description: "Runs the floor", role_type: "r_w" },
      params,
    );
    expect(res.status).toBe(302);
    expect(await roleRow(role.id)).toEqual({ id: role.id, name: "Manager", description: "Runs the floor", role_type: "r_w" });
  });

  it("refuses permission changes without edit_roles, or without update_roles, with the spec's message", async () => {
    const { org } = await makeOrg();
    const role = await insertRole(org.id, "custom", ["view_networks"], "Support");
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    for (const held of [["update_roles"], ["edit_roles"]] as Permission[][]) {
      const { user } = await memberWith(org.id, ...held);
      const res = await call(
        roleDetail.action,
        user.id,
        org.id,
        `roles/${role.id}`,
        { intent: "save-permissions", permissions: ["view_networks", "delete_roles"] },
        { roleId: String(role.id) },
      );
      expect(res.status, held.join()).toBe(403);
      expect(await res.json()).toEqual({ message: "Not allowed to change role permissions" });
    }
    expect(await permissionsOf(member.id, org.id)).toEqual(["view_networks"]);
  });

  it("saves the ticked permissions as the whole set with update_roles and edit_roles", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["update_roles", "edit_roles"]);
    const role = await insertRole(org.id, "custom", ["view_networks", "edit_connections"], "Support");
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    const params = { roleId: String(role.id) };
    const res = await call(
      roleDetail.action,
      user.id,
      org.id,
      `roles/${role.id}`,
      { intent: "save-permissions", permissions: ["edit_connections", "view_clients"] },
      params,
    );
    expect(res.status).toBe(302);
    expect(await permissionsOf(member.id, org.id)).toEqual(["edit_connections", "view_clients"]);

    // Nothing ticked: the role keeps no permission at all.
    await call(roleDetail.action, user.id, org.id, `roles/${role.id}`, { intent: "save-permissions" }, params);
    expect(await permissionsOf(member.id, org.id)).toEqual([]);
  });

  it("refuses unknown identifiers and permission choices on a role that is not Custom", async () => {
    const { org, owner } = await makeOrg();
    const custom = await insertRole(org.id, "custom", ["view_networks"]);
    const unknown = await call(
      roleDetail.action,
      owner.id,
      org.id,
      `roles/${custom.id}`,
      { intent: "save-permissions", permissions: ["view_networks", "drop_tables"] },
      { roleId: String(custom.id) },
    );
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).result.error.permissions).toEqual(["Unknown permission: drop_tables."]);

    const readOnly = await insertRole(org.id, "r");
    const res = await call(
      roleDetail.action,
      owner.id,
      org.id,
      `roles/${readOnly.id}`,
      { intent: "save-permissions", permissions: ["delete_roles"] },
      { roleId: String(readOnly.id) },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).result.error[""]).toEqual(["Permissions can be chosen only for a role of type Custom."]);
    const rows = await db.selectFrom("role_permissions").select("permission_id").where("role_id", "=", readOnly.id).execute();
    expect(rows).toHaveLength(0);
  });

  it("turning a Custom role into Read only gives its members every view permission and drops the chosen ones", async () => {
    const { org, owner } = await makeOrg();
    const role = await insertRole(org.id, "custom", ["edit_networks"], "Support");
    const member = await makeUser();
    await insertMembership(org.id, member.id, role.id);
    await call(
      roleDetail.action,
      owner.id,
      org.id,
      `roles/${role.id}`,
      { intent: "update-role", name: "Support", role_type: "r" },
      { roleId: String(role.id) },
    );
    expect(await permissionsOf(member.id, org.id)).toEqual([...VIEW_PERMISSIONS].sort());
    await call(
      roleDetail.action,
      owner.id,
      org.id,
      `roles/${role.id}`,
      { intent: "update-role", name: "Support", role_type: "custom" },
      { roleId: String(role.id) },
    );
    expect(await permissionsOf(member.id, org.id)).toEqual([]);
  });
});
