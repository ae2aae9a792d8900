import type { LoaderFunctionArgs } from "@remix-run/node";
import { previewCard } from "~/guest/pages";
import { draftFrame } from "~/services/splash/pages.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";

/**
 * The console's previews: the page's operator HTML runs in a sandbox without scripts and without
 * the console's origin (no allow-scripts, no allow-same-origin), may only be framed by the console
 * itself, and fetches nothing but this server's styles and images.
 */
export const PREVIEW_CSP =
  "sandbox allow-forms; default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; frame-ancestors 'self'";

// GET /{orgId}/splash_pages/{pageId}/preview — the DRAFT as guests would get it, around a sample
// connect form, for the list's cards and the Details tab (server/remix-handler.mjs lets these
// headers replace the console's `frame-ancestors 'none'` / `DENY`).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const frame = await draftFrame(ctx, pageIdParam(params));
  return new Response(frame.before + previewCard() + frame.after, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": PREVIEW_CSP,
      "X-Frame-Options": "SAMEORIGIN",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}
