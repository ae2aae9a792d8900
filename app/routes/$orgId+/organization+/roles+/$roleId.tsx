import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PermissionCheckboxes } from "~/components/access-control/permission-checkboxes";
import { RoleDetailsFields } from "~/components/access-control/role-details-fields";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors, SubmitButton } from "~/components/ui/field";
import { ALL_PERMISSIONS, VIEW_PERMISSIONS } from "~/lib/permissions";
import { parseRecordId, roleDetailsSchema, rolePermissionsSchema } from "~/lib/schemas/access-control";
import { formatDate } from "~/lib/time";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { canEditRolePermissions, getRole, requireRolePermissionEditing, setRolePermissions, updateRole } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.role.name ?? "Role"} | Mlango` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const role = await getRole(ctx, parseRecordId(params.roleId));
  // What members of the role hold: all for Full access, every view_* for Read only, the chosen ones for Custom.
  const effective = role.role_type === "r_w" ? ALL_PERMISSIONS : role.role_type === "r" ? VIEW_PERMISSIONS : role.permissions;
  return json({
    role: {
      id: role.id,
      name: role.name,
      description: role.description,
      role_type: role.role_type,
      created: formatDate(role.created_at, ctx.org.clock.offsetMs),
    },
    permissions: effective,
    orgId: ctx.org.id,
    canUpdate: ctx.permissions.has("update_roles"),
    canEditPermissions: canEditRolePermissions(ctx),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const roleId = parseRecordId(params.roleId);
  const formData = await request.formData();
  const here = `/${ctx.org.id}/organization/roles/${params.roleId}`;
  switch (formData.get("intent")) {
    case "update-role": {
      requirePermission(ctx, "update_roles");
      const submission = parseForm(formData, { schema: roleDetailsSchema });
      if (submission.status !== "success") return json({ form: "details" as const, result: submission.reply() }, { status: 400 });
      await updateRole(ctx, roleId, submission.value);
      return redirectWithToast(request, here, "Role updated.");
    }
    case "save-permissions": {
      requireRolePermissionEditing(ctx);
      const submission = parseForm(formData, { schema: rolePermissionsSchema });
      if (submission.status !== "success") return json({ form: "permissions" as const, result: submission.reply() }, { status: 400 });
      const outcome = await setRolePermissions(ctx, roleId, submission.value.permissions);
      if (!outcome.ok)
        return json({ form: "permissions" as const, result: submission.reply({ formErrors: outcome.formErrors }) }, { status: 400 });
      return redirectWithToast(request, here, "Role permissions saved.");
    }
    default:
      return json({ form: "none" as const, message: "Unknown action." }, { status: 400 });
  }
}

export default function RoleDetails() {
  const { role, permissions, orgId, canUpdate, canEditPermissions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [detailsForm, detailsFields] = useForm({
    id: "role-details",
    lastResult: actionData?.form === "details" ? actionData.result : undefined,
    defaultValue: { name: role.name, description: role.description ?? "", role_type: role.role_type },
    constraint: getZodConstraint(roleDetailsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleDetailsSchema }),
  });
  const [permissionsForm, permissionFields] = useForm({
    id: "role-permissions",
    lastResult: actionData?.form === "permissions" ? actionData.result : undefined,
  });
  const choosable = role.role_type === "custom";
  return (
    <div className="space-y-4">
      <p>
        <Link to={`/${orgId}/organization/roles`} className="link text-sm">
          ← Roles
        </Link>
      </p>
      <section className="card">
        <h2 className="mb-1 text-lg font-semibold">{role.name}</h2>
        <p className="mb-4 text-sm text-slate-500">Created {role.created}</p>
        {actionData?.form === "none" ? <FormErrors errors={[actionData.message]} /> : null}
        <Form method="post" {...getFormProps(detailsForm)} className="max-w-xl">
          <FormErrors errors={detailsForm.errors} />
          <RoleDetailsFields fields={detailsFields} disabled={!canUpdate} />
          {canUpdate ? (
            <SubmitButton name="intent" value="update-role" pendingText="Updating…">
              Update
            </SubmitButton>
          ) : null}
        </Form>
      </section>
      <section className="card">
        <h2 className="mb-1 text-lg font-semibold">Permissions</h2>
        <p className="mb-4 text-sm text-slate-600">
          {choosable
            ? "Members of this role hold exactly the permissions ticked below."
            : role.role_type === "r_w"
              ? "Full access: members of this role hold every permission. Choose the Custom role type to pick permissions."
              : "Read only: members of this role hold every view permission. Choose the Custom role type to pick permissions."}
        </p>
        <Form method="post" {...getFormProps(permissionsForm)}>
          <FormErrors errors={permissionsForm.errors} />
          <PermissionCheckboxes
            key={permissions.join(",")}
            checked={permissions}
            disabled={!canEditPermissions || !choosable}
            errors={permissionFields.permissions.errors}
          />
          {canEditPermissions && choosable ? (
            <div className="mt-4">
              <SubmitButton name="intent" value="save-permissions" pendingText="Saving…">
                Save permissions
              </SubmitButton>
            </div>
          ) : null}
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
