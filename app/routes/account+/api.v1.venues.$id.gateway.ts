import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { gatewaySettingsChangesSchema } from "~/lib/schemas/gateway-settings";
import { apiData, apiValidationFailed, dispatch, parseApiBody, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { getGatewaySettings, updateGatewaySettings } from "~/services/portal/settings.server";
import { getVenueHeader } from "~/services/venues.server";
import { readScopedBody, requireQueryOrg } from "./__venues.server";

// A network's guest portal settings (the settings page's "Guest portal" section):
// GET /account/api/v1/venues/{id}/gateway (view_networks) → { data: { gateway } }: portal_key, urls
//     { meraki, opennds, unifi, mlango }, gateways (label, url, steps, revocation of each make), the
//     non-secret fields and gateway_secret_set, opennds_faskey_set, unifi_password_set. Never a secret.
// PUT /account/api/v1/venues/{id}/gateway (edit_networks), JSON or form: gateway_secret, opennds_faskey,
//     clear_opennds_faskey, unifi_url, unifi_username, unifi_password, clear_unifi, session_minutes,
//     guest_signup, guest_language (en, sw), terms_url, privacy_url → { data: { message, gateway } }. A field left out keeps its
//     value; an empty secret keeps the stored one, an empty other field clears it; 422 field errors.
// The organisation is organization_id (query or body) or X-Organization-Id; a network of another
// organisation, an unknown or a malformed id is a 404.

const NOT_FOUND = "Network not found.";

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    return apiData({ gateway: await withNotFoundMessage(getGatewaySettings(ctx, parseId(params.id)), NOT_FOUND) });
  },

  async PUT({ request, params }) {
    const { ctx, body } = await readScopedBody(request, "view_networks");
    const venue = await withNotFoundMessage(getVenueHeader(ctx, parseId(params.id)), NOT_FOUND);
    // The permission is checked before the body, so a refused caller learns nothing from 422s.
    requirePermission(ctx, "edit_networks");
    const input = parseApiBody(
      body,
      gatewaySettingsChangesSchema((field) => body.form.has(field)),
    );
    const result = await updateGatewaySettings(ctx, venue.id, input);
    if (!result.ok) throw apiValidationFailed(result.errors);
    return apiData({ message: "Guest portal settings updated.", gateway: await getGatewaySettings(ctx, venue.id) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
