import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { NEW_PLAN_VALUES, PlanForm } from "~/components/prepaid/plan-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { PLAN_MESSAGES, servicePlanSchema } from "~/lib/schemas/plans";
import { notFound, requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { policyChoices } from "~/services/prepaid/policies.server";
import { createPlan, getFreePlan } from "~/services/prepaid/plans.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.free ? "New free plan | Mlango" : "New service plan | Mlango" },
];

/** service_plans/new/{free?}: only "free" (the free plan) or nothing. */
function isFree(params: LoaderFunctionArgs["params"]): boolean {
  if (params.free !== undefined && params.free !== "free") notFound();
  return params.free === "free";
}

/** There is at most one free plan: with one already, this page sends to it. */
async function toExistingFreePlan(request: Request, ctx: OrgContext) {
  if (!(await getFreePlan(ctx))) return null;
  return redirectWithToast(request, `/${ctx.org.id}/free_plan/free`, { type: "info", message: PLAN_MESSAGES.oneFreePlan });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  requirePermission(ctx, "create_service_plan"); // the New plan button
  const free = isFree(params);
  if (free) {
    const existing = await toExistingFreePlan(request, ctx);
    if (existing) return existing;
  }
  return json({ orgId: ctx.org.id, free, policies: await policyChoices(ctx) });
}

// Creating needs create_service_plan (the spec's swapped check built the intended way).
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  requirePermission(ctx, "create_service_plan");
  const free = isFree(params);
  const submission = parseForm(await request.formData(), { schema: servicePlanSchema(free) });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const result = await createPlan(ctx, submission.value, free);
  if (!result.ok) return json(submission.reply({ fieldErrors: result.errors }), { status: 400 });
  return redirectWithToast(request, free ? `/${ctx.org.id}/free_plan/free` : `/${ctx.org.id}/service_plans`, result.message);
}

export default function NewServicePlan() {
  const { orgId, free, policies } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const title = free ? "New free plan" : "New service plan";
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/service_plans`} className="link">
          Service plans
        </Link>{" "}
        › <span>{title}</span>
      </nav>
      <section className="card">
        <h1 className="mb-1 text-xl font-semibold">{title}</h1>
        <p className="mb-4 text-sm text-slate-600">
          {free
            ? "This organization has no free plan yet. Guests get the free plan by signing up or clicking through on the connect page, within its limits."
            : "A plan guests buy with M-Pesa or a voucher."}
        </p>
        <PlanForm
          lastResult={lastResult}
          defaultValue={NEW_PLAN_VALUES}
          free={free}
          policies={policies}
          submitLabel="Create"
          pendingText="Creating…"
          cancelTo={`/${orgId}/service_plans`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
