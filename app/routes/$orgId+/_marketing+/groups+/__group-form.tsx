// The group form (name, description) of New Group and of a group's Settings.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { groupSchema } from "~/lib/schemas/groups";

export function GroupForm({
  lastResult,
  defaultValue,
  submitLabel,
  cancelTo,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: { name: string; description: string };
  submitLabel: string;
  cancelTo?: string;
}) {
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    constraint: getZodConstraint(groupSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: groupSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-xl">
      <FormErrors errors={form.errors} />
      <Field label="Name" inputProps={getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
      <div className="mb-4">
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea
          id={fields.description.id}
          name={fields.description.name}
          defaultValue={fields.description.initialValue}
          rows={3}
          maxLength={500}
          className="input"
        />
      </div>
      <div className="flex gap-2">
        <SubmitButton name="intent" value="save" pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
        {cancelTo ? (
          <Link to={cancelTo} className="btn-secondary">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
