import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DevicesTable } from "~/components/devices/devices-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseDateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { DEVICE_PAGE_SIZES } from "~/lib/records";
import { listDevices } from "~/services/devices.server";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { getVenueHeader } from "~/services/venues.server";

export const meta: MetaFunction = () => [{ title: "Network devices | Mlango" }];

// Devices with a connection at the network in the profile's date range (customer data: view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const searchParams = new URL(request.url).searchParams;
  const list = parseListParams(searchParams, DEVICE_PAGE_SIZES, 10);
  const range = parseDateRange(searchParams, ctx.org.clock);
  return json({
    devices: await listDevices(ctx, { venueId: venue.id, startMs: range.startMs, endMs: range.endMs }, list),
    list,
    canBlock: ctx.permissions.has("edit_clients"),
  });
}

export default function VenueDevices() {
  const { devices, list, canBlock } = useLoaderData<typeof loader>();
  return <DevicesTable page={devices} params={list} canBlock={canBlock} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
