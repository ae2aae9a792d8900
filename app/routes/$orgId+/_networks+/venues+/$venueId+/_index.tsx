import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { requireOrg } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

// /{orgId}/venues/{venueId} opens the Overview tab (keeping the date range).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const { search } = new URL(request.url);
  return redirect(`/${ctx.org.id}/venues/${venue.id}/overview${search}`);
}

// A page route (not a resource route), so a 404 renders in the app's frame.
export default function VenueIndex() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
