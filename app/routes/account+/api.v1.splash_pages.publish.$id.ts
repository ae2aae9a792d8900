import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { hasAny } from "~/lib/permissions";
import { apiData, apiValidationFailed, dispatch, type ApiMethods } from "~/services/api.server";
import { getPage, publishPage } from "~/services/splash/pages.server";
import { pageJson } from "./__splash.server";
import { requireQueryOrg } from "./__venues.server";

// GET /account/api/v1/splash_pages/publish/{id} (publish_splash_pages; a GET because the spec's client
//     sends one — bearer tokens only, so no other site can make a browser send it) → { data: { message,
//     page } }: the draft becomes what guests get (published true, page_url set). A page not set up
//     yet: 422 { errors: { type: [message] } }. The page comes with its code when the caller may read it
//     (view, create or edit splash pages), else as the summary.

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request);
    const published = await publishPage(ctx, parseId(params.id));
    if (!published.ok) return apiValidationFailed({ type: [published.message] });
    const page = hasAny(ctx.permissions, "view_splash_pages", "create_splash_pages", "edit_splash_pages")
      ? await getPage(ctx, published.page.id)
      : published.page;
    return apiData({ message: published.message, page: pageJson(ctx.org.id, page) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
