// The demo's prepaid set-up, made through the prepaid services as an operator would: a speed
// policy, two plans for sale, a free plan, a voucher group, and M-Pesa settings with the fake
// Daraja's demo credentials (scripts/fakes/daraja.ts, which `npm run demo` starts and points
// DARAJA_URL at), so a guest can buy a plan offline. The generated connections signed in by voucher or
// M-Pesa get what such a connection leaves behind (a redeemed code, a completed payment), so the
// voucher and M-Pesa screens agree with the connections.
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import { MAX_CODES, voucherGroupSchema } from "~/lib/schemas/vouchers";
import { db } from "~/db/db.server";
import type { OrgContext } from "~/services/guard.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { createPolicy } from "~/services/prepaid/policies.server";
import { generateVouchers } from "~/services/prepaid/vouchers.server";
import { DEMO_MPESA_FORM } from "../../../scripts/fakes/daraja";

export async function createDemoPrepaid(ctx: OrgContext, now: number): Promise<void> {
  const policy = await createPolicy(
    ctx,
    bandwidthPolicySchema.parse({ name: "Standard 2 Mbps", max_upload: "1", max_download: "2", description: "Everyday browsing" }),
  );
  const plan = async (fields: Record<string, string>, free = false) => {
    const outcome = await createPlan(ctx, servicePlanSchema(free).parse({ bandwidth_policy_id: String(policy.id), ...fields }), free);
    if (!outcome.ok) throw new Error(`demo plan ${fields.name}: ${JSON.stringify(outcome.errors)}`);
    return outcome.id;
  };
  const hour = await plan({
    name: "One hour",
    code: "HOUR",
    price: "20",
    plan_kind: "Limited",
    limit_type: "Time",
    time_limit: "1",
    time_limit_unit: "Hrs",
    validity: "1",
    validity_units: "Days",
  });
  await plan({
    name: "Day pass",
    code: "DAY",
    price: "50",
    plan_kind: "Limited",
    limit_type: "Both",
    time_limit: "12",
    time_limit_unit: "Hrs",
    usage_limit: "2",
    usage_limit_unit: "GBs",
    validity: "1",
    validity_units: "Days",
  });
  await plan(
    {
      name: "Free 30 minutes",
      plan_kind: "Limited",
      limit_type: "Both",
      time_limit: "30",
      time_limit_unit: "Mins",
      usage_limit: "200",
      usage_limit_unit: "MBs",
      validity: "1",
      validity_units: "Days",
      free_every: "day",
    },
    true,
  );
  const today = new Date(now).toISOString().slice(0, 10);
  const validTill = new Date(now + 90 * 86_400_000).toISOString().slice(0, 10);
  const voucherConnections = await paidConnections(ctx, "VOUCHER", MAX_CODES);
  const group = await generateVouchers(
    ctx,
    voucherGroupSchema(today, true).parse({
      name: "Front desk hour",
      face_value: "20",
      valid_till: validTill,
      service_plan_id: String(hour),
      codes_count: String(Math.max(50, voucherConnections.length)),
      description: "Sold at the café till",
    }),
  );
  if (!group.ok) throw new Error(`demo vouchers: ${JSON.stringify(group.errors)}`);
  await redeemCodes(group.id, voucherConnections);
  await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM), now);
  await recordPayments(ctx, hour, await paidConnections(ctx, "MPESA"));
}

type PaidConnection = { id: number; authorized_at: number; phone_number: string | null };

/** The organisation's authorized connections of a mode, oldest first (at most `limit`: the newest ones). */
async function paidConnections(ctx: OrgContext, mode: string, limit = 1_000_000): Promise<PaidConnection[]> {
  const rows = await db
    .selectFrom("connections")
    .leftJoin("customers", "customers.id", "connections.customer_id")
    .select(["connections.id", "connections.authorized_at", "customers.phone_number"])
    .where("connections.organization_id", "=", ctx.org.id)
    .where("connections.authorization_mode", "=", mode)
    .where("connections.authorized_at", "is not", null)
    .orderBy("connections.authorized_at", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ id: Number(r.id), authorized_at: Number(r.authorized_at), phone_number: r.phone_number }));
}

/** One code of the group used by each voucher connection, when it signed in; the group made before the first. */
async function redeemCodes(groupId: number, connections: PaidConnection[]): Promise<void> {
  if (connections.length === 0) return;
  const codes = await db.selectFrom("vouchers").select("id").where("voucher_group_id", "=", groupId).orderBy("id").execute();
  await db.transaction().execute(async (trx) => {
    for (const [i, c] of connections.entries()) {
      await trx.updateTable("vouchers").set({ uses: 1, first_redeemed_at: c.authorized_at }).where("id", "=", codes[i]!.id).execute();
    }
    const createdAt = connections[0]!.authorized_at - 86_400_000;
    await trx
      .updateTable("voucher_groups")
      .set({ redeemed_entries: connections.length, created_at: createdAt, updated_at: createdAt })
      .where("id", "=", groupId)
      .execute();
  });
}

/** A completed STK payment for the hour plan by each M-Pesa connection's customer, just before it signed in. */
async function recordPayments(ctx: OrgContext, planId: number, connections: PaidConnection[]): Promise<void> {
  const rows = connections.map((c, i) => {
    const at = c.authorized_at - 20_000;
    return {
      organization_id: ctx.org.id,
      source: "stk" as const,
      status: 1 as const,
      connection_id: c.id,
      subscription_id: null,
      service_plan_id: planId,
      phone_number: (c.phone_number ?? "+254700000000").replace(/^\+/, ""),
      amount: 20,
      short_code: DEMO_MPESA_FORM.shortcode,
      account_reference: "HOUR",
      merchant_request_id: null,
      checkout_request_id: `ws_CO_demo_${c.id}`,
      transaction_id: `SK${ctx.org.id}-${i + 1}`, // receipts are unique across organisations
      result_code: 0,
      result_desc: "The service request is processed successfully.",
      completed_at: at + 15_000,
      next_check_at: null,
      created_at: at,
      updated_at: at + 15_000,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto("mpesa_transactions")
      .values(rows.slice(i, i + 500))
      .execute();
}
