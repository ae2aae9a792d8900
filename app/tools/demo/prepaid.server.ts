// The demo's prepaid set-up, made through the prepaid services as an operator would: a speed
// policy, two plans for sale, a free plan, a voucher group, and M-Pesa settings with the fake
// Daraja's demo credentials (scripts/fakes/daraja.ts, which `npm run demo` starts and points
// DARAJA_URL at), so a guest can buy a plan offline.
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
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
  await generateVouchers(
    ctx,
    voucherGroupSchema(today, true).parse({
      name: "Front desk hour",
      face_value: "20",
      valid_till: validTill,
      service_plan_id: String(hour),
      codes_count: "50",
      description: "Sold at the café till",
    }),
  );
  await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM), now);
}
