import { describe, expect, it } from "vitest";
import { asksAfterToday, DATE_RANGE_MESSAGES, dateRange, mondayOf, rangePresets } from "~/lib/date-range";
import { formatBytes, formatClock, formatHms, toGigabytes } from "~/lib/format";

const NOW = Date.parse("2026-11-22T15:30:00Z"); // a Sunday

describe("dateRange", () => {
  it("defaults to today, start of day to the next day's start", () => {
    const r = dateRange(null, null, NOW, 0);
    expect(r).toMatchObject({ start: "2026-11-22", end: "2026-11-22", days: 1 });
    expect(r.startMs).toBe(Date.parse("2026-11-22T00:00:00Z"));
    expect(r.endMs).toBe(Date.parse("2026-11-23T00:00:00Z"));
  });
  it("takes the organisation's days: at 01:00 UTC it is already tomorrow in Nairobi, whose day starts at 21:00 UTC", () => {
    const nairobi = 3 * 3_600_000;
    const oneAm = Date.parse("2026-11-22T01:00:00Z");
    const r = dateRange(null, null, oneAm, nairobi);
    expect(r).toMatchObject({ start: "2026-11-22", end: "2026-11-22", days: 1, offsetMs: nairobi });
    expect(r.startMs).toBe(Date.parse("2026-11-21T21:00:00Z"));
    expect(r.endMs).toBe(Date.parse("2026-11-22T21:00:00Z"));
    // 22:00 UTC on the 21st: still the 21st in UTC, the 22nd in Nairobi (a date after today is clamped to it).
    expect(dateRange(null, null, Date.parse("2026-11-21T22:00:00Z"), 0).end).toBe("2026-11-21");
    expect(dateRange(null, "2026-11-23", Date.parse("2026-11-21T22:00:00Z"), nairobi).end).toBe("2026-11-22");
    // A zone west of UTC: New York's day starts at 05:00 UTC.
    expect(dateRange("2026-11-20", "2026-11-20", NOW, -5 * 3_600_000).startMs).toBe(Date.parse("2026-11-20T05:00:00Z"));
  });
  it("never goes after today, swaps reversed dates and ignores malformed ones", () => {
    expect(dateRange("2026-11-01", "2027-01-01", NOW, 0)).toMatchObject({ start: "2026-11-01", end: "2026-11-22", days: 22 });
    expect(dateRange("2026-11-10", "2026-11-01", NOW, 0)).toMatchObject({ start: "2026-11-01", end: "2026-11-10" });
    expect(dateRange("2026-02-31", "yesterday", NOW, 0)).toMatchObject({ start: "2026-11-22", end: "2026-11-22" });
    expect(dateRange("2026-11-20", null, NOW, 0)).toMatchObject({ start: "2026-11-20", end: "2026-11-22" });
  });
  it("starts weeks on Monday", () => {
    expect(mondayOf("2026-11-22")).toBe("2026-11-16");
    expect(mondayOf("2026-11-16")).toBe("2026-11-16");
    expect(rangePresets(0, NOW).find((p) => p.label === "This week")).toMatchObject({ start: "2026-11-16", end: "2026-11-22" });
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

describe("a range after today", () => {
  it("is noticed in the URL (a start or end after today), so the form can say it was not taken", () => {
    const asked = (query: string) => asksAfterToday(new URLSearchParams(query), "2026-11-22");
    expect(asked("start=2026-11-23&end=2026-11-24")).toBe(true);
    expect(asked("start=2026-11-01&end=2027-01-01")).toBe(true);
    expect(asked("start=2026-11-01&end=2026-11-22")).toBe(false);
    expect(asked("start=2099-02-31")).toBe(false); // not a date: the default range, no message
    expect(asked("")).toBe(false);
    expect(DATE_RANGE_MESSAGES.afterToday("2026-11-22")).toBe("There is no data after today (22/11/2026): choose dates up to today.");
  });
});
