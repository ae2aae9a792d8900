// Administrators of an organisation (docs/guide/access-control.md#routes,
// docs/guide/api.md#account-service): the list, changing an administrator's role and removing an
// administrator (or withdrawing an invitation). Invitations are in invitations.server.ts, roles in
// roles.server.ts. Every function takes the guard's context first and filters by ctx.org.id
// itself; a row of another organisation, a missing one or a malformed id is a 404. Mutations check
// their permission here too, so the pages and the API refuse alike.
import { db } from "~/db/db.server";
import { forbidden, notFound, requirePermission, type OrgContext } from "./guard.server";
import { findRole } from "./roles.server";

export const ACCESS_CONTROL_REFUSALS = {
  ownerRemove: "The organization's administrator cannot be removed.",
  ownerRole: "The organization's administrator holds every permission; their role cannot be changed.",
} as const;

export interface AdministratorRow {
  id: number;
  userId: number | null;
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  roleId: number | null;
  roleName: string | null;
  status: string;
  invitedEmail: string | null;
  isOwner: boolean;
}

/** Every administrator of the organisation, the owner (im_admin) first, then by date of invitation. */
export async function listAdministrators(ctx: OrgContext): Promise<AdministratorRow[]> {
  const rows = await db
    .selectFrom("administrators as a")
    .leftJoin("users as u", "u.id", "a.user_id")
    .leftJoin("roles as r", (join) => join.onRef("r.id", "=", "a.role_id").onRef("r.organization_id", "=", "a.organization_id"))
    .select([
      "a.id",
      "a.user_id",
      "u.first_name",
      "u.middle_name",
      "u.last_name",
      "u.email",
      "u.phone_number",
      "a.role_id",
      "r.name as role_name",
      "a.status",
      "a.invited_email_address",
      "a.is_owner",
    ])
    .where("a.organization_id", "=", ctx.org.id)
    .orderBy("a.is_owner", "desc")
    .orderBy("a.created_at", "asc")
    .orderBy("a.id", "asc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    name: r.first_name === null ? null : [r.first_name, r.middle_name, r.last_name].filter(Boolean).join(" "),
    email: r.email,
    phoneNumber: r.phone_number,
    roleId: r.role_id,
    roleName: r.is_owner === 1 ? "Administrator" : r.role_name,
    status: r.status,
    invitedEmail: r.invited_email_address,
    isOwner: r.is_owner === 1,
  }));
}

async function findAdministrator(ctx: OrgContext, adminId: number | null) {
  if (adminId === null) notFound();
  const row = await db
    .selectFrom("administrators")
    .select(["id", "user_id", "is_owner"])
    .where("id", "=", adminId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound();
}

/** updateAdmin: gives an administrator another role of the organisation. */
export async function changeAdministratorRole(ctx: OrgContext, adminId: number | null, roleId: number | null): Promise<void> {
  requirePermission(ctx, "edit_administrators");
  const admin = await findAdministrator(ctx, adminId);
  const role = await findRole(ctx, roleId);
  if (admin.is_owner === 1) forbidden(ACCESS_CONTROL_REFUSALS.ownerRole);
  await db
    .updateTable("administrators")
    .set({ role_id: role.id, updated_at: Date.now() })
    .where("id", "=", admin.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
}

/** removeAdmin: removes an administrator or withdraws an invitation. Tells whether users removed themselves. */
export async function removeAdministrator(ctx: OrgContext, adminId: number | null): Promise<{ removedSelf: boolean }> {
  requirePermission(ctx, "delete_administrators");
  const admin = await findAdministrator(ctx, adminId);
  if (admin.is_owner === 1) forbidden(ACCESS_CONTROL_REFUSALS.ownerRemove);
  await db.deleteFrom("administrators").where("id", "=", admin.id).where("organization_id", "=", ctx.org.id).execute();
  return { removedSelf: admin.user_id === ctx.user.id };
}
