import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { apiData, dispatch, type ApiMethods } from "~/services/api.server";
import { removeDisplaySetting } from "~/services/splash/rules.server";
import { requireQueryOrg } from "./__venues.server";

// DELETE /account/api/v1/splash_pages/{pageId}/display_settings/{settingId} — an addition to the
//        old client's API, which only adds rules (docs/guide/api.md#splash-pages), so the
//        Presentation tab's Remove has an API twin. (change_splash_pages_presentation) →
//        { data: { message } }. A rule of another page or organisation, an unknown or a malformed
//        id is a 404.

const methods: ApiMethods = {
  async DELETE({ request, params }) {
    const ctx = await requireQueryOrg(request);
    await removeDisplaySetting(ctx, parseId(params.pageId), parseId(params.settingId));
    return apiData({ message: "Display rule removed." });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
