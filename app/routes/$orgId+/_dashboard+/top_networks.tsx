import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TopListFilters } from "~/components/dashboard/top-list-filters";
import { TopNetworksTable } from "~/components/dashlets/usage-tables";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { exportHref, parseTopLimit, TOP_LIMITS } from "~/lib/dashboard-exports";
import { venueUsage } from "~/services/analytics.server";
import { filterQuery, parseDashboardFilters } from "~/services/dashboard.server";
import { requireOrg } from "~/services/guard.server";
import { listOrganizationVenues } from "~/services/organizations.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Top networks · ${data.org.name} · Mlango` : "Mlango" }];

// Top networks by bandwidth over the date range and chosen networks (docs/guide/dashboard.md#top-networks: 5 by default).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const url = new URL(request.url);
  const [filters, venues] = await Promise.all([parseDashboardFilters(ctx, url), listOrganizationVenues(ctx)]);
  const limit = parseTopLimit(url.searchParams);
  const rows = await venueUsage(filters.scope, limit);
  const query = new URLSearchParams(filterQuery(filters));
  if (limit !== TOP_LIMITS[0]) query.set("limit", String(limit));
  return json({
    org: ctx.org,
    range: filters.range,
    venues,
    selected: filters.venueIds,
    limit,
    rows,
    exportHref: exportHref(ctx.org.id, "top_networks.csv", query.toString()),
  });
}

export default function TopNetworksPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold">Top networks</h1>
        <a href={data.exportHref} className="btn-secondary">
          Export CSV
        </a>
      </div>
      <TopListFilters range={data.range} venues={data.venues} selected={data.selected} limit={data.limit} limits={TOP_LIMITS} />
      <section className="card">
        <TopNetworksTable rows={data.rows} />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
