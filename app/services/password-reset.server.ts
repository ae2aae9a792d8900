import { db } from "~/db/db.server";
import { findUserByLoginId } from "./auth.server";
import { hashPassword, hashToken, randomToken } from "./crypto.server";
import { sendEmail } from "./email.server";
import { attachInvitationsToUser } from "./invitations.server";

// Password reset: a single-use random token, stored hashed, valid for an hour. Requesting a
// new one invalidates the older ones; using one revokes every session of the user.

export const RESET_TOKEN_TTL_MS = 60 * 60_000;

export const FORGOT_PASSWORD_SENT = "If an account matches, we have sent a password reset link.";
export const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please request a new one.";
export const RESET_LOGIN_ID_MISMATCH = "This email or phone number does not match the account of this password reset link.";
export const PASSWORD_RESET_DONE = "Your password has been reset.";

/**
 * Mails a reset link to the account of the login id, if there is one. The caller answers the
 * same whatever happens here, so nobody can learn which accounts exist. The link is
 * `${origin}/password/reset/${token}` unless `linkFor` builds it (the API's reset_link template,
 * accepted only when it points at our own origin).
 */
export async function requestPasswordReset(loginId: string, origin: string, linkFor?: (token: string) => string): Promise<void> {
  const user = await findUserByLoginId(loginId);
  if (!user) return;
  const token = randomToken();
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    // Older links of this user stop working; expired links of anyone are dead weight.
    await trx
      .deleteFrom("password_resets")
      .where((eb) => eb.or([eb("user_id", "=", user.id), eb("expires_at", "<=", now)]))
      .execute();
    await trx
      .insertInto("password_resets")
      .values({ user_id: user.id, token_hash: hashToken(token), expires_at: now + RESET_TOKEN_TTL_MS, used_at: null, created_at: now })
      .execute();
  });
  const link = linkFor ? linkFor(token) : `${origin}/password/reset/${token}`;
  await sendEmail({
    to: user.email,
    subject: "Reset your Mlango password",
    text: [
      `Hello ${user.first_name},`,
      "",
      "We received a request to reset the password of your Mlango account. Open this link to choose a new one:",
      link,
      "",
      "The link works once and expires in 60 minutes. If you did not ask for it, you can ignore this email: your password stays as it is.",
    ].join("\n"),
    link,
  });
}

/** The unused, unexpired reset request of a token, or null. */
async function liveReset(token: string, now: number) {
  if (!token || token.length > 200) return null;
  return (
    (await db
      .selectFrom("password_resets")
      .select(["id", "user_id"])
      .where("token_hash", "=", hashToken(token))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst()) ?? null
  );
}

export async function isResetTokenUsable(token: string): Promise<boolean> {
  return (await liveReset(token, Date.now())) !== null;
}

export type ResetOutcome = { ok: true } | { ok: false; field: "form" | "login_id"; message: string };

/**
 * Sets a new password through a reset link: the token must be live and belong to the account
 * of the login id. The token is spent, and the user's existing sessions and API tokens end.
 */
export async function resetPassword(input: { token: string; loginId: string; password: string }): Promise<ResetOutcome> {
  const now = Date.now();
  const reset = await liveReset(input.token, now);
  if (!reset) return { ok: false, field: "form", message: RESET_LINK_INVALID };
  const user = await findUserByLoginId(input.loginId);
  if (!user || user.id !== reset.user_id) return { ok: false, field: "login_id", message: RESET_LOGIN_ID_MISMATCH };
  const passwordHash = await hashPassword(input.password);
  return db
    .transaction()
    .execute(async (trx): Promise<ResetOutcome> => {
      // Spending the token is the guard: of two concurrent uses only one updates the row.
      const spent = await trx
        .updateTable("password_resets")
        .set({ used_at: now })
        .where("id", "=", reset.id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) return { ok: false, field: "form", message: RESET_LINK_INVALID };
      // Opening the mailed link proved the address, as a sign-up link would have.
      await trx
        .updateTable("users")
        .set((eb) => ({
          password_hash: passwordHash,
          email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(now)),
          updated_at: now,
        }))
        .where("id", "=", user.id)
        .execute();
      await trx.deleteFrom("api_tokens").where("user_id", "=", user.id).execute();
      return { ok: true };
    })
    .then(async (outcome) => {
      if (outcome.ok) await attachInvitationsToUser(user.id, user.email);
      return outcome;
    });
}
