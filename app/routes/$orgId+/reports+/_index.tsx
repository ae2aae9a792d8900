import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireOrg } from "~/services/guard.server";

// reports/{report?}: without a report, the overview (keeping the period and venues).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const { search } = new URL(request.url);
  return redirect(`/${ctx.org.id}/reports/overview${search}`);
}
