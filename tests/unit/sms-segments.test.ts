// The SMS length count (app/lib/sms-segments.ts): GSM-7 160/153, UCS-2 70/67, extension characters
// as two septets, surrogate pairs as two units, and no pair split across two parts.
import { describe, expect, it } from "vitest";
import { smsCount, smsCountText } from "~/lib/sms-segments";

const count = (text: string) => {
  const c = smsCount(text);
  return [c.encoding, c.characters, c.segments];
};

describe("smsCount", () => {
  it("counts nothing for an empty text", () => {
    expect(smsCount("")).toEqual({ encoding: "GSM-7", characters: 0, segments: 0, perSegment: 160, remaining: 160 });
  });

  it("fits 160 GSM-7 characters in one SMS and splits the 161st into parts of 153", () => {
    expect(count("a".repeat(160))).toEqual(["GSM-7", 160, 1]);
    expect(smsCount("a".repeat(160)).remaining).toBe(0);
    expect(count("a".repeat(161))).toEqual(["GSM-7", 161, 2]);
    expect(smsCount("a".repeat(161))).toMatchObject({ perSegment: 153, remaining: 145 });
    expect(count("a".repeat(153 * 2))).toEqual(["GSM-7", 306, 2]);
    expect(count("a".repeat(153 * 2 + 1))).toEqual(["GSM-7", 307, 3]);
    expect(count("a".repeat(153 * 3))).toEqual(["GSM-7", 459, 3]);
  });

  it("keeps the basic set's accented letters and symbols in GSM-7", () => {
    expect(count("Karibu! £5 @ Café Ñoño, Ø¿§ ΔΦΓ\n")).toEqual(["GSM-7", 32, 1]);
    // ì is in the basic set, í is not.
    expect(count("Habarí")).toEqual(["UCS-2", 6, 1]);
  });

  it.each(["€", "{", "}", "[", "]", "~", "\\", "^", "|"])("counts the extension character %s as two septets", (c) => {
    expect(count(c)).toEqual(["GSM-7", 2, 1]);
    expect(count("a".repeat(158) + c)).toEqual(["GSM-7", 160, 1]);
    expect(count("a".repeat(159) + c)).toEqual(["GSM-7", 161, 2]);
  });

  it("does not split an escape pair across two parts", () => {
    // 152 septets, then € (2): it does not fit in the first part's last septet, so it starts the second.
    const text = "a".repeat(152) + "€" + "b".repeat(10);
    expect(smsCount(text)).toMatchObject({ encoding: "GSM-7", characters: 164, segments: 2, remaining: 153 - 12 });
    // 152 + € + 153 more: three parts, although 307 septets would fit in 306 + 1.
    expect(smsCount("a".repeat(152) + "€" + "b".repeat(152))).toMatchObject({ characters: 306, segments: 3 });
  });

  it("sends anything outside GSM-7 as UCS-2: 70 in one SMS, then parts of 67", () => {
    expect(count("ā".repeat(70))).toEqual(["UCS-2", 70, 1]);
    expect(count("ā".repeat(71))).toEqual(["UCS-2", 71, 2]);
    expect(count("ā".repeat(67 * 2))).toEqual(["UCS-2", 134, 2]);
    expect(count("ā".repeat(67 * 2 + 1))).toEqual(["UCS-2", 135, 3]);
    // One character outside the set turns the whole text into UCS-2.
    expect(count("a".repeat(69) + "ç")).toEqual(["UCS-2", 70, 1]);
    expect(count("a".repeat(70) + "`")).toEqual(["UCS-2", 71, 2]);
  });

  it("counts an emoji as two UTF-16 units and never splits it", () => {
    expect(count("😀")).toEqual(["UCS-2", 2, 1]);
    expect(count("a".repeat(68) + "😀")).toEqual(["UCS-2", 70, 1]);
    expect(count("a".repeat(69) + "😀")).toEqual(["UCS-2", 71, 2]);
    // 66 units, then the pair: it goes whole into the second part.
    expect(smsCount("a".repeat(66) + "😀" + "b".repeat(10))).toMatchObject({ characters: 78, segments: 2, remaining: 67 - 12 });
  });

  it("says the count in words", () => {
    expect(smsCountText(smsCount("Hello"))).toBe("5 characters, 1 SMS (GSM-7), 155 left in this part");
    expect(smsCountText(smsCount("😀"))).toBe("2 characters, 1 SMS (UCS-2: special characters), 68 left in this part");
  });
});
