import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PlanDetail } from "~/components/prepaid/plan-detail";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { notFound, requireOrg, type OrgContext } from "~/services/guard.server";
import { getFreePlan, getPlan, PLAN_RESULT_MESSAGES } from "~/services/prepaid/plans.server";
import { checkSection, planAction, planPageData } from "~/routes/$orgId+/_prepaid+/__plans.server";

export const meta: MetaFunction = () => [{ title: "Free plan | Mlango" }];

/**
 * free_plan/{planId}/{path?} (docs/guide/plans-and-prepaid.md#free-plan): "free" is the
 * organisation's free plan; a number shows that plan only when it is the free plan. Anything
 * else is a 404.
 */
async function freePlanOf(ctx: OrgContext, params: LoaderFunctionArgs["params"]) {
  checkSection(params.path);
  if (params.planId === "free") return getFreePlan(ctx);
  const plan = await getPlan(ctx, parseId(params.planId));
  return plan.free_internet ? plan : notFound(PLAN_RESULT_MESSAGES.notFound);
}

// Without a free plan, "free" sends the user to create one with the free flag.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  const plan = await freePlanOf(ctx, params);
  if (!plan) return redirect(`/${ctx.org.id}/service_plans/new/free`);
  return json(await planPageData(ctx, plan));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan");
  const find = async () => (await freePlanOf(ctx, params)) ?? notFound(PLAN_RESULT_MESSAGES.noFreePlan);
  return planAction(request, ctx, find, `/${ctx.org.id}/free_plan/free`);
}

export default function FreePlan() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <PlanDetail data={data} actionData={actionData} here={`/${data.orgId}/free_plan/free`} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
