import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PolicyForm } from "~/components/prepaid/policy-form";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { bandwidthPolicySchema } from "~/lib/schemas/plans";
import { notFound, requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { deletePolicy, getPolicy, updatePolicy } from "~/services/prepaid/policies.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.policy.name} · Bandwidth policies · Mlango` : "Mlango" },
];

/** bandwidth_policy/{policyId}/{path?}: the one detail-and-edit page; its optional sections are aliases. */
const SECTIONS = [undefined, "details", "edit"];

const deleteQuestion = (name: string) => `Are you sure you want to delete the bandwidth policy ${name}?`;

async function policyOf(ctx: OrgContext, params: LoaderFunctionArgs["params"]) {
  if (!SECTIONS.includes(params.path)) notFound();
  return getPolicy(ctx, parseId(params.policyId));
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_bandwidth_policy", "edit_bandwidth_policy");
  const policy = await policyOf(ctx, params);
  return json({
    orgId: ctx.org.id,
    policy: {
      id: Number(policy.id),
      name: policy.name,
      updated_at: Number(policy.updated_at),
    },
    values: {
      name: policy.name,
      max_upload: String(policy.max_upload),
      max_upload_unit: policy.max_upload_unit,
      max_download: String(policy.max_download),
      max_download_unit: policy.max_download_unit,
      description: policy.description ?? "",
    },
    deleteQuestion: deleteQuestion(policy.name),
    canEdit: ctx.permissions.has("edit_bandwidth_policy"),
    canDelete: ctx.permissions.has("delete_bandwidth_policy"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_bandwidth_policy", "edit_bandwidth_policy");
  const form = await request.formData();
  switch (form.get("intent") ?? "update") {
    case "update":
      return update(request, ctx, params, form);
    case "delete":
      return remove(request, ctx, params, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// Updating needs edit_bandwidth_policy (the spec's swapped check built the intended way).
async function update(request: Request, ctx: OrgContext, params: ActionFunctionArgs["params"], form: FormData) {
  requirePermission(ctx, "edit_bandwidth_policy");
  const policy = await policyOf(ctx, params); // a foreign or unknown policy is a 404 whatever the form holds
  const submission = parseForm(form, { schema: bandwidthPolicySchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { message } = await updatePolicy(ctx, policy.id, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/bandwidth_policy/${policy.id}`, message);
}

// After deletion the server's message, then the list
// (docs/guide/plans-and-prepaid.md#bandwidth-policies). A policy that plans use is not deleted:
// the page says which plans, and stays.
async function remove(request: Request, ctx: OrgContext, params: ActionFunctionArgs["params"], form: FormData) {
  requirePermission(ctx, "delete_bandwidth_policy");
  const policy = await policyOf(ctx, params);
  const ask = confirmationNeeded(form, "delete", deleteQuestion(policy.name));
  if (ask) return json(ask);
  const result = await deletePolicy(ctx, policy.id);
  if (!result.ok) return json({ message: result.message }, { status: 409 });
  return redirectWithToast(request, `/${ctx.org.id}/bandwidth_policies`, { type: "info", message: result.message });
}

export default function BandwidthPolicyDetail() {
  const { orgId, policy, values, deleteQuestion, canEdit, canDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !isConfirmationRequest(actionData) && !("message" in actionData) ? actionData : null;
  const here = `/${orgId}/bandwidth_policy/${policy.id}`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/bandwidth_policies`} className="link">
          Bandwidth policies
        </Link>{" "}
        › <span>{policy.name}</span>
      </nav>
      <ActionFeedback actionData={actionData} cancelTo={here} />
      <section className="card">
        <h1 className="mb-4 text-xl font-semibold">{policy.name}</h1>
        {canEdit ? null : (
          <p className="mb-4 text-sm text-slate-600">You can view this policy; changing it needs the Edit bandwidth policies permission.</p>
        )}
        <PolicyForm
          key={policy.updated_at}
          lastResult={lastResult}
          defaultValue={values}
          readOnly={!canEdit}
          submitLabel="Update"
          pendingText="Updating…"
          intent="update"
        />
      </section>
      {canDelete ? (
        <section className="card border-red-200">
          <h2 className="text-lg font-semibold text-red-800">Delete policy</h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">
            A policy that service plans use cannot be deleted: give those plans another policy first.
          </p>
          <ConfirmButton intent="delete" message={deleteQuestion}>
            Delete
          </ConfirmButton>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
