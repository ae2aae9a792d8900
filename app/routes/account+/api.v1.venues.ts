import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams } from "~/lib/pagination";
import { venueSchema, VENUE_PAGE_SIZES } from "~/lib/schemas/venues";
import { apiData, dispatch, parseApiBody, type ApiMethods } from "~/services/api.server";
import { createVenue, getVenue, listVenues, venueCounts } from "~/services/venues.server";
import { readScopedBody, requireQueryOrg, venueJson } from "./__venues.server";

// GET  /account/api/v1/venues[?query=&page=&per_page=] (organization_id or X-Organization-Id; view_networks)
//      → { data: { venues: […with counts], meta: { page, per_page, total } } }, by name like the list page.
// POST /account/api/v1/venues — name, address, phone_number, email, custom_splash_url, success_url,
//      more_info, organization_id (create_networks) → 201 { data: { message, venue } }.

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    const searchParams = new URL(request.url).searchParams;
    // The spec's client sends its search as `query`; `search` works too, as on the page.
    if (!searchParams.has("search") && searchParams.has("query")) searchParams.set("search", searchParams.get("query") ?? "");
    const page = parseListParams(searchParams, VENUE_PAGE_SIZES, 10);
    const { venues, total } = await listVenues(ctx, page);
    return apiData({
      venues: venues.map((v) => venueJson(ctx.org.id, v, v)),
      meta: { page: page.page, per_page: page.pageSize, total },
    });
  },

  async POST({ request }) {
    const { ctx, body } = await readScopedBody(request, "create_networks");
    const input = parseApiBody(body, venueSchema);
    const created = await createVenue(ctx, input);
    const venue = await getVenue(ctx, created.id);
    const counts = (await venueCounts(ctx.org, [venue.id])).get(venue.id);
    return apiData({ message: `Network ${venue.name} created.`, venue: venueJson(ctx.org.id, venue, counts) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
