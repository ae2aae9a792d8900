import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams } from "~/lib/pagination";
import { splashPageSchema } from "~/lib/schemas/splash";
import { apiData, dispatch, parseApiBody, requireApiUser, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { createPage, getPage, listPages, listTemplates } from "~/services/splash/pages.server";
import { pageJson, readSplashBody } from "./__splash.server";
import { requireQueryOrg } from "./__venues.server";

// GET  /account/api/v1/splash_pages[?page=&per_page=&search=] (organization_id or X-Organization-Id;
//      view_splash_pages, create_splash_pages or edit_splash_pages) → { data: { pages: [summary…],
//      meta: { page, per_page, total } } }, newest first like the list page; `query` is read as `search`.
// GET  /account/api/v1/splash_pages?template=true (any signed-in user; no organisation needed)
//      → { data: { pages: [template…] } }: the built-in templates, each with `template: true`, its
//      html, css, custom_scripts and declared configs (name, title, default_value).
// POST /account/api/v1/splash_pages — name, css_template, description, organization_id
//      (create_splash_pages) → 201 { data: { message, page } }; 422 { errors } with the form's messages.
// A summary is id, organization_id, name, description, css_template, type (null until set up, 1
// builder, 2 code editor), published, has_unpublished_changes, published_at, page_url, template,
// created_at, updated_at.

const methods: ApiMethods = {
  async GET({ request }) {
    const searchParams = new URL(request.url).searchParams;
    if (/^(true|1)$/i.test(searchParams.get("template") ?? "")) {
      await requireApiUser(request);
      return apiData({ pages: listTemplates() });
    }
    const ctx = await requireQueryOrg(request);
    if (!searchParams.has("search") && searchParams.has("query")) searchParams.set("search", searchParams.get("query") ?? "");
    const page = parseListParams(searchParams);
    const { rows, total } = await listPages(ctx, page);
    return apiData({
      pages: rows.map((p) => pageJson(ctx.org.id, p)),
      meta: { page: page.page, per_page: page.pageSize, total },
    });
  },

  async POST({ request }) {
    const { ctx, body } = await readSplashBody(request);
    // The permission is checked before the body, so a refused caller learns nothing from 422s.
    requirePermission(ctx, "create_splash_pages");
    const input = parseApiBody(body, splashPageSchema);
    const created = await createPage(ctx, input);
    const page = await getPage(ctx, created.id);
    return apiData({ message: `Splash page ${page.name} created.`, page: pageJson(ctx.org.id, page) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
