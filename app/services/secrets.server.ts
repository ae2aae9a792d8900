// The one helper for credentials Mlango must be able to read back (gateway secrets, controller
// passwords, OAuth client secrets, payment keys): AES-256-GCM under SECRETS_KEY. Stored as
// `v1.{iv}.{tag}.{ciphertext}` (base64url), so a leaked database or backup gives no usable secret
// and a changed key is detected (the tag fails) instead of yielding garbage. Plain values never go
// to a browser or a log: loaders send whether a secret is set, not the secret.
import crypto from "node:crypto";
import { getEnv } from "~/env.server";

const VERSION = "v1";

let cachedKey: Buffer | undefined;

/** SECRETS_KEY (64 hex characters or 32 base64 bytes); outside production a fixed development key. */
function key(): Buffer {
  if (cachedKey) return cachedKey;
  const configured = getEnv().SECRETS_KEY;
  cachedKey = configured ? decodeKey(configured) : crypto.createHash("sha256").update("mlango-development-secrets-key").digest();
  return cachedKey;
}

export function decodeKey(text: string): Buffer {
  const raw = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (raw.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes: 64 hexadecimal characters or 44 base64 characters.");
  return raw;
}

export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** The plain value; throws when the stored value was not made under this key. */
export function decryptSecret(stored: string): string {
  const [version, iv, tag, body] = stored.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Not an encrypted secret.");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** decryptSecret for nullable columns. */
export function readSecret(stored: string | null): string | null {
  return stored === null ? null : decryptSecret(stored);
}

/**
 * A key for one purpose derived from SECRETS_KEY (HMAC-SHA256 of the purpose), so values Mlango
 * can recompute (a RADIUS login's password) need no storage and change with the key.
 */
export function derivedKey(purpose: string): Buffer {
  return crypto.createHmac("sha256", key()).update(purpose).digest();
}
