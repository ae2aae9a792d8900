// /{orgId}/ads (menu Ads › Dashboard, view_ads; docs/guide/ads.md#dashboard-and-analytics): the
// organisation's impressions, clicks, conversions and CTR in a date range (default today), the
// hourly chart and the figures per campaign. Counted by Mlango itself (decision 0020).
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseDateRange } from "~/lib/date-range";
import { adsReport } from "~/services/ads/figures.server";
import { requireOrg } from "~/services/guard.server";
import { AdsHourlyChart, AdsTotals, FiguresTable } from "./__ads-figures";

export const meta: MetaFunction = () => [{ title: "Ads Dashboard | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_ads");
  const range = parseDateRange(new URL(request.url).searchParams, ctx.org.clock);
  const report = await adsReport(ctx, range);
  return json({ orgId: ctx.org.id, range, totals: report.totals, hours: report.hours, campaigns: report.campaigns });
}

export default function AdsDashboard() {
  const { orgId, range, totals, hours, campaigns } = useLoaderData<typeof loader>();
  const query = new URLSearchParams({ start: range.start, end: range.end }).toString();
  return (
    <div className="space-y-4">
      <section className="card">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-xl font-semibold">Ads Dashboard</h1>
          <Link to={`/${orgId}/ads/analytics?${query}`} className="btn-secondary">
            Analytics
          </Link>
        </div>
        <DateRangeForm range={range} />
      </section>
      <AdsTotals totals={totals} />
      <section className="card">
        <AdsHourlyChart hours={hours} />
      </section>
      <section className="card">
        <FiguresTable
          caption="Campaigns"
          firstColumn="Campaign"
          empty="No campaigns yet."
          rows={campaigns.map((c) => ({ ...c, key: c.campaignId, sub: c.clientName, href: `/${orgId}/ads/banners/${c.campaignId}` }))}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
