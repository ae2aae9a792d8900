import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ZodTypeAny } from "zod";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { changeAdministratorRoleSchema, removeAdministratorSchema } from "~/lib/schemas/access-control";
import { changeAdministratorRole, listAdministrators, removeAdministrator } from "~/services/access-control.server";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { listRoleOptions } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Administrators | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const canEdit = ctx.permissions.has("edit_administrators");
  const [administrators, roles] = await Promise.all([listAdministrators(ctx), canEdit ? listRoleOptions(ctx) : Promise.resolve([])]);
  return json({
    administrators,
    roles,
    canEdit,
    canDelete: ctx.permissions.has("delete_administrators"),
    path: `/${ctx.org.id}/organization/administrators`,
  });
}

/** The first validation message of a one-row form, shown above the list. */
function parseRow<S extends ZodTypeAny>(formData: FormData, schema: S) {
  const submission = parseForm(formData, { schema });
  if (submission.status === "success") return { value: submission.value as S["_output"] };
  const errors = Object.values(submission.error ?? {})
    .flat()
    .filter(Boolean);
  return { error: json({ message: errors[0] ?? "Invalid request." }, { status: 400 }) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const formData = await request.formData();
  const list = `/${ctx.org.id}/organization/administrators`;
  switch (formData.get("intent")) {
    case "change-role": {
      requirePermission(ctx, "edit_administrators");
      const parsed = parseRow(formData, changeAdministratorRoleSchema);
      if (parsed.error) return parsed.error;
      await changeAdministratorRole(ctx, parsed.value.admin_id, parsed.value.role_id);
      return redirectWithToast(request, list, "Administrator role changed.");
    }
    case "remove": {
      requirePermission(ctx, "delete_administrators");
      const parsed = parseRow(formData, removeAdministratorSchema);
      if (parsed.error) return parsed.error;
      const ask = confirmationNeeded(formData, "remove", "Are you sure you want to remove this administrator?", {
        admin_id: String(parsed.value.admin_id ?? ""),
      });
      if (ask) return json(ask);
      const { removedSelf } = await removeAdministrator(ctx, parsed.value.admin_id);
      if (removedSelf) return redirectWithToast(request, "/", `You are no longer an administrator of ${ctx.org.name}.`);
      return redirectWithToast(request, list, "Administrator removed.");
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

export default function Administrators() {
  const { administrators, roles, canEdit, canDelete, path } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Administrators</h2>
      <ActionFeedback actionData={actionData} cancelTo={path} />
      <DataTable
        rows={administrators}
        rowKey={(admin) => admin.id}
        empty="No administrators."
        columns={[
          { header: "#", cell: (_admin, index) => index + 1 },
          { header: "Name", cell: (admin) => admin.name ?? <span className="italic text-slate-500">Pending registration</span> },
          { header: "Email", long: true, cell: (admin) => admin.email ?? "—" },
          { header: "Phone number", nowrap: true, cell: (admin) => admin.phoneNumber ?? "—" },
          {
            header: "Role",
            cell: (admin) =>
              canEdit && !admin.isOwner ? (
                <Form method="post" className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="admin_id" value={admin.id} />
                  <label htmlFor={`role-${admin.id}`} className="sr-only">
                    Role of {admin.name ?? admin.invitedEmail}
                  </label>
                  {/* As wide as the longest role name: a fixed width cut them off. */}
                  <select
                    id={`role-${admin.id}`}
                    name="role_id"
                    defaultValue={admin.roleId ?? ""}
                    className="input w-auto max-w-full"
                    required
                  >
                    <option value="">Choose a role</option>
                    {roles.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                  <SubmitButton name="intent" value="change-role" className="btn-secondary" pendingText="Saving…">
                    Change
                  </SubmitButton>
                </Form>
              ) : (
                (admin.roleName ?? <span className="text-slate-500">No role</span>)
              ),
          },
          { header: "Status", cell: (admin) => admin.status },
          { header: "Invited email", long: true, cell: (admin) => admin.invitedEmail ?? "—" },
        ]}
        actions={
          canDelete
            ? (admin) =>
                admin.isOwner ? null : (
                  <ConfirmButton
                    intent="remove"
                    fields={{ admin_id: admin.id }}
                    message={`Are you sure you want to remove ${admin.name ?? admin.invitedEmail ?? "this administrator"}?`}
                  >
                    Remove
                  </ConfirmButton>
                )
            : undefined
        }
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
