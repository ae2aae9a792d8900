import type { ReactNode } from "react";

/** One column of a DataTable. */
export interface Column<T> {
  /** The header, and the label of the value when a phone shows the row as a card. */
  header: string;
  cell: (row: T, index: number) => ReactNode;
  /** Dates, addresses, codes: kept on one line. Other cells wrap. */
  nowrap?: boolean;
  /** Counts, money, sizes: on one line and aligned right, so figures line up (left in a phone's card). */
  numeric?: boolean;
  /** Monospace and small (MAC addresses). */
  mono?: boolean;
  /** One long word (an e-mail address): wraps after "@" and "-" and before ".", "/", "_" rather than widen its column. */
  long?: boolean;
}

export interface DataTableProps<T> {
  columns: readonly (Column<T> | false | null | undefined)[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Shown in place of the rows when there are none. */
  empty: ReactNode;
  /** The row's buttons (Close, Block, Remove): the last column, never wrapped or cut off. */
  actions?: (row: T, index: number) => ReactNode;
  caption?: string;
}

/**
 * The console's one list table. On a laptop the cells wrap so that every column, the actions
 * included, fits the page without scrolling sideways; below 768 px each row becomes a card of
 * "label: value" lines with its buttons at the bottom. Both are CSS only (`.data-table` in
 * app/tailwind.css), so they hold without JavaScript.
 */
export function DataTable<T>({ columns, rows, rowKey, empty, actions, caption }: DataTableProps<T>) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  const span = shown.length + (actions ? 1 : 0);
  return (
    <div className="data-table-frame">
      <table className="data-table">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {shown.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? "num" : undefined}>
                {c.header}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="actions">
                Actions
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={span} className="empty">
                {empty}
              </td>
            </tr>
          ) : null}
          {rows.map((row, index) => {
            const buttons = actions?.(row, index);
            return (
              <tr key={rowKey(row)}>
                {shown.map((c) => (
                  <td key={c.header} data-label={c.header} className={cellClass(c)}>
                    {c.long ? withBreaks(c.cell(row, index)) : c.cell(row, index)}
                  </td>
                ))}
                {actions ? (
                  <td data-label="Actions" className={buttons ? "actions" : "actions none"}>
                    {buttons}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A long word with places to wrap where a reader expects them ("jane.wanjiru@|example.|com"), so
 * an address breaks between its parts, not mid-word; only a part wider than the column breaks inside.
 */
export function withBreaks(value: ReactNode): ReactNode {
  if (typeof value !== "string") return value;
  // After "-" too: browsers do not break a hyphen followed by a digit ("e2e-1764692012"), and such
  // parts would otherwise set the column's least width.
  const parts = value.split(/(?<=[@-])|(?=[./_])/);
  return parts.length === 1 ? value : parts.flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

function cellClass(column: Pick<Column<unknown>, "nowrap" | "numeric" | "mono" | "long">): string | undefined {
  const classes = [column.nowrap && "nowrap", column.numeric && "num", column.mono && "mono", column.long && "long"].filter(Boolean);
  return classes.length ? classes.join(" ") : undefined;
}
