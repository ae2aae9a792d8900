// /{orgId}/ads/analytics (menu Ads › Analytics, view_ads;
// docs/guide/ads.md#dashboard-and-analytics): impressions, clicks, conversions and CTR per
// campaign and per banner in a date range, with the hourly chart.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseDateRange } from "~/lib/date-range";
import { adsReport } from "~/services/ads/figures.server";
import { requireOrg } from "~/services/guard.server";
import { AdsHourlyChart, AdsTotals, FiguresTable } from "./__ads-figures";

export const meta: MetaFunction = () => [{ title: "Ads Analytics | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_ads");
  const range = parseDateRange(new URL(request.url).searchParams, ctx.org.clock);
  const report = await adsReport(ctx, range);
  const names = new Map(report.campaigns.map((c) => [c.campaignId, c.name]));
  return json({
    orgId: ctx.org.id,
    range,
    totals: report.totals,
    hours: report.hours,
    campaigns: report.campaigns,
    banners: report.banners.map((b) => ({ ...b, campaignName: names.get(b.campaignId) ?? "" })),
  });
}

export default function AdsAnalytics() {
  const { orgId, range, totals, hours, campaigns, banners } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <section className="card">
        <h1 className="mb-3 text-xl font-semibold">Ads Analytics</h1>
        <DateRangeForm range={range} />
      </section>
      <AdsTotals totals={totals} />
      <section className="card">
        <AdsHourlyChart hours={hours} />
      </section>
      <section className="card">
        <FiguresTable
          caption="Per campaign"
          firstColumn="Campaign"
          empty="No campaigns yet."
          rows={campaigns.map((c) => ({ ...c, key: c.campaignId, sub: c.clientName, href: `/${orgId}/ads/banners/${c.campaignId}` }))}
        />
      </section>
      <section className="card">
        <FiguresTable
          caption="Per banner"
          firstColumn="Banner"
          empty="No banners yet."
          rows={banners.map((b) => ({
            key: b.bannerId,
            name: b.description || `Banner ${b.bannerId}`,
            sub: b.campaignName,
            href: `/${orgId}/ads/banners/${b.campaignId}`,
            ...b,
          }))}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
