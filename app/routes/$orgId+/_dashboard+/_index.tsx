import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardGrid } from "~/components/dashboard/dashboard-grid";
import { EditFailure, EditStatus, type EditActionData } from "~/components/dashboard/edit-form";
import { SummaryCards } from "~/components/dashboard/summary-cards";
import { VenueSelect } from "~/components/dashboard/venue-select";
import type { DashletDataMap } from "~/lib/dashlet-data";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { exportHref } from "~/lib/dashboard-exports";
import { dashletsIn } from "~/lib/dashboard-layout";
import { DASHBOARD_MESSAGES } from "~/lib/dashboard-messages";
import { aggregateUsage } from "~/services/analytics.server";
import { editDashboard, filterQuery, getDashboardLayout, parseDashboardEdit, parseDashboardFilters } from "~/services/dashboard.server";
import { loadDashlets } from "~/services/dashlets.server";
import { requireOrg } from "~/services/guard.server";
import { listOrganizationVenues } from "~/services/organizations.server";
import { countOpenPaymentExceptions } from "~/services/prepaid/payment-exceptions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Dashboard · ${data.org.name} · Mlango` : "Mlango" }];

// The home dashboard (docs/guide/dashboard.md#controls, #edit-mode): filters, the usage summary, and
// the user's own layout of dashlets, of which only those in the layout are computed.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const url = new URL(request.url);
  const [stored, filters, venues] = await Promise.all([
    getDashboardLayout(ctx.user.id),
    parseDashboardFilters(ctx, url),
    listOrganizationVenues(ctx),
  ]);
  const [summary, dashlets, paymentExceptions] = await Promise.all([
    aggregateUsage(filters.scope),
    loadDashlets(dashletsIn(stored.layout), { ctx, filters, url }),
    // M-Pesa payments that need someone (decision 0077); null without view_subscriptions.
    countOpenPaymentExceptions(ctx),
  ]);
  return json({
    org: ctx.org,
    range: filters.range,
    venues,
    selectedVenues: filters.venueIds,
    filterQuery: filterQuery(filters),
    // A dashboard with no items opens in edit mode (docs/guide/dashboard.md#edit-mode).
    editing: url.searchParams.get("edit") === "1" || stored.layout.content.length === 0,
    layoutStatus: stored.status,
    layout: stored.layout,
    summary,
    dashlets,
    canCloseConnections: ctx.permissions.has("edit_connections"),
    paymentExceptions,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const formData = await request.formData();
  const viaFetcher = formData.get("_fetcher") === "1";
  const submission = parseDashboardEdit(formData);
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? DASHBOARD_MESSAGES.node;
    return json<EditActionData>({ ok: false, error }, { status: 400 });
  }
  let outcome;
  try {
    outcome = await editDashboard(ctx.user.id, submission.value);
  } catch (error) {
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "dashboard_save_failed", user: ctx.user.id, error: String(error) }),
    );
    return json<EditActionData>({ ok: false, error: DASHBOARD_MESSAGES.saveFailed }, { status: 500 });
  }
  if (!outcome.ok) return json<EditActionData>({ ok: false, error: outcome.error }, { status: 409 });
  if (viaFetcher) return json<EditActionData>({ ok: true });
  // Post/Redirect/Get back to the same dashboard (filters and edit mode kept).
  const back = new URL(request.url);
  back.searchParams.delete("index");
  return redirect(`${back.pathname}${back.search}`);
}

export default function OrganizationHome() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { org, range, editing } = data;
  return (
    <div className="space-y-5">
      {data.paymentExceptions ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          <a href={`/${org.id}/prepaid/payment-exceptions`} className="font-medium underline">
            {data.paymentExceptions === 1 ? "1 M-Pesa payment needs" : `${data.paymentExceptions} M-Pesa payments need`} your attention
          </a>
          .
        </p>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Dashboard</h1>
          <p className="mt-1 text-slate-600">{org.name}</p>
        </div>
        <a href={exportHref(org.id, "dashboard_summary_data.csv", data.filterQuery)} className="btn-secondary">
          Export Data
        </a>
      </div>
      <DateRangeForm range={range} controls={["venues", "online_page", "recent_page", "aps_page"]}>
        <VenueSelect venues={data.venues} selected={data.selectedVenues} />
      </DateRangeForm>
      {data.layoutStatus === "invalid" ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-800">
          {DASHBOARD_MESSAGES.invalidStored}
        </p>
      ) : null}
      {actionData && !actionData.ok ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
          {actionData.error}
        </p>
      ) : (
        <EditFailure className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800" />
      )}
      <SummaryCards totals={data.summary} />
      {editing ? (
        <p className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-4 py-2 text-sm text-indigo-900">
          <span>
            Editing the dashboard: every change is saved at once. <EditStatus className="ml-2 font-medium" />
          </span>
          {data.layout.content.length > 0 ? (
            <Link to={`/${org.id}?${data.filterQuery}`} className="font-medium underline">
              Done
            </Link>
          ) : null}
        </p>
      ) : null}
      <DashboardGrid
        layout={data.layout}
        data={data.dashlets as Partial<DashletDataMap>}
        editing={editing}
        env={{
          orgId: org.id,
          range: { start: range.start, end: range.end },
          filterQuery: data.filterQuery,
          canCloseConnections: data.canCloseConnections,
        }}
      />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
