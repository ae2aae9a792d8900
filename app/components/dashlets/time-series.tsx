import { BarChart, bucketLabel, LineChart } from "~/components/charts";
import { formatCount, formatHms, toHours } from "~/lib/format";
import { clickThroughRate } from "~/lib/ads";
import { DashletCard } from "./dashlet-card";
import { chartWidth } from "./sizes";
import type { DashletProps } from "~/lib/dashlet-data";
import { useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

/** Bars read well up to about two months of days; beyond, hundreds of bars cost much to draw and little to read, so a line. */
const chartFor = (points: number) => (points > 62 ? LineChart : BarChart);

/** Dwell time: hours per bucket on the chart (docs/guide/dashboard.md#dashlets), the total as h m s. */
export function DwellTimeDashlet({ data, env }: DashletProps<"dwell_time">) {
  const { offsetMs } = useOrgClock();
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
        series={[
          {
            id: "Dwell time",
            points: data.points.map((p) => ({ x: bucketLabel(p.time, data.bucket, offsetMs), y: toHours(p.dwellTime) })),
          },
        ]}
      />
    </DashletCard>
  );
}

export function FootfallDashlet({ data, env }: DashletProps<"footfall">) {
  const { offsetMs } = useOrgClock();
  const Chart = chartFor(data.points.length);
  return (
    <DashletCard title="Footfall">
      <Chart
        title="Portal visits"
        width={chartWidth(env.width)}
        height={240}
        yLegend="Visits"
        series={[{ id: "Footfall", points: data.points.map((p) => ({ x: bucketLabel(p.time, data.bucket, offsetMs), y: p.footfall })) }]}
      />
    </DashletCard>
  );
}

/**
 * Campaign summary (docs/guide/dashboard.md#dashlets): the hourly chart of impressions, clicks
 * and conversions and the click-through rate, from Mlango's own ad serving (decision 0020).
 * Without view_ads it says so.
 */
export function CampaignSummaryDashlet({ data, env }: DashletProps<"campaign_summary">) {
  const { offsetMs } = useOrgClock();
  if (!data.allowed) {
    return (
      <DashletCard title="Campaign summary">
        <p className="text-sm text-slate-600">Ads figures are shown to members whose role has the View ads permission.</p>
      </DashletCard>
    );
  }
  const { totals } = data;
  const labels = data.hours.map((h) => bucketLabel(h.hour, "hour", offsetMs));
  const series = [
    { id: "Impression", points: data.hours.map((h, i) => ({ x: labels[i]!, y: h.impressions })) },
    { id: "Clicks", points: data.hours.map((h, i) => ({ x: labels[i]!, y: h.clicks })) },
    { id: "Conversion", points: data.hours.map((h, i) => ({ x: labels[i]!, y: h.conversions })) },
  ];
  return (
    <DashletCard title="Campaign summary">
      <dl className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600" data-dashlet="campaign_summary">
        <div>
          <dt className="inline">Impression: </dt>
          <dd className="inline font-medium text-slate-900">{formatCount(totals.impressions)}</dd>
        </div>
        <div>
          <dt className="inline">Clicks: </dt>
          <dd className="inline font-medium text-slate-900">{formatCount(totals.clicks)}</dd>
        </div>
        <div>
          <dt className="inline">Conversion: </dt>
          <dd className="inline font-medium text-slate-900">{formatCount(totals.conversions)}</dd>
        </div>
        <div>
          <dt className="inline">CTR: </dt>
          <dd className="inline font-medium text-slate-900">{clickThroughRate(totals.clicks, totals.impressions)}%</dd>
        </div>
      </dl>
      <LineChart
        title={`Campaign summary per hour (${formatOffset(offsetMs)})`}
        width={chartWidth(env.width)}
        height={240}
        yLegend="Count"
        series={series}
      />
    </DashletCard>
  );
}
