import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { MAX_IMAGE_BYTES, SPLASH_IMAGE_TYPES, UPLOAD_MESSAGES } from "~/lib/image-type";
import { hasAny } from "~/lib/permissions";
import {
  apiData,
  apiError,
  apiValidationFailed,
  dispatch,
  isoTime,
  requireApiOrg,
  requireApiUser,
  withNotFoundMessage,
  type ApiMethods,
} from "~/services/api.server";
import { publicOrigin } from "~/services/email.server";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { listFloorPlans, saveLayoutImage } from "~/services/layout.server";
import { ASSET_MESSAGES, listAssets, MAX_ASSET_BYTES, saveAsset } from "~/services/splash/assets.server";
import { readImageUpload, type UploadResult } from "~/services/storage.server";
import { requireQueryOrg } from "./__venues.server";

// POST /account/api/v1/assets — multipart: file, name, organization_id (or X-Organization-Id).
//      - name {venueId}_floor_plan (docs/guide/api.md#account-service): the image (PNG, JPEG or WebP
//        by its content, at most 10 MB) becomes the network's layout plan (edit_network_layout) →
//        201 { data: { file: { name, url } } }. A name ending in _floor_plan without a network id:
//        422.
//      - any other name (or none): an image for splash pages (edit_splash_pages): PNG, JPEG, WebP or
//        GIF by its content (SVG refused), at most 5 MB, within the organisation's quota; `name` is the
//        name shown (else the file's own) → 201 { data: { file: { id, name, path, url } } }; use `url`
//        (or `path` on this host) in pages.
//      Too large: 413; wrong type or no file: 422 { errors: { file } }.
// GET  /account/api/v1/assets?organization_id= → { data: { files: [{ name, path }…] } }: the networks'
//      floor plans (view_networks) as before, then the splash images (view_splash_pages or
//      edit_splash_pages) with id, url, size and created_at too; 403 with neither.
// DELETE /account/api/v1/assets/{id}: a splash image (api.v1.assets.$id.ts).

const FLOOR_PLAN = /^(.*)_floor_plan$/;
const NAME_MESSAGE = "Name a floor plan {venueId}_floor_plan, with the id of one of the organization's networks.";

/** The floor plan's refusal of an upload read with the splash images' wider rules. */
function asFloorPlan(upload: UploadResult): UploadResult {
  if (!upload.ok) return upload.message === ASSET_MESSAGES.wrongType ? { ...upload, message: UPLOAD_MESSAGES.wrongType } : upload;
  if (upload.image.extension === "gif") return { ok: false, message: UPLOAD_MESSAGES.wrongType, fields: upload.fields };
  return upload;
}

/** The splash image's limit of an upload read with the floor plans' larger one. */
function asSplashImage(upload: UploadResult): UploadResult {
  if (upload.ok && upload.image.bytes.byteLength > MAX_ASSET_BYTES)
    return { ok: false, message: UPLOAD_MESSAGES.tooLarge, fields: upload.fields };
  return upload;
}

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, "view_networks", "view_splash_pages", "edit_splash_pages");
    const floorPlans = ctx.permissions.has("view_networks") ? await listFloorPlans(ctx) : [];
    const images = hasAny(ctx.permissions, "view_splash_pages", "edit_splash_pages") ? await listAssets(ctx) : [];
    return apiData({
      files: [
        ...floorPlans,
        ...images.map((a) => ({ id: a.id, name: a.name, path: a.path, url: a.url, size: a.size, created_at: isoTime(a.created_at) })),
      ],
    });
  },

  async POST({ request }) {
    await requireApiUser(request);
    // With the header, membership (and one of the two upload permissions) is settled before the
    // upload is read; which one applies is known from `name`, read with the file.
    const header = request.headers.get("X-Organization-Id");
    let ctx: OrgContext | null = header
      ? await requireApiOrg(request, header, "organization_id", "edit_network_layout", "edit_splash_pages")
      : null;
    // Read once, with the wider of the two rules (10 MB; GIF accepted); each kind narrows it below.
    const upload = await readImageUpload(request, "file", {
      maxBytes: MAX_IMAGE_BYTES,
      accept: SPLASH_IMAGE_TYPES,
      wrongType: ASSET_MESSAGES.wrongType,
    });
    if (!ctx) {
      const raw = upload.fields.get("organization_id");
      ctx = await requireApiOrg(
        request,
        typeof raw === "string" && raw.trim() ? raw : null,
        "organization_id",
        "edit_network_layout",
        "edit_splash_pages",
      );
    }
    const rawName = upload.fields.get("name");
    const name = typeof rawName === "string" ? rawName.trim() : "";
    const floorPlan = name.match(FLOOR_PLAN);

    if (floorPlan) {
      requirePermission(ctx, "edit_network_layout");
      const venueId = parseId(floorPlan[1]);
      if (venueId === null) return apiValidationFailed({ name: [NAME_MESSAGE] });
      const plan = asFloorPlan(upload);
      if (!plan.ok) {
        if (plan.message === UPLOAD_MESSAGES.tooLarge) return apiError(413, plan.message);
        return apiValidationFailed({ file: [plan.message] });
      }
      const saved = await withNotFoundMessage(saveLayoutImage(ctx, venueId, plan.image), "Network not found.");
      return apiData({ file: { name: `${venueId}_floor_plan`, url: `${publicOrigin()}${saved.url}` } }, 201);
    }

    const image = asSplashImage(upload);
    const saved = await saveAsset(ctx, image, name || (image.ok ? image.fileName : null));
    if (!saved.ok) return saved.status === 413 ? apiError(413, saved.message) : apiValidationFailed({ file: [saved.message] });
    return apiData({ file: saved.asset }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
