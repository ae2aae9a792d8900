import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireOrg } from "~/services/guard.server";
import { layoutImageVersion, openLayoutImage, venueIdParam } from "~/services/layout.server";

// GET /{orgId}/venues/{venueId}/layout-image — the network's floor plan, for members who may see
// the network. The stored key changes with every upload, so the versioned URL the pages use
// (?v=…) can be cached for good; any other is revalidated by its ETag.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venueId = venueIdParam(params.venueId);
  const { key, asset } = await openLayoutImage(ctx, venueId);
  const etag = `"${key.replace(/[^a-z0-9-]/g, "_")}"`;
  const current = new URL(request.url).searchParams.get("v") === layoutImageVersion(key);
  const headers = new Headers({
    "Content-Type": asset.contentType,
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": "inline",
    ETag: etag,
    // private: the image belongs to one organisation; shared caches must not keep it.
    "Cache-Control": current ? "private, max-age=31536000, immutable" : "private, no-cache",
  });
  if (request.headers.get("If-None-Match") === etag) {
    await asset.body.cancel();
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(asset.size));
  return new Response(asset.body, { status: 200, headers });
}
