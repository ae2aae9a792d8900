import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { NEW_POLICY_VALUES, PolicyForm } from "~/components/prepaid/policy-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { bandwidthPolicySchema } from "~/lib/schemas/plans";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { createPolicy } from "~/services/prepaid/policies.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New bandwidth policy | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_bandwidth_policy");
  requirePermission(ctx, "create_bandwidth_policy"); // the New policy button
  return json({ orgId: ctx.org.id });
}

// Creating needs create_bandwidth_policy (the spec's swapped check built the intended way).
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_bandwidth_policy");
  requirePermission(ctx, "create_bandwidth_policy");
  const submission = parseForm(await request.formData(), { schema: bandwidthPolicySchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { message } = await createPolicy(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/bandwidth_policies`, message);
}

export default function NewBandwidthPolicy() {
  const { orgId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/bandwidth_policies`} className="link">
          Bandwidth policies
        </Link>{" "}
        › <span>New policy</span>
      </nav>
      <section className="card">
        <h1 className="mb-4 text-xl font-semibold">New bandwidth policy</h1>
        <PolicyForm
          lastResult={lastResult}
          defaultValue={NEW_POLICY_VALUES}
          submitLabel="Create"
          pendingText="Creating…"
          cancelTo={`/${orgId}/bandwidth_policies`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
