import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomersTable } from "~/components/customers/customers-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseDateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { listCustomers } from "~/services/customers.server";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

export const meta: MetaFunction = () => [{ title: "Network clients | Mlango" }];

// Customers with a connection at the network in the profile's date range (view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const searchParams = new URL(request.url).searchParams;
  const list = parseListParams(searchParams);
  const range = parseDateRange(searchParams, ctx.org.clock);
  return json({ customers: await listCustomers(ctx, { venueId: venue.id, startMs: range.startMs, endMs: range.endMs }, list), list });
}

export default function VenueClients() {
  const { customers, list } = useLoaderData<typeof loader>();
  return <CustomersTable title="Clients" page={customers} params={list} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
