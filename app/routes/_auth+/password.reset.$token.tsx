import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { REDIRECT_AFTER_RESET_MS, resetPasswordSchema } from "~/lib/schemas/accounts";
import { requireAnonymous } from "~/services/guard.server";
import { PASSWORD_RESET_DONE, RESET_LINK_INVALID, isResetTokenUsable, resetPassword } from "~/services/password-reset.server";
import { parseForm } from "~/services/forms.server";

// No no-referrer policy here: it makes browsers send "Origin: null", which Remix refuses on a POST.
export const meta: MetaFunction = () => [{ title: "Reset password | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const usable = await isResetTokenUsable(params.token ?? "");
  return json({ linkError: usable ? null : RESET_LINK_INVALID });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const submission = parseForm(await request.formData(), { schema: resetPasswordSchema });
  const hideFields = ["password", "password_confirmation"];
  if (submission.status !== "success") return json(submission.reply({ hideFields }), { status: 400 });
  const outcome = await resetPassword({
    token: params.token ?? "",
    loginId: submission.value.login_id,
    password: submission.value.password,
  });
  if (!outcome.ok) {
    const errors = outcome.field === "form" ? { formErrors: [outcome.message] } : { fieldErrors: { login_id: [outcome.message] } };
    return json(submission.reply({ ...errors, hideFields }), { status: 400 });
  }
  return json({ done: true as const, message: PASSWORD_RESET_DONE });
}

export default function ResetPasswordPage() {
  const { linkError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const done = actionData && "done" in actionData ? actionData : null;
  const lastResult = actionData && !("done" in actionData) ? actionData : undefined;
  const [form, fields] = useForm({
    id: "password-reset",
    lastResult,
    constraint: getZodConstraint(resetPasswordSchema),
    // Validate in the browser as the server does, so blur checks need no round trip.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  if (done) return <ResetDone message={done.message} />;

  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Reset your password</h1>
      <p className="mb-6 text-sm text-slate-600">Confirm the email address or phone number of your account and choose a new password.</p>
      {linkError && !actionData ? (
        <FormErrors errors={[linkError]} />
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <FormErrors errors={form.errors} />
          <Field
            label="Email or phone number"
            inputProps={{ ...getInputProps(fields.login_id, { type: "text" }), autoComplete: "username", autoFocus: true }}
            errors={fields.login_id.errors}
          />
          <Field
            label="New password"
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
            hint="At least 8 characters."
          />
          <Field
            label="Confirm new password"
            inputProps={{ ...getInputProps(fields.password_confirmation, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password_confirmation.errors}
          />
          <SubmitButton className="btn-primary w-full" pendingText="Resetting…">
            Reset password
          </SubmitButton>
        </Form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        Link not working?{" "}
        <Link to="/password/forgot" className="link">
          Request a new reset link
        </Link>
      </p>
    </>
  );
}

/**
 * The success state goes to login after 3 seconds: a meta refresh when the page was rendered on
 * the server (no JavaScript), a client navigation once the app is running.
 */
function ResetDone({ message }: { message: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/login"), REDIRECT_AFTER_RESET_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  const seconds = REDIRECT_AFTER_RESET_MS / 1000;
  return (
    <div role="status">
      {hydrated ? null : <meta httpEquiv="refresh" content={`${seconds};url=/login`} />}
      <h1 className="mb-2 text-xl font-semibold">{message}</h1>
      <p className="mb-6 text-sm text-slate-600">You will be redirected to login in {seconds} seconds.</p>
      <Link to="/login" className="btn-primary w-full">
        Login
      </Link>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
