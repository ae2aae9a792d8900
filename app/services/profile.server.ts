// The signed-in user's own profile (spec 2 "Profile", §5 "Account profile" and "Password change").
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import { PROFILE_MESSAGES, type PasswordChangeInput, type ProfileInput } from "~/lib/schemas/profile";
import { hashPassword, hashToken, verifyPassword } from "./crypto.server";

export type ProfileOutcome = { ok: true } | { ok: false; fieldErrors: Record<string, string[]> };

/** PUT profile: names, email and phone; the email and phone must not belong to another user. */
export async function updateProfile(userId: number, input: ProfileInput): Promise<ProfileOutcome> {
  const taken = await db
    .selectFrom("users")
    .select(["email", "phone_number"])
    .where("id", "!=", userId)
    .where((eb) => eb.or([eb("email", "=", input.email), eb("phone_number", "=", input.phone_number)]))
    .execute();
  const fieldErrors: Record<string, string[]> = {};
  if (taken.some((u) => u.email === input.email)) fieldErrors.email = [PROFILE_MESSAGES.emailTaken];
  if (taken.some((u) => u.phone_number === input.phone_number)) fieldErrors.phone_number = [PROFILE_MESSAGES.phoneTaken];
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  try {
    await db
      .updateTable("users")
      .set({
        first_name: input.first_name,
        middle_name: input.middle_name,
        last_name: input.last_name,
        email: input.email,
        phone_number: input.phone_number,
        updated_at: Date.now(),
      })
      .where("id", "=", userId)
      .execute();
  } catch (error) {
    // another account took the email or phone between the check and the update
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { email: [PROFILE_MESSAGES.emailTaken] } };
    throw error;
  }
  return { ok: true };
}

/**
 * PUT profile/password: checks the old password, stores the new one, and signs out every other
 * session and API client of the user (all tokens but `keepToken`, the one making this request).
 * Unused password-reset links die with the old password.
 */
export async function changePassword(userId: number, input: PasswordChangeInput, keepToken: string | null): Promise<ProfileOutcome> {
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  if (!user || !(await verifyPassword(input.old_password, user.password_hash))) {
    return { ok: false, fieldErrors: { old_password: [PROFILE_MESSAGES.oldPasswordWrong] } };
  }
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: Date.now() }).where("id", "=", userId).execute();
    let tokens = trx.deleteFrom("api_tokens").where("user_id", "=", userId);
    if (keepToken) tokens = tokens.where("token_hash", "!=", hashToken(keepToken));
    await tokens.execute();
    await trx.deleteFrom("password_resets").where("user_id", "=", userId).where("used_at", "is", null).execute();
  });
  return { ok: true };
}
