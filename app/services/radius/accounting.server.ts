// Accounting-Requests (issue [radius] §5) onto the one accounting service of the guest path
// (portal/accounting.server.ts): the same maxima, ends and data limits as HTTP accounting.
//
// Requests arrive one per HTTP call from FreeRADIUS. Each would be its own transaction, and on
// PostgreSQL the roll-up rows of a network's hour are one row every transaction updates: a few
// hundred a second would queue on its lock and on commits. So records are gathered per network for
// a few milliseconds and applied in one transaction (one commit for up to BATCH_MAX records); each
// request is answered when its batch is written, so an Accounting-Response still means "stored".
import { applyAccounting, type AccountingRecord } from "../portal/accounting.server";
import type { PortalNetwork } from "../portal/network.server";
import { count, octets, text, type RadiusAttributes } from "./attributes";
import type { Nas } from "./clients.server";
import { connectionIdOf } from "./login.server";

export const BATCH_WAIT_MS = 5;
export const BATCH_MAX = 500;

const STATUS: Record<string, AccountingRecord["status"]> = { Start: "start", "Interim-Update": "interim", Stop: "stop", "1": "start", "3": "interim", "2": "stop" };

/** An Accounting-Request as an accounting record; a string says what is wrong; null: nothing to apply (Accounting-On/Off). */
export function radiusRecord(attributes: RadiusAttributes): AccountingRecord | string | null {
  const status = text(attributes, "Acct-Status-Type");
  if (status === "Accounting-On" || status === "Accounting-Off" || status === "7" || status === "8") return null;
  const mapped = status ? STATUS[status] : undefined;
  if (!mapped) return "Acct-Status-Type must be Start, Interim-Update or Stop.";
  const connectionId = connectionIdOf(text(attributes, "User-Name"));
  if (connectionId === null) return "User-Name is not a Mlango login.";
  const cause = text(attributes, "Acct-Terminate-Cause");
  return {
    status: mapped,
    session: { connectionId },
    // Input is what the NAS received from the guest: the upload.
    upload: octets(attributes, "Acct-Input"),
    download: octets(attributes, "Acct-Output"),
    sessionSeconds: count(attributes, "Acct-Session-Time"),
    terminateCause: cause ? cause.slice(0, 64) : null,
  };
}

interface Pending {
  network: PortalNetwork;
  items: { record: AccountingRecord; resolve: (known: boolean) => void; reject: (error: unknown) => void }[];
  timer: NodeJS.Timeout | null;
}

const pending = new Map<number, Pending>();

function flush(networkId: number) {
  const batch = pending.get(networkId);
  if (!batch) return;
  pending.delete(networkId);
  if (batch.timer) clearTimeout(batch.timer);
  applyAccounting(
    batch.network,
    batch.items.map((i) => i.record),
  ).then(
    (unknown) => {
      const missing = new Set(unknown);
      batch.items.forEach((item, index) => item.resolve(!missing.has(index)));
    },
    (error) => batch.items.forEach((item) => item.reject(error)),
  );
}

/** Applies one record with the others of its network arriving meanwhile; true when its session is known. */
export function applyRadiusAccounting(nas: Nas, record: AccountingRecord): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let batch = pending.get(nas.venueId);
    if (!batch) {
      // applyAccounting reads only the network's id and organisation.
      const network = { id: nas.venueId, organizationId: nas.organizationId } as PortalNetwork;
      batch = { network, items: [], timer: null };
      pending.set(nas.venueId, batch);
      batch.timer = setTimeout(() => flush(nas.venueId), BATCH_WAIT_MS);
    }
    batch.items.push({ record, resolve, reject });
    if (batch.items.length >= BATCH_MAX) flush(nas.venueId);
  });
}
