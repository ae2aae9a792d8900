import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/redirect";
import { OFF_SITE_REDIRECTS } from "../fixtures/redirects";

describe("safeRedirect", () => {
  it.each([
    ["/1/connections?page=2#top", "/1/connections?page=2#top"],
    ["/login?redirectTo=%2F1", "/login?redirectTo=%2F1"],
    ["/a b", "/a%20b"],
  ])("keeps the same-site path %j", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    ["a tab between the slashes (browsers drop it)", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash (read as a slash)", "/\\evil.example"],
    ["a slash and backslash", "\\/evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["CR and LF (header injection)", "/ok\r\nSet-Cookie: x=1"],
    ["a NUL", "/ok\u0000"],
    ["a relative path", "evil.example"],
    ["nothing", ""],
  ])("refuses %s", (_label, input) => {
    expect(safeRedirect(input, "/home")).toBe("/home");
  });

  it.each(OFF_SITE_REDIRECTS)("refuses %j, whose normalised path leads to another host", (input) => {
    expect(safeRedirect(input, "/home")).toBe("/home");
  });

  it("keeps dot segments and encoded characters that stay on our site", () => {
    expect(safeRedirect("/a/./b/../c", "/home")).toBe("/a/c");
    expect(safeRedirect("/a/%2fb", "/home")).toBe("/a/%2fb");
    expect(safeRedirect("/..", "/home")).toBe("/");
  });

  it("refuses what is not text", () => {
    expect(safeRedirect(null, "/home")).toBe("/home");
    expect(safeRedirect(new File(["x"], "x"), "/home")).toBe("/home");
  });
});
