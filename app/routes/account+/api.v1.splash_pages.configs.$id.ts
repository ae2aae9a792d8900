import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { splashConfigSchema, SPLASH_MESSAGES } from "~/lib/schemas/splash";
import { apiData, dispatch, parseApiBody, type ApiMethods } from "~/services/api.server";
import { forbidden, notFound } from "~/services/guard.server";
import { getPage, updateConfig } from "~/services/splash/pages.server";
import { configJson, readSplashBody } from "./__splash.server";

// PUT /account/api/v1/splash_pages/configs/{id} — custom_value (edit_splash_pages; refused with
//     'Not allowed to edit page configurations'); "" or null returns the option to its initial value
//     → { data: { message, config: { id, title, name, default_value, current_value, custom_value,
//     splash_page_id } } }. An option of another organisation's page, an unknown or a malformed id is
//     a 404; a value over 2,000 characters a 422.

const methods: ApiMethods = {
  async PUT({ request, params }) {
    const { ctx, body } = await readSplashBody(request);
    if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEditConfigs);
    const configId = parseId(params.id);
    const input = parseApiBody(body, splashConfigSchema);
    const { pageId } = await updateConfig(ctx, configId, input.custom_value);
    const config = (await getPage(ctx, pageId)).configs.find((c) => c.id === configId) ?? notFound("Page option not found.");
    return apiData({ message: `Option ${config.title} saved.`, config: { ...configJson(config), splash_page_id: pageId } });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
