import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConnectionsTable } from "~/components/connections/connections-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { connectionsCsvHref, type ConnectionFilter } from "~/lib/connections";
import { lastDays } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { getAccessPoint } from "~/services/access-points.server";
import { listConnections } from "~/services/connections.server";
import { requireOrg, requirePermission } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Access point connections | Mlango" }];

// Authorized connections through the access point's MAC address over the last year (view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  const list = parseListParams(new URL(request.url).searchParams);
  const range = lastDays(365, ctx.org.clock);
  const filter: ConnectionFilter = { accessPointMac: ap.mac_address, authorized: true, startMs: range.startMs, endMs: range.endMs };
  return json({
    connections: await listConnections(ctx, filter, list),
    list,
    canClose: ctx.permissions.has("edit_connections"),
    exportHref: connectionsCsvHref(ctx.org.id, filter, list.search),
  });
}

export default function AccessPointConnections() {
  const { connections, list, canClose, exportHref } = useLoaderData<typeof loader>();
  return (
    <ConnectionsTable page={connections} params={list} canClose={canClose} exportHref={exportHref} hide={["Network", "Access Point"]} />
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
