// Data shapes the time-series charts take: one or more named series over the same x labels.

import { sparseTicks } from "./chart-frame";

export interface SeriesPoint {
  /** A category label (a day "21-11", an hour "14:00", a venue name). */
  x: string;
  y: number;
}

export interface ChartSeries {
  id: string;
  points: SeriesPoint[];
}

/** The x labels of all series, in first-seen order. */
export function xLabels(series: readonly ChartSeries[]): string[] {
  const seen = new Set<string>();
  for (const s of series) for (const p of s.points) seen.add(p.x);
  return [...seen];
}

/** True when there is nothing to draw: no points, or every value is zero. */
export function isEmptySeries(series: readonly ChartSeries[]): boolean {
  return !series.some((s) => s.points.some((p) => Number.isFinite(p.y) && p.y !== 0));
}

/** Rows of a data table: one per x label, one column per series. */
export function seriesTable(series: readonly ChartSeries[], format: (n: number) => string): (string | number)[][] {
  return xLabels(series).map((x) => [x, ...series.map((s) => format(s.points.find((p) => p.x === x)?.y ?? 0))]);
}

/** The x label of a bucket's start at `offsetMs` from UTC (the organisation's clock): "21-11 14:00" for hours, "21-11-2026" for days. */
export function bucketLabel(timeMs: number, bucket: "hour" | "day", offsetMs: number): string {
  const iso = new Date(timeMs + offsetMs).toISOString();
  const day = `${iso.slice(8, 10)}-${iso.slice(5, 7)}`;
  return bucket === "hour" ? `${day} ${iso.slice(11, 13)}:00` : `${day}-${iso.slice(0, 4)}`;
}

/** The frame's table for series over time: a column for the time, one per series (with its unit). */
export function timeSeriesTable(series: readonly ChartSeries[], format: (n: number) => string, xLegend?: string, yLegend?: string) {
  return {
    headers: [xLegend ?? "Time", ...series.map((s) => (yLegend ? `${s.id} (${yLegend})` : s.id))],
    rows: seriesTable(series, format),
  };
}

/**
 * Margins, axes and legend of a chart of series over time (bars or lines): the legend in a row above
 * the drawing when there is more than one series, and a tick per labelled point only — a year of
 * days would otherwise draw 365 ticks and grid lines.
 */
export function timeAxes(labels: readonly string[], seriesCount: number, width: number, xLegend?: string, yLegend?: string) {
  const legend = seriesCount > 1;
  return {
    margin: { top: legend ? 30 : 12, right: 36, bottom: xLegend ? 48 : 36, left: 56 },
    axisBottom: {
      tickValues: sparseTicks(labels, Math.max(2, Math.floor(width / 80))),
      legend: xLegend,
      legendOffset: 36,
      legendPosition: "middle" as const,
    },
    axisLeft: { legend: yLegend, legendOffset: -46, legendPosition: "middle" as const, tickValues: 5 },
    legends: legend
      ? [
          {
            anchor: "top-left" as const,
            direction: "row" as const,
            translateY: -26,
            itemWidth: Math.min(110, Math.floor((width - 60) / seriesCount)),
            itemHeight: 16,
            symbolSize: 10,
          },
        ]
      : [],
  };
}
