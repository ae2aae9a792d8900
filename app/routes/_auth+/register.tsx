import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { MESSAGES, registerSchema, withRedirectTo } from "~/lib/schemas/accounts";
import { safeRedirect } from "~/lib/redirect";
import { requireAnonymous } from "~/services/guard.server";
import { clientAddress, limitRegister, retryAfterHeaders } from "~/services/rate-limit.server";
import { register, registrationSentMessage } from "~/services/registration.server";
import { commitSession, getSession } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Sign up | Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const submission = parseForm(await request.formData(), { schema: registerSchema });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { redirectTo, ...input } = submission.value;
  const limited = await limitRegister(input.email, clientAddress(request, context));
  if (limited)
    return json(submission.reply({ formErrors: [limited.message], hideFields: ["password"] }), {
      status: 429,
      headers: retryAfterHeaders(limited),
    });
  try {
    // The same answer whether or not the address or phone number has an account (decision 0013).
    await register(input);
  } catch (error) {
    console.error(
      JSON.stringify({
        at: new Date().toISOString(),
        event: "register_failed",
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return json(submission.reply({ formErrors: [MESSAGES.registerFailed], hideFields: ["password"] }), { status: 500 });
  }
  // Where to go once the mailed link is opened (in this browser).
  const session = await getSession(request);
  if (redirectTo) session.set("redirectTo", safeRedirect(redirectTo));
  return json({ sent: registrationSentMessage(input.email) }, { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function RegisterPage() {
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "sent" in actionData ? undefined : actionData;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useForm({
    id: "register",
    lastResult,
    constraint: getZodConstraint(registerSchema),
    // Validate in the browser as the server does, so blur checks need no round trip.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  if (actionData && "sent" in actionData) {
    return (
      <>
        <h1 className="mb-1 text-xl font-semibold">Check your e-mail</h1>
        <p role="status" className="text-sm text-slate-700">
          {actionData.sent}
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Create your account</h1>
      <p className="mb-6 text-sm text-slate-600">You can sign in with your email address or your phone number.</p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Field
            label="First name"
            inputProps={{ ...getInputProps(fields.first_name, { type: "text" }), autoComplete: "given-name", autoFocus: true }}
            errors={fields.first_name.errors}
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
          label="Phone number"
          inputProps={{ ...getInputProps(fields.phone_number, { type: "tel" }), autoComplete: "tel", placeholder: "0712 345 678" }}
          errors={fields.phone_number.errors}
        />
        <Field
          label="Password"
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
          hint="At least 8 characters."
        />
        <SubmitButton className="btn-primary mt-2 w-full" pendingText="Creating your account…">
          Sign up
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to={withRedirectTo("/login", redirectTo)} className="link">
          Sign in
        </Link>
      </p>
    </>
  );
}
