import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { GROUP_MESSAGES, groupSchema } from "~/lib/schemas/groups";
import { requireOrg } from "~/services/guard.server";
import { createGroup } from "~/services/marketing/groups.server";
import { redirectWithToast } from "~/services/session.server";
import { GroupForm } from "./__group-form";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New Group | Mlango" }];

// groups/new (the menu's New Group, create_groups): name (required) and description; then the
// group's Filters section, where its customers are chosen.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_groups");
  return json({ orgId: ctx.org.id });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_groups");
  const submission = parseForm(await request.formData(), { schema: groupSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const id = await createGroup(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/groups/${id}/filters`, GROUP_MESSAGES.created);
}

export default function NewGroup() {
  const { orgId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/groups`} className="link">
          Customer Groups
        </Link>{" "}
        › <span>New Group</span>
      </nav>
      <section className="card">
        <h1 className="mb-1 text-xl font-semibold">New Group</h1>
        <p className="mb-4 text-sm text-slate-600">
          Name the group, then choose its customers with filters. Its customers are worked out whenever you look, so they stay up to date.
        </p>
        <GroupForm
          lastResult={lastResult}
          defaultValue={{ name: "", description: "" }}
          submitLabel="Create group"
          cancelTo={`/${orgId}/groups`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
