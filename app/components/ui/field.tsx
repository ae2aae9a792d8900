import { useNavigation, useFormAction } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

/** The first message of a field (the spec shows one message per field). */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const first = errors?.find(Boolean);
  if (!first) return null;
  return (
    <p id={id} className="field-error">
      {first}
    </p>
  );
}

interface FieldProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string };
  errors?: string[] | null;
  hint?: ReactNode;
}

export function Field({ label, inputProps, errors, hint }: FieldProps) {
  const errorId = errors?.length ? `${inputProps.id}-error` : undefined;
  const { key, ...rest } = inputProps;
  return (
    <div className="mb-4">
      <label htmlFor={inputProps.id} className="label">
        {label}
      </label>
      <input key={key} {...rest} className="input" aria-invalid={errorId ? true : undefined} aria-describedby={errorId} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

interface SelectFieldProps {
  label: ReactNode;
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string; key?: string };
  options: readonly { value: string; label: string }[];
  errors?: string[] | null;
  placeholder?: string;
}

export function SelectField({ label, selectProps, options, errors, placeholder }: SelectFieldProps) {
  const errorId = errors?.length ? `${selectProps.id}-error` : undefined;
  const { key, ...rest } = selectProps;
  return (
    <div className="mb-4">
      <label htmlFor={selectProps.id} className="label">
        {label}
      </label>
      <select key={key} {...rest} className="input" aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** Form-level errors (conform's form errors), e.g. wrong credentials. */
export function FormErrors({ errors }: { errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-semibold">Oops...</p>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** A submit button that shows it is working while its form is being submitted. */
export function SubmitButton({
  children,
  pendingText,
  className = "btn-primary",
  name,
  value,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
  name?: string;
  value?: string;
}) {
  const navigation = useNavigation();
  const action = useFormAction();
  const pending =
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button type="submit" name={name} value={value} className={className} disabled={pending} aria-busy={pending || undefined}>
      {pending && pendingText ? pendingText : children}
    </button>
  );
}
