import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { ErrorList } from "~/components/ui/field";

interface AmountFieldProps {
  label: ReactNode;
  amount: FieldMetadata<unknown>;
  unit: FieldMetadata<unknown>;
  units: readonly string[];
  unitLabel: string;
  hint?: ReactNode;
  readOnly?: boolean;
}

/** A whole number and its unit side by side (1 Mbps, 30 Mins, 500 MBs), with the errors of both. */
export function AmountField({ label, amount, unit, units, unitLabel, hint, readOnly = false }: AmountFieldProps) {
  const { key: amountKey, ...amountProps } = getInputProps(amount, { type: "number" });
  const { key: unitKey, ...unitProps } = getSelectProps(unit);
  const errors = [...(amount.errors ?? []), ...(unit.errors ?? [])];
  const errorId = errors.length ? `${amount.id}-error` : undefined;
  const hintId = hint ? `${amount.id}-hint` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="mb-4">
      <label htmlFor={amount.id} className="label">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          key={amountKey}
          {...amountProps}
          readOnly={readOnly}
          inputMode="numeric"
          className="input w-40"
          aria-invalid={amount.errors?.length ? true : undefined}
          aria-describedby={describedBy}
        />
        <select
          key={unitKey}
          {...unitProps}
          disabled={readOnly}
          aria-label={unitLabel}
          className="input w-28"
          aria-invalid={unit.errors?.length ? true : undefined}
          aria-describedby={errorId}
        >
          {units.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </div>
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A textarea with its label and error, for the description fields. */
export function TextareaField({ label, field, readOnly = false }: { label: ReactNode; field: FieldMetadata<unknown>; readOnly?: boolean }) {
  const { key, ...rest } = getTextareaProps(field);
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="mb-4">
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <textarea
        key={key}
        {...rest}
        rows={3}
        readOnly={readOnly}
        className="input"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}
