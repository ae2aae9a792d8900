// Browser-test data for prepaid internet: plans and M-Pesa settings written
// through the services (as the organisation's owner, so the same checks run as in the console), the
// reads the tests check purchases with, and the messages the guest is shown. M-Pesa settings point
// at the fake Daraja the browser tests start (playwright.config.ts): its demo credentials and the
// sandbox shortcode, secrets encrypted with the e2e server's SECRETS_KEY (fixtures.ts sets the env).
import { DEMO_MPESA_FORM } from "../../scripts/fakes/daraja";
import "./fixtures";

const { db } = await import("~/db/db.server");
const { requireOrg } = await import("~/services/guard.server");
const { issueToken } = await import("~/services/auth.server");
const { commitSession, sessionStorage } = await import("~/services/session.server");
const { servicePlanSchema } = await import("~/lib/schemas/plans");
const { mpesaSettingsSchema } = await import("~/lib/schemas/mpesa");
const { createPlan } = await import("~/services/prepaid/plans.server");
const { saveMpesaSettings } = await import("~/services/prepaid/mpesa-settings.server");

export const { VOUCHER_RESULT_MESSAGES } = await import("~/services/prepaid/vouchers.server");
export const { FREE_PLAN_MESSAGES } = await import("~/services/prepaid/subscriptions.server");
export const { STK_RESULT_MESSAGES } = await import("~/services/prepaid/daraja.server");
export const { priceText } = await import("~/lib/schemas/plans");

type OrgContext = Awaited<ReturnType<typeof requireOrg>>;

/** The guard's context for a member, as a console request signed in as them would get it. */
export async function contextOf(userId: number, orgId: number): Promise<OrgContext> {
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(userId, "web"));
  const cookie = (await commitSession(session)).split(";")[0]!;
  return requireOrg(new Request(`http://localhost/${orgId}`, { headers: { cookie } }), { orgId: String(orgId) });
}

/** A service plan (the console's form fields as strings); `free`: the organisation's free plan. */
export async function addPlan(ctx: OrgContext, fields: Record<string, string>, free = false): Promise<number> {
  const created = await createPlan(ctx, servicePlanSchema(free).parse(fields), free);
  if (!created.ok) throw new Error(`plan not created: ${JSON.stringify(created.errors)}`);
  return created.id;
}

/** M-Pesa for the organisation, against the fake Daraja (DARAJA_URL): a paybill on the sandbox shortcode. */
export async function setUpMpesa(ctx: OrgContext): Promise<void> {
  const settings = mpesaSettingsSchema.parse(DEMO_MPESA_FORM);
  const saved = await saveMpesaSettings(ctx, settings);
  if (saved !== "saved") throw new Error(`M-Pesa settings not saved: ${JSON.stringify(saved)}`);
}

/** A purchase's transaction and its subscription, as the database has them. */
export async function purchaseOf(paymentId: number) {
  return db
    .selectFrom("mpesa_transactions")
    .leftJoin("subscriptions", "subscriptions.id", "mpesa_transactions.subscription_id")
    .select([
      "mpesa_transactions.status",
      "mpesa_transactions.result_code",
      "mpesa_transactions.transaction_id",
      "mpesa_transactions.phone_number",
      "mpesa_transactions.amount",
      "mpesa_transactions.short_code",
      "subscriptions.status as subscription_status",
      "subscriptions.plan_name",
    ])
    .where("mpesa_transactions.id", "=", paymentId)
    .executeTakeFirstOrThrow();
}

/**
 * Makes a pending purchase's STK query due now (the waiting page asks Daraja once the purchase is
 * QUERY_AFTER_MS old), so a test need not wait 15 seconds for it.
 */
export async function makeCheckDue(paymentId: number): Promise<void> {
  await db.updateTable("mpesa_transactions").set({ next_check_at: 0 }).where("id", "=", paymentId).where("status", "=", 0).execute();
}
