// Server-rendered @nivo charts: fixed size, no animation, so the SVG is in the HTML and reads without JavaScript.
export { BarChart } from "./bar-chart";
export { ChartFrame, EMPTY_CHART_MESSAGE, sparseTicks, type DataTableSpec } from "./chart-frame";
export { HeatmapChart, weekdayHourRows, type HeatmapRow } from "./heatmap-chart";
export { LineChart, type TimeSeriesChartProps } from "./line-chart";
export { PieChart, type PieSlice } from "./pie-chart";
export { bucketLabel, isEmptySeries, xLabels, type ChartSeries, type SeriesPoint } from "./series";
