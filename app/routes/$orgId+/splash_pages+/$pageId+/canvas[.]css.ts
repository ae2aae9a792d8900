import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFound } from "~/services/guard.server";
import { getPage } from "~/services/splash/pages.server";
import { compileTailwind } from "~/services/splash/styles.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";

// GET /{orgId}/splash_pages/{pageId}/canvas.css — the Tailwind CSS of the page's saved HTML, for the
// builder's canvas (Bootstrap pages link the template's own file instead). Private to the organisation.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  if (page.css_template !== "tailwind.css") notFound("This page does not use Tailwind.");
  return new Response(await compileTailwind(page.html), {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
