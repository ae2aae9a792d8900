// Floor plans are accepted by what their bytes are, never by their name or the browser's claim.

export const IMAGE_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
} as const;

export type ImageExtension = keyof typeof IMAGE_TYPES;

/** Floor plans: photos and drawings. Splash pages also take GIFs (never SVG: it can carry scripts). */
export const FLOOR_PLAN_TYPES: readonly ImageExtension[] = ["png", "jpeg", "webp"];
export const SPLASH_IMAGE_TYPES: readonly ImageExtension[] = ["png", "jpeg", "webp", "gif"];

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  missing: "Choose an image file to upload.",
  wrongType: "The file must be a PNG, JPEG or WebP image.",
  tooLarge: "The file is too large: an image can be at most 10 MB.",
  unreadable: "The upload could not be read. Please try again.",
} as const;

/** How many leading bytes sniffImage needs. */
export const SNIFF_BYTES = 12;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = [0x52, 0x49, 0x46, 0x46]; // "RIFF", then 4 bytes of size, then "WEBP"
const WEBP = [0x57, 0x45, 0x42, 0x50];
const GIF = [0x47, 0x49, 0x46, 0x38]; // "GIF8" (GIF87a, GIF89a)

/** The image type of a file's first bytes (png, jpeg, webp or gif), or null for anything else. */
export function sniffImage(head: Uint8Array): ImageExtension | null {
  if (startsWith(head, PNG)) return "png";
  if (startsWith(head, JPEG)) return "jpeg";
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return "webp";
  if (startsWith(head, GIF)) return "gif";
  return null;
}

/** The Content-Type of a stored image by its extension (keys end in .png, .jpeg, .webp or .gif). */
export function imageContentType(key: string): string | null {
  const extension = key.slice(key.lastIndexOf(".") + 1);
  return Object.hasOwn(IMAGE_TYPES, extension) ? IMAGE_TYPES[extension as ImageExtension] : null;
}
