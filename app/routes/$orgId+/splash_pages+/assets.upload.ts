import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireOrg } from "~/services/guard.server";
import { readAssetUpload, saveAsset } from "~/services/splash/assets.server";

// POST /{orgId}/splash_pages/assets/upload — the builder's asset manager (cookie session, same
// origin): multipart `file` → 201 { data: { file: { name, url } } } with the image's path on this
// server (what pages use), or 4xx { message }. Needs edit_splash_pages.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ message: "Use POST." }, { status: 405 });
  const ctx = await requireOrg(request, params, "edit_splash_pages");
  const uploaded = await readAssetUpload(request);
  const saved = await saveAsset(ctx, uploaded, uploaded.ok ? (uploaded.fileName ?? null) : null);
  if (!saved.ok) return json({ message: saved.message }, { status: saved.status });
  return json({ data: { file: { name: saved.asset.name, url: saved.asset.path } } }, { status: 201 });
}
