import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PlanDetail } from "~/components/prepaid/plan-detail";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { requireOrg } from "~/services/guard.server";
import { getPlan } from "~/services/prepaid/plans.server";
import { checkSection, planAction, planPageData } from "~/routes/$orgId+/_prepaid+/__plans.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.plan.name} · Service plans · Mlango` : "Mlango" }];

// service_plan/{planId}/{path?}: detail and edit (edit_service_plan), Delete (delete_service_plan).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan", "edit_service_plan");
  checkSection(params.path);
  const plan = await getPlan(ctx, parseId(params.planId));
  return json(await planPageData(ctx, plan));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_service_plan", "edit_service_plan");
  const find = async () => {
    checkSection(params.path);
    return getPlan(ctx, parseId(params.planId));
  };
  return planAction(request, ctx, find, `/${ctx.org.id}/service_plan/${params.planId}`);
}

export default function ServicePlanDetail() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <PlanDetail data={data} actionData={actionData} here={`/${data.orgId}/service_plan/${data.plan.id}`} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
