import { describe, expect, it } from "vitest";
import { fillBuckets } from "~/lib/analytics";

const HOUR = 3_600_000;
const DAY = 86_400_000;
const day = Date.UTC(2026, 10, 25);
const zero = (time: number) => ({ time, footfall: 0 });

describe("chart series with every bucket", () => {
  it("fills today's hours up to the current one, keeping the hours with data", () => {
    const now = day + 9 * HOUR + 20 * 60_000; // 09:20
    const points = [
      { time: day + 2 * HOUR, footfall: 4 },
      { time: day + 9 * HOUR, footfall: 1 },
    ];
    const filled = fillBuckets(points, { startMs: day, endMs: day + DAY }, "hour", zero, now);
    expect(filled.map((p) => p.time)).toEqual(Array.from({ length: 10 }, (_, h) => day + h * HOUR));
    expect(filled[2]).toEqual({ time: day + 2 * HOUR, footfall: 4 });
    expect(filled[9].footfall).toBe(1);
    expect(filled.filter((p) => p.footfall === 0)).toHaveLength(8);
  });

  it("fills a past day's 24 hours and a month's days", () => {
    const later = day + 40 * DAY;
    expect(fillBuckets([], { startMs: day, endMs: day + DAY }, "hour", zero, later)).toHaveLength(24);
    const month = fillBuckets([{ time: day + 3 * DAY, footfall: 2 }], { startMs: day, endMs: day + 30 * DAY }, "day", zero, later);
    expect(month).toHaveLength(30);
    expect(month[3].footfall).toBe(2);
  });
});
