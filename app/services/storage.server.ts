// The asset store: uploaded files (floor plans) kept by key. The app talks only to the AssetStore
// interface, so an object store can replace the local disk later without touching callers; keys
// are database-safe paths ending in the file's extension.
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { getEnv } from "~/env.server";
import {
  FLOOR_PLAN_TYPES,
  imageContentType,
  MAX_IMAGE_BYTES,
  sniffImage,
  SNIFF_BYTES,
  UPLOAD_MESSAGES,
  type ImageExtension,
} from "~/lib/image-type";

export interface StoredAsset {
  body: ReadableStream<Uint8Array>;
  size: number;
  contentType: string;
}

export interface AssetStore {
  put(key: string, data: Uint8Array): Promise<void>;
  /** The asset as a stream, or null when there is none under the key. */
  get(key: string): Promise<StoredAsset | null>;
  /** Removes the asset; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*$/;

export function isAssetKey(key: string): boolean {
  return key.length <= 200 && KEY.test(key) && !key.includes("..");
}

function checkedKey(key: string): string {
  if (!isAssetKey(key)) throw new Error(`Not an asset key: ${JSON.stringify(key)}`);
  return key;
}

/** Files under a directory (DATA_DIR/assets by default), written atomically (temporary file, then rename). */
export class LocalDiskStore implements AssetStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, ...checkedKey(key).split("/"));
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.part`;
    try {
      await fs.writeFile(temporary, data);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredAsset | null> {
    const file = this.file(key);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    return { body, size: stat.size, contentType: imageContentType(key) ?? "application/octet-stream" };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }
}

let store: AssetStore | undefined;

export function assetStore(): AssetStore {
  store ??= new LocalDiskStore(path.resolve(getEnv().DATA_DIR, "assets"));
  return store;
}

/** Replaces the store (tests use a directory of their own; an object store would be set here). */
export function setAssetStore(next: AssetStore): void {
  store = next;
}

/** A new key under `folder` for a file of type `extension`: random, so replacing never collides or caches stale. */
export function newAssetKey(folder: string, stem: string, extension: string): string {
  return checkedKey(`${folder}/${stem}-${randomBytes(8).toString("hex")}.${extension}`);
}

// ---------------------------------------------------------------------------------------------
// Image uploads

const MAX_TEXT_FIELD_BYTES = 4096;

export interface ImageUpload {
  bytes: Uint8Array;
  extension: ImageExtension;
}

export type UploadResult =
  | {
      ok: true;
      image: ImageUpload;
      fields: FormData;
      /** The file's name as the browser sent it (not trusted: clean it before use). */ fileName?: string | null;
    }
  | { ok: false; message: string; fields: FormData };

/**
 * Reads a multipart form with one image file in `fileField`. The file is kept in memory only up
 * to `maxBytes`; beyond that the rest is read and dropped (so the browser gets our answer rather
 * than a reset connection — server.mjs caps the whole body) and the upload is refused. The type
 * is decided by the file's first bytes. Other fields come back as text (a few KB each at most).
 */
export async function readImageUpload(
  request: Request,
  fileField: string,
  {
    maxBytes = MAX_IMAGE_BYTES,
    accept = FLOOR_PLAN_TYPES,
    wrongType = UPLOAD_MESSAGES.wrongType,
  }: { maxBytes?: number; accept?: readonly ImageExtension[]; wrongType?: string } = {},
): Promise<UploadResult> {
  const empty = new FormData();
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("Content-Type") ?? "")) {
    return { ok: false, message: UPLOAD_MESSAGES.missing, fields: empty };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let sawFile = false;
  let fileName: string | null = null;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) return readText(data);
    if (name !== fileField || sawFile) {
      for await (const _ of data); // not ours: drain it
      return undefined;
    }
    sawFile = true;
    fileName = filename || null;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size <= maxBytes) chunks.push(chunk);
    }
    return undefined;
  };
  let fields: FormData;
  try {
    fields = await unstable_parseMultipartFormData(request, handler);
  } catch {
    return { ok: false, message: UPLOAD_MESSAGES.unreadable, fields: empty };
  }
  if (size === 0) return { ok: false, message: UPLOAD_MESSAGES.missing, fields };
  if (size > maxBytes) return { ok: false, message: UPLOAD_MESSAGES.tooLarge, fields };
  const bytes = Buffer.concat(chunks);
  const extension = sniffImage(bytes.subarray(0, SNIFF_BYTES));
  if (!extension || !accept.includes(extension)) return { ok: false, message: wrongType, fields };
  return { ok: true, image: { bytes, extension }, fields, fileName };
}

async function readText(data: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size <= MAX_TEXT_FIELD_BYTES) chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
