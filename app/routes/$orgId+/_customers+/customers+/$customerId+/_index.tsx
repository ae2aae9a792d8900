import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { getCustomer } from "~/services/customers.server";
import { requireOrg } from "~/services/guard.server";

// /{orgId}/customers/{id} opens the Connections tab.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const customer = await getCustomer(ctx, parseId(params.customerId));
  return redirect(`/${ctx.org.id}/customers/${customer.id}/connections`);
}

// A page route (not a resource route), so a 404 renders in the app's frame.
export default function CustomerIndex() {
  return null;
}
