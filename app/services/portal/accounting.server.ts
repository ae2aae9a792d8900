// Gateway accounting: start, interim and stop records keep a connection's usage,
// online state and end; the roll-up triggers move its figures. One service for every source
// (docs/architecture.md#the-guest-path): the HTTP endpoint parses into AccountingRecords here.
//
// Every record is idempotent and order-independent: bytes only grow (max), an ended connection
// never reopens, the first end wins. Records of sessions we do not know are acknowledged and logged.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import { z } from "zod";
import { bigintValue, checkedPerRow, claimable, greatest, jsonText, retryDeadlocks, serializeOn, textValue } from "~/db/sql.server";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { normaliseMac } from "~/lib/mac";
import { getEnv } from "~/env.server";
import { hashToken } from "../crypto.server";
import { enforceDataLimits } from "../prepaid/subscriptions.server";
import { plausibleToken } from "./connect.server";
import type { PortalNetwork } from "./network.server";
import { hasNul } from "~/lib/nul";

export { revocationsSince } from "./revoke.server";

export const MAX_RECORDS = 1000;
/** The idle-end job ends at most this many connections per statement, so no lock is held for long. */
export const END_BATCH = 1000;
const SAMPLE = 20;
/**
 * PostgreSQL: one accounting batch of an organisation at a time. Every batch updates the
 * organisation's roll-up rows of the hours and days of its connections; two at once would wait on
 * each other's rows anyway, and taking them in different orders deadlocks (a second's stall each).
 * The first key of the advisory lock (`serializeOn(trx, key, id)`): 4 is the roll-up triggers' customer lock.
 */
const ORGANIZATION_ACCOUNTING_LOCK = 5;

export interface AccountingRecord {
  status: "start" | "interim" | "stop";
  /** The connect token (HTTP), the device (HTTP), or the connection a RADIUS login names. */
  session: { token: string } | { clientMac: string } | { connectionId: number };
  /** Cumulative bytes of the session; null when the record does not say (a RADIUS-style start). */
  upload: number | null;
  download: number | null;
  sessionSeconds: number | null;
  terminateCause: string | null;
}

export interface AccountingData {
  accepted: number;
  unknown: number;
  invalid: number;
  errors: { index: number; message: string }[];
}

export type AccountingOutcome = { ok: true; data: AccountingData } | { ok: false; message: string };

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const mac = z
  .string()
  .max(32)
  .transform(
    (value, ctx) => normaliseMac(value) ?? (ctx.addIssue({ code: z.ZodIssueCode.custom, message: "is not a MAC address" }), z.NEVER),
  );

const recordSchema = z
  .object({
    status: z.enum(["start", "interim", "stop"]),
    token: z.string().refine(plausibleToken, "is not a connect token").nullish(),
    client_mac: mac.nullish(),
    ap_mac: mac.nullish(),
    input_octets: count.nullish(),
    output_octets: count.nullish(),
    session_time: count.nullish(),
    terminate_cause: z.string().trim().min(1).max(64).nullish(),
  })
  // ap_mac is part of the protocol, but a guest roams between access points: the device's session is found without it.
  .refine((r) => r.token || (r.client_mac && r.ap_mac), "needs token, or client_mac and ap_mac");

/** One record of the body, or what is wrong with it. */
function parseRecord(value: unknown): { record: AccountingRecord } | { message: string } {
  if (hasNul(value)) return { message: "contains a NUL character" };
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success)
    return { message: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ") };
  const r = parsed.data;
  return {
    record: {
      status: r.status,
      // The token names the session exactly; the MACs only name the device, so the token wins.
      session: r.token ? { token: r.token } : { clientMac: r.client_mac! },
      upload: r.input_octets ?? null,
      download: r.output_octets ?? null,
      sessionSeconds: r.session_time ?? null,
      terminateCause: r.terminate_cause ?? null,
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The records of a body: one record, an array of them, or { records: [...] }. */
function recordsOf(body: unknown): unknown[] | string {
  const records = isObject(body) && "records" in body ? body.records : isObject(body) ? [body] : body;
  if (!Array.isArray(records)) return 'Send one accounting record, an array of records or { "records": [...] } as JSON.';
  return records.length > MAX_RECORDS ? `Send at most ${MAX_RECORDS} records at a time (this batch has ${records.length}).` : records;
}

/** POST /hotspot/accounting: the network is the one whose gateway secret came with the request. */
export async function recordAccounting(network: PortalNetwork, body: unknown, now = Date.now()): Promise<AccountingOutcome> {
  const values = recordsOf(body);
  if (typeof values === "string") return { ok: false, message: values };
  const errors: AccountingData["errors"] = [];
  const records: { index: number; record: AccountingRecord }[] = [];
  values.forEach((value, index) => {
    const parsed = parseRecord(value);
    if ("record" in parsed) records.push({ index, record: parsed.record });
    else errors.push({ index, message: parsed.message });
  });
  const unknown = (
    await applyAccounting(
      network,
      records.map((r) => r.record),
      now,
    )
  ).map((i) => records[i]!);
  if (unknown.length) {
    console.log(
      JSON.stringify({
        at: new Date(now).toISOString(),
        event: "accounting_unknown_session",
        organization: network.organizationId,
        network: network.id,
        count: unknown.length,
        records: unknown.slice(0, SAMPLE).map(({ index, record }) => ({
          index,
          status: record.status,
          ...("token" in record.session
            ? { by: "token" }
            : "clientMac" in record.session
              ? { by: "mac", client_mac: record.session.clientMac }
              : { by: "connection", connection: record.session.connectionId }),
        })),
      }),
    );
  }
  return { ok: true, data: { accepted: records.length - unknown.length, unknown: unknown.length, invalid: errors.length, errors } };
}

interface Session {
  id: number;
  authorized_at: number;
  ended_at: number | null;
  accounted_at: number | null;
  upload: number;
  download: number;
  terminate_cause: string | null;
  /** The plan the guest is online under (its data limit is enforced after the write). */
  subscription_id: number | null;
}

const SESSION_COLUMNS = [
  "connections.id",
  "connections.authorized_at",
  "connections.ended_at",
  "connections.accounted_at",
  "connections.upload",
  "connections.download",
  "connections.terminate_cause",
  "connections.subscription_id",
] as const;

/** The connection was handed over by this network (its access point may be filed under another venue). */
function atNetwork(networkId: number): Expression<SqlBool> {
  const handedOver = jsonText("connections.gateway_context", "network_id");
  return sql<SqlBool>`(connections.venue_id = ${networkId} or ${handedOver} = ${String(networkId)})`;
}

/** Authorized connections of this network, by token hash and by device MAC (its newest one). */
async function findSessions(trx: Kysely<DB>, network: PortalNetwork, records: AccountingRecord[]) {
  const tokens = [...new Set(records.flatMap((r) => ("token" in r.session ? [hashToken(r.session.token)] : [])))];
  const macs = [...new Set(records.flatMap((r) => ("clientMac" in r.session ? [r.session.clientMac] : [])))];
  const ids = [...new Set(records.flatMap((r) => ("connectionId" in r.session ? [r.session.connectionId] : [])))];
  const byToken = new Map<string, Session>();
  const byMac = new Map<string, Session>();
  const byId = new Map<number, Session>();
  if (ids.length) {
    const rows = await trx
      .selectFrom("connections")
      .select(SESSION_COLUMNS)
      .where("connections.id", "in", ids)
      // As for tokens below: the ids find the rows, `checkedPerRow` keeps SQLite off the organisation's index.
      .where(checkedPerRow("connections.organization_id"), "=", network.organizationId)
      .where("connections.authorized_at", "is not", null)
      .where(atNetwork(network.id))
      .execute();
    for (const row of rows) byId.set(Number(row.id), toSession(row));
  }
  if (tokens.length) {
    const rows = await trx
      .selectFrom("connections")
      .select([...SESSION_COLUMNS, "connections.token"])
      .where("connections.token", "in", tokens)
      // The tokens' unique index finds the rows; the organisation is checked on them. `checkedPerRow` keeps SQLite
      // without statistics (the default: Mlango runs no ANALYZE) from reading the organisation's whole
      // authorized index for a batch instead, which it estimates cheaper than 100 lookups (decision 0030).
      .where(checkedPerRow("connections.organization_id"), "=", network.organizationId)
      .where("connections.authorized_at", "is not", null)
      .where(atNetwork(network.id))
      .execute();
    for (const row of rows) byToken.set(row.token!, toSession(row));
  }
  if (macs.length) {
    const rows = await trx
      .selectFrom("devices")
      .innerJoin("connections", (join) =>
        join.on((eb) =>
          eb(
            "connections.id",
            "=",
            eb
              .selectFrom("connections")
              .select("connections.id")
              .whereRef("connections.device_id", "=", "devices.id")
              .where("connections.authorized_at", "is not", null)
              .where(atNetwork(network.id))
              .orderBy("connections.created_at", "desc")
              .orderBy("connections.id", "desc")
              .limit(1),
          ),
        ),
      )
      .select([...SESSION_COLUMNS, "devices.mac_address"])
      .where("devices.organization_id", "=", network.organizationId)
      .where("devices.mac_address", "in", macs)
      .execute();
    for (const row of rows) byMac.set(row.mac_address, toSession(row));
  }
  return (record: AccountingRecord): Session | undefined =>
    "token" in record.session
      ? byToken.get(hashToken(record.session.token))
      : "connectionId" in record.session
        ? byId.get(record.session.connectionId)
        : byMac.get(record.session.clientMac);
}

function toSession(row: Omit<Session, "authorized_at"> & { authorized_at: number | null }): Session {
  return {
    id: Number(row.id),
    authorized_at: Number(row.authorized_at),
    ended_at: row.ended_at === null ? null : Number(row.ended_at),
    accounted_at: row.accounted_at === null ? null : Number(row.accounted_at),
    upload: Number(row.upload),
    download: Number(row.download),
    terminate_cause: row.terminate_cause,
    subscription_id: row.subscription_id === null ? null : Number(row.subscription_id),
  };
}

/**
 * One record applied to a session: bytes only grow; while the session is open the record moves its
 * accounting clock (what the idle job reads) and a stop ends it, at authorized_at + session_time
 * when the gateway says (never later than now). After the end only bytes can still grow.
 */
function applyRecord(session: Session, record: AccountingRecord, now: number): void {
  session.upload = Math.max(session.upload, record.upload ?? 0);
  session.download = Math.max(session.download, record.download ?? 0);
  if (session.ended_at !== null) return;
  session.accounted_at = Math.max(session.accounted_at ?? 0, now);
  if (record.status !== "stop") return;
  session.ended_at = record.sessionSeconds === null ? now : Math.min(session.authorized_at + record.sessionSeconds * 1000, now);
  session.terminate_cause = record.terminateCause;
}

const changed = (a: Session, b: Session) =>
  a.upload !== b.upload ||
  a.download !== b.download ||
  a.ended_at !== b.ended_at ||
  a.accounted_at !== b.accounted_at ||
  a.terminate_cause !== b.terminate_cause;

/**
 * Writes the sessions' new figures in one statement. The values are re-checked against the row as
 * it is now (max, coalesce, "still open"), so a connection ended meanwhile by the idle job or in
 * the console keeps that end; rows that would not change are left alone (no trigger work).
 */
async function writeSessions(trx: Kysely<DB>, sessions: Session[]): Promise<void> {
  const [int, text] = [bigintValue, textValue];
  const rows = sessions.map(
    (s) =>
      sql`(${int(s.id)}, ${int(s.upload)}, ${int(s.download)}, ${int(s.accounted_at)}, ${int(s.ended_at)}, ${text(s.terminate_cause)})`,
  );
  await sql`
    with v (id, upload, download, accounted_at, ended_at, terminate_cause) as (values ${sql.join(rows)})
    update connections set
      upload = ${greatest(sql`connections.upload`, sql`v.upload`)},
      download = ${greatest(sql`connections.download`, sql`v.download`)},
      accounted_at = case when connections.ended_at is null then ${greatest(sql`coalesce(connections.accounted_at, 0)`, sql`v.accounted_at`)} else connections.accounted_at end,
      ended_at = coalesce(connections.ended_at, v.ended_at),
      terminate_cause = case when connections.ended_at is null and v.ended_at is not null then v.terminate_cause else connections.terminate_cause end
    from v
    where connections.id = v.id
      and (v.upload > connections.upload or v.download > connections.download
        or (connections.ended_at is null and (v.ended_at is not null or connections.accounted_at is null or v.accounted_at > connections.accounted_at)))
  `.execute(trx);
}

/**
 * Applies records of one network in one transaction; answers the indexes of the records whose
 * session is unknown (no authorized connection of this network and organisation).
 */
export async function applyAccounting(network: PortalNetwork, records: AccountingRecord[], now = Date.now()): Promise<number[]> {
  if (records.length === 0) return [];
  return retryDeadlocks(() =>
    db.transaction().execute(async (trx) => {
      await serializeOn(trx, ORGANIZATION_ACCOUNTING_LOCK, network.organizationId);
      const sessionOf = await findSessions(trx, network, records);
      const unknown: number[] = [];
      const before = new Map<number, Session>();
      const after = new Map<number, Session>();
      records.forEach((record, index) => {
        const found = sessionOf(record);
        if (!found) return void unknown.push(index);
        if (!after.has(found.id)) {
          before.set(found.id, found);
          after.set(found.id, { ...found });
        }
        applyRecord(after.get(found.id)!, record, now);
      });
      const dirty = [...after.values()].filter((s) => changed(s, before.get(s.id)!));
      if (dirty.length) {
        await writeSessions(trx, dirty);
        await enforceDataLimits(
          trx,
          dirty.flatMap((s) => (s.subscription_id === null ? [] : [s.subscription_id])),
          now,
        );
      }
      return unknown;
    }),
  );
}

export interface IdleEnding {
  idle: number;
  expired: number;
}

/**
 * The idle-end job (every minute, any number of instances): ends online connections the gateway
 * stopped accounting for PORTAL_IDLE_MINUTES ago (at their last record, Idle-Timeout) and those
 * whose session ran out (at its end, Session-Timeout; gateways without accounting end this way).
 * Whichever would have happened first wins, so the answer does not depend on when the job runs.
 * Each statement ends at most END_BATCH rows, and only rows still open, so instances running at
 * once never end a row twice.
 */
export async function endIdleConnections(now = Date.now()): Promise<IdleEnding> {
  const idleMs = getEnv().PORTAL_IDLE_MINUTES * 60_000;
  const idle = await endInBatches(
    (eb) =>
      eb.and([
        eb("accounted_at", "<=", now - idleMs),
        eb.or([eb("session_expires_at", "is", null), eb("accounted_at", "<", sql<number>`session_expires_at - ${idleMs}`)]),
      ]),
    { ended_at: sql<number>`accounted_at`, terminate_cause: "Idle-Timeout" },
  );
  const expired = await endInBatches(
    (eb) =>
      eb.and([
        eb("session_expires_at", "<=", now),
        eb.or([eb("accounted_at", "is", null), eb("session_expires_at", "<=", sql<number>`accounted_at + ${idleMs}`)]),
      ]),
    { ended_at: sql<number>`session_expires_at`, terminate_cause: "Session-Timeout" },
  );
  return { idle, expired };
}

type Condition = (eb: ExpressionBuilder<DB, "connections">) => Expression<SqlBool>;

async function endInBatches(condition: Condition, ending: { ended_at: RawBuilder<number>; terminate_cause: string }): Promise<number> {
  const open: Condition = (eb) => eb.and([eb("authorized_at", "is not", null), eb("ended_at", "is", null), condition(eb)]);
  let total = 0;
  for (;;) {
    let batch = db.selectFrom("connections").select("id").where(open).limit(END_BATCH);
    // Rows another transaction holds (another instance's batch, an accounting batch) are skipped,
    // not waited for: the next run takes them if they are still due.
    batch = claimable(batch);
    const result = await retryDeadlocks(() =>
      db.updateTable("connections").set(ending).where("id", "in", batch).where(open).executeTakeFirst(),
    );
    const ended = Number(result.numUpdatedRows);
    total += ended;
    if (ended < END_BATCH) return total;
  }
}
