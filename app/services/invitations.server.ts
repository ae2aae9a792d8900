// Invitations to become an administrator of an organisation (docs/guide/access-control.md#routes,
// docs/guide/api.md#account-service): sending one by email, attaching those sent before sign-up
// to the new user, and answering one by its link (/invitations/:token). Inviting takes the
// guard's context and filters by ctx.org.id; answering takes the signed-in user and the token,
// which is the proof and is used once. An unknown, used or foreign invitation is a 404.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { isUniqueViolation } from "~/db/sql.server";
import type { Outcome } from "~/lib/outcome";
import { normalizeEmail } from "./auth.server";
import { hashToken, randomToken } from "./crypto.server";
import { sendEmail } from "./email.server";
import { notFound, requireOwner, requirePermission, type AuthUser, type OrgContext } from "./guard.server";
import { findRole } from "./roles.server";

export const INVITATION_REFUSALS = {
  alreadyInvited: "This email has already been invited.",
  alreadyMember: "This email already belongs to an administrator of this organization.",
  inviteNotSent: "The invitation email could not be sent. Please try again.",
} as const;

/**
 * Invitations sent to this email now name the user, so they appear in the user's organisations
 * list (to accept or decline) instead of 'Pending registration'. Called only once the user has
 * proved the address (a confirmed sign-up or e-mail change, a password reset): signing up with an
 * invited address claims nothing by itself.
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
// Inviting

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
  // Only an account that has confirmed this address is named now; any other gets the invitation
  // when the address is confirmed (attachInvitationsToUser), or through the mailed link.
  const existingUser = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  let existing = db.selectFrom("administrators").select(["id", "status", "is_owner"]).where("organization_id", "=", ctx.org.id);
  existing = existingUser
    ? existing.where((eb) => eb.or([eb("invited_email_address", "=", email), eb("user_id", "=", existingUser.id)]))
    : existing.where("invited_email_address", "=", email);
  const previous = await existing.executeTakeFirst();
  if (previous && (previous.status !== "Declined" || previous.is_owner === 1)) {
    const message = previous.status === "Accepted" ? INVITATION_REFUSALS.alreadyMember : INVITATION_REFUSALS.alreadyInvited;
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
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { email: [INVITATION_REFUSALS.alreadyInvited] } };
    throw error;
  }

  try {
    await sendInvitationEmail(ctx, email, role.name, `${origin.replace(/\/$/, "")}/invitations/${token}`);
  } catch (error) {
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "invitation_email_failed", org: ctx.org.id, error: String(error) }),
    );
    if (insertedId !== null) await db.deleteFrom("administrators").where("id", "=", insertedId).execute();
    else if (previous) {
      await db.updateTable("administrators").set({ status: "Declined", invite_token_hash: null }).where("id", "=", previous.id).execute();
    }
    return { ok: false, formErrors: [INVITATION_REFUSALS.inviteNotSent] };
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
  return pendingInvitation(token, user, executor);
}

/**
 * What a signed-out visitor holding the link may learn before signing in or up:
 * the organisation, the role, who invited and the invited address. The token is the proof, as for
 * answering; unknown or used → 404. Answering still needs the account (getInvitation).
 */
export async function previewInvitation(token: string): Promise<Invitation> {
  return pendingInvitation(token, null, db);
}

async function pendingInvitation(token: string, user: AuthUser | null, executor: Kysely<DB>): Promise<Invitation> {
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
  if (!row || (user !== null && row.user_id !== null && row.user_id !== user.id)) notFound();
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
export async function acceptInvitation(
  token: string,
  user: AuthUser,
): Promise<Outcome<{ organizationId: number; organizationName: string }>> {
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
