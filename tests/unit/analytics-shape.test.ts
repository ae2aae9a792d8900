import { describe, expect, it } from "vitest";
import { bucketFor } from "~/lib/analytics";
import { toDeviceUsage, toTotals } from "~/services/analytics-shape.server";

const none = { newCustomers: 0, repeatCustomers: 0 };

describe("analytics answer shapes", () => {
  it("never reports negative abandoned visits", () => {
    const totals = toTotals({ footfall: 3, connections: 5, upload: 0, download: 0, dwellMs: 0 }, none);
    expect(totals.abandoned).toBe(0);
    expect(toTotals({ footfall: 7, connections: 5, upload: 0, download: 0, dwellMs: 0 }, none).abandoned).toBe(2);
  });

  it("gives an average dwell of 0 without connections and rounds seconds otherwise", () => {
    expect(toTotals({ footfall: 4, connections: 0, upload: 0, download: 0, dwellMs: 0 }, none)).toMatchObject({
      dwellTime: 0,
      avgDwellTime: 0,
    });
    // 10.5 s over 2 connections: 11 s in total, 5 s (5.25) on average.
    expect(toTotals({ footfall: 2, connections: 2, upload: 0, download: 0, dwellMs: 10_500 }, none)).toMatchObject({
      dwellTime: 11,
      avgDwellTime: 5,
    });
    // Every authorized connection is in the average (an open one with its time so far in dwellMs).
    expect(toTotals({ footfall: 5, connections: 5, upload: 0, download: 0, dwellMs: 10_500 }, none)).toMatchObject({
      dwellTime: 11,
      avgDwellTime: 2,
    });
    expect(toTotals({ footfall: 3, connections: 3, upload: 0, download: 0, dwellMs: 0 }, none)).toMatchObject({
      dwellTime: 0,
      avgDwellTime: 0,
    });
  });

  it("adds upload and download into bandwidth, figures from either driver's strings", () => {
    expect(toTotals({ footfall: "1", connections: "1", upload: "1073741824", download: "1", dwellMs: "0" }, none)).toMatchObject({
      upload: 1_073_741_824,
      download: 1,
      bandwidth: 1_073_741_825,
    });
  });

  it("ranks device rows by connections, then footfall, then name, and keeps the top 5 brands and 10 browsers", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ key: `B${String(i).padStart(2, "0")}`, connections: i % 3, footfall: 12 - i }));
    const brands = toDeviceUsage(rows, "brand");
    expect(brands).toHaveLength(5);
    expect(brands.map((r) => r.key)).toEqual(["B02", "B05", "B08", "B11", "B01"]);
    expect(toDeviceUsage(rows, "browser")).toHaveLength(10);
    expect(toDeviceUsage(rows, "os")).toHaveLength(12);
    expect(toDeviceUsage(rows, "os", 2)).toHaveLength(2);
    expect(toDeviceUsage([{ key: "Gone", connections: 0, footfall: 0 }], "os")).toEqual([]);
  });

  it("uses hourly points up to two days and daily ones beyond", () => {
    expect(bucketFor({ startMs: 0, endMs: 2 * 86_400_000 })).toBe("hour");
    expect(bucketFor({ startMs: 0, endMs: 3 * 86_400_000 })).toBe("day");
  });
});
