import { useId, useRef, type ReactNode } from "react";
import { useWidth } from "./use-width";

export const EMPTY_CHART_MESSAGE = "No data for this period.";

/** One column of a chart's data table: a header and the cell text of each row. */
export interface DataTableSpec {
  caption?: string;
  headers: string[];
  rows: (string | number)[][];
}

/** The size a chart is drawn at, and whether it answers the pointer (tooltips). */
export interface ChartSize {
  width: number;
  height: number;
  interactive: boolean;
}

/** Below this a chart's labels no longer fit: a narrower cell scales the drawing down instead. */
const MIN_DRAWN_WIDTH = 240;

/**
 * The frame every chart shares: a visible title, the drawing, "No data for this period." when
 * there is nothing to draw, and a collapsed table of the same figures for screen readers and for
 * reading exact values.
 *
 * The drawing fits its cell. The server (and a browser without JavaScript) draws it at the chart's
 * size inside an SVG whose viewBox scales it to the cell's width; once the page runs, it is drawn
 * again at the cell's measured width (the chart's height; `keepAspect` scales the height too, for
 * pies), with its tooltips, so a phone gets labels at their size rather than a shrunk picture.
 */
export function ChartFrame({
  title,
  empty,
  table,
  width,
  height,
  keepAspect = false,
  actions,
  legend,
  children,
}: {
  title: string;
  empty: boolean;
  table: DataTableSpec;
  /** The size it is drawn at on the server, and at most, with keepAspect, in the browser. */
  width: number;
  height: number;
  keepAspect?: boolean;
  /** Links beside the title (an export, a "see all"). */
  actions?: ReactNode;
  /** What each colour stands for, in words and figures, below the drawing. */
  legend?: ReactNode;
  children: (size: ChartSize) => ReactNode;
}) {
  const id = useId();
  const titleId = `${id}-title`;
  const cell = useRef<HTMLDivElement>(null);
  const measured = useWidth(cell);
  let drawn: ChartSize | null = null;
  if (measured !== null && measured >= MIN_DRAWN_WIDTH) {
    const w = keepAspect ? Math.min(width, measured) : measured;
    drawn = { width: w, height: keepAspect ? Math.round((height * w) / width) : height, interactive: true };
  }
  return (
    <figure className="min-w-0" aria-labelledby={titleId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span id={titleId} className="font-medium text-slate-800">
          {title}
        </span>
        {actions}
      </figcaption>
      {empty ? (
        <p className="mt-3 rounded border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">{EMPTY_CHART_MESSAGE}</p>
      ) : (
        <>
          <div ref={cell} className="mt-2 w-full min-w-0">
            {drawn ? (
              <div role="img" aria-labelledby={titleId} style={{ width: drawn.width, height: drawn.height }}>
                {children(drawn)}
              </div>
            ) : (
              <svg
                role="img"
                aria-labelledby={titleId}
                viewBox={`0 0 ${width} ${height}`}
                className="block h-auto w-full"
                style={{ maxWidth: width }}
              >
                {children({ width, height, interactive: false })}
              </svg>
            )}
          </div>
          {legend}
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-slate-600">Data table</summary>
            <div className="mt-2 max-h-72 overflow-auto">
              <table className="min-w-full text-left text-xs">
                <caption className="sr-only">{table.caption ?? title}</caption>
                <thead>
                  <tr>
                    {table.headers.map((h) => (
                      <th key={h} scope="col" className="border-b border-slate-200 px-2 py-1 font-medium">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row, r) => (
                    <tr key={r} className="odd:bg-slate-50">
                      {row.map((cell, c) =>
                        c === 0 ? (
                          <th key={c} scope="row" className="px-2 py-1 font-normal">
                            {cell}
                          </th>
                        ) : (
                          <td key={c} className="px-2 py-1 tabular-nums">
                            {cell}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}

/** At most `max` evenly spaced labels for a category axis, so long ranges stay readable. */
export function sparseTicks<T>(values: readonly T[], max = 8): T[] {
  if (values.length <= max) return [...values];
  const step = Math.ceil(values.length / max);
  return values.filter((_, i) => i % step === 0);
}

/** Shared nivo look: small slate text, light grid. */
export const chartTheme = {
  text: { fontSize: 11, fill: "#475569" },
  axis: { legend: { text: { fontSize: 11, fill: "#334155" } } },
  grid: { line: { stroke: "#e2e8f0" } },
} as const;

/**
 * The props every nivo drawing takes from its frame: the size it is drawn at, tooltips only once the
 * page runs (the server's markup has no wrapper div), no animation, the shared look.
 */
export function drawnAt({ width, height, interactive }: ChartSize) {
  return { width, height, isInteractive: interactive, renderWrapper: interactive, animate: false, role: "presentation", theme: chartTheme };
}

export const CHART_COLORS = ["#4f46e5", "#0ea5e9", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#84cc16", "#64748b"];
