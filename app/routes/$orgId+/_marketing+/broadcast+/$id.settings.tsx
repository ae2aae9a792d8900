import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { TextareaField } from "~/components/prepaid/amount-field";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { hasAny } from "~/lib/permissions";
import { parseId } from "~/lib/ids";
import { broadcastSchema } from "~/lib/schemas/broadcasts";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, getBroadcast, updateBroadcastSettings, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

// broadcast/{id}/settings (docs/guide/marketing.md#broadcasts): the title (also the e-mail's subject) and the description.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const b = await getBroadcast(ctx, parseId(params.id));
  return json({
    broadcast: { id: b.id, updated_at: b.updated_at },
    values: { title: b.title, description: b.description ?? "" },
    canEdit: hasAny(ctx.permissions, ...EDIT_BROADCASTS),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  const id = parseId(params.id);
  await getBroadcast(ctx, id); // 404 before the form is looked at
  const submission = parseForm(await request.formData(), { schema: broadcastSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { message } = await updateBroadcastSettings(ctx, id, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/broadcast/${id}/settings`, message);
}

export default function BroadcastSettings() {
  const { broadcast, values, canEdit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `broadcast-settings-${broadcast.updated_at}`,
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(broadcastSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: broadcastSchema }),
  });
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Settings</h2>
      <Form method="post" {...getFormProps(form)} className="max-w-xl">
        <FormErrors errors={form.errors} />
        <Field
          label="Title"
          inputProps={{ ...getInputProps(fields.title, { type: "text" }), readOnly: !canEdit }}
          errors={fields.title.errors}
          hint="Also the subject of the e-mail."
        />
        <TextareaField label="Description" field={fields.description} readOnly={!canEdit} />
        {canEdit ? (
          <SubmitButton pendingText="Saving…">Save</SubmitButton>
        ) : (
          <p className="text-sm text-slate-600">Changing the broadcast needs the Create broadcasts permission.</p>
        )}
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
