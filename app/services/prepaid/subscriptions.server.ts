// Subscriptions (issue [prepaid] §3, §7): what a guest holds under a plan. Today the free plan is
// the one way in: a guest who signs up or clicks through at an organisation with a free plan takes
// it, once per device in the plan's period, and is online for the plan's time (capped by its
// validity). Statuses and the rules are decision 0017.
import { sql, type Kysely } from "kysely";
import type { DB, FreeEvery } from "~/db/schema";

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
