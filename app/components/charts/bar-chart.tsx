import { Bar } from "@nivo/bar";
import { CHART_COLORS, ChartFrame, chartTheme, sparseTicks } from "./chart-frame";
import type { TimeSeriesChartProps } from "./line-chart";
import { isEmptySeries, seriesTable, xLabels } from "./series";

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
  const legend = series.length > 1;
  return (
    <ChartFrame
      title={title}
      empty={isEmptySeries(series)}
      width={width}
      height={height}
      actions={actions}
      table={{
        headers: [xLegend ?? "Time", ...series.map((s) => (yLegend ? `${s.id} (${yLegend})` : s.id))],
        rows: seriesTable(series, format),
      }}
    >
      {({ width, height, interactive }) => (
        <Bar
          width={width}
          height={height}
          isInteractive={interactive}
          renderWrapper={interactive}
          animate={false}
          role="presentation"
          data={rows}
          keys={keys}
          indexBy="x"
          groupMode="grouped"
          margin={{ top: legend ? 30 : 12, right: 36, bottom: xLegend ? 48 : 36, left: 56 }}
          padding={0.25}
          valueScale={{ type: "linear", min: 0 }}
          // A grid line and a tick per labelled point only: a year of days would otherwise draw 365 of each.
          axisBottom={{
            tickValues: sparseTicks(labels, Math.max(2, Math.floor(width / 80))),
            legend: xLegend,
            legendOffset: 36,
            legendPosition: "middle",
          }}
          axisLeft={{ legend: yLegend, legendOffset: -46, legendPosition: "middle", tickValues: 5 }}
          colors={CHART_COLORS}
          enableLabel={false}
          enableGridX={false}
          theme={chartTheme}
          legends={
            legend
              ? [
                  {
                    dataFrom: "keys",
                    anchor: "top-left",
                    direction: "row",
                    translateY: -26,
                    itemWidth: Math.min(110, Math.floor((width - 60) / series.length)),
                    itemHeight: 16,
                    symbolSize: 10,
                  },
                ]
              : []
          }
        />
      )}
    </ChartFrame>
  );
}
