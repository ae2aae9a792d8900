import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { apMapPositionSchema } from "~/lib/schemas/layout";
import { apiData, apiError, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { setAccessPointMapPosition } from "~/services/layout.server";
import { readScopedBody } from "./__venues.server";

// PUT /account/api/v1/access_points/map/{id} — lat, lng (where a map marker was dropped), with
// organization_id or X-Organization-Id; needs edit_network_layout → { data: { message, access_point } }.
// An access point of another organisation, unknown or malformed, is a 404.

const NOT_FOUND = "Access point not found.";

const methods: ApiMethods = {
  async PUT({ request, params }) {
    const apId = parseId(params.id);
    if (apId === null) return apiError(404, NOT_FOUND);
    // The permission is checked before the body is validated: a refused caller learns nothing from 422s.
    const { ctx, body } = await readScopedBody(request, "edit_network_layout");
    const input = parseApiBody(body, apMapPositionSchema);
    const ap = await withNotFoundMessage(setAccessPointMapPosition(ctx, apId, input), NOT_FOUND);
    return apiData({ message: "Access point position saved.", access_point: ap });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
