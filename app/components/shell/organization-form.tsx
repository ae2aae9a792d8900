import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { useEffect } from "react";
import { ErrorList, Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { organizationSchema } from "~/lib/schemas/organizations";

interface OrganizationFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: {
    name?: string;
    address?: string | null;
    phone_number?: string | null;
    email?: string | null;
    more_info?: string | null;
    time_zone?: string;
    retention_days?: string;
  };
  /** The zones to choose from (the server's list, so the page hydrates as rendered). */
  timeZones: readonly string[];
  /** A new organisation: with JavaScript, the browser's zone replaces the default. */
  guessTimeZone?: boolean;
  /** Shown without a submit button and with read-only fields (non-administrators). */
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  /** The submit button's intent, for pages with several actions. */
  intent?: string;
}

/** The organisation form (create and edit): name, address, phone number, email, description, time zone. */
export function OrganizationForm({
  lastResult,
  defaultValue,
  timeZones,
  guessTimeZone = false,
  readOnly = false,
  submitLabel,
  pendingText,
  intent,
}: OrganizationFormProps) {
  const [form, fields] = useForm({
    id: "organization",
    lastResult,
    defaultValue: defaultValue ? Object.fromEntries(Object.entries(defaultValue).map(([k, v]) => [k, v ?? ""])) : undefined,
    constraint: getZodConstraint(organizationSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationSchema }),
  });
  const timeZoneId = fields.time_zone.id;
  useEffect(() => {
    const select = document.getElementById(timeZoneId);
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (guessTimeZone && !lastResult && select instanceof HTMLSelectElement && timeZones.includes(browserZone)) select.value = browserZone;
  }, [guessTimeZone, lastResult, timeZones, timeZoneId]);
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.more_info);
  const descriptionErrorId = fields.more_info.errors?.length ? `${fields.more_info.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <Field
        label="Name"
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly, autoComplete: "organization" }}
        errors={fields.name.errors}
      />
      <Field
        label="Address"
        inputProps={{ ...getInputProps(fields.address, { type: "text" }), readOnly, autoComplete: "street-address" }}
        errors={fields.address.errors}
      />
      <Field
        label="Phone number"
        inputProps={{ ...getInputProps(fields.phone_number, { type: "tel" }), readOnly, autoComplete: "tel" }}
        errors={fields.phone_number.errors}
      />
      <Field
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), readOnly, autoComplete: "email" }}
        errors={fields.email.errors}
      />
      <div className="mb-4">
        <label htmlFor={fields.more_info.id} className="label">
          Description
        </label>
        <textarea
          key={descriptionKey}
          {...descriptionProps}
          rows={4}
          readOnly={readOnly}
          className="input"
          aria-invalid={descriptionErrorId ? true : undefined}
          aria-describedby={descriptionErrorId}
        />
        <ErrorList id={descriptionErrorId} errors={fields.more_info.errors} />
      </div>
      <SelectField
        label="Time zone"
        selectProps={{ ...getSelectProps(fields.time_zone), disabled: readOnly }}
        options={timeZones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
        errors={fields.time_zone.errors}
      />
      <p className="-mt-3 mb-4 text-xs text-slate-500">Days, hours and times across the console follow this zone.</p>
      <Field
        label="Keep guests' personal data for (days)"
        inputProps={{
          ...getInputProps(fields.retention_days, { type: "number" }),
          min: 30,
          max: 3650,
          step: 1,
          readOnly,
          placeholder: "730",
        }}
        errors={fields.retention_days.errors}
        hint="After a guest's last visit. Then their name, contacts and devices are anonymised; visit counts and figures stay. The guests' privacy notice says so."
      />
      {readOnly ? null : (
        <SubmitButton name={intent ? "intent" : undefined} value={intent} pendingText={pendingText}>
          {submitLabel}
        </SubmitButton>
      )}
    </Form>
  );
}
