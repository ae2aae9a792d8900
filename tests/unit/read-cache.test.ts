// The short-lived read cache (app/db/read-cache.server.ts, decision 0089): one read per key while it
// is fresh, a new read once it is old, and a failed read not kept.
import { describe, expect, it } from "vitest";
import { readCache } from "~/db/read-cache.server";

describe("readCache", () => {
  it("reads a key once while fresh, again when stale, and never keeps a failure", async () => {
    let reads = 0;
    let fail = false;
    const cache = readCache(1_000, async (key: [number, number]) => {
      reads++;
      if (fail) throw new Error("down");
      return key[0] + key[1];
    });
    expect(await Promise.all([cache.get([1, 2], 0), cache.get([1, 2], 500)])).toEqual([3, 3]);
    expect(reads).toBe(1);
    expect(await cache.get([2, 2], 500)).toBe(4);
    expect(reads).toBe(2);
    fail = true;
    await expect(cache.get([1, 2], 1_000)).rejects.toThrow("down");
    await expect(cache.get([1, 2], 1_001)).rejects.toThrow("down");
    expect(reads).toBe(4);
    fail = false;
    expect(await cache.get([1, 2], 1_002)).toBe(3);
    expect(reads).toBe(5);
  });
});
