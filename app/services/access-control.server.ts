import { db } from "~/db/db.server";
import { normalizeEmail } from "./auth.server";

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
    .execute();
}
