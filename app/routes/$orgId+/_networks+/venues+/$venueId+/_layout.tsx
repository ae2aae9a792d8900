import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { currentVenueTab, RANGED_TABS, VenueMenu } from "~/components/venues/venue-menu";
import { parseDateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { requireOrg } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.venue.name} · Networks · Mlango` : "Mlango" }];

// The network profile: header (name, email, phone), tabs, New access point and the date range.
// Each tab's route runs its own guard; this one only shapes the frame.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  return json({
    orgId: ctx.org.id,
    venue,
    range: parseDateRange(new URL(request.url).searchParams, ctx.org.clock),
    canCreateAp: ctx.permissions.has("create_ap"),
    canViewClients: ctx.permissions.has("view_clients"),
  });
}

export default function VenueProfile() {
  const { orgId, venue, range, canCreateAp, canViewClients } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const base = `/${orgId}/venues/${venue.id}`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/venues`} className="link">
          Networks
        </Link>{" "}
        › <span>{venue.name}</span>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{venue.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {[venue.email, venue.phone_number].filter(Boolean).join(" · ") || "No email or phone number"}
          </p>
        </div>
        {canCreateAp ? (
          <Link to={`/${orgId}/ap/create?venue_id=${venue.id}`} className="btn-primary">
            New access point
          </Link>
        ) : null}
      </header>
      <VenueMenu base={base} canViewClients={canViewClients} />
      {RANGED_TABS.includes(currentVenueTab(pathname)) ? <DateRangeForm range={range} /> : null}
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
