import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AccessPointsTable } from "~/components/access-points/access-points-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { parseDateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { listAccessPoints } from "~/services/access-points.server";
import { requireOrg } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

export const meta: MetaFunction = () => [{ title: "Access points | Mlango" }];

// venue(id){ accessPoints(startDate, endDate) }: the network's access points with their figures in the range.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const searchParams = new URL(request.url).searchParams;
  const list = parseListParams(searchParams);
  const range = parseDateRange(searchParams, ctx.org.clock);
  const { accessPoints, total } = await listAccessPoints(ctx, { venueId: venue.id }, list, range);
  return json({
    orgId: ctx.org.id,
    list,
    total,
    range: { start: range.start, end: range.end },
    accessPoints: accessPoints.map((ap) => ({
      id: ap.id,
      name: ap.name,
      make: ap.make,
      mac_address: ap.mac_address,
      serial_number: ap.serial_number,
      customersCount: ap.customersCount,
      connectionsCount: ap.connectionsCount,
      onlineConnectionsCount: ap.onlineConnectionsCount,
    })),
  });
}

export default function VenueAccessPoints() {
  const { orgId, list, total, range, accessPoints } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="text-lg font-semibold">Access points</h2>
      <p className="mb-4 text-sm text-slate-500">
        Clients and Connections from {range.start} to {range.end}; Online is now.
      </p>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search access points" />
      <AccessPointsTable
        orgId={orgId}
        rows={accessPoints}
        empty={list.search ? "No access point matches the search." : "No access points in this network yet."}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
