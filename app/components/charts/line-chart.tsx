import { Line } from "@nivo/line";
import type { ReactNode } from "react";
import { CHART_COLORS, ChartFrame, drawnAt } from "./chart-frame";
import { isEmptySeries, timeAxes, timeSeriesTable, xLabels, type ChartSeries } from "./series";

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
  return (
    <ChartFrame
      title={title}
      empty={isEmptySeries(series)}
      width={width}
      height={height}
      actions={actions}
      table={timeSeriesTable(series, format, xLegend, yLegend)}
    >
      {(size) => (
        <Line
          {...drawnAt(size)}
          data={series.map((s) => ({ id: s.id, data: s.points.map((p) => ({ x: p.x, y: p.y })) }))}
          {...timeAxes(labels, series.length, size.width, xLegend, yLegend)}
          xScale={{ type: "point" }}
          yScale={{ type: "linear", min: 0, max: "auto" }}
          colors={CHART_COLORS}
          enableGridX={false}
          enablePoints={labels.length <= 40}
          pointSize={5}
          useMesh
          enableSlices={false}
        />
      )}
    </ChartFrame>
  );
}
