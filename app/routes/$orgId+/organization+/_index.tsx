import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { requireOrg } from "~/services/guard.server";

// /{orgId}/organization opens on the administrators list.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  return redirect(`/${ctx.org.id}/organization/administrators`);
}

export const ErrorBoundary = GeneralErrorBoundary;
