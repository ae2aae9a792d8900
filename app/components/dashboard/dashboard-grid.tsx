import { Dashlet } from "~/components/dashlets/registry";
import { COL_SPAN } from "~/components/dashlets/sizes";
import type { DashletDataMap, DashletEnv } from "~/lib/dashlet-data";
import {
  DASHLET_KEYS,
  DASHLETS,
  ROW_LAYOUT_KEYS,
  ROW_LAYOUTS,
  rowLayoutOf,
  type DashboardLayout,
  type RowNode,
} from "~/lib/dashboard-layout";
import { EditForm, useDashboardEditBusy } from "./edit-form";

/** The dashboard's rows of columns of dashlets; in edit mode with the controls of docs/guide/dashboard.md#edit-mode. */
export function DashboardGrid({
  layout,
  data,
  env,
  editing,
}: {
  layout: DashboardLayout;
  data: Partial<DashletDataMap>;
  env: Omit<DashletEnv, "width">;
  editing: boolean;
}) {
  const rows = editing ? layout.content : layout.content.filter((row) => row.content.some((col) => col.content.length > 0));
  const busy = useDashboardEditBusy();
  return (
    <div className={`space-y-4 transition-opacity ${busy ? "opacity-60" : ""}`} aria-busy={busy ? true : undefined}>
      {rows.map((row, index) => (
        <div key={row.id} className={editing ? "rounded-lg border border-dashed border-indigo-300 p-2" : undefined} data-row={row.id}>
          {editing ? <RowToolbar row={row} index={index} count={rows.length} /> : null}
          <div className="grid grid-cols-1 gap-4 md:grid-cols-12">
            {row.content.map((col) => {
              const dashlet = col.content[0];
              return (
                <div key={col.id} className={`min-w-0 ${COL_SPAN[col.width]}`}>
                  {dashlet ? (
                    <>
                      {editing ? (
                        <EditForm
                          intent="remove-dashlet"
                          fields={{ dashlet_id: dashlet.id }}
                          label={`Remove ${DASHLETS[dashlet.dashlet]}`}
                          className="mb-1 flex flex-wrap justify-end"
                          buttonClassName="text-sm text-red-700 hover:underline"
                        />
                      ) : null}
                      <Dashlet dashlet={dashlet.dashlet} data={data} env={{ ...env, width: col.width }} />
                    </>
                  ) : editing ? (
                    <PickDashlet colId={col.id} />
                  ) : null}
                </div>
              );
            })}
          </div>
        </div>
      ))}
      {editing ? <AddRowPlaceholder /> : null}
    </div>
  );
}

function RowToolbar({ row, index, count }: { row: RowNode; index: number; count: number }) {
  const label = `row ${index + 1}`;
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium text-slate-600">
        Row {index + 1} · {ROW_LAYOUTS[rowLayoutOf(row) ?? "full"].label}
      </span>
      {index > 0 ? (
        <EditForm
          intent="move-row"
          fields={{ row: row.id, direction: "up" }}
          label={<span aria-label={`Move ${label} up`}>Move up</span>}
        />
      ) : null}
      {index < count - 1 ? (
        <EditForm
          intent="move-row"
          fields={{ row: row.id, direction: "down" }}
          label={<span aria-label={`Move ${label} down`}>Move down</span>}
        />
      ) : null}
      <EditForm
        intent="remove-row"
        fields={{ row: row.id }}
        label={<span aria-label={`Remove ${label}`}>Remove row</span>}
        buttonClassName="btn-secondary text-red-700"
      />
    </div>
  );
}

/** An empty cell of a new row: choose the dashlet it shows. */
function PickDashlet({ colId }: { colId: string }) {
  const id = `dashlet-${colId}`;
  return (
    <EditForm
      intent="set-dashlet"
      fields={{ col: colId }}
      label="Add dashlet"
      className="flex flex-wrap items-end gap-2 rounded-lg border-2 border-dashed border-slate-300 bg-white p-4"
    >
      <label htmlFor={id} className="flex w-full flex-col gap-1 text-sm">
        <span className="text-slate-600">Dashlet for this cell</span>
        <select id={id} name="dashlet" className="input" required defaultValue="">
          <option value="" disabled>
            Choose a dashlet…
          </option>
          {DASHLET_KEYS.map((key) => (
            <option key={key} value={key}>
              {DASHLETS[key]}
            </option>
          ))}
        </select>
      </label>
    </EditForm>
  );
}

/** The add-dashlet placeholder of edit mode: pick a row layout, then a dashlet for each cell. */
function AddRowPlaceholder() {
  return (
    <section aria-label="Add dashlet" className="rounded-lg border-2 border-dashed border-indigo-300 bg-indigo-50/40 p-4">
      <h2 className="font-semibold text-slate-800">Add dashlet</h2>
      <p className="text-sm text-slate-600">Choose the layout of a new row; then choose a dashlet for each of its cells.</p>
      <EditForm intent="add-row" label="Add row" buttonClassName="btn-primary" className="mt-3 flex flex-wrap items-end gap-3">
        <fieldset className="flex flex-wrap gap-3">
          <legend className="sr-only">Row layout</legend>
          {ROW_LAYOUT_KEYS.map((key, i) => (
            <label
              key={key}
              className="flex cursor-pointer flex-col items-center gap-1 rounded border border-slate-200 bg-white p-2 text-xs has-[:checked]:border-indigo-500 has-[:checked]:ring-1 has-[:checked]:ring-indigo-500"
            >
              <LayoutPreview widths={ROW_LAYOUTS[key].widths} />
              <span className="flex items-center gap-1">
                <input type="radio" name="layout" value={key} defaultChecked={i === 0} required />
                {ROW_LAYOUTS[key].label}
              </span>
            </label>
          ))}
        </fieldset>
      </EditForm>
    </section>
  );
}

const PREVIEW_SPAN: Record<string, number> = {
  "width-full": 12,
  "width-3-4": 9,
  "width-2-3": 8,
  "width-1-2": 6,
  "width-1-3": 4,
  "width-1-4": 3,
};

function LayoutPreview({ widths }: { widths: readonly string[] }) {
  return (
    <span aria-hidden="true" className="flex h-6 w-24 gap-0.5">
      {widths.map((w, i) => (
        <span key={i} className="rounded-sm bg-indigo-200" style={{ flexGrow: PREVIEW_SPAN[w], flexBasis: 0 }} />
      ))}
    </span>
  );
}
