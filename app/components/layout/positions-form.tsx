import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ZodTypeAny } from "zod";
import { DataTable } from "~/components/ui/data-table";
import { ErrorList, FormErrors, SubmitButton } from "~/components/ui/field";

export interface PositionColumn {
  /** The field name in each row (layout_x, lat, …). */
  name: string;
  label: string;
}

export interface PositionFormRow {
  id: number;
  name: string;
  values: Record<string, number | null>;
}

/**
 * Every access point's position as two typed numbers: the layout designer and the map without
 * JavaScript (or a mouse). Posts positions[i].id and positions[i].<column> with the intent.
 */
export function PositionsForm({
  id,
  schema,
  columns,
  rows,
  intent,
  hint,
  lastResult,
}: {
  id: string;
  schema: ZodTypeAny;
  columns: [PositionColumn, PositionColumn];
  rows: PositionFormRow[];
  intent: string;
  hint: ReactNode;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useForm<{ positions: Record<string, string>[] }>({
    id,
    lastResult,
    defaultValue: {
      positions: rows.map((r) => ({
        id: String(r.id),
        ...Object.fromEntries(columns.map((c) => [c.name, r.values[c.name]?.toString() ?? ""])),
      })),
    },
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const positionFields = fields.positions.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <p className="mb-3 text-sm text-slate-600">{hint}</p>
      <DataTable
        rows={positionFields}
        rowKey={(row) => row.key ?? row.id}
        empty="No access points in this network yet."
        columns={[
          {
            header: "Access point",
            cell: (row, index) => {
              const { key: idKey, ...idProps } = getInputProps(row.getFieldset().id, { type: "hidden" });
              return (
                <span>
                  <input key={idKey} {...idProps} />
                  {rows[index]?.name ?? ""}
                </span>
              );
            },
          },
          ...columns.map((c) => ({
            header: c.label,
            cell: (row: (typeof positionFields)[number], index: number) => {
              const name = rows[index]?.name ?? "";
              const cell = row.getFieldset()[c.name];
              const { key, ...props } = getInputProps(cell, { type: "number" });
              return (
                <div>
                  <input key={key} {...props} step="any" className="input w-36" aria-label={`${c.label} of ${name}`} />
                  <ErrorList errors={cell.errors} />
                </div>
              );
            },
          })),
        ]}
      />
      <div className="mt-4">
        <SubmitButton name="intent" value={intent} pendingText="Saving…">
          Save positions
        </SubmitButton>
      </div>
    </Form>
  );
}
