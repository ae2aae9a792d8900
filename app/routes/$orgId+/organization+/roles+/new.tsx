import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { PermissionCheckboxes } from "~/components/access-control/permission-checkboxes";
import { RoleDetailsFields } from "~/components/access-control/role-details-fields";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors, SubmitButton } from "~/components/ui/field";
import { createRoleSchema } from "~/lib/schemas/access-control";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { createRole } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Add role | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  requirePermission(ctx, "create_administrators"); // the Add role menu item (docs/guide/access-control.md#what-each-permission-shows)
  return json({ canCreate: ctx.permissions.has("create_roles") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  requirePermission(ctx, "create_roles"); // the Create button
  const submission = parseForm(await request.formData(), { schema: createRoleSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const role = await createRole(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/organization/roles/${role.id}`, `Role ${submission.value.name} created.`);
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

export default function NewRole() {
  const { canCreate } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { role_type: "r" },
    constraint: getZodConstraint(createRoleSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createRoleSchema }),
  });
  // Without JavaScript the checkboxes always show (they count only for Custom); with it, only for Custom.
  const showPermissions = !hydrated || fields.role_type.value === "custom";
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Add role</h2>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <div className="max-w-xl">
          <RoleDetailsFields fields={fields} />
        </div>
        <div className={showPermissions ? "mb-4" : "hidden"}>
          <p className="mb-2 text-sm text-slate-600">The chosen permissions apply when the role type is Custom.</p>
          <PermissionCheckboxes checked={asList(fields.permissions.value)} errors={fields.permissions.errors} />
        </div>
        {canCreate ? (
          <SubmitButton pendingText="Creating…">Create</SubmitButton>
        ) : (
          <p className="text-sm text-slate-500">You do not have permission to create roles.</p>
        )}
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
