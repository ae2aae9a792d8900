// GET /{orgId}/ads/campaigns.csv (docs/guide/ads.md#dashboard-and-analytics; view_ads):
// every campaign of the organisation, newest first, with its derived status. No campaigns:
// 404 with the spec's "No data to export." For the signed-in browser (cookie) and scripts
// (bearer token).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ADS_CSV, ADS_MESSAGES } from "~/lib/schemas/ads";
import { campaignsCsv } from "~/services/ads/campaigns.server";
import { requireOrg } from "~/services/guard.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_ads");
  const body = await campaignsCsv(ctx);
  if (body === null)
    return new Response(ADS_MESSAGES.noData, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ADS_CSV}"`,
      "Cache-Control": "no-store",
    },
  });
}
