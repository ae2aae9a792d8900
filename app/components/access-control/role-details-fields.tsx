import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { ErrorList, Field, SelectField } from "~/components/ui/field";
import { ROLE_TYPES } from "~/lib/permissions";

interface RoleDetailsFieldsProps {
  fields: {
    name: FieldMetadata<string>;
    description: FieldMetadata<string | null>;
    role_type: FieldMetadata<string>;
  };
  disabled?: boolean;
}

const ROLE_TYPE_HINTS: Record<string, string> = {
  r_w: "Full access: every permission.",
  r: "Read only: every view permission.",
  custom: "Custom: only the permissions chosen below.",
};

/** Role name, description and role type, shared by Add role and the role detail page. */
export function RoleDetailsFields({ fields, disabled = false }: RoleDetailsFieldsProps) {
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.description);
  const descriptionError = fields.description.errors?.length ? `${fields.description.id}-error` : undefined;
  return (
    <fieldset disabled={disabled}>
      <Field label="Role name" inputProps={getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
      <div className="mb-4">
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea key={descriptionKey} {...descriptionProps} rows={3} className="input" aria-describedby={descriptionError} />
        <ErrorList id={descriptionError} errors={fields.description.errors} />
      </div>
      <SelectField
        label="Role type"
        selectProps={getSelectProps(fields.role_type)}
        options={ROLE_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        errors={fields.role_type.errors}
      />
      <ul className="-mt-2 mb-4 text-xs text-slate-500">
        {ROLE_TYPES.map((t) => (
          <li key={t.value}>{ROLE_TYPE_HINTS[t.value]}</li>
        ))}
      </ul>
    </fieldset>
  );
}
