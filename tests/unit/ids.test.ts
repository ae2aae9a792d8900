import { describe, expect, it } from "vitest";
import { parseId } from "~/lib/ids";

describe("parseId", () => {
  it("accepts positive integers within the id range", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("2147483647")).toBe(2147483647);
  });
  it("refuses everything else", () => {
    for (const bad of ["0", "-1", "abc", "1.5", "01", "2147483648", "99999999999999999999", "", null, undefined]) {
      expect(parseId(bad)).toBeNull();
    }
  });
});
