import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
/** OWASP's current scrypt parameters (2^17 × 8 × 1: 128 MiB and ~250 ms here per hash). */
export const OWASP_SCRYPT = { N: 2 ** 17, r: 8, p: 1 };
/**
 * Test runs (NODE_ENV=test) sign in thousands of times and hash at 2^12 (~5 ms): they check the scheme,
 * the upgrade of weaker hashes and the sign-in limits, not the cost, which took minutes of every run.
 * Every other environment, the browser tests' production server included, uses OWASP's.
 */
const SCRYPT = { ...(process.env.NODE_ENV === "test" ? { N: 2 ** 12, r: 8, p: 1 } : OWASP_SCRYPT), keylen: 64 };
/** scrypt needs 128 × N × r bytes; Node refuses more than 32 MiB unless told. */
const maxmem = (N: number, r: number) => 256 * N * r;

/** `scrypt$N$r$p$salt$hash`, so the cost can rise later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: maxmem(SCRYPT.N, SCRYPT.r) });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return crypto.timingSafeEqual(expected, actual);
}

/** A stored hash made with weaker parameters than today's: re-hash it at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(n) < SCRYPT.N || Number(r) < SCRYPT.r || Number(p) < SCRYPT.p;
}

/** A random URL-safe secret (tokens, reset links, invitations). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString("base64url");
}

/** Secrets are stored hashed: a leaked table gives no usable token. */
export function hashToken(token: string): string {
  // The one-shot crypto.hash (Node ≥ 20.12) skips building a Hash object: a few µs on every guest request.
  return crypto.hash("sha256", token, "hex");
}

/** A network's portal key: in every gateway URL, so unguessable (144 bits), and URL-safe. */
export function newPortalKey(): string {
  return randomToken(18);
}

/** Whether two secrets are equal, in time that depends on neither (both are hashed first, so lengths leak nothing). */
export function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}
