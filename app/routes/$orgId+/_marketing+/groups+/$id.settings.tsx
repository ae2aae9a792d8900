// A group's Settings: its name and description (create_groups), and Delete (delete_groups) after
// 'Are you sure you want to delete this customers group?'.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { isConfirmationRequest } from "~/lib/confirm";
import { GROUP_MESSAGES, groupSchema } from "~/lib/schemas/groups";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { getGroup, updateGroup } from "~/services/marketing/groups.server";
import { redirectWithToast } from "~/services/session.server";
import { GroupForm } from "./__group-form";
import { deleteGroupAction, groupBase, groupIdParam } from "./__groups.server";
import { parseForm } from "~/services/forms.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const group = await getGroup(ctx, groupIdParam(params));
  return json({
    orgId: ctx.org.id,
    group: { id: group.id, name: group.name, description: group.description ?? "" },
    can: { edit: ctx.permissions.has("create_groups"), delete: ctx.permissions.has("delete_groups") },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const groupId = groupIdParam(params);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "delete":
      return deleteGroupAction(request, ctx, groupId, form);
    case "save": {
      const group = await getGroup(ctx, groupId);
      requirePermission(ctx, "create_groups");
      const submission = parseForm(form, { schema: groupSchema });
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      await updateGroup(ctx, group.id, submission.value);
      return redirectWithToast(request, `${groupBase(ctx.org.id, group.id)}/settings`, GROUP_MESSAGES.updated);
    }
    default:
      await getGroup(ctx, groupId);
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

export default function GroupSettings() {
  const { orgId, group, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const base = `/${orgId}/groups/${group.id}`; // not groupBase: a .server module is not in the browser bundle
  // The confirmation step and refusals come back as { confirm } / { message }; the form's own result otherwise.
  const feedback = actionData && (isConfirmationRequest(actionData) || !("status" in actionData)) ? actionData : null;
  const lastResult = actionData && !feedback ? actionData : null;
  return (
    <section className="card space-y-4">
      <h2 className="text-lg font-semibold">Settings</h2>
      <ActionFeedback actionData={feedback} cancelTo={`${base}/settings`} />
      {can.edit ? (
        <GroupForm key={`${group.name}\n${group.description}`} lastResult={lastResult as never} defaultValue={group} submitLabel="Save" />
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Name</dt>
          <dd>{group.name}</dd>
          <dt className="text-slate-500">Description</dt>
          <dd>{group.description || "—"}</dd>
        </dl>
      )}
      {can.delete ? (
        <div className="border-t border-slate-200 pt-4">
          <ConfirmButton intent="delete" message={GROUP_MESSAGES.deleteQuestion}>
            Delete group
          </ConfirmButton>
        </div>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
