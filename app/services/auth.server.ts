import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { db } from "~/db/db.server";
import type { TokenKind } from "~/db/schema";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";
import { safeRedirect } from "~/lib/redirect";
import { loginSchema } from "~/lib/schemas/accounts";
import { hashPassword, hashToken, needsRehash, randomToken, verifyPassword } from "./crypto.server";
import type { AuthUser } from "./guard.server";
import { commitSession, getSession, sessionStorage } from "./session.server";

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

/** How long a token lives: a browser's sign-in as long as its cookie, a script's token longer. */
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = { web: 30 * 86_400_000, api: 90 * 86_400_000 };

/**
 * Issues a token (stored hashed); the raw value goes to the cookie session (`web`) or the API
 * client (`api`). A token works only as what it was issued for (decision 0002). The user's expired
 * tokens are deleted on the way.
 */
export async function issueToken(userId: number, kind: TokenKind): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  await db.deleteFrom("api_tokens").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
  await db
    .insertInto("api_tokens")
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      label: kind,
      created_at: now,
      last_used_at: null,
      expires_at: now + TOKEN_LIFETIME_MS[kind],
    })
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
  if (!(await verifyPassword(password, password_hash))) return null;
  if (needsRehash(password_hash)) {
    // Hashes made before the cost rose are upgraded while the password is at hand.
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword(password) })
      .where("id", "=", user.id)
      .where("password_hash", "=", password_hash)
      .execute();
  }
  return user;
}

/** Whether `password` is the user's (for confirmations that need it: a mailed link, an e-mail change). */
export async function checkPassword(userId: number, password: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  if (!row) {
    await hashPassword(password);
    return false;
  }
  return verifyPassword(password, row.password_hash);
}

// ---- Sign-in, sign-up and sign-out of the account pages ----

export const CREDENTIALS_MISMATCH = "These credentials do not match our records.";

/**
 * remix-auth with one strategy: the login form's credentials give the user, or null when they
 * do not match. Callers validate the form (and apply the rate limit) before authenticating.
 */
const authenticator = new Authenticator<AuthUser | null>().use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    return parsed.success ? verifyLogin(parsed.data.login_id, parsed.data.password) : null;
  }),
  "login-form",
);

/** The user of the login form's credentials, or null. Reads a clone of the body; the request stays readable. */
export function authenticateLoginForm(request: Request): Promise<AuthUser | null> {
  return authenticator.authenticate("login-form", request);
}

/**
 * Signs the browser in: a new web token in the cookie session, then on to the wanted page —
 * the form's redirectTo, else the one remembered in the session, else home (same-site only).
 */
export async function signInAndRedirect(request: Request, userId: number, redirectTo?: string | null): Promise<Response> {
  const session = await getSession(request);
  const previous = session.get("token");
  if (previous) await revokeToken(previous); // a new sign-in ends the one this browser had
  session.set("token", await issueToken(userId, "web"));
  const to = safeRedirect(redirectTo || session.get("redirectTo"), "/");
  session.unset("redirectTo");
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/** Ends the browser's sign-in: its token is revoked and the cookie session destroyed. */
export async function signOutAndRedirect(request: Request, to = "/login"): Promise<Response> {
  const session = await getSession(request);
  const token = session.get("token");
  if (token) await revokeToken(token);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}
