import { Pie } from "@nivo/pie";
import type { ReactNode } from "react";
import { formatCount } from "~/lib/format";
import { CHART_COLORS, ChartFrame, drawnAt } from "./chart-frame";

export interface PieSlice {
  label: string;
  value: number;
}

/** A pie, or a doughnut with `doughnut`, of shares (auth modes, device types, OS, brands, browsers), drawn on the server. */
export function PieChart({
  title,
  slices,
  doughnut = false,
  valueLabel = "Connections",
  width = 360,
  height = 260,
  actions,
}: {
  title: string;
  slices: PieSlice[];
  doughnut?: boolean;
  valueLabel?: string;
  width?: number;
  height?: number;
  actions?: ReactNode;
}) {
  const drawn = slices.filter((s) => Number.isFinite(s.value) && s.value > 0);
  const total = drawn.reduce((sum, s) => sum + s.value, 0);
  const share = (v: number) => (total ? `${((v / total) * 100).toFixed(1)}%` : "0%");
  const color = (i: number) => CHART_COLORS[i % CHART_COLORS.length];
  return (
    <ChartFrame
      title={title}
      empty={drawn.length === 0}
      width={width}
      height={height}
      keepAspect
      actions={actions}
      table={{ headers: ["Name", valueLabel, "Share"], rows: drawn.map((s) => [s.label, s.value, share(s.value)]) }}
      legend={
        // Words and figures beside each colour, instead of numbers printed on the slices (hard to
        // read on the darker colours) and labels that a narrow cell had no room for.
        // Columns only where a whole label fits (a narrow cell gets one), and a long label wraps rather than being cut.
        <ul className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(min(100%,13rem),1fr))] gap-x-4 gap-y-1 text-sm">
          {drawn.map((s, i) => (
            <li key={`${i}:${s.label}`} className="flex min-w-0 items-baseline gap-2">
              <span
                aria-hidden="true"
                className="inline-block h-3 w-3 shrink-0 translate-y-0.5 rounded-sm"
                style={{ backgroundColor: color(i) }}
              />
              <span className="min-w-0 break-words text-slate-700">{s.label}</span>
              <span className="ml-auto whitespace-nowrap tabular-nums text-slate-900">
                {formatCount(s.value)} <span className="text-slate-500">({share(s.value)})</span>
              </span>
            </li>
          ))}
        </ul>
      }
    >
      {(size) => (
        <Pie
          {...drawnAt(size)}
          // Ids must be unique; two labels that differ only in case stay apart.
          data={drawn.map((s, i) => ({ id: `${i}:${s.label}`, label: s.label, value: s.value }))}
          margin={{ top: 8, right: 8, bottom: 8, left: 8 }}
          enableArcLinkLabels={false}
          enableArcLabels={false}
          innerRadius={doughnut ? 0.55 : 0}
          padAngle={doughnut ? 1 : 0.5}
          cornerRadius={doughnut ? 2 : 0}
          colors={CHART_COLORS}
        />
      )}
    </ChartFrame>
  );
}
