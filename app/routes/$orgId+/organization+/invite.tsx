import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { inviteAdministratorSchema } from "~/lib/schemas/access-control";
import { outboxFolder, outboxNotice, publicOrigin } from "~/services/email.server";
import { requireOrg } from "~/services/guard.server";
import { inviteAdministrator, requireInvitePermission } from "~/services/invitations.server";
import { listRoleOptions } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Invite administrators | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  requireInvitePermission(ctx);
  // Without SMTP_URL the invitation is a file in the outbox folder: the page says so before and after.
  return json({ roles: await listRoleOptions(ctx), orgId: ctx.org.id, outbox: outboxFolder() });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  requireInvitePermission(ctx);
  const submission = parseForm(await request.formData(), { schema: inviteAdministratorSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const result = await inviteAdministrator(ctx, submission.value, publicOrigin());
  if (!result.ok) return json(submission.reply({ fieldErrors: result.fieldErrors, formErrors: result.formErrors }), { status: 400 });
  const kept = outboxNotice(`The invitation to ${submission.value.email}`);
  return redirectWithToast(
    request,
    `/${ctx.org.id}/organization/administrators`,
    kept ? { type: "info", message: kept } : `Invitation sent to ${submission.value.email}.`,
  );
}

export default function InviteAdministrator() {
  const { roles, orgId, outbox } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(inviteAdministratorSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteAdministratorSchema }),
  });
  return (
    <section className="card max-w-xl">
      <h2 className="mb-1 text-lg font-semibold">Invite administrators</h2>
      <p className="mb-4 text-sm text-slate-600">
        The invitee receives an email with a link to accept or decline. Someone without an account signs up through the link and joins the
        organization.
      </p>
      {outbox ? (
        <p role="note" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          No mail server is set up (SMTP_URL), so invitations are not e-mailed: each one is kept as a file in the outbox folder{" "}
          <code className="break-all">{outbox}</code>. Send the invitee the link from that file yourself.
        </p>
      ) : null}
      {roles.length === 0 ? (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This organization has no roles yet.{" "}
          <Link to={`/${orgId}/organization/roles/new`} className="link">
            Add a role
          </Link>{" "}
          first.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
          errors={fields.email.errors}
        />
        <SelectField
          label="Role"
          selectProps={getSelectProps(fields.role_id)}
          options={roles}
          placeholder="Choose a role"
          errors={fields.role_id.errors}
        />
        <SubmitButton pendingText="Sending…">Invite</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
