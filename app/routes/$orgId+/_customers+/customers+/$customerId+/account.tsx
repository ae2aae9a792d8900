// The customer's Account info (first, middle and last name, email, phone): Update works and needs
// edit_clients, checked here and in the service; without it the form is read-only.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { parseId } from "~/lib/ids";
import { CUSTOMER_MESSAGES, customerAccountSchema } from "~/lib/schemas/customers";
import { getCustomer, updateCustomer } from "~/services/customers.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customer = await getCustomer(ctx, parseId(params.customerId));
  return json({
    account: {
      first_name: customer.firstName ?? "",
      middle_name: customer.middleName ?? "",
      last_name: customer.lastName ?? "",
      email_address: customer.emailAddress ?? "",
      phone_number: customer.phoneNumber ?? "",
    },
    canEdit: ctx.permissions.has("edit_clients"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customerId = parseId(params.customerId);
  const submission = parseForm(await request.formData(), { schema: customerAccountSchema });
  if (!ctx.permissions.has("edit_clients")) {
    await getCustomer(ctx, customerId); // a foreign customer is still a 404
    return json(submission.reply({ formErrors: [CUSTOMER_MESSAGES.notAllowed] }), { status: 403 });
  }
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const outcome = await updateCustomer(ctx, customerId, submission.value);
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.fieldErrors, formErrors: outcome.formErrors }), { status: 400 });
  return redirectWithToast(request, `/${ctx.org.id}/customers/${customerId}/account`, CUSTOMER_MESSAGES.updated);
}

export default function CustomerAccount() {
  const { account, canEdit } = useLoaderData<typeof loader>();
  // A new form when the saved values change, so it shows them as stored (normalised) after Update.
  return <AccountForm key={JSON.stringify(account)} account={account} canEdit={canEdit} />;
}

function AccountForm({
  account,
  canEdit,
}: {
  account: Record<"first_name" | "middle_name" | "last_name" | "email_address" | "phone_number", string>;
  canEdit: boolean;
}) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: account,
    constraint: getZodConstraint(customerAccountSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: customerAccountSchema }),
  });
  const input = (field: (typeof fields)[keyof typeof fields], type: "text" | "email" | "tel") => ({
    ...getInputProps(field, { type }),
    readOnly: !canEdit,
  });
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Account info</h2>
      {canEdit ? null : <p className="mb-4 text-sm text-slate-600">{CUSTOMER_MESSAGES.notAllowed}</p>}
      <Form method="post" {...getFormProps(form)} className="max-w-xl">
        <FormErrors errors={form.errors} />
        <div className="grid gap-x-4 sm:grid-cols-3">
          <Field label="First name" inputProps={input(fields.first_name, "text")} errors={fields.first_name.errors} />
          <Field label="Middle name" inputProps={input(fields.middle_name, "text")} errors={fields.middle_name.errors} />
          <Field label="Last name" inputProps={input(fields.last_name, "text")} errors={fields.last_name.errors} />
        </div>
        <Field label="Email address" inputProps={input(fields.email_address, "email")} errors={fields.email_address.errors} />
        <Field label="Phone number" inputProps={input(fields.phone_number, "tel")} errors={fields.phone_number.errors} />
        {canEdit ? <SubmitButton pendingText="Updating…">Update</SubmitButton> : null}
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
