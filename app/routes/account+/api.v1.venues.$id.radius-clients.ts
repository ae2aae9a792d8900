import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { radiusClientSchema } from "~/lib/schemas/radius-clients";
import { apiData, apiValidationFailed, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { addRadiusClient, listRadiusClients } from "~/services/radius/clients.server";
import { getVenueHeader } from "~/services/venues.server";
import { readScopedBody, requireQueryOrg } from "./__venues.server";

// A network's RADIUS gateways (the network's RADIUS page):
// GET  /account/api/v1/venues/{id}/radius-clients (view_networks) → { data: { radius_clients, messages } }:
//      name, make, ip_address, coa_port, created_at, updated_at, and the latest Disconnect/CoA answers. Never a secret.
// POST /account/api/v1/venues/{id}/radius-clients (edit_networks), JSON or form: name, make
//      (mikrotik | cisco | ruckus), ip_address, coa_port (default 3799) → 201 { data: { id, secret } }:
//      the RADIUS secret, in this answer only; 422 field errors (an address already registered included).
// The organisation is organization_id (query or body) or X-Organization-Id; another organisation's
// network, an unknown or a malformed id is a 404.

const NOT_FOUND = "Network not found.";

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    const { clients, messages } = await withNotFoundMessage(listRadiusClients(ctx, parseId(params.id) ?? 0), NOT_FOUND);
    return apiData({ radius_clients: clients, messages });
  },

  async POST({ request, params }) {
    const { ctx, body } = await readScopedBody(request, "view_networks");
    const venue = await withNotFoundMessage(getVenueHeader(ctx, parseId(params.id)), NOT_FOUND);
    requirePermission(ctx, "edit_networks");
    const input = parseApiBody(body, radiusClientSchema);
    const added = await addRadiusClient(ctx, venue.id, input);
    if (!added.ok) throw apiValidationFailed(added.errors);
    return apiData({ id: added.id, secret: added.secret }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
