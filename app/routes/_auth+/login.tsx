import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { loginSchema, withRedirectTo } from "~/lib/schemas/accounts";
import { CREDENTIALS_MISMATCH, authenticateLoginForm, signInAndRedirect } from "~/services/auth.server";
import { requireAnonymous } from "~/services/guard.server";
import { unconfirmedSignIn } from "~/services/registration.server";
import { loginSucceeded, clientAddress, limitLogin, retryAfterHeaders } from "~/services/rate-limit.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Sign in | Mlango" }];

// The first page an operator on mobile data loads ships no JavaScript (root.tsx): one form that works
// without it, in about a tenth of the bytes (under 60 KB). The schema still checks on the server.
export const handle = { hydrate: false };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  // A clone: remix-auth's form strategy reads the body of `request` itself.
  const submission = parseForm(await request.clone().formData(), { schema: loginSchema });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { login_id, redirectTo } = submission.value;

  const address = clientAddress(request, context);
  const limited = await limitLogin(login_id, address);
  if (limited) {
    return json(submission.reply({ formErrors: [limited.message], hideFields: ["password"] }), {
      status: 429,
      headers: retryAfterHeaders(limited),
    });
  }
  const user = await authenticateLoginForm(request);
  if (!user) return json(submission.reply({ formErrors: [CREDENTIALS_MISMATCH], hideFields: ["password"] }), { status: 401 });

  const unconfirmed = await unconfirmedSignIn(user);
  if (unconfirmed) return json(submission.reply({ formErrors: [unconfirmed], hideFields: ["password"] }), { status: 403 });
  await loginSucceeded(login_id, address);
  return signInAndRedirect(request, user.id, redirectTo);
}

export default function LoginPage() {
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: getZodConstraint(loginSchema),
    // Validate in the browser as the server does, so blur checks need no round trip.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Sign in</h1>
      <p className="mb-6 text-sm text-slate-600">Use your email address or phone number.</p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label="Email or phone number"
          inputProps={{ ...getInputProps(fields.login_id, { type: "text" }), autoComplete: "username", autoFocus: true }}
          errors={fields.login_id.errors}
        />
        <Field
          label="Password"
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <div className="mb-6 text-right text-sm">
          <Link to={withRedirectTo("/password/forgot", redirectTo)} className="link">
            Forgot your password?
          </Link>
        </div>
        <SubmitButton className="btn-primary w-full" pendingText="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        No account yet?{" "}
        <Link to={withRedirectTo("/register", redirectTo)} className="link">
          Sign up
        </Link>
      </p>
    </>
  );
}
