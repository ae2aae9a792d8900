// The ads figures shared by the ads dashboard and the analytics page: totals with the click-through
// rate (docs/guide/ads.md#dashboard-and-analytics: clicks ÷ impressions × 100, two decimals), the
// hourly chart (server-rendered SVG) and tables per campaign and per banner.
import { Link } from "@remix-run/react";
import { bucketLabel, LineChart } from "~/components/charts";
import { DataTable } from "~/components/ui/data-table";
import { formatCount } from "~/lib/format";
import { clickThroughRate, type AdFigures, type AdHourPoint } from "~/lib/schemas/ads";
import { useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

export function AdsTotals({ totals }: { totals: AdFigures }) {
  const cards = [
    { label: "Impressions", value: formatCount(totals.impressions) },
    { label: "Clicks", value: formatCount(totals.clicks) },
    { label: "Conversions", value: formatCount(totals.conversions) },
    { label: "CTR", value: `${clickThroughRate(totals.clicks, totals.impressions)}%` },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {cards.map((c) => (
        <div key={c.label} className="card" data-figure={c.label}>
          <dt className="text-sm text-slate-500">{c.label}</dt>
          <dd className="text-2xl font-semibold">{c.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AdsHourlyChart({ hours, width = 960 }: { hours: AdHourPoint[]; width?: number }) {
  const { offsetMs } = useOrgClock();
  const series = (["impressions", "clicks", "conversions"] as const).map((k) => ({
    id: k === "impressions" ? "Impressions" : k === "clicks" ? "Clicks" : "Conversions",
    points: hours.map((h) => ({ x: bucketLabel(h.hour, "hour", offsetMs), y: h[k] })),
  }));
  return (
    <LineChart
      title={`Impressions, clicks and conversions per hour (${formatOffset(offsetMs)})`}
      width={width}
      height={280}
      yLegend="Count"
      series={series}
    />
  );
}

type Row = AdFigures & { key: number; name: string; sub?: string | null; href?: string };

export function FiguresTable({ caption, firstColumn, rows, empty }: { caption: string; firstColumn: string; rows: Row[]; empty: string }) {
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold">{caption}</h2>
      <DataTable
        caption={caption}
        rows={rows}
        rowKey={(r) => r.key}
        empty={empty}
        columns={[
          {
            header: firstColumn,
            cell: (r) => (
              <>
                {r.href ? (
                  <Link to={r.href} className="link">
                    {r.name}
                  </Link>
                ) : (
                  r.name
                )}
                {r.sub ? <span className="block text-xs text-slate-500">{r.sub}</span> : null}
              </>
            ),
          },
          { header: "Impressions", numeric: true, cell: (r) => <span data-col="impressions">{formatCount(r.impressions)}</span> },
          { header: "Clicks", numeric: true, cell: (r) => <span data-col="clicks">{formatCount(r.clicks)}</span> },
          { header: "Conversions", numeric: true, cell: (r) => <span data-col="conversions">{formatCount(r.conversions)}</span> },
          { header: "CTR (%)", numeric: true, cell: (r) => <span data-col="ctr">{clickThroughRate(r.clicks, r.impressions)}</span> },
        ]}
      />
    </>
  );
}
