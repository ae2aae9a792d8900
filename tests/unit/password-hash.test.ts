// Passwords are hashed at OWASP's scrypt cost everywhere but in test runs (crypto.server.ts says why).
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("password hashes", () => {
  // Three hashes at the production cost take seconds on a busy machine: a correctness test, not a timed one.
  it("use N=2^17, r=8, p=1 in production and count anything weaker as due for an upgrade", { timeout: 60_000 }, async () => {
    vi.stubEnv("NODE_ENV", "production");
    const { hashPassword, verifyPassword, needsRehash } = await import("~/services/crypto.server");
    const hash = await hashPassword("production-pass");
    expect(hash.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
    expect(await verifyPassword("production-pass", hash)).toBe(true);
    expect(await verifyPassword("wrong-pass", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(needsRehash(["scrypt", 4096, 8, 1, "c2FsdA==", "aGFzaA=="].join("$"))).toBe(true);
  });

  it("use a low cost in test runs only", async () => {
    vi.stubEnv("NODE_ENV", "test");
    const { hashPassword } = await import("~/services/crypto.server");
    expect((await hashPassword("test-pass")).split("$").slice(0, 4)).toEqual(["scrypt", "4096", "8", "1"]);
  });
});
