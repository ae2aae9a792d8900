import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams, PAGE_SIZES } from "~/lib/pagination";
import { accessPointSchema } from "~/lib/schemas/access-points";
import {
  accessPointCounts,
  createAccessPoint,
  findVenueForAccessPoint,
  getAccessPoint,
  listAccessPoints,
} from "~/services/access-points.server";
import { apiData, apiValidationFailed, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { accessPointJson, readScopedBody, requireQueryOrg } from "./__venues.server";

// GET  /account/api/v1/access_points[?venue_id=&query=&page=&per_page=] (organization_id or
//      X-Organization-Id; view_networks) → { data: { access_points: […with counts], meta } }, by name.
// POST /account/api/v1/access_points — name, make, mac_address, serial_number, custom_splash_url,
//      success_url, description, venue_id, lat, lng, layout_x, layout_y (create_ap)
//      → 201 { data: { message, access_point } }. A MAC address already used in the organisation is a
//      422 on mac_address; a network of another organisation is a 404.

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    const searchParams = new URL(request.url).searchParams;
    if (!searchParams.has("search") && searchParams.has("query")) searchParams.set("search", searchParams.get("query") ?? "");
    const rawVenue = searchParams.get("venue_id");
    const venue = rawVenue ? await withNotFoundMessage(findVenueForAccessPoint(ctx, rawVenue), "Network not found.") : null;
    const page = parseListParams(searchParams, PAGE_SIZES, 100);
    const { accessPoints, total } = await listAccessPoints(ctx, venue ? { venueId: venue.id } : {}, page);
    return apiData({
      access_points: accessPoints.map((ap) => accessPointJson(ap, ap)),
      meta: { page: page.page, per_page: page.pageSize, total },
    });
  },

  async POST({ request }) {
    const { ctx, body } = await readScopedBody(request, "view_networks");
    requirePermission(ctx, "create_ap");
    const input = parseApiBody(body, accessPointSchema);
    const outcome = await withNotFoundMessage(createAccessPoint(ctx, input), "Network not found.");
    if (!outcome.ok) return apiValidationFailed(outcome.fieldErrors ?? { "": outcome.formErrors ?? [] });
    const ap = await getAccessPoint(ctx, outcome.id);
    const counts = (await accessPointCounts(ctx.org.id, [ap.mac_address])).get(ap.mac_address);
    return apiData({ message: `Access point ${ap.name} created.`, access_point: accessPointJson(ap, counts) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
