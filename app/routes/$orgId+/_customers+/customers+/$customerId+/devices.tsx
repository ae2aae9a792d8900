import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DevicesTable } from "~/components/devices/devices-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { DEVICE_PAGE_SIZES } from "~/lib/records";
import { getCustomer } from "~/services/customers.server";
import { listDevices } from "~/services/devices.server";
import { requireOrg } from "~/services/guard.server";

// The customer's devices, with Block / Unblock for holders of edit_clients.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customer = await getCustomer(ctx, parseId(params.customerId));
  const list = parseListParams(new URL(request.url).searchParams, DEVICE_PAGE_SIZES, 10);
  return json({ devices: await listDevices(ctx, { customerId: customer.id }, list), list, canBlock: ctx.permissions.has("edit_clients") });
}

export default function CustomerDevices() {
  const { devices, list, canBlock } = useLoaderData<typeof loader>();
  return <DevicesTable page={devices} params={list} canBlock={canBlock} hideCustomer />;
}

export const ErrorBoundary = GeneralErrorBoundary;
