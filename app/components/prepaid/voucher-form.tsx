import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { priceText } from "~/lib/schemas/plans";
import { MAX_CODES, voucherGroupSchema } from "~/lib/schemas/vouchers";
import { TextareaField } from "./amount-field";

interface VoucherFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
  /** Today in UTC (YYYY-MM-DD): a new group must be valid at least through today. */
  today: string;
  /** Create mode (no group id): the number of codes is asked; update mode keeps the codes. */
  creating: boolean;
  plans: { id: number; name: string; free: boolean; price_cents: number }[];
  action: string;
  cancelTo: string;
}

/**
 * The generate/update form of a voucher group (docs/guide/plans-and-prepaid.md#vouchers):
 * name, value, validity and description, plus the plan the codes give, how many codes
 * (create only) and uses per code.
 */
export function VoucherForm({ lastResult, defaultValue, today, creating, plans, action, cancelTo }: VoucherFormProps) {
  const schema = useMemo(() => voucherGroupSchema(today, creating), [today, creating]);
  const constraint = useMemo(() => getZodConstraint(schema), [schema]);
  const [form, fields] = useForm({
    id: creating ? "generate-vouchers" : "update-vouchers",
    lastResult,
    defaultValue,
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="max-w-xl">
      <FormErrors errors={form.errors} />
      <Field label="Name" inputProps={getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
      <Field
        label="Value (Kes)"
        inputProps={{ ...getInputProps(fields.face_value, { type: "text" }), inputMode: "decimal" }}
        errors={fields.face_value.errors}
        hint="What a code is worth, like 50 or 49.50."
      />
      <Field
        label="Valid till"
        inputProps={{ ...getInputProps(fields.valid_till, { type: "date" }), min: creating ? today : undefined }}
        errors={fields.valid_till.errors}
        hint="Codes can be redeemed until the end of this day (UTC)."
      />
      <TextareaField label="Description" field={fields.description} />
      <SelectField
        label="Service plan"
        selectProps={getSelectProps(fields.service_plan_id)}
        options={plans.map((p) => ({
          value: String(p.id),
          label: p.free ? `${p.name} (free plan)` : `${p.name} (${priceText(p.price_cents)})`,
        }))}
        placeholder="Choose the plan the codes give"
        errors={fields.service_plan_id.errors}
      />
      {plans.length === 0 ? (
        <p className="-mt-2 mb-4 text-sm text-slate-600">
          This organization has no service plans yet: create one first, then generate vouchers for it.
        </p>
      ) : null}
      {creating ? (
        <Field
          label="Number of codes"
          inputProps={{ ...getInputProps(fields.codes_count, { type: "number" }), inputMode: "numeric" }}
          errors={fields.codes_count.errors}
          hint={`From 1 to ${MAX_CODES.toLocaleString("en-US")} codes at a time.`}
        />
      ) : null}
      <Field
        label="Uses per code"
        inputProps={{ ...getInputProps(fields.uses_per_code, { type: "number" }), inputMode: "numeric" }}
        errors={fields.uses_per_code.errors}
        hint="1: each code connects one guest once."
      />
      <div className="flex gap-2">
        <SubmitButton pendingText={creating ? "Generating…" : "Updating…"}>{creating ? "Generate" : "Update"}</SubmitButton>
        <Link to={cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
