import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { getAccessPoint } from "~/services/access-points.server";
import { requireOrg } from "~/services/guard.server";

// /{orgId}/ap/{apId} opens the overview.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  return redirect(`/${ctx.org.id}/ap/${ap.id}/overview`);
}

// A page route (not a resource route), so a 404 renders in the app's frame.
export default function AccessPointIndex() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
