// `npm run bench -- <name>` (bench/run.ts) runs bench/<name>.bench.ts: the list it prints is every
// benchmark there is.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCHMARKS } from "../../bench/benchmarks";

describe("the benchmarks' runner", () => {
  it("lists every bench/*.bench.ts and nothing else", () => {
    const files = fs
      .readdirSync("bench")
      .filter((file) => file.endsWith(".bench.ts"))
      .map((file) => file.replace(/\.bench\.ts$/, ""));
    expect(Object.keys(BENCHMARKS).sort()).toEqual(files.sort());
  });
});
