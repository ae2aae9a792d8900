import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { organizationSchema } from "~/lib/schemas/organizations";
import { apiData, dispatch, readApiInput, requireApiOrg, type ApiMethods } from "~/services/api.server";
import { requireOwner } from "~/services/guard.server";
import { deleteOrganization, updateOrganization } from "~/services/organizations.server";
import { organizationDetailsJson } from "./__organizations.server";

// GET    /account/api/v1/organizations/{id} → { data: { organization } } with counts and venues.
// PUT    /account/api/v1/organizations/{id} — the organisation form's body → { data: { message, organization } }.
// DELETE /account/api/v1/organizations/{id} → { data: { message } }.
// As on the details page: view_settings to read; updating and deleting belong to the
// organisation's administrator (im_admin). An unknown, foreign or malformed id is a 404.

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireApiOrg(request, params.id ?? "", "id", "view_settings");
    return apiData({ organization: await organizationDetailsJson(ctx) });
  },

  async PUT({ request, params }) {
    const ctx = await requireApiOrg(request, params.id ?? "", "id", "view_settings");
    requireOwner(ctx);
    const input = await readApiInput(request, organizationSchema);
    await updateOrganization(ctx, input);
    return apiData({ message: "Organization updated.", organization: await organizationDetailsJson(ctx) });
  },

  async DELETE({ request, params }) {
    const ctx = await requireApiOrg(request, params.id ?? "", "id", "view_settings");
    await deleteOrganization(ctx);
    return apiData({ message: `${ctx.org.name} has been deleted.` });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
