import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomersTable } from "~/components/customers/customers-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { lastDays } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { getAccessPoint } from "~/services/access-points.server";
import { listCustomers } from "~/services/customers.server";
import { requireOrg, requirePermission } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Access point clients | Mlango" }];

// Customers seen through the access point's MAC address over the last year (view_clients too).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "view_clients");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  const list = parseListParams(new URL(request.url).searchParams);
  const range = lastDays(365, ctx.org.clock);
  return json({
    customers: await listCustomers(ctx, { accessPointMac: ap.mac_address, startMs: range.startMs, endMs: range.endMs }, list),
    list,
  });
}

export default function AccessPointCustomers() {
  const { customers, list } = useLoaderData<typeof loader>();
  return <CustomersTable title="Clients" page={customers} params={list} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
