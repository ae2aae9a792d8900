import { describe, expect, it } from "vitest";
import { likePattern, pageWindow, parseListParams, rowNumber } from "~/lib/pagination";

describe("parseListParams", () => {
  it("defaults to page 1 of 10 rows", () => {
    expect(parseListParams(new URLSearchParams())).toEqual({ page: 1, pageSize: 10, offset: 0, search: "" });
  });
  it("clamps absurd pages and sizes instead of failing", () => {
    const p = parseListParams(new URLSearchParams("page=-4&per_page=100000"));
    expect(p.page).toBe(1);
    expect(p.pageSize).toBe(250);
    expect(parseListParams(new URLSearchParams("page=99999999999")).page).toBe(1_000_000);
    expect(parseListParams(new URLSearchParams("page=abc&per_page=x")).pageSize).toBe(10);
    expect(parseListParams(new URLSearchParams("per_page=1")).pageSize).toBe(5);
  });
  it("numbers rows continuously across pages", () => {
    const p = parseListParams(new URLSearchParams("page=3&per_page=25"));
    expect(rowNumber(p, 0)).toBe(51);
  });
});

describe("pageWindow", () => {
  it("shows the ends and the neighbourhood of the current page", () => {
    expect(pageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
  });
});

describe("likePattern", () => {
  it("escapes wildcards", () => {
    expect(likePattern("50%_a")).toBe("%50\\%\\_a%");
  });
});
