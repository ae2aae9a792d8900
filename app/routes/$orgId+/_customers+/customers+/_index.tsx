// /{orgId}/customers (menu Customers, view_clients): the organisation's Wi-Fi guests, newest first,
// searched by the header's search box or the list's own (?search=).
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomersTable } from "~/components/customers/customers-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseListParams } from "~/lib/pagination";
import { listCustomers } from "~/services/customers.server";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Customers | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const list = parseListParams(new URL(request.url).searchParams);
  return json({ customers: await listCustomers(ctx, {}, list), list });
}

export default function Customers() {
  const { customers, list } = useLoaderData<typeof loader>();
  return <CustomersTable page={customers} params={list} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
