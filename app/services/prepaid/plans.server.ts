// Service plans and the free plan (docs/guide/plans-and-prepaid.md#service-plans, #plan-form,
// docs/guide/access-control.md#what-each-permission-shows). Every function takes the guard's context
// first, filters by ctx.org.id and checks its permission (the spec's swapped submit checks built the
// intended way: create_service_plan creates, edit_service_plan edits). Limits are stored as entered
// and in base units (minutes, bytes) for enforcement; the price in cents.
import crypto from "node:crypto";
import { db } from "~/db/db.server";
import { pushPlanSpeeds } from "../radius/speeds.server";
import { containsText, isUniqueViolation } from "~/db/sql.server";
import { BYTES, MINUTES, PLAN_MESSAGES, type ServicePlanInput } from "~/lib/schemas/plans";
import { notFound, requirePermission, type OrgContext } from "../guard.server";

const COLUMNS = [
  "service_plans.id",
  "service_plans.name",
  "service_plans.code",
  "service_plans.description",
  "service_plans.free_internet",
  "service_plans.bandwidth_policy_id",
  "service_plans.time_limit",
  "service_plans.time_limit_unit",
  "service_plans.time_limit_minutes",
  "service_plans.usage_limit",
  "service_plans.usage_limit_unit",
  "service_plans.usage_limit_bytes",
  "service_plans.simultaneous_connections",
  "service_plans.validity",
  "service_plans.validity_units",
  "service_plans.validity_minutes",
  "service_plans.price_cents",
  "service_plans.free_every",
  "service_plans.created_at",
  "service_plans.updated_at",
  "bandwidth_policies.name as bandwidth_policy_name",
] as const;

export const PLAN_RESULT_MESSAGES = {
  created: "Service plan created.",
  updated: "Service plan updated.",
  deleted: (name: string) => `Service plan ${name} deleted.`,
  notFound: "Service plan not found.",
  noFreePlan: "This organization has no free plan yet.",
} as const;

export type PlanSaveResult = { ok: true; id: number; message: string } | { ok: false; errors: Record<string, string[]> };

const base = (ctx: OrgContext) =>
  db
    .selectFrom("service_plans")
    .leftJoin("bandwidth_policies", "bandwidth_policies.id", "service_plans.bandwidth_policy_id")
    .where("service_plans.organization_id", "=", ctx.org.id);

/** The plans' columns and how many subscriptions each has (through the subscriptions_plan index). */
const selectPlan = (query: ReturnType<typeof base>) =>
  query.select([...COLUMNS]).select((eb) =>
    eb
      .selectFrom("subscriptions")
      .whereRef("subscriptions.service_plan_id", "=", "service_plans.id")
      .select((sub) => sub.fn.countAll<number>().as("n"))
      .as("subscriptions_count"),
  );

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one row shape from COLUMNS, read field by field
function shape(r: Record<string, any>) {
  return {
    id: Number(r.id),
    name: r.name as string,
    code: r.code as string,
    description: r.description as string | null,
    free_internet: Number(r.free_internet) === 1,
    bandwidth_policy_id: r.bandwidth_policy_id as number | null,
    bandwidth_policy_name: (r.bandwidth_policy_name ?? null) as string | null,
    plan_kind: r.time_limit === null && r.usage_limit === null ? ("Unlimited" as const) : ("Limited" as const),
    time_limit: r.time_limit as number | null,
    time_limit_unit: r.time_limit_unit as string | null,
    time_limit_minutes: r.time_limit_minutes as number | null,
    usage_limit: r.usage_limit as number | null,
    usage_limit_unit: r.usage_limit_unit as string | null,
    usage_limit_bytes: r.usage_limit_bytes === null ? null : Number(r.usage_limit_bytes),
    simultaneous_connections: Number(r.simultaneous_connections),
    validity: Number(r.validity),
    validity_units: r.validity_units as string,
    validity_minutes: Number(r.validity_minutes),
    price_cents: Number(r.price_cents),
    free_every: r.free_every as string | null,
    /** Every subscription sold or given on this plan, whatever its status. */
    subscriptions_count: Number(r.subscriptions_count),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}
export type ServicePlan = ReturnType<typeof shape>;

/** servicePlans (limit, offset, order created_at desc, search): the paid plans and the free plan. */
export async function listPlans(ctx: OrgContext, params: { offset: number; pageSize: number; search?: string | null }) {
  requirePermission(ctx, "view_service_plan");
  let query = base(ctx);
  if (params.search)
    query = query.where((eb) =>
      eb.or([containsText("service_plans.name", params.search!), containsText("service_plans.code", params.search!)]),
    );
  const [rows, total] = await Promise.all([
    selectPlan(query)
      .orderBy("service_plans.created_at", "desc")
      .orderBy("service_plans.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(shape), total: Number(total.n) };
}

export async function getPlan(ctx: OrgContext, planId: number | null): Promise<ServicePlan> {
  requirePermission(ctx, "view_service_plan", "edit_service_plan");
  return findPlan(ctx, planId);
}

/** The organisation's plan, or 404; the caller has checked the permission of what it does with it. */
async function findPlan(ctx: OrgContext, planId: number | null): Promise<ServicePlan> {
  if (planId === null) notFound(PLAN_RESULT_MESSAGES.notFound);
  const row = await selectPlan(base(ctx)).where("service_plans.id", "=", planId).executeTakeFirst();
  return row ? shape(row) : notFound(PLAN_RESULT_MESSAGES.notFound);
}

/** freePlan: the organisation's free plan, or null. */
export async function getFreePlan(ctx: OrgContext): Promise<ServicePlan | null> {
  requirePermission(ctx, "view_service_plan");
  const row = await selectPlan(base(ctx)).where("service_plans.free_internet", "=", 1).executeTakeFirst();
  return row ? shape(row) : null;
}

/** A short code for a plan without one: 6 characters without look-alikes (O/0, I/1). */
function newCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(crypto.randomBytes(6), (b) => alphabet[b % alphabet.length]).join("");
}

function columns(input: ServicePlanInput, free: boolean) {
  const limited = input.plan_kind === "Limited";
  const time = limited && input.limit_type !== "Data" ? input.time_limit : null;
  const usage = limited && input.limit_type !== "Time" ? input.usage_limit : null;
  return {
    name: input.name,
    description: input.description,
    bandwidth_policy_id: input.bandwidth_policy_id,
    time_limit: time,
    time_limit_unit: time === null ? null : input.time_limit_unit,
    time_limit_minutes: time === null ? null : time * MINUTES[input.time_limit_unit],
    usage_limit: usage,
    usage_limit_unit: usage === null ? null : input.usage_limit_unit,
    usage_limit_bytes: usage === null ? null : usage * BYTES[input.usage_limit_unit],
    simultaneous_connections: input.simultaneous_connections,
    validity: input.validity,
    validity_units: input.validity_units,
    validity_minutes: input.validity * MINUTES[input.validity_units],
    price_cents: free ? 0 : input.price,
    free_every: free ? input.free_every : null,
  };
}

async function policyErrors(ctx: OrgContext, policyId: number | null): Promise<Record<string, string[]>> {
  if (policyId === null) return {};
  const found = await db
    .selectFrom("bandwidth_policies")
    .select("id")
    .where("id", "=", policyId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return found ? {} : { bandwidth_policy_id: [PLAN_MESSAGES.unknownPolicy] };
}

/** Creates a plan, or the free plan (`free`; at most one per organisation). */
export async function createPlan(ctx: OrgContext, input: ServicePlanInput, free = false): Promise<PlanSaveResult> {
  requirePermission(ctx, "create_service_plan");
  const errors = await policyErrors(ctx, input.bandwidth_policy_id);
  if (Object.keys(errors).length) return { ok: false, errors };
  const now = Date.now();
  try {
    const row = await db
      .insertInto("service_plans")
      .values({
        organization_id: ctx.org.id,
        ...columns(input, free),
        code: input.code ?? newCode(),
        free_internet: free ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id: Number(row.id), message: PLAN_RESULT_MESSAGES.created };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Not getFreePlan: creating needs create_service_plan only, and the refusal must be this message.
    if (free && (await base(ctx).select("service_plans.id").where("service_plans.free_internet", "=", 1).executeTakeFirst())) {
      return { ok: false, errors: { name: [PLAN_MESSAGES.oneFreePlan] } };
    }
    return { ok: false, errors: { code: [PLAN_MESSAGES.codeTaken] } };
  }
}

export async function updatePlan(ctx: OrgContext, planId: number | null, input: ServicePlanInput): Promise<PlanSaveResult> {
  requirePermission(ctx, "edit_service_plan");
  const plan = await findPlan(ctx, planId);
  const errors = await policyErrors(ctx, input.bandwidth_policy_id);
  if (Object.keys(errors).length) return { ok: false, errors };
  try {
    await db
      .updateTable("service_plans")
      .set({ ...columns(input, plan.free_internet), ...(input.code ? { code: input.code } : {}), updated_at: Date.now() })
      .where("id", "=", plan.id)
      .where("organization_id", "=", ctx.org.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { code: [PLAN_MESSAGES.codeTaken] } };
    throw error;
  }
  if ((input.bandwidth_policy_id ?? null) !== (plan.bandwidth_policy_id ?? null)) await pushPlanSpeeds(ctx.org.id, [plan.id]);
  return { ok: true, id: plan.id, message: PLAN_RESULT_MESSAGES.updated };
}

export async function deletePlan(ctx: OrgContext, planId: number | null): Promise<{ ok: true; message: string }> {
  requirePermission(ctx, "delete_service_plan");
  const plan = await findPlan(ctx, planId); // delete_service_plan alone may delete (getPlan would want view_ or edit_)
  await db.deleteFrom("service_plans").where("id", "=", plan.id).where("organization_id", "=", ctx.org.id).execute();
  return { ok: true, message: PLAN_RESULT_MESSAGES.deleted(plan.name) };
}

/** The form's values for an existing plan (what the operator entered). */
export function formValues(plan: ServicePlan): Record<string, string> {
  return {
    name: plan.name,
    code: plan.code,
    description: plan.description ?? "",
    bandwidth_policy_id: plan.bandwidth_policy_id ? String(plan.bandwidth_policy_id) : "",
    plan_kind: plan.plan_kind,
    limit_type: plan.time_limit !== null && plan.usage_limit !== null ? "Both" : plan.usage_limit !== null ? "Data" : "Time",
    time_limit: plan.time_limit === null ? "" : String(plan.time_limit),
    time_limit_unit: plan.time_limit_unit ?? "Mins",
    usage_limit: plan.usage_limit === null ? "" : String(plan.usage_limit),
    usage_limit_unit: plan.usage_limit_unit ?? "MBs",
    simultaneous_connections: String(plan.simultaneous_connections),
    validity: String(plan.validity),
    validity_units: plan.validity_units,
    price: plan.price_cents % 100 === 0 ? String(plan.price_cents / 100) : (plan.price_cents / 100).toFixed(2),
    free_every: plan.free_every ?? "day",
  };
}

/**
 * The organisation's plans for a choice list (the voucher form's Service plan), by name. Their
 * names are shown wherever the choice is offered, so no permission is checked here: the caller
 * has checked the one of its own page.
 */
export async function planChoices(ctx: OrgContext): Promise<{ id: number; name: string; free: boolean; price_cents: number }[]> {
  const rows = await db
    .selectFrom("service_plans")
    .select(["id", "name", "free_internet", "price_cents"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, free: Number(r.free_internet) === 1, price_cents: Number(r.price_cents) }));
}

/**
 * What a plan gives, as a printed voucher or the connect page tells a guest: its name and limits
 * as entered ("30 Mins", "Unlimited"), or null when the plan is not the organisation's (or gone).
 * No permission is checked: the caller has checked the one of what it shows.
 */
export async function planOffer(ctx: OrgContext, planId: number | null) {
  if (planId === null) return null;
  const plan = await selectPlan(base(ctx)).where("service_plans.id", "=", planId).executeTakeFirst();
  return plan ? shape(plan) : null;
}
