import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { forgotPasswordSchema, withRedirectTo } from "~/lib/schemas/accounts";
import { publicOrigin } from "~/services/email.server";
import { requireAnonymous } from "~/services/guard.server";
import { FORGOT_PASSWORD_SENT, requestPasswordReset } from "~/services/password-reset.server";
import { clientAddress, limitPasswordForgot, retryAfterHeaders } from "~/services/rate-limit.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Forgot password | Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const submission = parseForm(await request.formData(), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { login_id } = submission.value;

  const limited = await limitPasswordForgot(login_id, clientAddress(request, context));
  if (limited) return json(submission.reply({ formErrors: [limited.message] }), { status: 429, headers: retryAfterHeaders(limited) });

  await requestPasswordReset(login_id, publicOrigin());
  // The same answer whether or not an account matches: nobody learns who has one.
  return redirectWithToast(request, `/password/forgot${new URL(request.url).search}`, { type: "success", message: FORGOT_PASSWORD_SENT });
}

export default function ForgotPasswordPage() {
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: "password-forgot",
    lastResult,
    constraint: getZodConstraint(forgotPasswordSchema),
    // Validate in the browser as the server does, so blur checks need no round trip.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Forgot your password?</h1>
      <p className="mb-6 text-sm text-slate-600">
        Enter the email address or phone number of your account and we will email you a link to choose a new password.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field
          label="Email or phone number"
          inputProps={{ ...getInputProps(fields.login_id, { type: "text" }), autoComplete: "username", autoFocus: true }}
          errors={fields.login_id.errors}
        />
        <SubmitButton className="btn-primary w-full" pendingText="Sending…">
          Send reset link
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link to={withRedirectTo("/login", searchParams.get("redirectTo"))} className="link">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
