import { describe, expect, it } from "vitest";
import { csvLine, plainText } from "~/lib/csv-line";

describe("csvLine", () => {
  it("joins plain cells with commas and ends the line", () => {
    expect(csvLine(["#", 1, "Achieng Odhiambo", null, undefined, 0])).toBe("#,1,Achieng Odhiambo,,,0\n");
  });

  it("quotes cells with commas, quotes or line breaks and doubles their quotes", () => {
    expect(csvLine(['Java House, Westlands', 'The "Hub"', "two\nlines", "cr\r"])).toBe('"Java House, Westlands","The ""Hub""","two\nlines","cr\r"\n');
  });
});

describe("plainText", () => {
  it("keeps a spreadsheet from reading guest text as a formula", () => {
    expect(plainText('=HYPERLINK("http://x")')).toBe(`'=HYPERLINK("http://x")`);
    expect(plainText("+1")).toBe("'+1");
    expect(plainText("-2")).toBe("'-2");
    expect(plainText("@cmd")).toBe("'@cmd");
    expect(plainText("Achieng")).toBe("Achieng");
  });
});
