// Roles of an organisation and their permissions (docs/guide/access-control.md#routes,
// docs/guide/api.md#account-service): the list, the role form, the permission checkboxes and
// removal. Every function takes the guard's context first and filters by ctx.org.id itself; a
// role of another organisation, a missing one or a malformed id is a 404. Mutations check their
// permission here too, so the pages and the API refuse alike.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB, RoleType } from "~/db/schema";
import { containsText, retryDeadlocks } from "~/db/sql.server";
import type { Outcome } from "~/lib/outcome";
import type { ListParams } from "~/lib/pagination";
import { PERMISSION_MESSAGES, type Permission } from "~/lib/permissions";
import { forbidden, notFound, requirePermission, type OrgContext } from "./guard.server";

export const ROLE_REFUSALS = {
  permissionsNeedCustom: "Permissions can be chosen only for a role of type Custom.",
} as const;

/** The organisation's role, or a 404 (also used to check the role given to an administrator or an invitation). */
export async function findRole(ctx: OrgContext, roleId: number | null) {
  if (roleId === null) notFound();
  const row = await db
    .selectFrom("roles")
    .select(["id", "name", "description", "role_type", "created_at"])
    .where("id", "=", roleId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/** The role choices of the organisation (administrator role select, invite form). */
export async function listRoleOptions(ctx: OrgContext): Promise<{ value: string; label: string }[]> {
  const rows = await db
    .selectFrom("roles")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name", "asc")
    .orderBy("id", "asc")
    .limit(1000)
    .execute();
  return rows.map((r) => ({ value: String(r.id), label: r.name }));
}

/** roles(limit, offset, order, search): newest first, searched by name. */
export async function listRoles(ctx: OrgContext, params: Pick<ListParams, "offset" | "pageSize" | "search">) {
  let query = db.selectFrom("roles").where("organization_id", "=", ctx.org.id);
  if (params.search) query = query.where(containsText("name", params.search));
  const [rows, count] = await Promise.all([
    query
      .select(["id", "name", "description", "role_type", "created_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { roles: rows, total: Number(count.total) };
}

/** role(id) with the identifiers of its chosen permissions. */
export async function getRole(ctx: OrgContext, roleId: number | null) {
  const role = await findRole(ctx, roleId);
  const rows = await db
    .selectFrom("role_permissions")
    .innerJoin("permissions", "permissions.id", "role_permissions.permission_id")
    .select("permissions.identifier")
    .where("role_permissions.role_id", "=", role.id)
    // Catalogue order, as every other list of permissions; without it the order was the table's.
    .orderBy("permissions.id")
    .execute();
  return { ...role, permissions: rows.map((r) => r.identifier as Permission) };
}

async function permissionIds(trx: Kysely<DB>, identifiers: readonly Permission[]): Promise<number[]> {
  if (identifiers.length === 0) return [];
  const rows = await trx.selectFrom("permissions").select("id").where("identifier", "in", identifiers).execute();
  return rows.map((r) => r.id);
}

/** addRole: saves the role and, for a custom role, the chosen permissions. */
export async function createRole(
  ctx: OrgContext,
  input: { name: string; description: string | null; role_type: RoleType; permissions: readonly Permission[] },
): Promise<{ id: number }> {
  requirePermission(ctx, "create_roles");
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const role = await trx
      .insertInto("roles")
      .values({
        organization_id: ctx.org.id,
        name: input.name,
        description: input.description,
        role_type: input.role_type,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.role_type === "custom") {
      const ids = await permissionIds(trx, input.permissions);
      if (ids.length)
        await trx
          .insertInto("role_permissions")
          .values(ids.map((id) => ({ role_id: role.id, permission_id: id })))
          .execute();
    }
    return { id: role.id };
  });
}

/** updateRole: name, description and role type. Leaving Custom drops the chosen permissions. */
export async function updateRole(
  ctx: OrgContext,
  roleId: number | null,
  input: { name: string; description: string | null; role_type: RoleType },
): Promise<void> {
  requirePermission(ctx, "update_roles");
  const role = await findRole(ctx, roleId);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("roles")
      .set({ name: input.name, description: input.description, role_type: input.role_type, updated_at: Date.now() })
      .where("id", "=", role.id)
      .where("organization_id", "=", ctx.org.id)
      .execute();
    if (input.role_type !== "custom") await trx.deleteFrom("role_permissions").where("role_id", "=", role.id).execute();
  });
}

/** Changing a role's permissions needs update_roles and edit_roles (docs/guide/access-control.md#what-each-permission-shows). */
export function requireRolePermissionEditing(ctx: OrgContext): void {
  if (!ctx.permissions.has("update_roles") || !ctx.permissions.has("edit_roles")) forbidden(PERMISSION_MESSAGES.edit_roles!);
}

export function canEditRolePermissions(ctx: OrgContext): boolean {
  return ctx.permissions.has("update_roles") && ctx.permissions.has("edit_roles");
}

/** The checkbox form: the role ends up with exactly these permissions (additions and deletions in one transaction). */
export async function setRolePermissions(ctx: OrgContext, roleId: number | null, wanted: readonly Permission[]): Promise<Outcome> {
  requireRolePermissionEditing(ctx);
  const role = await findRole(ctx, roleId);
  if (role.role_type !== "custom") return { ok: false, formErrors: [ROLE_REFUSALS.permissionsNeedCustom] };
  // Concurrent saves of one role (two tabs, two instances) can deadlock on PostgreSQL: retried.
  await retryDeadlocks(() =>
    db.transaction().execute(async (trx) => {
      const wantedIds = new Set(await permissionIds(trx, wanted));
      const current = await trx.selectFrom("role_permissions").select("permission_id").where("role_id", "=", role.id).execute();
      const currentIds = new Set(current.map((r) => r.permission_id));
      const toDelete = [...currentIds].filter((id) => !wantedIds.has(id));
      const toAdd = [...wantedIds].filter((id) => !currentIds.has(id));
      if (toDelete.length) {
        await trx.deleteFrom("role_permissions").where("role_id", "=", role.id).where("permission_id", "in", toDelete).execute();
      }
      if (toAdd.length) {
        await trx
          .insertInto("role_permissions")
          .values(toAdd.map((id) => ({ role_id: role.id, permission_id: id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      await trx.updateTable("roles").set({ updated_at: Date.now() }).where("id", "=", role.id).execute();
    }),
  );
  return { ok: true };
}

/** assignPermission(action, permissionIdentifier, roleId): one addition or deletion, for the API. */
export async function assignPermission(
  ctx: OrgContext,
  roleId: number | null,
  identifier: Permission,
  action: "addition" | "deletion",
): Promise<Outcome> {
  requireRolePermissionEditing(ctx);
  const role = await getRole(ctx, roleId);
  const next = action === "addition" ? [...role.permissions, identifier] : role.permissions.filter((p) => p !== identifier);
  return setRolePermissions(ctx, role.id, next);
}

/** removeRole: administrators who held it keep their membership without its permissions (role_id becomes null). */
export async function removeRole(ctx: OrgContext, roleId: number | null): Promise<{ name: string; members: number }> {
  requirePermission(ctx, "delete_roles");
  const role = await findRole(ctx, roleId);
  return db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom("administrators")
      .select((eb) => eb.fn.countAll<number>().as("members"))
      .where("organization_id", "=", ctx.org.id)
      .where("role_id", "=", role.id)
      .executeTakeFirstOrThrow();
    // role_permissions cascade; administrators.role_id is set to null by the foreign key.
    await trx.deleteFrom("roles").where("id", "=", role.id).where("organization_id", "=", ctx.org.id).execute();
    return { name: role.name, members: Number(count.members) };
  });
}

/** The identifiers of the chosen permissions of several of the organisation's roles, in one query. */
export async function rolePermissionsByIds(ctx: OrgContext, roleIds: readonly number[]): Promise<Map<number, Permission[]>> {
  const byRole = new Map<number, Permission[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return byRole;
  const rows = await db
    .selectFrom("role_permissions")
    .innerJoin("roles", "roles.id", "role_permissions.role_id")
    .innerJoin("permissions", "permissions.id", "role_permissions.permission_id")
    .select(["role_permissions.role_id", "permissions.identifier"])
    .where("roles.organization_id", "=", ctx.org.id)
    .where("role_permissions.role_id", "in", [...roleIds])
    .orderBy("permissions.id")
    .execute();
  for (const r of rows) byRole.get(r.role_id)?.push(r.identifier as Permission);
  return byRole;
}

/** permissions: the catalogue as stored (id, name, identifier, description), in catalogue order. */
export async function listPermissions() {
  return db.selectFrom("permissions").select(["id", "name", "identifier", "description"]).orderBy("id").execute();
}
