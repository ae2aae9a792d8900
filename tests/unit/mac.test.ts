import { describe, expect, it } from "vitest";
import { isMac, normaliseMac } from "~/lib/mac";

describe("normaliseMac", () => {
  it.each([
    ["aa:bb:cc:dd:ee:ff", "aa:bb:cc:dd:ee:ff"],
    ["AA:BB:CC:DD:EE:FF", "aa:bb:cc:dd:ee:ff"],
    ["AA-BB-CC-DD-EE-FF", "aa:bb:cc:dd:ee:ff"],
    ["a0-B1-c2-D3-e4-F5", "a0:b1:c2:d3:e4:f5"],
    ["aabb.ccdd.eeff", "aa:bb:cc:dd:ee:ff"],
    ["0019.E8A1.2B3C", "00:19:e8:a1:2b:3c"],
    ["aabbccddeeff", "aa:bb:cc:dd:ee:ff"],
    ["001AFFE3C2B0", "00:1a:ff:e3:c2:b0"],
    ["  02:00:00:00:00:01  ", "02:00:00:00:00:01"],
  ])("reads %j as %s", (input, expected) => {
    expect(normaliseMac(input)).toBe(expected);
  });

  it.each([
    "",
    "aa:bb:cc:dd:ee",
    "aa:bb:cc:dd:ee:ff:00",
    "aa:bb-cc:dd:ee:ff", // mixed separators
    "aa:bb:cc:dd:ee:fg",
    "aabb.ccdd.eef",
    "aabbccddeef",
    "aabbccddeeff0",
    "a:b:c:d:e:f",
    "aa bb cc dd ee ff",
    "not a mac",
  ])("refuses %j", (input) => {
    expect(normaliseMac(input)).toBeNull();
    expect(isMac(input)).toBe(false);
  });

  it("gives the same form for every way of writing one address", () => {
    const forms = ["00:1A:2b:3C:4d:5E", "00-1a-2B-3c-4D-5e", "001a.2b3c.4d5e", "001A2B3C4D5E"];
    expect(new Set(forms.map(normaliseMac))).toEqual(new Set(["00:1a:2b:3c:4d:5e"]));
  });
});
