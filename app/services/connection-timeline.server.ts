// A connection's timeline for the operator ("why is this guest offline?" in one place): entry,
// sign-up or payment, the grant (what was sent to which gateway and its answer), accounting, and
// closing (what the gateway was told, its ACK/NAK). What the connection row, M-Pesa purchases and
// RADIUS messages already hold is read from them; only what nothing else records is written to
// connection_events, one insert where it happens (decision 0081). Console page, REST and GraphQL
// ask connectionTimeline; view_clients, as the connections list.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { notFound, requirePermission, type OrgContext } from "./guard.server";

/** What connection_events records (the rest of the timeline is read from existing rows). */
export type ConnectionEventKind = "grant" | "grant_failed" | "revoke" | "revoke_answer";

export type TimelineKind = "entry" | "authorized" | "payment" | ConnectionEventKind | "radius_message" | "accounting" | "ended";

export interface TimelineEvent {
  at: number;
  kind: TimelineKind;
  /** One sentence for the operator. */
  summary: string;
  /** What was sent and answered, as recorded (gateway, request, answer). */
  detail: Record<string, unknown> | null;
}

/** Records one event; `executor` is the transaction it belongs to, or the database. */
export async function recordConnectionEvent(
  executor: Kysely<DB>,
  event: { organizationId: number; connectionId: number; kind: ConnectionEventKind; detail: Record<string, unknown>; at?: number },
): Promise<void> {
  await executor
    .insertInto("connection_events")
    .values({
      organization_id: event.organizationId,
      connection_id: event.connectionId,
      kind: event.kind,
      detail: JSON.stringify(event.detail),
      created_at: event.at ?? Date.now(),
    })
    .execute();
}

/** Records an event without failing the caller: the timeline explains, it must never stop a guest or a close. */
export function noteConnectionEvent(event: Parameters<typeof recordConnectionEvent>[1]): Promise<void> {
  return recordConnectionEvent(db, event).catch((error: unknown) => {
    console.error(JSON.stringify({ at: new Date().toISOString(), event: "connection_event_failed", error: String(error) }));
  });
}

const SUMMARY: Record<ConnectionEventKind, (d: Record<string, unknown>) => string> = {
  grant: (d) => `Granted at the ${String(d.gateway)} gateway: ${String(d.answer ?? "accepted")}.`,
  grant_failed: (d) => `The ${String(d.gateway)} gateway refused the grant: ${String(d.answer)}`,
  revoke: (d) => `Closing sent to the ${String(d.gateway)} gateway (${String(d.revocation)}): ${String(d.note)}`,
  revoke_answer: (d) =>
    d.ok
      ? `The ${String(d.gateway)} gateway confirmed the disconnection.`
      : `The ${String(d.gateway)} gateway did not disconnect the guest: ${String(d.answer)}`,
};

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** connectionTimeline(id): the organisation's connection's events, oldest first; a missing or foreign one is a 404. */
export async function connectionTimeline(ctx: OrgContext, id: number | null): Promise<TimelineEvent[]> {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  if (id === null) notFound();
  const row = await db
    .selectFrom("connections")
    .select([
      "id",
      "gateway",
      "access_point_mac",
      "ssid",
      "created_at",
      "authorized_at",
      "authorization_mode",
      "session_expires_at",
      "accounted_at",
      "upload",
      "download",
      "ended_at",
      "terminate_cause",
    ])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) notFound();
  const [events, payments, messages] = await Promise.all([
    db
      .selectFrom("connection_events")
      .select(["kind", "detail", "created_at"])
      .where("connection_id", "=", id)
      .where("organization_id", "=", ctx.org.id)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("mpesa_transactions")
      .select(["status", "amount", "result_desc", "created_at"])
      .where("connection_id", "=", id)
      .where("organization_id", "=", ctx.org.id)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("radius_messages")
      .select(["kind", "outcome", "detail", "created_at"])
      .where("connection_id", "=", id)
      .where("organization_id", "=", ctx.org.id)
      .orderBy("id")
      .execute(),
  ]);

  const timeline: TimelineEvent[] = [];
  const gateway = row.gateway ?? "no";
  timeline.push({
    at: Number(row.created_at),
    kind: "entry",
    summary: `Reached the portal from the ${gateway} gateway${row.access_point_mac ? ` (access point ${row.access_point_mac})` : ""}${row.ssid ? ` on ${row.ssid}` : ""}.`,
    detail: { gateway: row.gateway, access_point_mac: row.access_point_mac, ssid: row.ssid },
  });
  for (const p of payments) {
    timeline.push({
      at: Number(p.created_at),
      kind: "payment",
      summary: `M-Pesa payment of KES ${Number(p.amount)}: ${p.status}${p.result_desc ? ` (${p.result_desc})` : ""}.`,
      detail: { status: p.status, amount: Number(p.amount), result_desc: p.result_desc },
    });
  }
  if (row.authorized_at !== null) {
    timeline.push({
      at: Number(row.authorized_at),
      kind: "authorized",
      summary: `Signed in (${row.authorization_mode ?? "unknown way"})${row.session_expires_at !== null ? `, online until ${new Date(Number(row.session_expires_at)).toISOString()}` : ""}.`,
      detail: { mode: row.authorization_mode, session_expires_at: row.session_expires_at === null ? null : Number(row.session_expires_at) },
    });
  }
  for (const e of events) {
    const detail = parseDetail(e.detail);
    const kind = e.kind as ConnectionEventKind;
    timeline.push({ at: Number(e.created_at), kind, summary: (SUMMARY[kind] ?? (() => e.kind))(detail), detail });
  }
  for (const m of messages) {
    timeline.push({
      at: Number(m.created_at),
      kind: "radius_message",
      summary: `RADIUS ${m.kind === "Disconnect" ? "Disconnect-Request" : "CoA-Request"} sent: ${m.outcome}${m.detail ? ` (${m.detail})` : ""}.`,
      detail: { kind: m.kind, outcome: m.outcome, detail: m.detail },
    });
  }
  if (row.accounted_at !== null) {
    timeline.push({
      at: Number(row.accounted_at),
      kind: "accounting",
      summary: `Newest accounting record from the gateway: ${Number(row.upload)} bytes up, ${Number(row.download)} bytes down in total.`,
      detail: { upload: Number(row.upload), download: Number(row.download) },
    });
  }
  if (row.ended_at !== null) {
    timeline.push({
      at: Number(row.ended_at),
      kind: "ended",
      summary: `Ended in Mlango${row.terminate_cause ? ` (${row.terminate_cause})` : ""}.`,
      detail: { terminate_cause: row.terminate_cause },
    });
  }
  // Stable: events of the same millisecond keep the order they were listed in (entry, payment, sign-in, …).
  return timeline
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
}
