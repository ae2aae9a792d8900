// Every mutation of the data API over HTTP against the built server, on SQLite and PostgreSQL: the
// result { code, message, recordId, success } and the change made; refusals with the spec's
// messages and nothing changed; another organisation's ids as 404; invalid input as 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { defaultLayout, serializeLayout } from "~/lib/dashboard-layout";
import { PERMISSION_MESSAGES, refusalMessage, type Permission } from "~/lib/permissions";
import { ACCESS_CONTROL_MESSAGES } from "~/lib/schemas/access-control";
import { REPORT_SUBSCRIPTION_MESSAGES } from "~/lib/schemas/reports";
import { ACCESS_CONTROL_REFUSALS } from "~/services/access-control.server";
import { issueToken } from "~/services/auth.server";
import { CLOSE_MESSAGES } from "~/services/connections.server";
import { ROLE_REFUSALS } from "~/services/roles.server";
import { DEVICE_MESSAGES } from "~/lib/records";
import { makeMember } from "../fixtures";
import { apiOrg, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { insertConnection, insertDevice, makeConnectionWorld } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const RESULT = "{ code message recordId success }";

async function run(caller: Caller, mutation: string, variables?: Record<string, unknown>) {
  const data = await gqlData(server, caller, `mutation ${mutation}`, variables);
  return Object.values(data)[0] as { code: number; message: string; recordId: string | null; success: boolean };
}

async function setup() {
  const base = await apiOrg();
  const world = await makeConnectionWorld(base.org.id, 2);
  return { ...base, ...world, caller: { token: base.token, org: base.org.id } as Caller };
}

async function member(orgId: number, permissions: Permission[] = []) {
  const m = await makeMember(orgId, "custom", permissions);
  return { ...m, caller: { token: await issueToken(m.user.id, "api"), org: orgId } as Caller };
}

const ok = (message: string, recordId: string | null = expect.any(String) as unknown as string) => ({
  code: 200,
  message,
  recordId,
  success: true,
});
const no = (code: number, message: string) => expect.objectContaining({ code, message, success: false });

describe("connections and devices", () => {
  it("closeConnection closes an online connection once; refuses without edit_connections, another organisation's or a never-authorized one", async () => {
    const { org, caller, connections } = await setup();
    const online = connections[1];
    const other = await setup();
    const viewer = await member(org.id, ["view_clients"]);
    expect(await run(viewer.caller, `{ closeConnection(id: "${online.id}") ${RESULT} }`)).toEqual(
      no(403, refusalMessage("edit_connections")),
    );
    expect(await run(caller, `{ closeConnection(id: "${other.connections[1].id}") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ closeConnection(id: "abc") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(
      (await db.selectFrom("connections").select("ended_at").where("id", "=", online.id).executeTakeFirstOrThrow()).ended_at,
    ).toBeNull();
    expect(await run(caller, `{ closeConnection(id: "${online.id}") ${RESULT} }`)).toEqual(ok(CLOSE_MESSAGES.closed, String(online.id)));
    expect(
      (await db.selectFrom("connections").select("ended_at").where("id", "=", online.id).executeTakeFirstOrThrow()).ended_at,
    ).not.toBeNull();
    expect(await run(caller, `{ closeConnection(id: "${online.id}") ${RESULT} }`)).toEqual(no(409, CLOSE_MESSAGES.alreadyClosed));
    const visit = await insertConnection(org.id, {});
    expect(await run(caller, `{ closeConnection(id: "${visit.id}") ${RESULT} }`)).toEqual(no(409, CLOSE_MESSAGES.notOnline));
  });

  it("blockDevice blocks the organisation's device by MAC address in any notation; refuses without edit_clients and for foreign or malformed addresses", async () => {
    const { org, caller } = await setup();
    const device = await insertDevice(org.id, { mac_address: "a4:5e:60:00:00:01" });
    const other = await setup();
    const foreign = await insertDevice(other.org.id, { mac_address: "a4:5e:60:00:00:02" });
    const viewer = await member(org.id, ["view_clients"]);
    expect(await run(viewer.caller, `{ blockDevice(mac_address: "a4:5e:60:00:00:01") ${RESULT} }`)).toEqual(
      no(403, refusalMessage("edit_clients")),
    );
    expect(await run(caller, `{ blockDevice(mac_address: "a4:5e:60:00:00:02") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ blockDevice(mac_address: "not a mac") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ blockDevice(mac_address: "A4-5E-60-00-00-01") ${RESULT} }`)).toEqual(
      ok(DEVICE_MESSAGES.blocked, String(device.id)),
    );
    expect(
      (await db.selectFrom("devices").select("blocked_at").where("id", "=", device.id).executeTakeFirstOrThrow()).blocked_at,
    ).not.toBeNull();
    expect(
      (await db.selectFrom("devices").select("blocked_at").where("id", "=", foreign.id).executeTakeFirstOrThrow()).blocked_at,
    ).toBeNull();
    expect(await run(caller, `{ blockDevice(mac_address: "a45e.6000.0001") ${RESULT} }`)).toEqual(no(409, DEVICE_MESSAGES.alreadyBlocked));
  });
});

describe("profile", () => {
  it("updateUser saves the dashboard layout (URL-escaped or plain JSON) and refuses one that cannot be read", async () => {
    const { caller, owner } = await setup();
    const layout = defaultLayout();
    layout.content = layout.content.slice(0, 1);
    const escaped = encodeURIComponent(serializeLayout(layout));
    const saved = await gqlData(
      server,
      caller,
      "mutation ($d: String!) { updateUser(dashboard: $d) { code message recordId success dashboard } }",
      { d: escaped },
    );
    expect(saved.updateUser).toEqual({
      code: 200,
      message: "Dashboard saved.",
      recordId: String(owner.id),
      success: true,
      dashboard: serializeLayout(layout),
    });
    expect((await gqlData(server, caller, "{ profile { dashboard } }")).profile.dashboard).toBe(serializeLayout(layout));
    const plain = await gqlData(server, caller, "mutation ($d: String!) { updateUser(dashboard: $d) { code } }", {
      d: serializeLayout(defaultLayout()),
    });
    expect(plain.updateUser.code).toBe(200);
    for (const bad of ["{not json", '{"content":[{"type":"nope"}]}', ""]) {
      const refused = await gqlData(server, caller, "mutation ($d: String!) { updateUser(dashboard: $d) { code success dashboard } }", {
        d: bad,
      });
      expect(refused.updateUser, bad).toEqual({ code: 422, success: false, dashboard: null });
    }
    expect((await gqlData(server, caller, "{ profile { dashboard } }")).profile.dashboard).toBe(serializeLayout(defaultLayout()));
  });
});

describe("administrators and roles", () => {
  it("updateAdmin and removeAdmin need their permissions (the spec's messages), spare the owner, and find only this organisation's rows", async () => {
    const { org, caller } = await setup();
    const staff = await member(org.id);
    const { role: otherRole } = await makeMember(org.id, "r");
    const other = await setup();
    const { role: foreignRole, membership: foreignAdmin } = await makeMember(other.org.id, "r");
    const ownerRow = await db
      .selectFrom("administrators")
      .select("id")
      .where("organization_id", "=", org.id)
      .where("is_owner", "=", 1)
      .executeTakeFirstOrThrow();
    const weak = await member(org.id, ["view_settings"]);

    expect(await run(weak.caller, `{ updateAdmin(adminId: "${staff.membership.id}", roleId: "${otherRole.id}") ${RESULT} }`)).toEqual(
      no(403, PERMISSION_MESSAGES.edit_administrators!),
    );
    expect(await run(weak.caller, `{ removeAdmin(adminId: "${staff.membership.id}") ${RESULT} }`)).toEqual(
      no(403, PERMISSION_MESSAGES.delete_administrators!),
    );
    expect(await run(caller, `{ updateAdmin(adminId: "${foreignAdmin.id}", roleId: "${otherRole.id}") ${RESULT} }`)).toEqual(
      no(404, "Not found"),
    );
    expect(await run(caller, `{ updateAdmin(adminId: "${staff.membership.id}", roleId: "${foreignRole.id}") ${RESULT} }`)).toEqual(
      no(404, "Not found"),
    );
    expect(await run(caller, `{ updateAdmin(adminId: "${ownerRow.id}", roleId: "${otherRole.id}") ${RESULT} }`)).toEqual(
      no(403, ACCESS_CONTROL_REFUSALS.ownerRole),
    );
    expect(await run(caller, `{ removeAdmin(adminId: "${ownerRow.id}") ${RESULT} }`)).toEqual(no(403, ACCESS_CONTROL_REFUSALS.ownerRemove));
    expect(await run(caller, `{ removeAdmin(adminId: "${foreignAdmin.id}") ${RESULT} }`)).toEqual(no(404, "Not found"));

    expect(await run(caller, `{ updateAdmin(adminId: "${staff.membership.id}", roleId: "${otherRole.id}") ${RESULT} }`)).toEqual(
      ok("Administrator role changed.", String(staff.membership.id)),
    );
    expect(
      (await db.selectFrom("administrators").select("role_id").where("id", "=", staff.membership.id).executeTakeFirstOrThrow()).role_id,
    ).toBe(otherRole.id);
    expect(await run(caller, `{ removeAdmin(adminId: "${staff.membership.id}") ${RESULT} }`)).toEqual(
      ok("Administrator removed.", String(staff.membership.id)),
    );
    expect(await db.selectFrom("administrators").select("id").where("id", "=", staff.membership.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("administrators").select("id").where("id", "=", foreignAdmin.id).executeTakeFirst()).toBeDefined();
  });

  it("addRole and updateRole validate with the forms' messages and need create_roles / update_roles", async () => {
    const { org, caller } = await setup();
    const weak = await member(org.id, ["view_settings"]);
    const add = `mutation ($name: String!, $type: String, $permissions: [String!]) { addRole(name: $name, description: "Till staff", role_type: $type, permissions: $permissions) ${RESULT} }`;
    const added = await gqlData(server, caller, add, {
      name: "Cashiers",
      type: "custom",
      permissions: ["view_clients", "edit_connections"],
    });
    expect(added.addRole).toEqual(ok("Role Cashiers created."));
    const roleId = Number(added.addRole.recordId);
    const role = await gqlData(server, caller, `{ role(id: "${roleId}") { name description role_type permissions } }`);
    expect(role.role).toEqual({
      name: "Cashiers",
      description: "Till staff",
      role_type: "custom",
      permissions: ["view_clients", "edit_connections"],
    });
    expect((await gqlData(server, caller, add, { name: "  " })).addRole).toEqual(no(422, ACCESS_CONTROL_MESSAGES.roleNameRequired));
    expect((await gqlData(server, caller, add, { name: "X", type: "root" })).addRole).toEqual(
      no(422, ACCESS_CONTROL_MESSAGES.roleTypeInvalid),
    );
    expect((await gqlData(server, caller, add, { name: "X", type: "custom", permissions: ["launch_rockets"] })).addRole).toEqual(
      no(422, "Unknown permission: launch_rockets."),
    );
    expect((await gqlData(server, weak.caller, add, { name: "Sneaky" })).addRole).toEqual(no(403, refusalMessage("create_roles")));

    const update = `{ updateRole(id: "${roleId}", name: "Tellers", role_type: "r") ${RESULT} }`;
    expect(await run(weak.caller, update)).toEqual(no(403, PERMISSION_MESSAGES.update_roles!));
    expect(await run(caller, `{ updateRole(id: "${roleId}", name: "") ${RESULT} }`)).toEqual(
      no(422, ACCESS_CONTROL_MESSAGES.roleNameRequired),
    );
    const other = await setup();
    const { role: foreignRole } = await makeMember(other.org.id, "r");
    expect(await run(caller, `{ updateRole(id: "${foreignRole.id}", name: "Mine now") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, update)).toEqual(ok("Role updated.", String(roleId)));
    const after = await db
      .selectFrom("roles")
      .select(["name", "role_type", "description"])
      .where("id", "=", roleId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ name: "Tellers", role_type: "r", description: null });
    expect((await db.selectFrom("roles").select("name").where("id", "=", foreignRole.id).executeTakeFirstOrThrow()).name).toBe(
      foreignRole.name,
    );
  });

  it("assignPermission adds and removes one permission of a custom role with update_roles and edit_roles", async () => {
    const { org, caller } = await setup();
    const { role } = await makeMember(org.id, "custom", ["view_clients"]);
    const { role: readOnly } = await makeMember(org.id, "r");
    const updater = await member(org.id, ["update_roles"]);
    const assign = (action: string, identifier: string, roleId: number) =>
      `{ assignPermission(action: "${action}", permissionIdentifier: "${identifier}", roleId: "${roleId}") ${RESULT} }`;
    const permissionsOf = async () => (await gqlData(server, caller, `{ role(id: "${role.id}") { permissions } }`)).role.permissions;
    expect(await run(updater.caller, assign("addition", "edit_clients", role.id))).toEqual(no(403, PERMISSION_MESSAGES.edit_roles!));
    expect(await run(caller, assign("addition", "edit_clients", role.id))).toEqual(ok("Role permissions saved.", String(role.id)));
    expect(await permissionsOf()).toEqual(["view_clients", "edit_clients"]);
    expect(await run(caller, assign("deletion", "view_clients", role.id))).toEqual(ok("Role permissions saved.", String(role.id)));
    expect(await permissionsOf()).toEqual(["edit_clients"]);
    expect(await run(caller, assign("addition", "edit_clients", readOnly.id))).toEqual(no(422, ROLE_REFUSALS.permissionsNeedCustom));
    expect(await run(caller, assign("grant", "edit_clients", role.id))).toEqual(no(422, "action must be addition or deletion."));
    expect(await run(caller, assign("addition", "fly", role.id))).toEqual(no(422, "Unknown permission: fly."));
    const other = await setup();
    const { role: foreignRole } = await makeMember(other.org.id, "custom");
    expect(await run(caller, assign("addition", "edit_clients", foreignRole.id))).toEqual(no(404, "Not found"));
  });

  it("removeRole needs delete_roles, says what happens to its holders, and finds only this organisation's roles", async () => {
    const { org, caller } = await setup();
    const holder = await makeMember(org.id, "custom", [], { first_name: "Holder" });
    const weak = await member(org.id, ["view_settings"]);
    const other = await setup();
    const { role: foreignRole } = await makeMember(other.org.id, "r");
    expect(await run(weak.caller, `{ removeRole(id: "${holder.role.id}") ${RESULT} }`)).toEqual(no(403, PERMISSION_MESSAGES.delete_roles!));
    expect(await run(caller, `{ removeRole(id: "${foreignRole.id}") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ removeRole(id: "${holder.role.id}") ${RESULT} }`)).toEqual(
      ok(
        `Role ${holder.role.name} removed. One administrator who had it no longer holds its permissions until given another role.`,
        String(holder.role.id),
      ),
    );
    expect(await db.selectFrom("roles").select("id").where("id", "=", holder.role.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("roles").select("id").where("id", "=", foreignRole.id).executeTakeFirst()).toBeDefined();
  });
});

describe("report subscriptions", () => {
  it("subscribeReport subscribes once per report (again moves the hour), validates, and unsubscribeReport removes only your own", async () => {
    const { org, caller } = await setup();
    const colleague = await member(org.id);
    const first = await run(caller, `{ subscribeReport(report: "overview", sendTime: 18) ${RESULT} }`);
    expect(first).toEqual(ok("You will receive the Overview report by email every day at 18:00 Hours (UTC)."));
    const moved = await run(caller, `{ subscribeReport(report: "overview", sendTime: 7) ${RESULT} }`);
    expect(moved.recordId).toBe(first.recordId);
    expect((await gqlData(server, caller, "{ myReports { report send_at } }")).myReports).toEqual([{ report: "overview", send_at: 7 }]);
    expect(await run(caller, `{ subscribeReport(report: "overview", sendTime: 25) ${RESULT} }`)).toEqual(
      no(422, REPORT_SUBSCRIPTION_MESSAGES.hourInvalid),
    );
    expect(await run(caller, `{ subscribeReport(report: "weekly", sendTime: 5) ${RESULT} }`)).toEqual(
      no(422, REPORT_SUBSCRIPTION_MESSAGES.reportInvalid),
    );
    expect(await run(colleague.caller, `{ unsubscribeReport(id: "${first.recordId}") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ unsubscribeReport(id: "nope") ${RESULT} }`)).toEqual(no(404, "Not found"));
    expect(await run(caller, `{ unsubscribeReport(id: "${first.recordId}") ${RESULT} }`)).toEqual(
      ok("You will no longer receive the Overview report by email.", first.recordId),
    );
    expect((await gqlData(server, caller, "{ myReports { id } }")).myReports).toEqual([]);
  });
});
