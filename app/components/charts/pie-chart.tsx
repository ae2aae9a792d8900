import { Pie } from "@nivo/pie";
import type { ReactNode } from "react";
import { CHART_COLORS, ChartFrame, chartTheme } from "./chart-frame";

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
  // Narrow cells have no room for labels beside the slices; the table and tooltips carry them.
  const narrow = width < 320;
  return (
    <ChartFrame
      title={title}
      empty={drawn.length === 0}
      width={width}
      height={height}
      actions={actions}
      table={{ headers: ["Name", valueLabel, "Share"], rows: drawn.map((s) => [s.label, s.value, share(s.value)]) }}
    >
      <Pie
        width={width}
        height={height}
        animate={false}
        role="presentation"
        // Ids must be unique; two labels that differ only in case stay apart.
        data={drawn.map((s, i) => ({ id: `${i}:${s.label}`, label: s.label, value: s.value }))}
        margin={narrow ? { top: 8, right: 8, bottom: 8, left: 8 } : { top: 16, right: 90, bottom: 16, left: 90 }}
        enableArcLinkLabels={!narrow}
        innerRadius={doughnut ? 0.55 : 0}
        padAngle={doughnut ? 1 : 0.5}
        cornerRadius={doughnut ? 2 : 0}
        colors={CHART_COLORS}
        arcLinkLabel={(d) => String(d.label)}
        arcLinkLabelsSkipAngle={12}
        arcLabelsSkipAngle={16}
        arcLinkLabelsDiagonalLength={10}
        arcLinkLabelsStraightLength={8}
        theme={chartTheme}
      />
    </ChartFrame>
  );
}
