import { describe, expect, it } from "vitest";
import { formatClock, formatHms, formatQuantity } from "~/lib/format";

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

  it("reads a day or more as days, hours and minutes in the same style", () => {
    expect(formatHms(86_400)).toBe("1d 0h 0m");
    expect(formatHms(93_600 + 59 * 60)).toBe("1d 2h 59m");
    expect(formatHms(4606 * 3600 + 35 * 60 + 29)).toBe("191d 22h 35m");
    expect(formatHms(86_399.6)).toBe("1d 0h 0m"); // rounds to a whole day first
  });

  it("leaves the reports' hh:mm:ss alone (spec 3: hours may exceed 24)", () => {
    expect(formatClock(4606 * 3600 + 35 * 60 + 29)).toBe("4606:35:29");
  });
});

describe("formatQuantity", () => {
  it("writes the plans' units as words, singular for one", () => {
    expect(formatQuantity(1, "Days")).toBe("1 day");
    expect(formatQuantity(2, "Days")).toBe("2 days");
    expect(formatQuantity(30, "Mins")).toBe("30 minutes");
    expect(formatQuantity(1, "Hrs")).toBe("1 hour");
    expect(formatQuantity(200, "MBs")).toBe("200 MB");
    expect(formatQuantity(1500, "GBs")).toBe("1,500 GB");
    expect(formatQuantity(3, "Kbps")).toBe("3 Kbps");
  });
});
