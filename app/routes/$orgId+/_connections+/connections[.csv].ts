// GET /{orgId}/connections.csv: every connection matching the list's filters and search, newest
// first, streamed (connections-export.server.ts). For the signed-in browser (cookie) and for scripts
// (Authorization: Bearer <token>); the filters of the tabs: venue_id, access_point_mac,
// customer_id, device_id, status (authorized by default, online, all), start/end.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseConnectionFilter } from "~/lib/connections";
import { parseListParams } from "~/lib/pagination";
import { connectionsCsvStream } from "~/services/connections-export.server";
import { notFound, requireOrg } from "~/services/guard.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const searchParams = new URL(request.url).searchParams;
  const parsed = parseConnectionFilter(searchParams, ctx.org.clock.offsetMs);
  if (!parsed.ok) notFound();
  const stream = await connectionsCsvStream(ctx, parsed.filter, parseListParams(searchParams).search);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="connections.csv"',
      "Cache-Control": "no-store",
    },
  });
}
