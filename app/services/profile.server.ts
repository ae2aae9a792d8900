// The signed-in user's own profile (docs/guide/accounts.md#profile).
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import { PROFILE_MESSAGES, type PasswordChangeInput, type ProfileInput } from "~/lib/schemas/profile";
import { checkPassword } from "./auth.server";
import { hashPassword, hashToken, verifyPassword } from "./crypto.server";
import { mailVerificationLink } from "./registration.server";

export type ProfileOutcome = { ok: true; emailPending?: string } | { ok: false; fieldErrors: Record<string, string[]> };

/**
 * PUT profile: names, phone and e-mail address; the phone and address must not belong to another
 * user. A new address needs the current password and takes effect only when the link mailed to
 * it is opened (decision 0013): until then the account keeps its confirmed address.
 */
export async function updateProfile(userId: number, input: ProfileInput): Promise<ProfileOutcome> {
  const current = await db.selectFrom("users").select(["email", "first_name"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const emailChanges = input.email !== current.email;
  const taken = await db
    .selectFrom("users")
    .select(["email", "phone_number"])
    .where("id", "!=", userId)
    .where((eb) => eb.or([eb("email", "=", input.email), eb("phone_number", "=", input.phone_number)]))
    .execute();
  const fieldErrors: Record<string, string[]> = {};
  if (taken.some((u) => u.email === input.email)) fieldErrors.email = [PROFILE_MESSAGES.emailTaken];
  if (taken.some((u) => u.phone_number === input.phone_number)) fieldErrors.phone_number = [PROFILE_MESSAGES.phoneTaken];
  if (emailChanges && !fieldErrors.email && !(await checkPassword(userId, input.current_password ?? ""))) {
    fieldErrors.current_password = [PROFILE_MESSAGES.currentPasswordWrong];
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  try {
    await db
      .updateTable("users")
      .set({
        first_name: input.first_name,
        middle_name: input.middle_name,
        last_name: input.last_name,
        phone_number: input.phone_number,
        updated_at: Date.now(),
      })
      .where("id", "=", userId)
      .execute();
  } catch (error) {
    // another account took the phone between the check and the update
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { phone_number: [PROFILE_MESSAGES.phoneTaken] } };
    throw error;
  }
  if (!emailChanges) return { ok: true };
  await mailVerificationLink(userId, input.first_name, input.email);
  return { ok: true, emailPending: input.email };
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
