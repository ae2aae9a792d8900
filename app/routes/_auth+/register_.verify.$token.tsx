import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { MESSAGES } from "~/lib/schemas/accounts";
import { checkPassword, signInAndRedirect } from "~/services/auth.server";
import { clientAddress, limitLogin, loginSucceeded, retryAfterHeaders } from "~/services/rate-limit.server";
import { VERIFY_MESSAGES, confirmVerification, findVerification } from "~/services/registration.server";
import { parseForm } from "~/services/forms.server";

// /register/verify/{token}: the link mailed at sign-up or for a new account address. Opening it
// changes nothing (mail scanners open links too); entering the account's password confirms the
// address and signs in, so a link is no use to someone who did not choose that password.
export const meta: MetaFunction = () => [{ title: "Confirm your e-mail address | Mlango" }];

export async function loader({ params }: LoaderFunctionArgs) {
  const verification = await findVerification(params.token ?? "");
  return json(verification ? { email: verification.email, linkError: null } : { email: null, linkError: VERIFY_MESSAGES.linkInvalid });
}

const schema = z.object({ password: z.string({ required_error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(200) });
const PASSWORD_WRONG = "The password is not correct.";

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), { schema });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const verification = await findVerification(params.token ?? "");
  if (!verification)
    return json(submission.reply({ formErrors: [VERIFY_MESSAGES.linkInvalid], hideFields: ["password"] }), { status: 400 });
  // Guessing the password here counts against the same limits as signing in.
  const address = clientAddress(request, context);
  const limitKey = `verify:${verification.userId}`;
  const limited = await limitLogin(limitKey, address);
  if (limited)
    return json(submission.reply({ formErrors: [limited.message], hideFields: ["password"] }), {
      status: 429,
      headers: retryAfterHeaders(limited),
    });
  if (!(await checkPassword(verification.userId, submission.value.password))) {
    return json(submission.reply({ fieldErrors: { password: [PASSWORD_WRONG] }, hideFields: ["password"] }), { status: 400 });
  }
  await loginSucceeded(limitKey, address);
  const outcome = await confirmVerification(verification);
  if (!outcome.ok) return json(submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), { status: 400 });
  return signInAndRedirect(request, outcome.userId);
}

export default function VerifyEmailPage() {
  const { email, linkError } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "verify-email", lastResult, constraint: getZodConstraint(schema), shouldValidate: "onSubmit" });
  if (linkError) {
    return (
      <>
        <h1 className="mb-3 text-xl font-semibold">Confirm your e-mail address</h1>
        <p role="alert" className="text-sm text-red-700">
          {linkError}
        </p>
        <p className="mt-6 text-center text-sm">
          <Link to="/login" className="link">
            Sign in
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Confirm your e-mail address</h1>
      <p className="mb-6 text-sm text-slate-600">
        Enter your Mlango password to confirm <strong>{email}</strong>.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field
          label="Password"
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <SubmitButton className="btn-primary mt-2 w-full" pendingText="Confirming…">
          Confirm
        </SubmitButton>
      </Form>
    </>
  );
}
