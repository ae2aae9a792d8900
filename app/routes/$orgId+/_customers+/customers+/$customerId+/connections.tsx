import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConnectionsTable } from "~/components/connections/connections-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { connectionsCsvHref, type ConnectionFilter } from "~/lib/connections";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { listConnections } from "~/services/connections.server";
import { getCustomer } from "~/services/customers.server";
import { requireOrg } from "~/services/guard.server";

// The customer's authorized connections, newest first.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customer = await getCustomer(ctx, parseId(params.customerId));
  const list = parseListParams(new URL(request.url).searchParams);
  const filter: ConnectionFilter = { customerId: customer.id, authorized: true };
  return json({
    page: await listConnections(ctx, filter, list),
    list,
    canClose: ctx.permissions.has("edit_connections"),
    exportHref: connectionsCsvHref(ctx.org.id, filter, list.search),
  });
}

export default function CustomerConnections() {
  const { page, list, canClose, exportHref } = useLoaderData<typeof loader>();
  return <ConnectionsTable page={page} params={list} canClose={canClose} exportHref={exportHref} hide={["Customer"]} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
