import type { Width } from "~/lib/dashboard-layout";

// The size each chart is drawn at on the server, to fit its cell on a laptop screen; in the browser
// it is drawn again at its cell's width (ChartFrame), and without JavaScript scaled to fit it.
const CHART_WIDTH: Record<Width, number> = {
  "width-full": 900,
  "width-3-4": 660,
  "width-2-3": 580,
  "width-1-2": 420,
  "width-1-3": 270,
  "width-1-4": 200,
};

export function chartWidth(width: Width): number {
  return CHART_WIDTH[width];
}

export function pieWidth(width: Width): number {
  return Math.min(CHART_WIDTH[width], 420);
}

/** Grid classes of a cell on the dashboard's 12-column grid. */
export const COL_SPAN: Record<Width, string> = {
  "width-full": "md:col-span-12",
  "width-3-4": "md:col-span-9",
  "width-2-3": "md:col-span-8",
  "width-1-2": "md:col-span-6",
  "width-1-3": "md:col-span-4",
  "width-1-4": "md:col-span-3",
};
