import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { SPLASH_MESSAGES } from "~/lib/schemas/splash";
import { apiData, apiValidationFailed, dispatch, type ApiMethods } from "~/services/api.server";
import { forbidden } from "~/services/guard.server";
import { copyTemplate, getPage, listTemplates } from "~/services/splash/pages.server";
import { pageJson } from "./__splash.server";
import { requireQueryOrg } from "./__venues.server";

// GET /account/api/v1/splash_pages/copy/{id}?template={templateId} (edit_splash_pages; a GET as the
//     spec's client sends it) → { data: { message, page } }: the template's HTML, CSS, scripts and
//     styling become the page's draft (a builder page, type 1) and its options are the template's
//     (titles and initial values). No template: 422 { errors: { template } }; an unknown one: 404
//     'There is no such template.'; a page of another organisation: 404.

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request);
    if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEdit);
    const templateId = new URL(request.url).searchParams.get("template")?.trim() ?? "";
    const templates = listTemplates();
    if (templateId === "") return apiValidationFailed({ template: [`Choose a template: ${templates.map((t) => t.id).join(", ")}.`] });
    await copyTemplate(ctx, parseId(params.id), templateId);
    const page = await getPage(ctx, parseId(params.id));
    const template = templates.find((t) => t.id === templateId);
    return apiData({ message: `Template ${template?.name ?? templateId} copied into ${page.name}.`, page: pageJson(ctx.org.id, page) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
