// Access control of an organisation (spec 1 §2, §6, §7): administrators, invitations, roles and
// their permissions. Every function takes the guard's context first and filters by ctx.org.id
// itself; a row of another organisation, a missing one or a malformed id is a 404. Mutations
// check their permission here too, so the pages and the API refuse alike.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB, RoleType } from "~/db/schema";
import { containsText } from "~/db/sql.server";
import type { ListParams } from "~/lib/pagination";
import { PERMISSION_MESSAGES, type Permission } from "~/lib/permissions";
import { normalizeEmail } from "./auth.server";
import { hashToken, randomToken } from "./crypto.server";
import { sendEmail } from "./email.server";
import { forbidden, notFound, requireOwner, requirePermission, type AuthUser, type OrgContext } from "./guard.server";

export const ACCESS_CONTROL_REFUSALS = {
  ownerRemove: "The organization's administrator cannot be removed.",
  ownerRole: "The organization's administrator holds every permission; their role cannot be changed.",
  alreadyInvited: "This email has already been invited.",
  alreadyMember: "This email already belongs to an administrator of this organization.",
  inviteNotSent: "The invitation email could not be sent. Please try again.",
  permissionsNeedCustom: "Permissions can be chosen only for a role of type Custom.",
} as const;

type FieldErrors = Record<string, string[]>;
export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; fieldErrors?: FieldErrors; formErrors?: string[] };

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * Invitations sent to this email before the user had an account now name the user, so they
 * appear in the user's organisations list (to accept or decline) instead of 'Pending registration'.
 */
export async function attachInvitationsToUser(userId: number, email: string): Promise<void> {
  await db
    .updateTable("administrators")
    .set({ user_id: userId, updated_at: Date.now() })
    .where("user_id", "is", null)
    .where("invited_email_address", "=", normalizeEmail(email))
    // one membership per user and organisation (unique constraint)
    .where("organization_id", "not in", db.selectFrom("administrators").select("organization_id").where("user_id", "=", userId))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Administrators

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

/** Inviting needs create_administrators and being the organisation's administrator (im_admin). */
export function requireInvitePermission(ctx: OrgContext): void {
  requirePermission(ctx, "create_administrators");
  requireOwner(ctx);
}

export function canInvite(ctx: OrgContext): boolean {
  return ctx.isOwner && ctx.permissions.has("create_administrators");
}

/**
 * POST administrators: records the invitation (status Pending, token stored hashed) and mails the
 * confirmation link `${origin}/invitations/${token}`. An invitee who already has an account is
 * named at once, so the invitation also appears in their organisations list.
 */
export async function inviteAdministrator(
  ctx: OrgContext,
  input: { email: string; role_id: number | null },
  origin: string,
): Promise<Outcome> {
  requireInvitePermission(ctx);
  const role = await findRole(ctx, input.role_id);
  const email = normalizeEmail(input.email);
  const existingUser = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  let existing = db
    .selectFrom("administrators")
    .select(["id", "status", "is_owner"])
    .where("organization_id", "=", ctx.org.id);
  existing = existingUser
    ? existing.where((eb) => eb.or([eb("invited_email_address", "=", email), eb("user_id", "=", existingUser.id)]))
    : existing.where("invited_email_address", "=", email);
  const previous = await existing.executeTakeFirst();
  if (previous && (previous.status !== "Declined" || previous.is_owner === 1)) {
    const message = previous.status === "Accepted" ? ACCESS_CONTROL_REFUSALS.alreadyMember : ACCESS_CONTROL_REFUSALS.alreadyInvited;
    return { ok: false, fieldErrors: { email: [message] } };
  }

  const token = randomToken();
  const now = Date.now();
  const invitation = {
    role_id: role.id,
    status: "Pending" as const,
    invite_token_hash: hashToken(token),
    invited_by_user_id: ctx.user.id,
    updated_at: now,
  };
  let insertedId: number | null = null;
  try {
    if (previous) {
      // A declined invitation may be sent again.
      await db.updateTable("administrators").set(invitation).where("id", "=", previous.id).execute();
    } else {
      const row = await db
        .insertInto("administrators")
        .values({
          ...invitation,
          organization_id: ctx.org.id,
          user_id: existingUser?.id ?? null,
          invited_email_address: email,
          is_owner: 0,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      insertedId = row.id;
    }
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { email: [ACCESS_CONTROL_REFUSALS.alreadyInvited] } };
    throw error;
  }

  try {
    await sendInvitationEmail(ctx, email, role.name, `${origin.replace(/\/$/, "")}/invitations/${token}`);
  } catch (error) {
    console.error(JSON.stringify({ at: new Date().toISOString(), event: "invitation_email_failed", org: ctx.org.id, error: String(error) }));
    if (insertedId !== null) await db.deleteFrom("administrators").where("id", "=", insertedId).execute();
    else if (previous) {
      await db.updateTable("administrators").set({ status: "Declined", invite_token_hash: null }).where("id", "=", previous.id).execute();
    }
    return { ok: false, formErrors: [ACCESS_CONTROL_REFUSALS.inviteNotSent] };
  }
  return { ok: true };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function sendInvitationEmail(ctx: OrgContext, to: string, roleName: string, link: string) {
  const inviter = `${ctx.user.first_name} ${ctx.user.last_name}`;
  const text = [
    "Hello,",
    "",
    `${inviter} (${ctx.user.email}) invited you to join ${ctx.org.name} on Mlango as ${roleName}.`,
    "",
    "Open this link to accept or decline the invitation:",
    link,
    "",
    "If you do not have an account yet, sign up with this email address and you will come back to the invitation.",
    "If you did not expect this invitation, you can ignore this email.",
  ].join("\n");
  const html = `<p>Hello,</p><p><strong>${escapeHtml(inviter)}</strong> (${escapeHtml(ctx.user.email)}) invited you to join <strong>${escapeHtml(
    ctx.org.name,
  )}</strong> on Mlango as ${escapeHtml(roleName)}.</p><p><a href="${escapeHtml(link)}">Accept or decline the invitation</a></p><p>If you do not have an account yet, sign up with this email address and you will come back to the invitation. If you did not expect this invitation, you can ignore this email.</p>`;
  await sendEmail({ to, subject: `${inviter} invited you to join ${ctx.org.name} on Mlango`, text, html, link });
}

// ---------------------------------------------------------------------------------------------
// Invitations by link (/invitations/:token). The token is the proof; it is used once.

export interface Invitation {
  id: number;
  organizationId: number;
  organizationName: string;
  roleName: string | null;
  inviterName: string | null;
  invitedEmail: string | null;
}

/** A pending invitation this user may answer: unknown, used, or bound to another user → 404. */
export async function getInvitation(token: string, user: AuthUser, executor: Kysely<DB> = db): Promise<Invitation> {
  if (!token || token.length > 200) notFound();
  const row = await executor
    .selectFrom("administrators as a")
    .innerJoin("organizations as o", "o.id", "a.organization_id")
    .leftJoin("roles as r", "r.id", "a.role_id")
    .leftJoin("users as inviter", "inviter.id", "a.invited_by_user_id")
    .select([
      "a.id",
      "a.user_id",
      "a.organization_id",
      "o.name as organization_name",
      "r.name as role_name",
      "inviter.first_name as inviter_first_name",
      "inviter.last_name as inviter_last_name",
      "a.invited_email_address",
    ])
    .where("a.invite_token_hash", "=", hashToken(token))
    .where("a.status", "=", "Pending")
    .executeTakeFirst();
  if (!row || (row.user_id !== null && row.user_id !== user.id)) notFound();
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    roleName: row.role_name,
    inviterName: row.inviter_first_name === null ? null : `${row.inviter_first_name} ${row.inviter_last_name}`,
    invitedEmail: row.invited_email_address,
  };
}

/** Accepts the invitation for the signed-in user, who becomes an accepted member of the organisation. */
export async function acceptInvitation(token: string, user: AuthUser): Promise<Outcome<{ organizationId: number; organizationName: string }>> {
  try {
    return await db.transaction().execute(async (trx) => {
      const invitation = await getInvitation(token, user, trx);
      const member = await trx
        .selectFrom("administrators")
        .select("id")
        .where("organization_id", "=", invitation.organizationId)
        .where("user_id", "=", user.id)
        .where("id", "!=", invitation.id)
        .executeTakeFirst();
      if (member) return { ok: false, formErrors: [`You are already a member of ${invitation.organizationName}.`] };
      const result = await trx
        .updateTable("administrators")
        .set({ user_id: user.id, status: "Accepted", invite_token_hash: null, updated_at: Date.now() })
        .where("id", "=", invitation.id)
        .where("invite_token_hash", "=", hashToken(token)) // used once, even by two requests at the same time
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) notFound();
      return { ok: true, organizationId: invitation.organizationId, organizationName: invitation.organizationName };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, formErrors: ["You are already a member of this organization."] };
    throw error;
  }
}

export async function declineInvitation(token: string, user: AuthUser): Promise<{ organizationName: string }> {
  const invitation = await getInvitation(token, user);
  const result = await db
    .updateTable("administrators")
    .set({ status: "Declined", invite_token_hash: null, updated_at: Date.now() })
    .where("id", "=", invitation.id)
    .where("invite_token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) notFound();
  return { organizationName: invitation.organizationName };
}

// ---------------------------------------------------------------------------------------------
// Roles and permissions

async function findRole(ctx: OrgContext, roleId: number | null) {
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
      if (ids.length) await trx.insertInto("role_permissions").values(ids.map((id) => ({ role_id: role.id, permission_id: id }))).execute();
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

/** Changing a role's permissions needs update_roles and edit_roles (spec 1 §6). */
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
  if (role.role_type !== "custom") return { ok: false, formErrors: [ACCESS_CONTROL_REFUSALS.permissionsNeedCustom] };
  await db.transaction().execute(async (trx) => {
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
  });
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
