// A plan belongs to whoever proved they paid (issue 34 item 1, decision 0086). A device that types
// the number a plan was paid from joins that plan only if it is the buyer's device or one the owner
// approved (a device of the plan's customer: joined by a code to that phone, or by paying); any
// other device must prove the phone first (phone-proof.server.ts).
import { db } from "~/db/db.server";
import { COMPLETED } from "./mpesa.server";

export interface PlanOfPhone {
  id: number;
  customerId: number | null;
  /** this device may use it without a new proof */
  approved: boolean;
}

/** The newest Active paid plan an M-Pesa payment from `digits` (2547…) bought, for `deviceId`. */
export async function paidPlanOfPhone(organizationId: number, digits: string, deviceId: number | null, now = Date.now()) {
  const row = await db
    .selectFrom("mpesa_transactions as paid")
    .innerJoin("subscriptions as held", "held.id", "paid.subscription_id")
    .leftJoin("devices as asking", (join) =>
      join.on("asking.id", "=", deviceId ?? -1).onRef("asking.organization_id", "=", "held.organization_id"),
    )
    .select(["held.id", "held.customer_id", "held.device_id", "asking.customer_id as asking_customer_id"])
    .where("paid.organization_id", "=", organizationId)
    .where("paid.phone_number", "=", digits)
    .where("paid.status", "=", COMPLETED)
    .where("held.status", "=", "Active")
    .where("held.expires_on", ">", now)
    .orderBy("held.id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const approved =
    deviceId !== null &&
    (Number(row.device_id) === deviceId || (row.customer_id !== null && Number(row.asking_customer_id) === Number(row.customer_id)));
  return { id: Number(row.id), customerId: row.customer_id === null ? null : Number(row.customer_id), approved } satisfies PlanOfPhone;
}

/** The customer of the organisation who proved owning this phone number (E.164), the first if several did. */
export async function provedCustomerOfPhone(organizationId: number, phone: string): Promise<number | null> {
  const row = await db
    .selectFrom("customers")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("phone_number", "=", phone)
    .where("phone_proved_at", "is not", null)
    .where("anonymised_at", "is", null)
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}
