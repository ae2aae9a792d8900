import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { BANDWIDTH_UNITS, bandwidthPolicySchema } from "~/lib/schemas/plans";
import { AmountField, TextareaField } from "./amount-field";

/** The defaults (docs/guide/plans-and-prepaid.md#bandwidth-policies): 1 Mbps upload and download. */
export const NEW_POLICY_VALUES: Record<string, string> = {
  max_upload: "1",
  max_upload_unit: "Mbps",
  max_download: "1",
  max_download_unit: "Mbps",
};

interface PolicyFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
  /** Fields shown read-only and no submit button (without the permission to save). */
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  intent?: string;
  cancelTo?: string;
}

/** The bandwidth policy form (new and detail): the spec's field names. */
export function PolicyForm({ lastResult, defaultValue, readOnly = false, submitLabel, pendingText, intent, cancelTo }: PolicyFormProps) {
  const [form, fields] = useForm({
    id: "bandwidth-policy",
    lastResult,
    defaultValue,
    constraint: getZodConstraint(bandwidthPolicySchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bandwidthPolicySchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-xl">
      <FormErrors errors={form.errors} />
      <Field label="Name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly }} errors={fields.name.errors} />
      <AmountField
        label="Max upload"
        amount={fields.max_upload}
        unit={fields.max_upload_unit}
        units={BANDWIDTH_UNITS}
        unitLabel="Max upload unit"
        readOnly={readOnly}
      />
      <AmountField
        label="Max download"
        amount={fields.max_download}
        unit={fields.max_download_unit}
        units={BANDWIDTH_UNITS}
        unitLabel="Max download unit"
        hint="The most each guest device may use; 1 Mbps is 1,000 Kbps."
        readOnly={readOnly}
      />
      <TextareaField label="Description" field={fields.description} readOnly={readOnly} />
      <div className="flex gap-2">
        {readOnly ? null : (
          <SubmitButton name={intent ? "intent" : undefined} value={intent} pendingText={pendingText}>
            {submitLabel}
          </SubmitButton>
        )}
        {cancelTo ? (
          <Link to={cancelTo} className="btn-secondary">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
