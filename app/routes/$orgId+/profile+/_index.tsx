import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { profileSchema } from "~/lib/schemas/profile";
import { outboxNotice } from "~/services/email.server";
import { requireOrg } from "~/services/guard.server";
import { updateProfile } from "~/services/profile.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "My account | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireOrg(request, params);
  return json({
    user: {
      first_name: user.first_name,
      middle_name: user.middle_name ?? "",
      last_name: user.last_name,
      email: user.email,
      phone_number: user.phone_number,
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const submission = parseForm(await request.formData(), { schema: profileSchema });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["current_password"] }), { status: 400 });
  const outcome = await updateProfile(ctx.user.id, submission.value);
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.fieldErrors, hideFields: ["current_password"] }), { status: 400 });
  // Honest mail: without SMTP_URL the link is a file in the outbox folder, not sent.
  const kept = outcome.emailPending ? outboxNotice(`The link to confirm ${outcome.emailPending}`) : null;
  const pending = !outcome.emailPending
    ? ""
    : kept
      ? ` ${kept} Your e-mail address changes when you open the link.`
      : ` We have sent a link to ${outcome.emailPending}: your e-mail address changes when you open it.`;
  return redirectWithToast(request, `/${ctx.org.id}/profile`, `Your account details have been updated.${pending}`);
}

export default function AccountDetails() {
  // A saved form starts afresh from what was stored (a new e-mail address is not stored until confirmed).
  return <AccountForm key={useLocation().key} />;
}

function AccountForm() {
  const { user } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { ...user, current_password: "" },
    constraint: getZodConstraint(profileSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  });
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Account details</h2>
      <Form method="post" {...getFormProps(form)} className="max-w-xl">
        <FormErrors errors={form.errors} />
        <div className="grid gap-x-4 sm:grid-cols-3">
          <Field
            label="First name"
            inputProps={{ ...getInputProps(fields.first_name, { type: "text" }), autoComplete: "given-name" }}
            errors={fields.first_name.errors}
          />
          <Field
            label="Middle name (optional)"
            inputProps={{ ...getInputProps(fields.middle_name, { type: "text" }), autoComplete: "additional-name" }}
            errors={fields.middle_name.errors}
          />
          <Field
            label="Last name"
            inputProps={{ ...getInputProps(fields.last_name, { type: "text" }), autoComplete: "family-name" }}
            errors={fields.last_name.errors}
          />
        </div>
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <Field
          label="Current password (to change the e-mail address)"
          inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.current_password.errors}
        />
        <Field
          label="Phone number"
          inputProps={{ ...getInputProps(fields.phone_number, { type: "tel" }), autoComplete: "tel" }}
          errors={fields.phone_number.errors}
          hint="A local number such as 0712 345 678, or an international one such as +254 712 345 678."
        />
        <SubmitButton pendingText="Updating…">Update</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
