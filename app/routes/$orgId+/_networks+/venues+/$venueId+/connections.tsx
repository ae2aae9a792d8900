import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConnectionsTable } from "~/components/connections/connections-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { connectionsCsvHref, type ConnectionFilter } from "~/lib/connections";
import { parseDateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { listConnections } from "~/services/connections.server";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

export const meta: MetaFunction = () => [{ title: "Network connections | Mlango" }];

// The network's authorized connections in the profile's date range (customer data: view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const searchParams = new URL(request.url).searchParams;
  const list = parseListParams(searchParams);
  const range = parseDateRange(searchParams, ctx.org.clock);
  const filter: ConnectionFilter = { venueId: venue.id, authorized: true, startMs: range.startMs, endMs: range.endMs };
  return json({
    connections: await listConnections(ctx, filter, list),
    list,
    canClose: ctx.permissions.has("edit_connections"),
    exportHref: connectionsCsvHref(ctx.org.id, filter, list.search),
  });
}

export default function VenueConnections() {
  const { connections, list, canClose, exportHref } = useLoaderData<typeof loader>();
  return <ConnectionsTable page={connections} params={list} canClose={canClose} exportHref={exportHref} hide={["Network"]} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
