// What the service plan screens share: a plan as the list and the detail show it, and the detail
// page's loader and action, used by service_plan/{planId}/{path?} and free_plan/{planId}/{path?}.
import { json } from "@remix-run/node";
import { confirmationNeeded } from "~/lib/confirm";
import { formatQuantity } from "~/lib/format";
import { FREE_EVERY, limitText, servicePlanSchema } from "~/lib/schemas/plans";
import { notFound, requirePermission, type OrgContext } from "~/services/guard.server";
import { policyChoices } from "~/services/prepaid/policies.server";
import { deletePlan, formValues, updatePlan, type ServicePlan } from "~/services/prepaid/plans.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

/** {path?} of the detail pages: the one detail-and-edit page; its optional sections are aliases. */
const SECTIONS = [undefined, "details", "edit"];

export function checkSection(path: string | undefined) {
  if (!SECTIONS.includes(path)) notFound();
}

/** Kes without the currency (the column says it): "50", "49.50", "1,500". */
export function kes(cents: number): string {
  const value = cents / 100;
  return cents % 100 === 0
    ? value.toLocaleString("en-KE")
    : value.toLocaleString("en-KE", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A plan as the list's columns show it (docs/guide/plans-and-prepaid.md#service-plans): the free plan's price is "Free". */
export function planRow(plan: ServicePlan) {
  return {
    id: plan.id,
    name: plan.name,
    code: plan.code,
    free: plan.free_internet,
    bandwidth_policy: plan.bandwidth_policy_name ?? "No limit",
    time_limit: limitText(plan.time_limit, plan.time_limit_unit),
    data_limit: limitText(plan.usage_limit, plan.usage_limit_unit),
    validity: formatQuantity(plan.validity, plan.validity_units),
    simultaneous_connections: plan.simultaneous_connections,
    price: plan.free_internet ? "Free" : kes(plan.price_cents),
    subscriptions: plan.subscriptions_count,
    description: plan.description,
  };
}

export const planDeleteQuestion = (plan: { name: string; free_internet: boolean }) =>
  plan.free_internet
    ? `Are you sure you want to delete the free plan ${plan.name}?`
    : `Are you sure you want to delete the service plan ${plan.name}?`;

/** The detail page's data: the plan, its form values and what the user may do. */
export async function planPageData(ctx: OrgContext, plan: ServicePlan) {
  return {
    orgId: ctx.org.id,
    plan: {
      ...planRow(plan),
      kind: plan.plan_kind,
      free_every: FREE_EVERY.find((f) => f.value === plan.free_every)?.label ?? null,
      updated_at: plan.updated_at,
    },
    values: formValues(plan),
    policies: await policyChoices(ctx),
    deleteQuestion: planDeleteQuestion(plan),
    canEdit: ctx.permissions.has("edit_service_plan"),
    canDelete: ctx.permissions.has("delete_service_plan"),
  };
}

/**
 * The detail page's action: intent update (edit_service_plan) or delete (delete_service_plan).
 * `plan` is already found in the organisation (another organisation's id was a 404); `here` is
 * where an update returns.
 */
export async function planAction(request: Request, ctx: OrgContext, findPlan: () => Promise<ServicePlan>, here: string) {
  const form = await request.formData();
  switch (form.get("intent") ?? "update") {
    case "update": {
      requirePermission(ctx, "edit_service_plan");
      const plan = await findPlan();
      const submission = parseForm(form, { schema: servicePlanSchema(plan.free_internet) });
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const result = await updatePlan(ctx, plan.id, submission.value);
      if (!result.ok) return json(submission.reply({ fieldErrors: result.errors }), { status: 400 });
      return redirectWithToast(request, here, result.message);
    }
    case "delete": {
      requirePermission(ctx, "delete_service_plan");
      const plan = await findPlan();
      const ask = confirmationNeeded(form, "delete", planDeleteQuestion(plan));
      if (ask) return json(ask);
      const { message } = await deletePlan(ctx, plan.id);
      return redirectWithToast(request, `/${ctx.org.id}/service_plans`, { type: "info", message });
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}
