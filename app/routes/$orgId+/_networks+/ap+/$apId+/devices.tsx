import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DevicesTable } from "~/components/devices/devices-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { lastDays } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { DEVICE_PAGE_SIZES } from "~/lib/records";
import { getAccessPoint } from "~/services/access-points.server";
import { listDevices } from "~/services/devices.server";
import { requireOrg, requirePermission } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Access point devices | Mlango" }];

// Devices seen through the access point's MAC address over the last year (view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  const list = parseListParams(new URL(request.url).searchParams, DEVICE_PAGE_SIZES, 10);
  const range = lastDays(365, ctx.org.clock);
  return json({
    devices: await listDevices(ctx, { accessPointMac: ap.mac_address, startMs: range.startMs, endMs: range.endMs }, list),
    list,
    canBlock: ctx.permissions.has("edit_clients"),
  });
}

export default function AccessPointDevices() {
  const { devices, list, canBlock } = useLoaderData<typeof loader>();
  return <DevicesTable page={devices} params={list} canBlock={canBlock} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
