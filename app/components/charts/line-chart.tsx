import { Line } from "@nivo/line";
import type { ReactNode } from "react";
import { CHART_COLORS, ChartFrame, chartTheme, sparseTicks } from "./chart-frame";
import { isEmptySeries, seriesTable, xLabels, type ChartSeries } from "./series";

export interface TimeSeriesChartProps {
  title: string;
  series: ChartSeries[];
  /** Shown on the value axis and in the table header, e.g. "GB" or "Hours". */
  yLegend?: string;
  xLegend?: string;
  width?: number;
  height?: number;
  format?: (n: number) => string;
  actions?: ReactNode;
}

const defaultFormat = (n: number) => String(n);

/** A line chart of one or more series over time (guests, bandwidth in GB, dwell hours …), drawn on the server. */
export function LineChart({
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
        <Line
          width={width}
          height={height}
          isInteractive={interactive}
          renderWrapper={interactive}
          animate={false}
          role="presentation"
          data={series.map((s) => ({ id: s.id, data: s.points.map((p) => ({ x: p.x, y: p.y })) }))}
          margin={{ top: legend ? 30 : 12, right: 36, bottom: xLegend ? 48 : 36, left: 56 }}
          xScale={{ type: "point" }}
          yScale={{ type: "linear", min: 0, max: "auto" }}
          // A grid line and a tick per labelled point only: a year of days would otherwise draw 365 of each.
          axisBottom={{
            tickValues: sparseTicks(labels, Math.max(2, Math.floor(width / 80))),
            legend: xLegend,
            legendOffset: 36,
            legendPosition: "middle",
          }}
          axisLeft={{ legend: yLegend, legendOffset: -46, legendPosition: "middle", tickValues: 5 }}
          colors={CHART_COLORS}
          enableGridX={false}
          enablePoints={labels.length <= 40}
          pointSize={5}
          useMesh
          enableSlices={false}
          theme={chartTheme}
          legends={
            legend
              ? [
                  {
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
