import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { apiData, dispatch, type ApiMethods } from "~/services/api.server";
import { ASSET_MESSAGES, deleteAsset } from "~/services/splash/assets.server";
import { requireQueryOrg } from "./__venues.server";

// DELETE /account/api/v1/assets/{id} — an addition to the old client's API
//        (docs/guide/api.md#splash-pages): deletes a splash image (edit_splash_pages) →
//        { data: { message } }. Pages that show it show a broken image from then on. An image of
//        another organisation, an unknown or a malformed id is a 404. Floor plans are replaced on
//        the Layout Designer, not deleted here.

const methods: ApiMethods = {
  async DELETE({ request, params }) {
    const ctx = await requireQueryOrg(request);
    await deleteAsset(ctx, parseId(params.id));
    return apiData({ message: ASSET_MESSAGES.deleted });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
