// A user's API tokens (decision 0002): listed on /{orgId}/profile/tokens with when they were made,
// last used and expire, and revoked there one by one or by the script itself (DELETE auth/token).
import { db } from "~/db/db.server";
import { notFound } from "./guard.server";

export interface ApiTokenRow {
  id: number;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number;
}

/** The user's live API tokens, newest first (browser sessions are not listed). */
export async function listApiTokens(userId: number, now = Date.now()): Promise<ApiTokenRow[]> {
  const rows = await db
    .selectFrom("api_tokens")
    .select(["id", "created_at", "last_used_at", "expires_at"])
    .where("user_id", "=", userId)
    .where("label", "=", "api")
    .where("expires_at", ">", now)
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    expiresAt: Number(r.expires_at),
  }));
}

/** Revokes one of the user's API tokens; another user's, a browser session's or an unknown id is a 404. */
export async function revokeApiToken(userId: number, id: number | null): Promise<void> {
  if (id === null) notFound();
  const result = await db
    .deleteFrom("api_tokens")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("label", "=", "api")
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) notFound();
}
