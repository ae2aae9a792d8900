import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { displaySettingSchema } from "~/lib/schemas/splash";
import { apiData, apiValidationFailed, dispatch, parseApiBody, type ApiMethods } from "~/services/api.server";
import { notFound, requirePermission } from "~/services/guard.server";
import { addDisplaySetting, listDisplaySettings } from "~/services/splash/rules.server";
import { readSplashBody, settingJson, SPLASH_NOT_FOUND } from "./__splash.server";

// POST /account/api/v1/splash_pages/display_settings — splash_page_id, access_points (a JSON array,
//      or the form field repeated, also as access_points[]), start_date and end_date (YYYY-MM-DD,
//      optional), factor (After|On, default After), factor_count (1–1000, default 1), factor_type
//      (Session|Day, default Day), organization_id (change_splash_pages_presentation)
//      → 201 { data: { message, setting: { id, splash_page_id, access_points: [{ id, name }],
//      start_date, end_date, factor, factor_count, factor_type, rule ("After 3 Sessions"), created_at } } }.
//      422 { errors } for the form's messages, an end before the start, or an access point that is
//      not this organisation's; a page of another organisation (or none such) is a 404.

const PAGE_REQUIRED = "Choose the splash page (splash_page_id).";

const methods: ApiMethods = {
  async POST({ request }) {
    const { ctx, body } = await readSplashBody(request);
    requirePermission(ctx, "change_splash_pages_presentation");
    const rawPage = body.form.get("splash_page_id");
    if (body.typeErrors.splash_page_id) return apiValidationFailed({ splash_page_id: body.typeErrors.splash_page_id });
    if (typeof rawPage !== "string" || rawPage.trim() === "") return apiValidationFailed({ splash_page_id: [PAGE_REQUIRED] });
    const pageId = parseId(rawPage.trim());
    if (pageId === null) notFound(SPLASH_NOT_FOUND);
    const input = parseApiBody(body, displaySettingSchema);
    const added = await addDisplaySetting(ctx, pageId, input);
    if (!added.ok) return apiValidationFailed(added.errors);
    const setting = (await listDisplaySettings(ctx, pageId)).find((s) => s.id === added.id) ?? notFound("Display rule not found.");
    return apiData({ message: `Display rule saved: ${setting.rule}.`, setting: settingJson(setting) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
