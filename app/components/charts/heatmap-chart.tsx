import { HeatMap } from "@nivo/heatmap";
import type { ReactNode } from "react";
import type { TrafficCell } from "~/lib/analytics";
import { ChartFrame, drawnAt, sparseTicks } from "./chart-frame";

export interface HeatmapRow {
  /** Row label, e.g. a weekday. */
  id: string;
  cells: { x: string; value: number }[];
}

/** A grid of intensities (footfall by weekday × hour), drawn on the server. */
export function HeatmapChart({
  title,
  rows,
  valueLabel = "Footfall",
  width = 720,
  height = 260,
  actions,
}: {
  title: string;
  rows: HeatmapRow[];
  valueLabel?: string;
  width?: number;
  height?: number;
  actions?: ReactNode;
}) {
  const columns = rows[0]?.cells.map((c) => c.x) ?? [];
  const empty = !rows.some((r) => r.cells.some((c) => c.value > 0));
  return (
    <ChartFrame
      title={title}
      empty={empty}
      width={width}
      height={height}
      actions={actions}
      table={{
        caption: `${title} (${valueLabel})`,
        headers: ["", ...columns],
        rows: rows.map((r) => [r.id, ...r.cells.map((c) => c.value)]),
      }}
    >
      {(size) => (
        <HeatMap
          {...drawnAt(size)}
          data={rows.map((r) => ({ id: r.id, data: r.cells.map((c) => ({ x: c.x, y: c.value })) }))}
          margin={{ top: 28, right: 8, bottom: 8, left: 40 }}
          // Two-digit hours need about 22 px each: a narrow cell labels every second or third hour.
          axisTop={{ tickSize: 0, tickPadding: 4, tickValues: sparseTicks(columns, Math.max(4, Math.floor((size.width - 48) / 22))) }}
          axisLeft={{ tickSize: 0, tickPadding: 4 }}
          colors={{ type: "sequential", scheme: "blues", minValue: 0 }}
          emptyColor="#f8fafc"
          enableLabels={false}
          borderWidth={1}
          borderColor="#ffffff"
        />
      )}
    </ChartFrame>
  );
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The full 7 × 24 grid of weekday (Monday first) × hour (the organisation's) from the analytics cells; missing cells are 0. */
export function weekdayHourRows(cells: readonly TrafficCell[]): HeatmapRow[] {
  const grid = WEEKDAYS.map(() => Array.from({ length: 24 }, () => 0));
  for (const c of cells) if (grid[c.weekday] && c.hour >= 0 && c.hour < 24) grid[c.weekday][c.hour] += c.footfall;
  return WEEKDAYS.map((id, d) => ({ id, cells: grid[d].map((value, h) => ({ x: String(h).padStart(2, "0"), value })) }));
}
