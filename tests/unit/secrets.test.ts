import { describe, expect, it } from "vitest";
import { decodeKey, decryptSecret, encryptSecret, readSecret } from "~/services/secrets.server";

describe("secrets at rest", () => {
  it("encrypts to a versioned ciphertext that does not contain the secret and reads it back", () => {
    const stored = encryptSecret("unifi-password-123");
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain("unifi-password-123");
    expect(decryptSecret(stored)).toBe("unifi-password-123");
    expect(encryptSecret("unifi-password-123")).not.toBe(stored); // a fresh IV each time
    expect(readSecret(null)).toBeNull();
  });

  it("refuses a tampered ciphertext instead of returning garbage", () => {
    const [version, iv, tag, body] = encryptSecret("faskey").split(".");
    // The second-to-last character: the last one may carry only padding bits.
    const at = body!.length - 2;
    const flipped = body!.slice(0, at) + (body![at] === "A" ? "B" : "A") + body!.slice(at + 1);
    expect(() => decryptSecret([version, iv, tag, flipped].join("."))).toThrow();
    expect(() => decryptSecret("plain text")).toThrow(/Not an encrypted secret/);
  });

  it("takes a key as 64 hex characters or 32 base64 bytes, nothing else", () => {
    expect(decodeKey("ab".repeat(32))).toHaveLength(32);
    expect(decodeKey(Buffer.alloc(32, 7).toString("base64"))).toHaveLength(32);
    expect(() => decodeKey("short")).toThrow(/32 bytes/);
  });
});
