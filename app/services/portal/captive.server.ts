// What the Captive Portal API (RFC 8908) and the "You are online" page say about a connection.
import { db } from "~/db/db.server";

export interface CaptiveStatus {
  online: boolean;
  sessionExpiresAt: number;
}

export async function captiveStatus(connectionId: number, now = Date.now()): Promise<CaptiveStatus | null> {
  const row = await db
    .selectFrom("connections")
    .select(["authorized_at", "ended_at", "session_expires_at"])
    .where("id", "=", connectionId)
    .executeTakeFirst();
  if (!row || row.authorized_at === null) return null;
  const sessionExpiresAt = Number(row.session_expires_at ?? row.authorized_at);
  return { online: row.ended_at === null && sessionExpiresAt > now, sessionExpiresAt };
}
