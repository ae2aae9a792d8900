import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { venueSchema } from "~/lib/schemas/venues";

export interface VenueFormValues {
  name?: string;
  address?: string;
  email?: string | null;
  phone_number?: string | null;
  custom_splash_url?: string | null;
  success_url?: string | null;
  more_info?: string | null;
}

interface VenueFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: VenueFormValues;
  /** Fields shown read-only and no submit button (without the permission to save). */
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  intent?: string;
  cancelTo?: string;
}

/** The network form (create and settings): the spec's payload names as field names. */
export function VenueForm({ lastResult, defaultValue, readOnly = false, submitLabel, pendingText, intent, cancelTo }: VenueFormProps) {
  const [form, fields] = useForm({
    id: "venue",
    lastResult,
    defaultValue: defaultValue ? Object.fromEntries(Object.entries(defaultValue).map(([k, v]) => [k, v ?? ""])) : undefined,
    constraint: getZodConstraint(venueSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: venueSchema }),
  });
  const { key: moreInfoKey, ...moreInfoProps } = getTextareaProps(fields.more_info);
  const moreInfoErrorId = fields.more_info.errors?.length ? `${fields.more_info.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <Field label="Name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly }} errors={fields.name.errors} />
      <Field
        label="Address"
        inputProps={{ ...getInputProps(fields.address, { type: "text" }), readOnly, autoComplete: "street-address" }}
        errors={fields.address.errors}
      />
      <Field
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), readOnly, autoComplete: "email" }}
        errors={fields.email.errors}
      />
      <Field
        label="Phone number"
        inputProps={{ ...getInputProps(fields.phone_number, { type: "tel" }), readOnly, autoComplete: "tel", placeholder: "0712 345 678" }}
        errors={fields.phone_number.errors}
      />
      <Field
        label="Splash page URL"
        inputProps={{ ...getInputProps(fields.custom_splash_url, { type: "url" }), readOnly, placeholder: "https://example.com/welcome" }}
        errors={fields.custom_splash_url.errors}
        hint="Optional: where guests of this network land instead of the published splash page."
      />
      <Field
        label="Success URL"
        inputProps={{ ...getInputProps(fields.success_url, { type: "url" }), readOnly, placeholder: "https://example.com/thank-you" }}
        errors={fields.success_url.errors}
        hint="Optional: where guests go once they are online."
      />
      <div className="mb-4">
        <label htmlFor={fields.more_info.id} className="label">
          More info
        </label>
        <textarea
          key={moreInfoKey}
          {...moreInfoProps}
          rows={3}
          readOnly={readOnly}
          className="input"
          aria-invalid={moreInfoErrorId ? true : undefined}
          aria-describedby={moreInfoErrorId}
        />
        <ErrorList id={moreInfoErrorId} errors={fields.more_info.errors} />
      </div>
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
