import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { PASSWORD_MIN_LENGTH, passwordChangeSchema } from "~/lib/schemas/profile";
import { requireOrg } from "~/services/guard.server";
import { changePassword } from "~/services/profile.server";
import { getSession, redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Reset password | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrg(request, params);
  return json(null);
}

const PASSWORD_FIELDS = ["old_password", "password", "password_confirmation"];

/** The token of the request making the change: this session (or API client) stays signed in. */
async function currentToken(request: Request): Promise<string | null> {
  const bearer = request.headers.get("Authorization")?.match(/^Bearer\s+(\S+)$/i);
  if (bearer) return bearer[1];
  return (await getSession(request)).get("token") ?? null;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const submission = parseForm(await request.formData(), { schema: passwordChangeSchema });
  // Passwords are never sent back to the page.
  if (submission.status !== "success") return json(submission.reply({ hideFields: PASSWORD_FIELDS }), { status: 400 });
  const outcome = await changePassword(ctx.user.id, submission.value, await currentToken(request));
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.fieldErrors, hideFields: PASSWORD_FIELDS }), { status: 400 });
  return redirectWithToast(
    request,
    `/${ctx.org.id}/profile/password`,
    "Your password has been changed. Your other sessions have been signed out.",
  );
}

export default function ChangePassword() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(passwordChangeSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordChangeSchema }),
  });
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Reset password</h2>
      <Form method="post" {...getFormProps(form)} className="max-w-md">
        <FormErrors errors={form.errors} />
        <Field
          label="Old password"
          inputProps={{ ...getInputProps(fields.old_password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.old_password.errors}
        />
        <Field
          label="New password"
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <Field
          label="Confirm new password"
          inputProps={{ ...getInputProps(fields.password_confirmation, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password_confirmation.errors}
        />
        <SubmitButton pendingText="Saving…">Change password</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
