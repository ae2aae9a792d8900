import { BarChart, bucketLabel, LineChart } from "~/components/charts";
import { formatHms, toHours } from "~/lib/format";
import { DashletCard } from "./dashlet-card";
import { chartWidth } from "./sizes";
import type { DashletProps } from "./types";

/** Bars read well up to about two months of days; beyond, hundreds of bars cost much to draw and little to read, so a line. */
const chartFor = (points: number) => (points > 62 ? LineChart : BarChart);

/** Dwell time: hours per bucket on the chart (spec 1 §2), the total as h m s. */
export function DwellTimeDashlet({ data, env }: DashletProps<"dwell_time">) {
  const total = data.points.reduce((sum, p) => sum + p.dwellTime, 0);
  const Chart = chartFor(data.points.length);
  return (
    <DashletCard title="Dwell time">
      <p className="mb-2 text-sm text-slate-600">
        Total: <span className="font-medium text-slate-900">{formatHms(total)}</span>
      </p>
      <Chart
        title="Dwell time (hours)"
        width={chartWidth(env.width)}
        height={240}
        yLegend="Hours"
        format={(n) => n.toFixed(2)}
        series={[{ id: "Dwell time", points: data.points.map((p) => ({ x: bucketLabel(p.time, data.bucket), y: toHours(p.dwellTime) })) }]}
      />
    </DashletCard>
  );
}

export function FootfallDashlet({ data, env }: DashletProps<"footfall">) {
  const Chart = chartFor(data.points.length);
  return (
    <DashletCard title="Footfall">
      <Chart
        title="Portal visits"
        width={chartWidth(env.width)}
        height={240}
        yLegend="Visits"
        series={[{ id: "Footfall", points: data.points.map((p) => ({ x: bucketLabel(p.time, data.bucket), y: p.footfall })) }]}
      />
    </DashletCard>
  );
}

/** Campaign summary: its figures come from the ads service, which this installation does not have. */
export function CampaignSummaryDashlet(_props: DashletProps<"campaign_summary">) {
  return (
    <DashletCard title="Campaign summary">
      <p className="text-sm text-slate-600">The ads service is not configured, so there are no impressions, clicks or conversions to show.</p>
    </DashletCard>
  );
}
