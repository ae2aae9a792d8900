import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { venueMapSchema } from "~/lib/schemas/layout";
import { venueSchema } from "~/lib/schemas/venues";
import { apiData, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { listVenueAccessPoints, updateVenueMap } from "~/services/layout.server";
import { deleteVenue, getVenue, updateVenue, venueCounts } from "~/services/venues.server";
import { readScopedBody, requireQueryOrg, venueJson } from "./__venues.server";

// GET    /account/api/v1/venues/{id} (view_networks) → { data: { venue } } with counts and its access points.
// PUT    /account/api/v1/venues/{id} — the network form's fields (edit_networks) → { data: { message, venue } };
//        a body without `address` but with map fields (lat, lng, map_zoom, layout_polygon) is the map's
//        update (edit_network_layout, the layout service's rules); a floor-plan image is uploaded on the
//        Layout Designer, not set by URL here.
// DELETE /account/api/v1/venues/{id} (edit_networks: the catalogue has no delete permission for
//        networks) → { data: { message, venue } }; its access points go, its connections stay unlinked.
// The organisation is organization_id (query or body) or X-Organization-Id; a network of another
// organisation, an unknown or a malformed id is a 404.

const NOT_FOUND = "Network not found.";
const MAP_FIELDS = ["lat", "lng", "map_zoom", "layout_polygon"];

async function venueAnswer(ctx: OrgContext, venueId: number | null) {
  const venue = await getVenue(ctx, venueId);
  const [counts, accessPoints] = await Promise.all([venueCounts(ctx.org, [venue.id]), listVenueAccessPoints(ctx, venue.id)]);
  return {
    ...venueJson(ctx.org.id, venue, counts.get(venue.id)),
    accessPoints: accessPoints.map((ap) => ({
      id: ap.id,
      name: ap.name,
      mac_address: ap.macAddress,
      lat: ap.lat,
      lng: ap.lng,
      layout_x: ap.layoutX,
      layout_y: ap.layoutY,
    })),
  };
}

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    return apiData({ venue: await withNotFoundMessage(venueAnswer(ctx, parseId(params.id)), NOT_FOUND) });
  },

  async PUT({ request, params }) {
    const { ctx, body } = await readScopedBody(request, "view_networks");
    const venue = await withNotFoundMessage(getVenue(ctx, parseId(params.id)), NOT_FOUND);
    const isMapUpdate = !body.form.has("address") && MAP_FIELDS.some((f) => body.form.has(f));
    // The permission is checked before the body, so a refused caller learns nothing from 422s.
    if (isMapUpdate) {
      requirePermission(ctx, "edit_network_layout");
      const input = parseApiBody(body, venueMapSchema);
      await updateVenueMap(ctx, venue.id, input);
      return apiData({ message: "Network map updated.", venue: await venueAnswer(ctx, venue.id) });
    }
    requirePermission(ctx, "edit_networks");
    const input = parseApiBody(body, venueSchema);
    await updateVenue(ctx, venue.id, input);
    return apiData({ message: "Network updated.", venue: await venueAnswer(ctx, venue.id) });
  },

  async DELETE({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    requirePermission(ctx, "edit_networks");
    const venue = await withNotFoundMessage(venueAnswer(ctx, parseId(params.id)), NOT_FOUND);
    const deleted = await deleteVenue(ctx, venue.id);
    const aps =
      deleted.accessPoints === 0
        ? ""
        : ` ${deleted.accessPoints === 1 ? "Its access point was" : `Its ${deleted.accessPoints} access points were`} deleted too.`;
    return apiData({ message: `Network ${deleted.name} deleted.${aps}`, venue });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
