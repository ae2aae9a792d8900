import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { accessPointSchema } from "~/lib/schemas/access-points";
import { accessPointCounts, deleteAccessPoint, getAccessPoint, updateAccessPoint } from "~/services/access-points.server";
import { apiData, apiValidationFailed, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { accessPointJson, readScopedBody, requireQueryOrg } from "./__venues.server";

// GET    /account/api/v1/access_points/{id} (view_networks) → { data: { access_point } } with all-time counts.
// PUT    /account/api/v1/access_points/{id} — the form's fields, every one replaced (edit_ap)
//        → { data: { message, access_point } }.
// DELETE /account/api/v1/access_points/{id} (delete_ap) → { data: { message } }; its connections stay.
// An access point (or, in a PUT, a network) of another organisation, unknown or malformed, is a 404.

const NOT_FOUND = "Access point not found.";

async function answer(ctx: OrgContext, apId: number | null) {
  const ap = await withNotFoundMessage(getAccessPoint(ctx, apId), NOT_FOUND);
  const counts = (await accessPointCounts(ctx.org.id, [ap.mac_address])).get(ap.mac_address);
  return accessPointJson(ap, counts);
}

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    return apiData({ access_point: await answer(ctx, parseId(params.id)) });
  },

  async PUT({ request, params }) {
    const { ctx, body } = await readScopedBody(request, "view_networks");
    requirePermission(ctx, "edit_ap");
    const ap = await withNotFoundMessage(getAccessPoint(ctx, parseId(params.id)), NOT_FOUND);
    const input = parseApiBody(body, accessPointSchema);
    const outcome = await withNotFoundMessage(updateAccessPoint(ctx, ap.id, input), "Network not found.");
    if (!outcome.ok) return apiValidationFailed(outcome.fieldErrors ?? { "": outcome.formErrors ?? [] });
    return apiData({ message: "Access point updated.", access_point: await answer(ctx, ap.id) });
  },

  async DELETE({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    requirePermission(ctx, "delete_ap");
    const ap = await withNotFoundMessage(getAccessPoint(ctx, parseId(params.id)), NOT_FOUND);
    const deleted = await deleteAccessPoint(ctx, ap.id);
    return apiData({ message: `Access point ${deleted.name} deleted.` });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
