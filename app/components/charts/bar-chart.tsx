import { Bar } from "@nivo/bar";
import { CHART_COLORS, ChartFrame, drawnAt } from "./chart-frame";
import type { TimeSeriesChartProps } from "./line-chart";
import { isEmptySeries, timeAxes, timeSeriesTable, xLabels } from "./series";

const defaultFormat = (n: number) => String(n);

/** Grouped bars of one or more series over time or categories (footfall per day, dwell hours …), drawn on the server. */
export function BarChart({
  title,
  series,
  yLegend,
  xLegend,
  width = 640,
  height = 280,
  format = defaultFormat,
  actions,
}: TimeSeriesChartProps) {
  const labels = xLabels(series);
  const keys = series.map((s) => s.id);
  const rows = labels.map((x) => {
    const row: Record<string, string | number> = { x };
    for (const s of series) row[s.id] = s.points.find((p) => p.x === x)?.y ?? 0;
    return row;
  });
  return (
    <ChartFrame
      title={title}
      empty={isEmptySeries(series)}
      width={width}
      height={height}
      actions={actions}
      table={timeSeriesTable(series, format, xLegend, yLegend)}
    >
      {(size) => {
        const axes = timeAxes(labels, series.length, size.width, xLegend, yLegend);
        return (
          <Bar
            {...drawnAt(size)}
            data={rows}
            keys={keys}
            indexBy="x"
            groupMode="grouped"
            {...axes}
            padding={0.25}
            valueScale={{ type: "linear", min: 0 }}
            colors={CHART_COLORS}
            enableLabel={false}
            enableGridX={false}
            // Bars name their legend's entries from the keys, not from series ids.
            legends={axes.legends.map((legend) => ({ ...legend, dataFrom: "keys" as const }))}
          />
        );
      }}
    </ChartFrame>
  );
}
