import { json, type ActionFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, getBroadcast } from "~/services/marketing/broadcasts.server";
import { readAssetUpload, saveAsset } from "~/services/splash/assets.server";

// POST /{orgId}/broadcast/{id}/assets — the e-mail designer's asset manager (cookie session, same
// origin): multipart `file` → 201 { data: { file: { name, url } } } with the image's ABSOLUTE URL
// (mail programs fetch it from PUBLIC_URL), or 4xx { message }. The image joins the organisation's
// images (the splash pages' store, served without a session at /assets/{key}); it needs the
// broadcast edit permissions, not edit_splash_pages.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ message: "Use POST." }, { status: 405 });
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  await getBroadcast(ctx, parseId(params.id)); // 404 for another organisation's broadcast
  const uploaded = await readAssetUpload(request);
  const saved = await saveAsset(ctx, uploaded, uploaded.ok ? (uploaded.fileName ?? null) : null, EDIT_BROADCASTS);
  if (!saved.ok) return json({ message: saved.message }, { status: saved.status });
  return json({ data: { file: { name: saved.asset.name, url: saved.asset.url } } }, { status: 201 });
}
