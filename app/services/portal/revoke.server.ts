// Closing a connection in the console reaches the gateway where its make allows:
// a controller is told by a queued job (retried while it is unreachable), Mlango's own make and
// openNDS's agent poll a revocation list, and the rest cannot be told: the console says so instead
// of pretending.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB, GatewayMake } from "~/db/schema";
import { noteConnectionEvent, recordConnectionEvent } from "../connection-timeline.server";
import { enqueue } from "../jobs/queue.server";
import { gatewayFor } from "./gateways/index.server";
import type { Revocation } from "./gateways/types";
import { networkById, type PortalNetwork } from "./network.server";

export const REVOKE_JOB = "gateway.revoke";
const REVOCATIONS_PAGE = 500;

/** What closing told the gateway, for the console to say. */
export interface GatewayNote {
  make: GatewayMake;
  revocation: Revocation;
  note: string;
}

export interface ClosedConnection {
  id: number;
  organizationId: number;
  venueId: number | null;
  gateway: GatewayMake | null;
  gatewayContext: string | null;
  clientMac: string | null;
  sessionExpiresAt: number | null;
}

const MAKE_NAMES: Record<GatewayMake, string> = {
  meraki: "Meraki",
  opennds: "openNDS",
  unifi: "UniFi",
  mlango: "Mlango",
  mikrotik: "MikroTik",
  cisco: "Cisco",
  ruckus: "Ruckus",
};

const contextOf = (gatewayContext: string | null) => JSON.parse(gatewayContext ?? "{}") as Record<string, string>;

/** The network whose gateway handed the guest over (its access point may be filed under another venue). */
function networkIdOf(context: Record<string, string>, venueId: number | null): number | null {
  const id = Number(context.network_id ?? venueId);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const POLL_NOTE = "The gateway will disconnect the guest when it next checks (within a minute).";
/** Makes whose routers poll only where an agent was installed: Mlango cannot know whether one was. */
const POLL_NOTES: Partial<Record<GatewayMake, string>> = {
  opennds:
    "openNDS routers that run Mlango's agent disconnect the guest when they next check (within a minute); without the agent, openNDS keeps the guest online until its own sessiontimeout runs out.",
};

/**
 * Makes whose gateway ends a guest's session on its own clock, not at Mlango's end time: openNDS at
 * FAS level 1 takes no length from Mlango (docs/decisions/0075).
 */
const OWN_CLOCK: Partial<Record<GatewayMake, string>> = {
  opennds:
    "openNDS keeps the guest online until its own sessiontimeout runs out (set on the router, 1440 minutes unless changed), whatever Mlango's end time.",
};

function cannotTell(make: GatewayMake, sessionExpiresAt: number | null, now: number): string {
  const cannot = `This ${MAKE_NAMES[make]} network cannot be told from Mlango:`;
  if (OWN_CLOCK[make]) return `${cannot} ${OWN_CLOCK[make]}`;
  if (sessionExpiresAt === null) return `${cannot} the guest stays online there until the session ends.`;
  if (sessionExpiresAt <= now) return `${cannot} the guest's session there has already run out.`;
  const iso = new Date(sessionExpiresAt).toISOString();
  const day = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? "" : ` on ${iso.slice(0, 10)}`;
  return `${cannot} the guest stays online there until the session ends${day} at ${iso.slice(11, 16)} UTC.`;
}

/**
 * Tells the gateway of a connection just closed, inside the closing transaction (so the job or the
 * list entry exists exactly when the close does). Null for a connection no gateway handed over.
 */
export async function revokeAtGateway(trx: Kysely<DB>, connection: ClosedConnection, now = Date.now()): Promise<GatewayNote | null> {
  const note = await tellGateway(trx, connection, now);
  if (note) {
    await recordConnectionEvent(trx, {
      organizationId: connection.organizationId,
      connectionId: connection.id,
      kind: "revoke",
      detail: { gateway: note.make, revocation: note.revocation, note: note.note },
      at: now,
    });
  }
  return note;
}

async function tellGateway(trx: Kysely<DB>, connection: ClosedConnection, now: number): Promise<GatewayNote | null> {
  const adapter = connection.gateway ? gatewayFor(connection.gateway) : null;
  if (!adapter) return null;
  const networkId = networkIdOf(contextOf(connection.gatewayContext), connection.venueId);
  const reachable = adapter.revocation !== "none" && connection.clientMac !== null && networkId !== null;
  if (reachable && adapter.revocation === "controller") {
    await enqueue(REVOKE_JOB, { connectionId: connection.id }, { dedupeKey: `${REVOKE_JOB}:${connection.id}` }, trx);
    const teller = adapter.make === "mikrotik" ? "router" : "controller";
    return {
      make: adapter.make,
      revocation: "controller",
      note: `The ${MAKE_NAMES[adapter.make]} ${teller} is being told to disconnect the guest.`,
    };
  }
  if (reachable && adapter.revocation === "poll" && (await listRevocation(trx, connection, networkId!, now))) {
    return { make: adapter.make, revocation: "poll", note: POLL_NOTES[adapter.make] ?? POLL_NOTE };
  }
  return { make: adapter.make, revocation: "none", note: cannotTell(adapter.make, connection.sessionExpiresAt, now) };
}

/**
 * Blocking a device cuts it off now (inside the blocking transaction): its open connections end as
 * a Close ends one, and each one's gateway is told the way its make allows (revokeAtGateway). The
 * notes come back once each, for the console to say what happens at which gateway.
 */
export async function cutOffDevice(trx: Kysely<DB>, organizationId: number, deviceId: number, now = Date.now()): Promise<GatewayNote[]> {
  const open = await trx
    .selectFrom("connections")
    .innerJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.venue_id",
      "connections.authorized_at",
      "connections.gateway",
      "connections.gateway_context",
      "connections.session_expires_at",
      "devices.mac_address",
    ])
    .where("connections.organization_id", "=", organizationId)
    .where("connections.device_id", "=", deviceId)
    .where("connections.authorized_at", "is not", null)
    .where("connections.ended_at", "is", null)
    .execute();
  const notes = new Map<string, GatewayNote>();
  for (const c of open) {
    const ended = await trx
      .updateTable("connections")
      .set({ ended_at: Math.max(now, Number(c.authorized_at)), terminate_cause: "Admin-Reset" })
      .where("id", "=", c.id)
      .where("ended_at", "is", null)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) !== 1) continue;
    const note = await revokeAtGateway(
      trx,
      {
        id: Number(c.id),
        organizationId,
        venueId: c.venue_id,
        gateway: c.gateway,
        gatewayContext: c.gateway_context,
        clientMac: c.mac_address,
        sessionExpiresAt: c.session_expires_at === null ? null : Number(c.session_expires_at),
      },
      now,
    );
    if (note) notes.set(note.note, note);
  }
  return [...notes.values()];
}

/** Adds the client to the network's revocation list; false when the network is gone (deleted meanwhile). */
async function listRevocation(trx: Kysely<DB>, connection: ClosedConnection, networkId: number, now: number): Promise<boolean> {
  const result = await trx
    .insertInto("gateway_revocations")
    .columns(["organization_id", "venue_id", "connection_id", "client_mac", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("venues")
        .select((v) => [
          "organization_id",
          "id",
          v.val(connection.id).as("connection_id"),
          v.val(connection.clientMac!).as("client_mac"),
          v.val(now).as("created_at"),
        ])
        .where("id", "=", networkId)
        .where("organization_id", "=", connection.organizationId),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The gateway.revoke job: asks the connection's controller to cut the guest off. A GatewayError
 * (controller down, refused) fails the job, which the queue retries with backoff; a session that
 * has run out meanwhile needs nothing.
 */
export async function runRevokeJob(payload: { connectionId: number }, now = Date.now()): Promise<void> {
  const row = await db
    .selectFrom("connections")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "connections.venue_id",
      "connections.gateway",
      "connections.gateway_context",
      "connections.session_expires_at",
      "devices.mac_address",
    ])
    .where("connections.id", "=", payload.connectionId)
    .executeTakeFirst();
  const adapter = row?.gateway ? gatewayFor(row.gateway) : null;
  if (!row?.mac_address || !adapter?.revoke) return;
  if (row.session_expires_at !== null && Number(row.session_expires_at) <= now) return;
  const context = contextOf(row.gateway_context);
  const networkId = networkIdOf(context, row.venue_id);
  const network = networkId === null ? null : await networkById(networkId);
  if (!network) return;
  // RADIUS makes: the NAS's ACK/NAK is kept in radius_messages, which the timeline reads.
  const answered = adapter.loginForm
    ? null
    : { organizationId: Number(row.organization_id), connectionId: Number(row.id), kind: "revoke_answer" as const };
  try {
    await adapter.revoke({ network, connectionId: Number(row.id), clientMac: row.mac_address, context });
  } catch (error) {
    if (answered && error instanceof Error) {
      await noteConnectionEvent({ ...answered, detail: { gateway: adapter.make, ok: false, answer: error.message } });
    }
    throw error;
  }
  if (answered) await noteConnectionEvent({ ...answered, detail: { gateway: adapter.make, ok: true } });
}

export interface RevocationList {
  revocations: { id: number; client_mac: string; connection_id: number; created_at: number }[];
  /** The `after` of the next poll. */
  next_after: number;
}

/** GET /hotspot/mlango/{key}/revocations?after=: the network's revocations after that id, oldest first. */
export async function revocationsSince(network: PortalNetwork, after: number): Promise<RevocationList> {
  const rows = await db
    .selectFrom("gateway_revocations")
    .select(["id", "client_mac", "connection_id", "created_at"])
    .where("venue_id", "=", network.id)
    .where("organization_id", "=", network.organizationId)
    .where("id", ">", after)
    .orderBy("id")
    .limit(REVOCATIONS_PAGE)
    .execute();
  const revocations = rows.map((r) => ({
    id: Number(r.id),
    client_mac: r.client_mac,
    connection_id: Number(r.connection_id),
    created_at: Number(r.created_at),
  }));
  return { revocations, next_after: revocations.at(-1)?.id ?? after };
}
