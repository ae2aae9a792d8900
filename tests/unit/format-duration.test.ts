import { describe, expect, it } from "vitest";
import { formatClock, formatHms } from "~/lib/format";

describe("formatHms", () => {
  it("keeps the spec's h m s under a day", () => {
    expect(formatHms(0)).toBe("0h 0m 0s");
    expect(formatHms(10)).toBe("0h 0m 10s");
    expect(formatHms(3725)).toBe("1h 2m 5s");
    expect(formatHms(86_399)).toBe("23h 59m 59s");
    // Rounded to the second; never negative.
    expect(formatHms(59.6)).toBe("0h 1m 0s");
    expect(formatHms(-5)).toBe("0h 0m 0s");
  });

  it("reads a day or more as days and hours", () => {
    expect(formatHms(86_400)).toBe("1 d 0 h");
    expect(formatHms(93_600 + 59 * 60)).toBe("1 d 2 h"); // 26 h 59 m: whole hours
    expect(formatHms(4606 * 3600 + 35 * 60 + 29)).toBe("191 d 22 h");
    expect(formatHms(86_399.6)).toBe("1 d 0 h"); // rounds to a whole day first
  });

  it("keeps the exact h m s at any size when asked (exports)", () => {
    expect(formatHms(4606 * 3600 + 35 * 60 + 29, "exact")).toBe("4606h 35m 29s");
    expect(formatHms(3725, "exact")).toBe("1h 2m 5s");
  });

  it("leaves the reports' hh:mm:ss alone (spec 3: hours may exceed 24)", () => {
    expect(formatClock(4606 * 3600 + 35 * 60 + 29)).toBe("4606:35:29");
  });
});
