import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { apiData, dispatch, type ApiMethods } from "~/services/api.server";
import { listDisplaySettings } from "~/services/splash/rules.server";
import { settingJson } from "./__splash.server";
import { requireQueryOrg } from "./__venues.server";

// GET /account/api/v1/splash_pages/display_settings/{pageId} (view_splash_pages, edit_splash_pages or
//     change_splash_pages_presentation) → { data: { settings: [setting…] } }, newest first; a setting
//     is as POST splash_pages/display_settings answers it. Removing one:
//     DELETE splash_pages/{pageId}/display_settings/{settingId}.

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request);
    const settings = await listDisplaySettings(ctx, parseId(params.pageId));
    return apiData({ settings: settings.map(settingJson) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
