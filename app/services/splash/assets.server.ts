// Images for splash pages (docs/guide/splash-pages.md#images, docs/guide/api.md#splash-pages):
// uploaded by operators, listed with the address to use in a page, served to guests without a
// session at /assets/{key} (keys are random, so one organisation cannot list another's). The type
// is decided by the file's bytes; SVG is refused because it can carry scripts. Each organisation
// has a quota.
import type { Permission } from "~/lib/permissions";
import { db } from "~/db/db.server";
import { imageContentType, SPLASH_IMAGE_TYPES } from "~/lib/image-type";
import { publicOrigin } from "../email.server";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { assetStore, newAssetKey, readImageUpload, type StoredAsset } from "../storage.server";

export const ASSET_QUOTA = { bytes: 50 * 1024 * 1024, files: 500 } as const;
export const MAX_ASSET_BYTES = 5 * 1024 * 1024;

export const ASSET_MESSAGES = {
  wrongType: "The file must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).",
  tooLarge: "The file is too large: an image can be at most 5 MB.",
  quota: "This organization's images have reached their quota (50 MB or 500 files): delete some first.",
  deleted: "Image deleted.",
} as const;

/** Where guests' browsers fetch an asset: a path on this server (pages are served from here too). */
export const assetPath = (key: string) => `/assets/${key}`;

const NAME = /[^A-Za-z0-9 ._()-]+/g;
const cleanName = (name: string) => name.replace(NAME, "_").trim().slice(0, 120) || "image";

/** Reads a multipart upload (field `file`) as a splash image; `name` is the file name to show. */
export function readAssetUpload(request: Request) {
  return readImageUpload(request, "file", { maxBytes: MAX_ASSET_BYTES, accept: SPLASH_IMAGE_TYPES, wrongType: ASSET_MESSAGES.wrongType });
}

export type AssetUploadOutcome =
  { ok: true; asset: { id: number; name: string; path: string; url: string } } | { ok: false; status: 413 | 422; message: string };

/**
 * Keeps an uploaded image of the organisation, within the quota. Any one of `mayUpload` is needed:
 * edit_splash_pages for splash pages; the broadcast editors' permissions for the e-mail designer.
 */
export async function saveAsset(
  ctx: OrgContext,
  upload: Awaited<ReturnType<typeof readAssetUpload>>,
  fileName: string | null | undefined,
  mayUpload: Permission[] = ["edit_splash_pages"],
): Promise<AssetUploadOutcome> {
  requirePermission(ctx, ...mayUpload);
  if (!upload.ok)
    return {
      ok: false,
      status: upload.message.includes("too large") ? 413 : 422,
      message: upload.message.includes("too large") ? ASSET_MESSAGES.tooLarge : upload.message,
    };
  const used = await db
    .selectFrom("splash_assets")
    .select([(eb) => eb.fn.countAll<number>().as("files"), (eb) => eb.fn.sum<number>("size").as("bytes")])
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirstOrThrow();
  const size = upload.image.bytes.byteLength;
  if (Number(used.files) + 1 > ASSET_QUOTA.files || Number(used.bytes ?? 0) + size > ASSET_QUOTA.bytes)
    return { ok: false, status: 422, message: ASSET_MESSAGES.quota };
  const name = cleanName(fileName ?? `image.${upload.image.extension}`);
  const stem =
    name
      .replace(/\.[^.]*$/, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "image";
  const key = newAssetKey(`splash/${ctx.org.id}`, stem, upload.image.extension);
  await assetStore().put(key, upload.image.bytes);
  const row = await db
    .insertInto("splash_assets")
    .values({ organization_id: ctx.org.id, name, key, content_type: imageContentType(key)!, size, created_at: Date.now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, asset: { id: Number(row.id), name, path: assetPath(key), url: `${publicOrigin()}${assetPath(key)}` } };
}

/** The organisation's images, newest first: name, path (for pages) and full URL. */
export async function listAssets(ctx: OrgContext) {
  requirePermission(ctx, "view_splash_pages", "edit_splash_pages");
  const rows = await db
    .selectFrom("splash_assets")
    .select(["id", "name", "key", "size", "created_at"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ASSET_QUOTA.files)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    path: assetPath(r.key),
    url: `${publicOrigin()}${assetPath(r.key)}`,
    size: Number(r.size),
    created_at: Number(r.created_at),
  }));
}

/** Deletes an image of the organisation; pages that show it show a broken image from then on. */
export async function deleteAsset(ctx: OrgContext, assetId: number | null) {
  requirePermission(ctx, "edit_splash_pages");
  if (assetId === null) notFound("Image not found.");
  const row = await db
    .selectFrom("splash_assets")
    .select(["id", "key"])
    .where("id", "=", assetId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!row) notFound("Image not found.");
  await db.deleteFrom("splash_assets").where("id", "=", row.id).execute();
  await assetStore().delete(row.key);
}

/** A splash image for /assets/{key}: only keys recorded as splash assets, never floor plans. */
export async function publicAsset(key: string): Promise<StoredAsset | null> {
  if (!key.startsWith("splash/") || key.length > 200) return null;
  const row = await db.selectFrom("splash_assets").select("key").where("key", "=", key).executeTakeFirst();
  return row ? assetStore().get(row.key) : null;
}
