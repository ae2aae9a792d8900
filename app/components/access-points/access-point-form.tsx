import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { ErrorList, Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { CANVAS_HEIGHT, CANVAS_WIDTH } from "~/lib/layout";
import { accessPointSchema, AP_MAKES, makeLabel } from "~/lib/schemas/access-points";

export interface AccessPointFormValues {
  name?: string;
  make?: string;
  mac_address?: string;
  serial_number?: string;
  custom_splash_url?: string | null;
  success_url?: string | null;
  description?: string | null;
  venue_id?: string;
  lat?: number | null;
  lng?: number | null;
  layout_x?: number | null;
  layout_y?: number | null;
}

interface AccessPointFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: AccessPointFormValues;
  venues: readonly { value: string; label: string }[];
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  intent?: string;
  backTo: string;
}

const MAKE_OPTIONS = AP_MAKES.map((m) => ({ value: m, label: makeLabel(m) }));

/**
 * The access point form (create and edit). Positions are typed numbers, so an access point can be
 * placed without JavaScript: lat/lng on the network map, layout X/Y in pixels of the floor plan.
 */
export function AccessPointForm({
  lastResult,
  defaultValue,
  venues,
  readOnly = false,
  submitLabel,
  pendingText,
  intent,
  backTo,
}: AccessPointFormProps) {
  const [form, fields] = useForm({
    id: "access-point",
    lastResult,
    defaultValue: defaultValue
      ? Object.fromEntries(Object.entries(defaultValue).map(([k, v]) => [k, v === null || v === undefined ? "" : String(v)]))
      : undefined,
    constraint: getZodConstraint(accessPointSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accessPointSchema }),
  });
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.description);
  const descriptionErrorId = fields.description.errors?.length ? `${fields.description.id}-error` : undefined;
  const number = (field: typeof fields.lat, label: string, hint?: string) => (
    <Field
      label={label}
      inputProps={{ ...getInputProps(field, { type: "text" }), inputMode: "decimal", readOnly }}
      errors={field.errors}
      hint={hint}
    />
  );
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <Field label="Name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly }} errors={fields.name.errors} />
      <SelectField
        label="Make"
        selectProps={{ ...getSelectProps(fields.make), disabled: readOnly }}
        options={MAKE_OPTIONS}
        placeholder="Choose a make"
        errors={fields.make.errors}
      />
      <Field
        label="Mac address"
        inputProps={{
          ...getInputProps(fields.mac_address, { type: "text" }),
          readOnly,
          placeholder: "aa:bb:cc:dd:ee:ff",
          autoCapitalize: "off",
          spellCheck: false,
        }}
        errors={fields.mac_address.errors}
      />
      <Field
        label="Serial number"
        inputProps={{ ...getInputProps(fields.serial_number, { type: "text" }), readOnly }}
        errors={fields.serial_number.errors}
      />
      <SelectField
        label="Network"
        selectProps={{ ...getSelectProps(fields.venue_id), disabled: readOnly }}
        options={venues}
        placeholder="Choose a network"
        errors={fields.venue_id.errors}
      />
      <Field
        label="Success URL"
        inputProps={{ ...getInputProps(fields.success_url, { type: "url" }), readOnly, placeholder: "https://example.com/thank-you" }}
        errors={fields.success_url.errors}
      />
      <Field
        label="Splash URL"
        inputProps={{ ...getInputProps(fields.custom_splash_url, { type: "url" }), readOnly, placeholder: "https://example.com/welcome" }}
        errors={fields.custom_splash_url.errors}
      />
      <div className="mb-4">
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea
          key={descriptionKey}
          {...descriptionProps}
          rows={3}
          readOnly={readOnly}
          className="input"
          aria-invalid={descriptionErrorId ? true : undefined}
          aria-describedby={descriptionErrorId}
        />
        <ErrorList id={descriptionErrorId} errors={fields.description.errors} />
      </div>
      <fieldset className="mb-4 rounded-md border border-slate-200 p-4">
        <legend className="px-1 text-sm font-medium text-slate-700">Position (optional)</legend>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {number(fields.lat, "Latitude", "On the network map, e.g. -1.286389")}
          {number(fields.lng, "Longitude", "e.g. 36.817223")}
          {number(fields.layout_x, "Layout X", `Pixels from the floor plan's left edge, 0 to ${CANVAS_WIDTH}`)}
          {number(fields.layout_y, "Layout Y", `Pixels from the floor plan's top edge, 0 to ${CANVAS_HEIGHT}`)}
        </div>
      </fieldset>
      <div className="flex gap-2">
        {readOnly ? null : (
          <SubmitButton name={intent ? "intent" : undefined} value={intent} pendingText={pendingText}>
            {submitLabel}
          </SubmitButton>
        )}
        <Link to={backTo} className="btn-secondary">
          Back
        </Link>
      </div>
    </Form>
  );
}
