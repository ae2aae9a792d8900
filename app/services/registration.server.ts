// Sign-up that proves the e-mail address (decision 0013).
//
// POST /register answers the same whatever the address and phone number: whether they have an
// account is told only by mail, to the address. A new account is created unconfirmed and a link is
// mailed; opening it and entering the account's password confirms the address, attaches the
// invitations sent to it, and signs the user in. An unconfirmed account cannot sign in and proves
// nothing, so a later sign-up with its address or phone number replaces it: nobody can hold another
// person's address by signing up first, and a mailed link only works with the password of the
// person who signed up. Changing the account's address uses the same links (profile.server.ts).
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import type { RegisterInput } from "~/lib/schemas/accounts";
import { normalizeEmail } from "./auth.server";
import { hashPassword, hashToken, randomToken } from "./crypto.server";
import { publicOrigin, sendEmail } from "./email.server";
import { attachInvitationsToUser } from "./invitations.server";

export const VERIFICATION_TTL_MS = 24 * 60 * 60_000;

export function registrationSentMessage(email: string): string {
  return `We have sent a link to ${email}. Open it to finish signing up.`;
}

/** Starts a sign-up; every outcome looks the same to the caller. */
export async function register(input: Omit<RegisterInput, "redirectTo">): Promise<void> {
  const email = normalizeEmail(input.email);
  const phone = input.phone_number;
  const holders = await db
    .selectFrom("users")
    .select(["id", "email", "phone_number", "email_verified_at"])
    .where((eb) => eb.or([eb("email", "=", email), eb("phone_number", "=", phone)]))
    .execute();
  const confirmed = holders.filter((u) => u.email_verified_at !== null);
  if (confirmed.some((u) => u.email === email)) return mailAccountExists(email);
  if (confirmed.some((u) => u.phone_number === phone)) return mailPhoneTaken(email);
  const passwordHash = await hashPassword(input.password);
  const now = Date.now();
  try {
    const user = await db.transaction().execute(async (trx) => {
      const unconfirmed = holders.map((u) => u.id);
      if (unconfirmed.length) await trx.deleteFrom("users").where("id", "in", unconfirmed).where("email_verified_at", "is", null).execute();
      return trx
        .insertInto("users")
        .values({
          first_name: input.first_name,
          middle_name: null,
          last_name: input.last_name,
          email,
          phone_number: phone,
          password_hash: passwordHash,
          dashboard: null,
          email_verified_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning(["id", "first_name"])
        .executeTakeFirstOrThrow();
    });
    await mailVerificationLink(user.id, user.first_name, email);
  } catch (error) {
    // Another sign-up with this address or phone won the race: it is the one that counts.
    if (!isUniqueViolation(error)) throw error;
  }
}

/** Mails a link that confirms `email` for the user (the account's own address, or a new one). */
export async function mailVerificationLink(userId: number, firstName: string, email: string): Promise<void> {
  const token = randomToken();
  const now = Date.now();
  await db.deleteFrom("email_verifications").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
  await db
    .insertInto("email_verifications")
    .values({ user_id: userId, email, token_hash: hashToken(token), expires_at: now + VERIFICATION_TTL_MS, created_at: now })
    .execute();
  const link = `${publicOrigin()}/register/verify/${token}`;
  await sendEmail({
    to: email,
    subject: "Confirm your e-mail address for Mlango",
    text: [
      `Hello ${firstName},`,
      "",
      "Open this link and enter your Mlango password to confirm this e-mail address:",
      link,
      "",
      "The link works once and expires in 24 hours. If you did not ask for it, you can ignore this e-mail.",
    ].join("\n"),
    link,
  });
}

function mailAccountExists(email: string): Promise<void> {
  return sendEmail({
    to: email,
    subject: "Someone tried to sign up to Mlango with your address",
    text: [
      "Hello,",
      "",
      "Someone tried to create a Mlango account with this e-mail address, which already has one.",
      `If it was you, sign in at ${publicOrigin()}/login, or choose a new password at ${publicOrigin()}/password/forgot.`,
      "If it was not you, you can ignore this e-mail: nothing has changed.",
    ].join("\n"),
  });
}

function mailPhoneTaken(email: string): Promise<void> {
  return sendEmail({
    to: email,
    subject: "Your Mlango sign-up",
    text: [
      "Hello,",
      "",
      "We could not create a Mlango account with this address: the phone number you gave already belongs to another account.",
      `If that account is yours, sign in at ${publicOrigin()}/login; otherwise sign up again with another phone number.`,
    ].join("\n"),
  });
}

export interface PendingVerification {
  id: number;
  userId: number;
  email: string;
  /** True when the link changes the account's address rather than confirming it. */
  change: boolean;
}

/** The live link of a token, or null (unknown, used or expired). */
export async function findVerification(token: string): Promise<PendingVerification | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom("email_verifications as v")
    .innerJoin("users as u", "u.id", "v.user_id")
    .select(["v.id", "v.user_id", "v.email", "u.email as account_email"])
    .where("v.token_hash", "=", hashToken(token))
    .where("v.expires_at", ">", Date.now())
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id, email: row.email, change: row.email !== row.account_email } : null;
}

export type VerifyOutcome = { ok: true; userId: number } | { ok: false; message: string };

export const VERIFY_MESSAGES = {
  linkInvalid: "This link is invalid or has expired. Sign up again, or sign in to be sent a new one.",
  emailTaken: "This email address is already registered.",
} as const;

/**
 * Confirms the address of a link for its user (the caller has checked the password): the account's
 * address is marked confirmed, or changed to the new one; the link is used up; invitations sent to
 * the address now belong to the user.
 */
export async function confirmVerification(verification: PendingVerification): Promise<VerifyOutcome> {
  const now = Date.now();
  try {
    const confirmed = await db.transaction().execute(async (trx) => {
      const spent = await trx.deleteFrom("email_verifications").where("id", "=", verification.id).executeTakeFirst();
      if (Number(spent.numDeletedRows) !== 1) return false; // used by a request at the same time
      await trx
        .updateTable("users")
        .set({ email: verification.email, email_verified_at: now, updated_at: now })
        .where("id", "=", verification.userId)
        .execute();
      return true;
    });
    if (!confirmed) return { ok: false, message: VERIFY_MESSAGES.linkInvalid };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, message: VERIFY_MESSAGES.emailTaken };
    throw error;
  }
  await attachInvitationsToUser(verification.userId, verification.email);
  return { ok: true, userId: verification.userId };
}

/**
 * For a sign-in with the right password: null when the address is confirmed; otherwise a new link
 * is mailed and the answer says so (the account cannot be used until it is confirmed).
 */
export async function unconfirmedSignIn(user: { id: number; first_name: string; email: string }): Promise<string | null> {
  const row = await db.selectFrom("users").select("email_verified_at").where("id", "=", user.id).executeTakeFirst();
  if (row?.email_verified_at != null) return null;
  await mailVerificationLink(user.id, user.first_name, user.email);
  return `Please confirm your e-mail address first: we have sent a new link to ${user.email}.`;
}
