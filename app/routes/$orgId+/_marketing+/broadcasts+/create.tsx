import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { TextareaField } from "~/components/prepaid/amount-field";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { broadcastSchema } from "~/lib/schemas/broadcasts";
import { requireOrg } from "~/services/guard.server";
import { createBroadcast, EDIT_BROADCASTS } from "~/services/marketing/broadcasts.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New message | Mlango" }];

// broadcasts/create (docs/guide/marketing.md#broadcasts; the menu's New Message): the title,
// which is also the e-mail's subject, and a description; then on to the broadcast's e-mail
// section to write the content.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  return json({ orgId: ctx.org.id });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  const submission = parseForm(await request.formData(), { schema: broadcastSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { id, message } = await createBroadcast(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/broadcast/${id}/email`, message);
}

export default function CreateBroadcast() {
  const { orgId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "create-broadcast",
    lastResult,
    constraint: getZodConstraint(broadcastSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: broadcastSchema }),
  });
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/broadcasts`} className="link">
          Broadcast messages
        </Link>{" "}
        › <span>New message</span>
      </nav>
      <section className="card">
        <h1 className="mb-1 text-xl font-semibold">New message</h1>
        <p className="mb-4 text-sm text-slate-600">
          Name the message; you write its e-mail and SMS next, then schedule it for your customer groups.
        </p>
        <Form method="post" {...getFormProps(form)} className="max-w-xl">
          <FormErrors errors={form.errors} />
          <Field
            label="Title"
            inputProps={getInputProps(fields.title, { type: "text" })}
            errors={fields.title.errors}
            hint="Also the subject of the e-mail."
          />
          <TextareaField label="Description" field={fields.description} />
          <div className="flex gap-2">
            <SubmitButton pendingText="Creating…">Create and write the e-mail</SubmitButton>
            <Link to={`/${orgId}/broadcasts`} className="btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
