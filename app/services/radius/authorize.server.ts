// Access-Requests, as FreeRADIUS's rest module asks: is this login one of a
// connection Mlango authorized, at this NAS's network, from the guest's own device, still within its
// session and plan? The answer carries the plan's limits (attributes.ts) and either the password
// for FreeRADIUS's CHAP check or Auth-Type mlango (PAP: /radius/authenticate checks it here), or
// an Access-Reject with a Reply-Message the guest can read.
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { normaliseMac } from "~/lib/mac";
import { getEnv } from "~/env.server";
import { CONNECT_MESSAGES } from "../portal/connect.server";
import { HELD_MESSAGES } from "../prepaid/subscriptions.server";
import { limitAttributes, text, type RadiusAttributes } from "./attributes";
import type { Nas } from "./clients.server";
import { connectionIdOf, radiusPassword } from "./login.server";
import { sameSecret } from "../crypto.server";

export const RADIUS_MESSAGES = {
  invalid: "This login is not valid. Reconnect to WiFi for a new connection session.",
  ended: "This session has ended. Reconnect to WiFi for a new connection session.",
  timeUp: "Your time online has run out. Reconnect to WiFi to continue.",
  voucherUsed: "Your voucher is used up. Use another voucher or choose a plan.",
  dataUsed: "Your plan's data is used up. Choose a plan or use a voucher.",
  planExpired: "Your subscription has expired. Choose a plan or use a voucher.",
  planCancelled: "Your plan is no longer active. Choose a plan or use a voucher.",
} as const;

export type RadiusReply = Record<string, string | number | { op: string; value: string }>;

const reject = (message: string): RadiusReply => ({ "control:Auth-Type": { op: ":=", value: "Reject" }, "reply:Reply-Message": message });

async function loginRow(connectionId: number, organizationId: number) {
  return db
    .selectFrom("connections")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .leftJoin("subscriptions", "subscriptions.id", "connections.subscription_id")
    .select([
      "connections.id",
      "connections.venue_id",
      "connections.token",
      "connections.authorized_at",
      "connections.ended_at",
      "connections.session_expires_at",
      "connections.gateway_context",
      "connections.device_id",
      "connections.subscription_id",
      "connections.radius_client_id",
      "devices.mac_address",
      "devices.blocked_at",
      "subscriptions.status as plan_status",
      "subscriptions.source as plan_source",
      "subscriptions.expires_on as plan_expires_on",
      "subscriptions.usage_limit_bytes",
      "subscriptions.used_bytes",
      "subscriptions.simultaneous_connections",
      "subscriptions.max_upload_kbps",
      "subscriptions.max_download_kbps",
    ])
    .where("connections.id", "=", connectionId)
    .where("connections.organization_id", "=", organizationId)
    .executeTakeFirst();
}

type LoginRow = NonNullable<Awaited<ReturnType<typeof loginRow>>>;

/** The connection a login names, if it belongs to this NAS's network and the guest's device. */
async function findLogin(nas: Nas, attributes: RadiusAttributes): Promise<LoginRow | null> {
  const id = connectionIdOf(text(attributes, "User-Name"));
  if (id === null) return null;
  const row = await loginRow(id, nas.organizationId);
  if (!row || row.token === null || row.authorized_at === null) return null;
  const context = JSON.parse(row.gateway_context ?? "{}") as Record<string, string>;
  if (Number(context.network_id ?? row.venue_id) !== nas.venueId) return null;
  // The login is the device's own: a password copied to another device is refused, and so is a
  // request that does not say which device it is (every RADIUS make sends the guest's MAC in it).
  const calling = text(attributes, "Calling-Station-Id");
  if (calling === null || normaliseMac(calling) !== row.mac_address) return null;
  return row;
}

async function othersOnline(row: LoginRow, now: number): Promise<number> {
  const result = await db
    .selectFrom("connections")
    .select(sql<number>`count(*)`.as("n"))
    .where("subscription_id", "=", row.subscription_id!)
    .where("authorized_at", "is not", null)
    .where("ended_at", "is", null)
    .where("session_expires_at", ">", now)
    .where("id", "<>", row.id)
    .where((eb) => eb.or([eb("device_id", "is", null), eb("device_id", "<>", row.device_id ?? -1)]))
    .executeTakeFirstOrThrow();
  return Number(result.n);
}

/** Why this login may not go online now, or null. */
async function refusal(row: LoginRow, now: number): Promise<string | null> {
  if (row.blocked_at !== null) return CONNECT_MESSAGES.blocked;
  if (row.ended_at !== null) return RADIUS_MESSAGES.ended;
  if (row.session_expires_at === null || Number(row.session_expires_at) <= now) return RADIUS_MESSAGES.timeUp;
  if (row.subscription_id === null) return null;
  if (row.plan_status === "Exhausted") return row.plan_source === "voucher" ? RADIUS_MESSAGES.voucherUsed : RADIUS_MESSAGES.dataUsed;
  if (row.plan_status !== "Active") return RADIUS_MESSAGES.planCancelled;
  if (row.plan_expires_on !== null && Number(row.plan_expires_on) <= now) return RADIUS_MESSAGES.planExpired;
  const online = await othersOnline(row, now);
  if (online >= Number(row.simultaneous_connections ?? 1)) return HELD_MESSAGES.full(online);
  return null;
}

/** POST /radius/authorize: the reply FreeRADIUS merges into its request (always a 200). */
export async function authorizeLogin(nas: Nas, attributes: RadiusAttributes, now = Date.now()): Promise<RadiusReply> {
  const row = await findLogin(nas, attributes);
  if (!row) return reject(RADIUS_MESSAGES.invalid);
  const refused = await refusal(row, now);
  if (refused) return reject(refused);
  const env = getEnv();
  const bytes =
    row.usage_limit_bytes === null || row.usage_limit_bytes === undefined
      ? null
      : Math.max(0, Number(row.usage_limit_bytes) - Number(row.used_bytes ?? 0));
  const reply: RadiusReply = limitAttributes({
    sessionSeconds: Math.ceil((Number(row.session_expires_at) - now) / 1000),
    idleSeconds: env.PORTAL_IDLE_MINUTES * 60,
    interimSeconds: env.RADIUS_INTERIM_SECONDS,
    bytes,
    upKbps: row.max_upload_kbps === null || row.max_upload_kbps === undefined ? null : Number(row.max_upload_kbps),
    downKbps: row.max_download_kbps === null || row.max_download_kbps === undefined ? null : Number(row.max_download_kbps),
  });
  // CHAP can only be checked with the password in hand: FreeRADIUS's chap module does it. A PAP
  // password comes back to Mlango instead (authenticate), so it never leaves this server.
  if (attributes.has("CHAP-Password")) {
    reply["control:Cleartext-Password"] = radiusPassword(Number(row.id), row.token!);
    await rememberNas(row, nas);
  } else {
    reply["control:Auth-Type"] = { op: ":=", value: "mlango" };
  }
  return reply;
}

/**
 * The NAS the guest logged in at: Disconnect and CoA go there. Written while the answer goes out: a
 * login's reply does not wait for a commit (on PostgreSQL an fsync) of a value needed only later.
 */
async function rememberNas(row: LoginRow, nas: Nas): Promise<void> {
  if (row.radius_client_id === nas.id) return;
  void db
    .updateTable("connections")
    .set({ radius_client_id: nas.id })
    .where("id", "=", row.id)
    .execute()
    .catch((error: unknown) =>
      console.error(
        JSON.stringify({ at: new Date().toISOString(), event: "radius_nas_not_kept", connection: Number(row.id), error: String(error) }),
      ),
    );
}

/** POST /radius/authenticate (PAP): the password is the connection's. */
export async function authenticateLogin(nas: Nas, attributes: RadiusAttributes): Promise<boolean> {
  const row = await findLogin(nas, attributes);
  const given = text(attributes, "User-Password");
  if (!row || given === null || !sameSecret(given, radiusPassword(Number(row.id), row.token!))) return false;
  await rememberNas(row, nas);
  return true;
}
