import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ErrorList, Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { DATA_UNITS, DURATION_UNITS, FREE_EVERY, LIMIT_TYPES, PLAN_KINDS, servicePlanSchema } from "~/lib/schemas/plans";
import { AmountField, TextareaField } from "./amount-field";

/** The defaults (docs/guide/plans-and-prepaid.md#plan-form): Unlimited, Time, Mins, MBs, 1 connection, validity 1 Hrs, price 0. */
export const NEW_PLAN_VALUES: Record<string, string> = {
  plan_kind: "Unlimited",
  limit_type: "Time",
  time_limit_unit: "Mins",
  usage_limit_unit: "MBs",
  simultaneous_connections: "1",
  validity: "1",
  validity_units: "Hrs",
  price: "0",
  free_every: "day",
};

const LIMIT_TYPE_LABELS: Record<(typeof LIMIT_TYPES)[number], string> = { Time: "Time", Data: "Data", Both: "Both time and data" };

interface PlanFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
  /** The free plan: no price; how often a device may take it instead. */
  free: boolean;
  policies: { id: number; name: string }[];
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  intent?: string;
  cancelTo?: string;
}

/**
 * The service plan form (new, detail, the free plan). Without JavaScript every field shows and the
 * limit fields are ignored for Unlimited plans (the hint says so); with it, they hide while Unlimited.
 */
export function PlanForm({
  lastResult,
  defaultValue,
  free,
  policies,
  readOnly = false,
  submitLabel,
  pendingText,
  intent,
  cancelTo,
}: PlanFormProps) {
  const schema = useMemo(() => servicePlanSchema(free), [free]);
  // The code is optional and upper-cased by the schema: no native `required` or upper-case pattern.
  const constraint = useMemo(() => ({ ...getZodConstraint(schema), code: { required: false, maxLength: 20 } }), [schema]);
  const [form, fields] = useForm({
    id: free ? "free-plan" : "service-plan",
    lastResult,
    defaultValue,
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const hydrated = useHydrated();
  const limited = fields.plan_kind.value === "Limited";
  const limitErrors = Boolean(fields.time_limit.errors?.length || fields.usage_limit.errors?.length || fields.limit_type.errors?.length);
  const showLimits = !hydrated || limited || limitErrors;
  const limitType = fields.limit_type.value ?? "Time";
  const showTime = !hydrated || limitType !== "Data" || Boolean(fields.time_limit.errors?.length);
  const showData = !hydrated || limitType !== "Time" || Boolean(fields.usage_limit.errors?.length);
  const kindHintId = `${fields.plan_kind.id}-hint`;
  const kindErrorId = fields.plan_kind.errors?.length ? `${fields.plan_kind.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-xl">
      <FormErrors errors={form.errors} />
      <Field label="Plan name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly }} errors={fields.name.errors} />
      <Field
        label="Code"
        inputProps={{ ...getInputProps(fields.code, { type: "text" }), readOnly, autoCapitalize: "characters" }}
        errors={fields.code.errors}
        hint="Optional: up to 20 letters, digits and dashes. Left empty, a code is made up for the plan."
      />
      <TextareaField label="Description" field={fields.description} readOnly={readOnly} />
      <SelectField
        label="Bandwidth policy"
        selectProps={{ ...getSelectProps(fields.bandwidth_policy_id), disabled: readOnly }}
        options={policies.map((p) => ({ value: String(p.id), label: p.name }))}
        placeholder="No limit"
        errors={fields.bandwidth_policy_id.errors}
      />

      <fieldset className="mb-4" aria-describedby={[kindHintId, kindErrorId].filter(Boolean).join(" ")}>
        <legend className="label">Plan kind</legend>
        <div className="flex gap-6">
          {getCollectionProps(fields.plan_kind, { type: "radio", options: [...PLAN_KINDS] }).map(({ key, ...props }) => (
            <label key={key} className="flex items-center gap-2 text-sm">
              <input {...props} disabled={readOnly} />
              {props.value}
            </label>
          ))}
        </div>
        <p id={kindHintId} className="mt-1 text-xs text-slate-500">
          Unlimited plans have no time or data limit: the limit fields below are ignored for them.
        </p>
        <ErrorList id={kindErrorId} errors={fields.plan_kind.errors} />
      </fieldset>

      <div className={showLimits ? "rounded-md border border-slate-200 p-4 mb-4" : "hidden"}>
        <p className="mb-3 text-sm text-slate-600">Limits (Limited plans only)</p>
        <SelectField
          label="Limit type"
          selectProps={{ ...getSelectProps(fields.limit_type), disabled: readOnly }}
          options={LIMIT_TYPES.map((t) => ({ value: t, label: LIMIT_TYPE_LABELS[t] }))}
          errors={fields.limit_type.errors}
        />
        <div className={showTime ? undefined : "hidden"}>
          <AmountField
            label="Time limit"
            amount={fields.time_limit}
            unit={fields.time_limit_unit}
            units={DURATION_UNITS}
            unitLabel="Time limit unit"
            hint="Used when the limit type is Time or Both."
            readOnly={readOnly}
          />
        </div>
        <div className={showData ? undefined : "hidden"}>
          <AmountField
            label="Data limit"
            amount={fields.usage_limit}
            unit={fields.usage_limit_unit}
            units={DATA_UNITS}
            unitLabel="Data limit unit"
            hint="Used when the limit type is Data or Both."
            readOnly={readOnly}
          />
        </div>
      </div>

      <Field
        label="Simultaneous connections"
        inputProps={{ ...getInputProps(fields.simultaneous_connections, { type: "number" }), readOnly, inputMode: "numeric" }}
        errors={fields.simultaneous_connections.errors}
        hint="How many devices may use the plan at the same time."
      />
      <AmountField
        label="Validity"
        amount={fields.validity}
        unit={fields.validity_units}
        units={DURATION_UNITS}
        unitLabel="Validity unit"
        hint="How long the plan lasts once taken."
        readOnly={readOnly}
      />
      {free ? (
        <SelectField
          label="How often a device may take it"
          selectProps={{ ...getSelectProps(fields.free_every), disabled: readOnly }}
          options={FREE_EVERY.map((f) => ({ value: f.value, label: f.label }))}
          errors={fields.free_every.errors}
        />
      ) : (
        <Field
          label="Price in Kes"
          inputProps={{ ...getInputProps(fields.price, { type: "text" }), readOnly, inputMode: "decimal" }}
          errors={fields.price.errors}
          hint="At least Ksh 1, like 50 or 49.50."
        />
      )}
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
