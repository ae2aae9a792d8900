import { describe, expect, it } from "vitest";
import { dateRange, mondayOf, rangePresets } from "~/lib/date-range";
import { formatBytes, formatClock, formatHms, toGigabytes } from "~/lib/format";

const NOW = Date.parse("2026-11-22T15:30:00Z"); // a Sunday

describe("dateRange", () => {
  it("defaults to today, start of day to the next day's start", () => {
    const r = dateRange(null, null, NOW);
    expect(r).toMatchObject({ start: "2026-11-22", end: "2026-11-22", days: 1 });
    expect(r.startMs).toBe(Date.parse("2026-11-22T00:00:00Z"));
    expect(r.endMs).toBe(Date.parse("2026-11-23T00:00:00Z"));
  });
  it("never goes after today, swaps reversed dates and ignores malformed ones", () => {
    expect(dateRange("2026-11-01", "2027-01-01", NOW)).toMatchObject({ start: "2026-11-01", end: "2026-11-22", days: 22 });
    expect(dateRange("2026-11-10", "2026-11-01", NOW)).toMatchObject({ start: "2026-11-01", end: "2026-11-10" });
    expect(dateRange("2026-02-31", "yesterday", NOW)).toMatchObject({ start: "2026-11-22", end: "2026-11-22" });
    expect(dateRange("2026-11-20", null, NOW)).toMatchObject({ start: "2026-11-20", end: "2026-11-22" });
  });
  it("starts weeks on Monday", () => {
    expect(mondayOf("2026-11-22")).toBe("2026-11-16");
    expect(mondayOf("2026-11-16")).toBe("2026-11-16");
    expect(rangePresets(NOW).find((p) => p.label === "This week")).toMatchObject({ start: "2026-11-16", end: "2026-11-22" });
  });
});

describe("format", () => {
  it("shows bytes in binary units with 2 decimals", () => {
    expect(formatBytes(0)).toBe("0 Bytes");
    expect(formatBytes(1023)).toBe("1023 Bytes");
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatBytes(1_073_741_824 * 3.5)).toBe("3.50 GB");
    expect(toGigabytes(1_610_612_736)).toBe(1.5);
  });
  it("shows durations as h m s and hh:mm:ss", () => {
    expect(formatHms(3725)).toBe("1h 2m 5s");
    expect(formatClock(3725)).toBe("01:02:05");
    expect(formatClock(90_000)).toBe("25:00:00");
  });
});
