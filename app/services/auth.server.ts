import { db } from "~/db/db.server";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";
import { hashPassword, hashToken, randomToken, verifyPassword } from "./crypto.server";
import type { AuthUser } from "./guard.server";

const USER_COLUMNS = ["id", "first_name", "middle_name", "last_name", "email", "phone_number"] as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A login id is an email (case-insensitive) or a phone number in any usual notation. */
export async function findUserByLoginId(loginId: string) {
  const id = loginId.trim();
  let query = db.selectFrom("users").select([...USER_COLUMNS, "password_hash"]);
  if (looksLikeEmail(id)) query = query.where("email", "=", normalizeEmail(id));
  else {
    const phone = normalizePhone(id);
    if (!phone) return null;
    query = query.where("phone_number", "=", phone);
  }
  return (await query.executeTakeFirst()) ?? null;
}

/** Issues an API token (stored hashed); the raw value goes to the cookie session or the API client. */
export async function issueToken(userId: number, label: "web" | "api"): Promise<string> {
  const token = randomToken();
  await db
    .insertInto("api_tokens")
    .values({ user_id: userId, token_hash: hashToken(token), label, created_at: Date.now(), last_used_at: null })
    .execute();
  return token;
}

export async function revokeToken(token: string): Promise<void> {
  await db.deleteFrom("api_tokens").where("token_hash", "=", hashToken(token)).execute();
}

/** The user for a login id and password, or null; the same answer whether the id or the password is wrong. */
export async function verifyLogin(loginId: string, password: string): Promise<AuthUser | null> {
  const found = await findUserByLoginId(loginId);
  if (!found) {
    await hashPassword(password); // spend the same time as a real check
    return null;
  }
  const { password_hash, ...user } = found;
  return (await verifyPassword(password, password_hash)) ? user : null;
}
