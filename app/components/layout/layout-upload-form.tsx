import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { ErrorList, FormErrors, SubmitButton } from "~/components/ui/field";
import { MAX_IMAGE_BYTES, UPLOAD_MESSAGES } from "~/lib/image-type";
import { CANVAS_HEIGHT, CANVAS_WIDTH } from "~/lib/layout";
import { floorPositionsSchema } from "~/lib/schemas/layout";

/**
 * The floor-plan upload: a plain multipart form posted by the browser itself (so an oversized
 * file meets the server's readable 413 page even without JavaScript). With JavaScript, a file
 * over the limit is refused before it is sent; the server checks type and size either way.
 */
export function LayoutUploadForm({ error, cancelTo }: { error?: string | null; cancelTo?: string }) {
  const [tooLarge, setTooLarge] = useState(false);
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      reloadDocument
      className="max-w-xl"
      onSubmit={(event) => {
        const input = event.currentTarget.elements.namedItem("file");
        const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
        const refuse = file !== undefined && file.size > MAX_IMAGE_BYTES;
        setTooLarge(refuse);
        if (refuse) event.preventDefault();
      }}
    >
      <FormErrors errors={tooLarge ? [UPLOAD_MESSAGES.tooLarge] : error ? [error] : null} />
      <label htmlFor="layout-file" className="label">
        Floor plan image
      </label>
      <input id="layout-file" type="file" name="file" accept="image/png,image/jpeg,image/webp" className="input" />
      <p className="mt-1 text-xs text-slate-500">A PNG, JPEG or WebP image of at most 10 MB.</p>
      <div className="mt-4 flex gap-2">
        <button type="submit" className="btn-primary">
          Upload layout plan
        </button>
        {cancelTo ? (
          <Link to={cancelTo} className="btn-secondary">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export interface PositionRow {
  id: number;
  name: string;
  layoutX: number | null;
  layoutY: number | null;
}

/** Every access point's spot on the plan as numbers: the designer without JavaScript (or a mouse). */
export function FloorPositionsForm({ rows, lastResult }: { rows: PositionRow[]; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "floor-positions",
    lastResult,
    defaultValue: {
      positions: rows.map((r) => ({ id: String(r.id), layout_x: r.layoutX?.toString() ?? "", layout_y: r.layoutY?.toString() ?? "" })),
    },
    constraint: getZodConstraint(floorPositionsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: floorPositionsSchema }),
  });
  const list = fields.positions.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <p className="mb-3 text-sm text-slate-600">
        Pixels from the plan&apos;s top-left corner: X from 0 to {CANVAS_WIDTH}, Y from 0 to {CANVAS_HEIGHT}. Leave both empty to take an access
        point off the plan.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Access point</th>
            <th scope="col">X</th>
            <th scope="col">Y</th>
          </tr>
        </thead>
        <tbody>
          {list.map((row, index) => {
            const cells = row.getFieldset();
            const name = rows[index]?.name ?? "";
            const { key: idKey, ...id } = getInputProps(cells.id, { type: "hidden" });
            const { key: xKey, ...x } = getInputProps(cells.layout_x, { type: "number" });
            const { key: yKey, ...y } = getInputProps(cells.layout_y, { type: "number" });
            return (
              <tr key={row.key}>
                <td>
                  <input key={idKey} {...id} />
                  {name}
                </td>
                <td>
                  <input key={xKey} {...x} step="any" className="input w-28" aria-label={`X of ${name}`} />
                  <ErrorList errors={cells.layout_x.errors} />
                </td>
                <td>
                  <input key={yKey} {...y} step="any" className="input w-28" aria-label={`Y of ${name}`} />
                  <ErrorList errors={cells.layout_y.errors} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="mt-4">
        <SubmitButton name="intent" value="positions" pendingText="Saving…">
          Save positions
        </SubmitButton>
      </div>
    </Form>
  );
}
