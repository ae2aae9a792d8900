// Accounting-Requests onto the one accounting service of the guest path
// (portal/accounting.server.ts): the same maxima, ends and data limits as HTTP accounting.
//
// Requests arrive one per HTTP call from FreeRADIUS. Each would be its own transaction, and on
// PostgreSQL the roll-up rows of a network's hour are one row every transaction updates: a few
// hundred a second would queue on its lock and on commits. So records are gathered per network and
// applied in one transaction (one commit for up to BATCH_MAX records), one batch of a network at a
// time: while a batch is written the next one gathers, so batches grow with the load instead of
// queueing on the organisation's accounting lock (group commit). Each request is answered when its
// batch is written, so an Accounting-Response still means "stored".
import net from "node:net";
import { db } from "~/db/db.server";
import { applyAccounting, type AccountingRecord } from "../portal/accounting.server";
import type { PortalNetwork } from "../portal/network.server";
import { count, octets, text, type RadiusAttributes } from "./attributes";
import type { Nas } from "./clients.server";
import { connectionIdOf } from "./login.server";

export const BATCH_WAIT_MS = 1;
export const BATCH_MAX = 500;

const STATUS: Record<string, AccountingRecord["status"]> = {
  Start: "start",
  "Interim-Update": "interim",
  Stop: "stop",
  "1": "start",
  "3": "interim",
  "2": "stop",
};

/**
 * An accounting record with the NAS's name for the session: Disconnect and CoA repeat them
 * (coa.server.ts), as RouterOS finds a session by Acct-Session-Id and Framed-IP-Address.
 */
export interface RadiusAccountingRecord extends AccountingRecord {
  session: { connectionId: number };
  nasSession: { sessionId: string; framedIp: string | null } | null;
}

/** Acct-Session-Id is the NAS's text (RFC 2866 §5.5): printable, and short enough to keep. */
const SESSION_ID = /^[\x21-\x7e]{1,64}$/;

/** An Accounting-Request as an accounting record; a string says what is wrong; null: nothing to apply (Accounting-On/Off). */
export function radiusRecord(attributes: RadiusAttributes): RadiusAccountingRecord | string | null {
  const status = text(attributes, "Acct-Status-Type");
  if (status === "Accounting-On" || status === "Accounting-Off" || status === "7" || status === "8") return null;
  const mapped = status ? STATUS[status] : undefined;
  if (!mapped) return "Acct-Status-Type must be Start, Interim-Update or Stop.";
  const connectionId = connectionIdOf(text(attributes, "User-Name"));
  if (connectionId === null) return "User-Name is not a Mlango login.";
  const cause = text(attributes, "Acct-Terminate-Cause");
  const sessionId = text(attributes, "Acct-Session-Id");
  const framedIp = text(attributes, "Framed-IP-Address");
  return {
    nasSession: sessionId && SESSION_ID.test(sessionId) ? { sessionId, framedIp: framedIp && net.isIP(framedIp) ? framedIp : null } : null,
    status: mapped,
    session: { connectionId },
    // Input is what the NAS received from the guest: the upload.
    upload: octets(attributes, "Acct-Input"),
    download: octets(attributes, "Acct-Output"),
    sessionSeconds: count(attributes, "Acct-Session-Time"),
    terminateCause: cause ? cause.slice(0, 64) : null,
  };
}

interface Item {
  record: AccountingRecord;
  resolve: (known: boolean) => void;
  reject: (error: unknown) => void;
}

interface Gathering {
  network: PortalNetwork;
  items: Item[];
  /** Set while the first record waits BATCH_WAIT_MS for others. */
  timer: NodeJS.Timeout | null;
  /** A batch of this network is being written; the next starts when it ends. */
  writing: boolean;
}

const networks = new Map<number, Gathering>();

/** Writes the network's gathered records (at most BATCH_MAX), unless one of its batches is being written. */
function flush(networkId: number): void {
  const state = networks.get(networkId);
  if (!state || state.writing || state.items.length === 0) return;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const items = state.items.splice(0, BATCH_MAX);
  state.writing = true;
  applyAccounting(
    state.network,
    items.map((i) => i.record),
  )
    .then(
      (unknown) => {
        const missing = new Set(unknown);
        items.forEach((item, index) => item.resolve(!missing.has(index)));
      },
      (error) => items.forEach((item) => item.reject(error)),
    )
    .finally(() => {
      state.writing = false;
      // What arrived meanwhile has waited long enough; nothing arrived: forget the network.
      if (state.items.length) flush(networkId);
      else networks.delete(networkId);
    });
}

/**
 * Applies one record with the others of its network arriving meanwhile; true when its session is
 * known. The session's NAS, Acct-Session-Id and Framed-IP-Address are kept from it (the NAS too:
 * a login Mlango did not see accepted, or one moved to another NAS, is still reached).
 */
export async function applyRadiusAccounting(nas: Nas, record: RadiusAccountingRecord): Promise<boolean> {
  const known = await gathered(nas, record);
  if (known && record.nasSession) await rememberSession(nas, record.session.connectionId, record.nasSession);
  return known;
}

/** Writes only when something changed: interim updates of a session repeat the same values. */
async function rememberSession(nas: Nas, connectionId: number, session: NonNullable<RadiusAccountingRecord["nasSession"]>) {
  await db
    .updateTable("connections")
    .set({ radius_client_id: nas.id, nas_session_id: session.sessionId, framed_ip: session.framedIp })
    .where("id", "=", connectionId)
    .where("organization_id", "=", nas.organizationId)
    .where((eb) =>
      eb.or([
        eb("radius_client_id", "is", null),
        eb("radius_client_id", "<>", nas.id),
        eb("nas_session_id", "is", null),
        eb("nas_session_id", "<>", session.sessionId),
      ]),
    )
    .execute();
}

function gathered(nas: Nas, record: AccountingRecord): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let state = networks.get(nas.venueId);
    if (!state) {
      // applyAccounting reads only the network's id and organisation.
      const network = { id: nas.venueId, organizationId: nas.organizationId } as PortalNetwork;
      state = { network, items: [], timer: null, writing: false };
      networks.set(nas.venueId, state);
    }
    state.items.push({ record, resolve, reject });
    if (state.writing) return;
    if (state.items.length >= BATCH_MAX) flush(nas.venueId);
    else if (!state.timer) state.timer = setTimeout(() => flush(nas.venueId), BATCH_WAIT_MS);
  });
}
