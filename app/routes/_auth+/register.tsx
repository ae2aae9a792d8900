import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { MESSAGES, registerSchema, withRedirectTo } from "~/lib/schemas/accounts";
import { registerUser, signInAndRedirect } from "~/services/auth.server";
import { requireAnonymous } from "~/services/guard.server";
import { attachInvitationsToUser } from "~/services/invitations.server";

export const meta: MetaFunction = () => [{ title: "Sign up | Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const submission = parseWithZod(await request.formData(), { schema: registerSchema });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { redirectTo, ...input } = submission.value;
  try {
    const outcome = await registerUser(input);
    if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.errors, hideFields: ["password"] }), { status: 400 });
    // Invitations sent to this email before the account existed now belong to it.
    await attachInvitationsToUser(outcome.user.id, outcome.user.email);
    return await signInAndRedirect(request, outcome.user.id, redirectTo);
  } catch (error) {
    console.error(JSON.stringify({ at: new Date().toISOString(), event: "register_failed", error: error instanceof Error ? error.message : String(error) }));
    return json(submission.reply({ formErrors: [MESSAGES.registerFailed], hideFields: ["password"] }), { status: 500 });
  }
}

export default function RegisterPage() {
  const lastResult = useActionData<typeof action>();
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
