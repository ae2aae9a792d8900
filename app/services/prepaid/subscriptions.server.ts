// Subscriptions (issue [prepaid] §3, §7): what a guest holds under a plan. Today the free plan is
// the one way in: a guest who signs up or clicks through at an organisation with a free plan takes
// it, once per device in the plan's period, and is online for the plan's time (capped by its
// validity). Statuses and the rules are decision 0017.
import { sql, type Kysely } from "kysely";
import type { DB, FreeEvery, GatewayMake } from "~/db/schema";
import { revokeAtGateway } from "../portal/revoke.server";

const DAY_MS = 86_400_000;

export const FREE_PLAN_MESSAGES = {
  day: "This device has had today's free Wi-Fi. It is free again tomorrow.",
  week: "This device has had this week's free Wi-Fi. It is free again 7 days after it was last taken.",
  validity: "This device's free Wi-Fi is still running. Reconnect to the Wi-Fi to carry on with it.",
} as const;

export interface FreePlan {
  id: number;
  name: string;
  time_limit_minutes: number | null;
  usage_limit_bytes: number | null;
  validity_minutes: number;
  simultaneous_connections: number;
  free_every: FreeEvery | null;
}

export type FreePlanOutcome = { ok: true; subscriptionId: number; seconds: number } | { ok: false; message: string };

/** When the device last took the free plan in a way that still counts against `every`. */
function since(every: FreeEvery, now: number): number {
  return every === "week" ? now - 7 * DAY_MS : now - (now % DAY_MS); // "day": since 00:00 UTC
}

/**
 * Gives the device (or, without one, the customer) the organisation's free plan, inside the
 * connect page's authorization transaction: refused when the device took it within its period.
 */
export async function takeFreePlan(
  trx: Kysely<DB>,
  plan: FreePlan,
  at: { organizationId: number; customerId: number | null; deviceId: number | null },
  now: number,
): Promise<FreePlanOutcome> {
  const every = plan.free_every ?? "day";
  let taken = trx
    .selectFrom("subscriptions")
    .select("id")
    .where("organization_id", "=", at.organizationId)
    .where("source", "=", "free")
    .limit(1);
  taken = at.deviceId !== null ? taken.where("device_id", "=", at.deviceId) : taken.where("customer_id", "=", at.customerId);
  taken = every === "validity" ? taken.where("expires_on", ">", now).where("status", "=", "Active") : taken.where("started_on", ">=", since(every, now));
  if (at.deviceId === null && at.customerId === null) taken = taken.where(sql<boolean>`1 = 0`);
  if (await taken.executeTakeFirst()) return { ok: false, message: FREE_PLAN_MESSAGES[every] };

  const minutes = Math.min(plan.time_limit_minutes ?? Infinity, plan.validity_minutes);
  const row = await trx
    .insertInto("subscriptions")
    .values({
      organization_id: at.organizationId,
      customer_id: at.customerId,
      device_id: at.deviceId,
      service_plan_id: plan.id,
      plan_name: plan.name,
      price_cents: 0,
      source: "free",
      status: "Active",
      started_on: now,
      expires_on: now + plan.validity_minutes * 60_000,
      time_limit_minutes: plan.time_limit_minutes,
      usage_limit_bytes: plan.usage_limit_bytes,
      simultaneous_connections: plan.simultaneous_connections,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, subscriptionId: Number(row.id), seconds: minutes * 60 };
}

/** Why accounting ended a connection whose subscription ran out of data. */
export const DATA_LIMIT_CAUSE = "Data-Limit";

/**
 * After accounting moved connections' bytes (inside its transaction): the subscriptions of those
 * connections add up their connections' bytes; one that reached its data limit becomes Exhausted,
 * its open connections end now and their gateways are told (revokeAtGateway), as a closed
 * connection's are. Answers how many connections it ended.
 */
export async function enforceDataLimits(trx: Kysely<DB>, subscriptionIds: readonly number[], now: number): Promise<number> {
  if (subscriptionIds.length === 0) return 0;
  const ids = [...new Set(subscriptionIds)];
  await trx
    .updateTable("subscriptions")
    .set((eb) => ({
      used_bytes: eb
        .selectFrom("connections")
        .select(sql<number>`coalesce(sum(connections.upload + connections.download), 0)`.as("used"))
        .whereRef("connections.subscription_id", "=", "subscriptions.id"),
      updated_at: now,
    }))
    .where("id", "in", ids)
    .where("status", "=", "Active")
    .execute();
  const exhausted = await trx
    .updateTable("subscriptions")
    .set({ status: "Exhausted", updated_at: now })
    .where("id", "in", ids)
    .where("status", "=", "Active")
    .where("usage_limit_bytes", "is not", null)
    .where((eb) => eb("used_bytes", ">=", eb.ref("usage_limit_bytes")))
    .returning("id")
    .execute();
  if (exhausted.length === 0) return 0;
  const open = await trx
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
    .where("connections.subscription_id", "in", exhausted.map((s) => Number(s.id)))
    .where("connections.authorized_at", "is not", null)
    .where("connections.ended_at", "is", null)
    .execute();
  if (open.length === 0) return 0;
  await trx
    .updateTable("connections")
    .set({ ended_at: now, terminate_cause: DATA_LIMIT_CAUSE })
    .where("id", "in", open.map((c) => c.id))
    .where("ended_at", "is", null)
    .execute();
  for (const c of open) {
    await revokeAtGateway(
      trx,
      {
        id: Number(c.id),
        organizationId: c.organization_id,
        venueId: c.venue_id,
        gateway: c.gateway as GatewayMake | null,
        gatewayContext: c.gateway_context,
        clientMac: c.mac_address,
        sessionExpiresAt: c.session_expires_at === null ? null : Number(c.session_expires_at),
      },
      now,
    );
  }
  return open.length;
}
