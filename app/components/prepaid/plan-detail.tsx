import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { isConfirmationRequest } from "~/lib/confirm";
import { PlanForm } from "./plan-form";

export interface PlanDetailData {
  orgId: number;
  plan: {
    id: number;
    name: string;
    code: string;
    free: boolean;
    kind: string;
    bandwidth_policy: string;
    time_limit: string;
    data_limit: string;
    validity: string;
    simultaneous_connections: number;
    price: string;
    free_every: string | null;
    subscriptions: number;
    updated_at: number;
  };
  values: Record<string, string>;
  policies: { id: number; name: string }[];
  deleteQuestion: string;
  canEdit: boolean;
  canDelete: boolean;
}

/** The detail-and-edit page of a service plan or of the free plan, with Delete. */
export function PlanDetail({ data, actionData, here }: { data: PlanDetailData; actionData: unknown; here: string }) {
  const { orgId, plan, values, policies, deleteQuestion, canEdit, canDelete } = data;
  const lastResult =
    actionData && typeof actionData === "object" && !isConfirmationRequest(actionData) && !("message" in actionData)
      ? (actionData as SubmissionResult<string[]>)
      : null;
  const summary: [string, string | number][] = [
    ["Code", plan.code],
    ["Bandwidth policy", plan.bandwidth_policy],
    ["Time limit", plan.time_limit],
    ["Data limit", plan.data_limit],
    ["Validity", plan.validity],
    ["Simultaneous connections", plan.simultaneous_connections],
    plan.free ? ["How often a device may take it", plan.free_every ?? ""] : ["Price in Kes", plan.price],
    ["Subscriptions", plan.subscriptions],
  ];
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/service_plans`} className="link">
          Service plans
        </Link>{" "}
        › <span>{plan.free ? "Free plan" : plan.name}</span>
      </nav>
      <ActionFeedback actionData={actionData} cancelTo={here} />
      <section className="card">
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500">{plan.free ? "Free plan" : "Service plan"}</p>
        <h1 className="mb-4 text-xl font-semibold">{plan.free ? `Free plan: ${plan.name}` : plan.name}</h1>
        <dl className="mb-6 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          {summary.map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-500">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
        {plan.free ? (
          <p className="mb-4 text-sm text-slate-600">
            Guests get the free plan by signing up or clicking through on the connect page, within the limits below.
          </p>
        ) : null}
        {canEdit ? null : (
          <p className="mb-4 text-sm text-slate-600">You can view this plan; changing it needs the Edit service plans permission.</p>
        )}
        <PlanForm
          key={plan.updated_at}
          lastResult={lastResult}
          defaultValue={values}
          free={plan.free}
          policies={policies}
          readOnly={!canEdit}
          submitLabel="Update"
          pendingText="Updating…"
          intent="update"
        />
      </section>
      {canDelete ? (
        <section className="card border-red-200">
          <h2 className="text-lg font-semibold text-red-800">{plan.free ? "Delete the free plan" : "Delete plan"}</h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">
            {plan.free ? "Guests can no longer take free internet until a new free plan is made." : "Guests can no longer buy this plan."}{" "}
            This cannot be undone.
          </p>
          <ConfirmButton intent="delete" message={deleteQuestion}>
            Delete
          </ConfirmButton>
        </section>
      ) : null}
    </div>
  );
}
