import { describe, expect, it } from "vitest";
import { CSV_BOM, csvFile, csvHeader, csvLine, plainText } from "~/lib/csv-line";

describe("a CSV file's start", () => {
  it("is the UTF-8 byte-order mark (EF BB BF), then the header, so Excel reads the file as UTF-8", () => {
    expect(CSV_BOM).toBe("\uFEFF");
    const header = csvHeader(["#", "Network"]);
    expect([...Buffer.from(header, "utf8").subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(header.slice(1)).toBe("#,Network\n");
    const file = csvFile([
      ["#", "Network"],
      [1, "Kahawa Corner Café"],
    ]);
    expect(Buffer.from(file, "utf8").toString("latin1").startsWith("\xef\xbb\xbf#,Network\n")).toBe(true);
    expect(file).toBe("\uFEFF#,Network\n1,Kahawa Corner Café\n");
  });
});

describe("csvLine", () => {
  it("joins plain cells with commas and ends the line", () => {
    expect(csvLine(["#", 1, "Achieng Odhiambo", null, undefined, 0])).toBe("#,1,Achieng Odhiambo,,,0\n");
  });

  it("quotes cells with commas, quotes or line breaks and doubles their quotes", () => {
    expect(csvLine(["Java House, Westlands", 'The "Hub"', "two\nlines", "cr\r"])).toBe(
      '"Java House, Westlands","The ""Hub""","two\nlines","cr\r"\n',
    );
  });
});

describe("plainText", () => {
  it("keeps a spreadsheet from reading guest text as a formula", () => {
    expect(plainText('=HYPERLINK("http://x")')).toBe(`'=HYPERLINK("http://x")`);
    expect(plainText("+1+cmd|' /C calc'!A0")).toBe("'+1+cmd|' /C calc'!A0");
    expect(plainText("-2+3")).toBe("'-2+3");
    expect(plainText("@cmd")).toBe("'@cmd");
    expect(plainText("\t=1")).toBe("'\t=1");
    expect(plainText("Achieng")).toBe("Achieng");
  });

  it("leaves plain signed numbers as they are: a phone number in E.164 is no formula", () => {
    expect(plainText("+254712345678")).toBe("+254712345678");
    expect(plainText("-2.5")).toBe("-2.5");
  });

  it("is applied to every text cell of a line", () => {
    expect(csvLine(["=1+1", "+254712345678", '@x,"y"'])).toBe(`'=1+1,+254712345678,"'@x,""y"""\n`);
  });
});
