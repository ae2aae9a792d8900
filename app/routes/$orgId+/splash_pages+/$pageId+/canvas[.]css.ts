import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPage } from "~/services/splash/pages.server";
import { canvasOptionsCss } from "~/services/splash/render.server";
import { compileTailwind } from "~/services/splash/styles.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";

// GET /{orgId}/splash_pages/{pageId}/canvas.css — for the builder's canvas: the Tailwind CSS of the
// page's saved HTML (Bootstrap pages link the template's own file beside this one), then the page's
// declarations that take an option's value, with the values (canvasOptionsCss). Private to the organisation.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const values = new Map(page.configs.map((c) => [c.name, c.custom_value ?? c.default_value]));
  const tailwind = page.css_template === "tailwind.css" ? await compileTailwind(page.html) : "";
  return new Response(`${tailwind}\n${canvasOptionsCss(page.html, page.css, values)}\n`, {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
