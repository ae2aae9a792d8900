import { describe, expect, it } from "vitest";
import { dueDay, firstDeliveryDay, formatBucket, formatSendHour, SEND_HOURS, DEFAULT_SEND_HOUR } from "~/lib/reports";

const utc = (iso: string) => Date.parse(`${iso}Z`);

describe("report send hours", () => {
  it("offers 01 to 24, default 18, shown as HH:00 Hours", () => {
    expect(SEND_HOURS).toHaveLength(24);
    expect(SEND_HOURS[0]).toBe(1);
    expect(SEND_HOURS[23]).toBe(24);
    expect(DEFAULT_SEND_HOUR).toBe(18);
    expect(formatSendHour(1)).toBe("01:00 Hours");
    expect(formatSendHour(18)).toBe("18:00 Hours");
    expect(formatSendHour(24)).toBe("24:00 Hours");
  });

  it("makes today's report due once today's hour has come (UTC), else yesterday's", () => {
    expect(dueDay(18, utc("2026-11-22T17:59:59"))).toBe("2026-11-21");
    expect(dueDay(18, utc("2026-11-22T18:00:00"))).toBe("2026-11-22");
    expect(dueDay(1, utc("2026-11-22T00:59:00"))).toBe("2026-11-21");
    expect(dueDay(1, utc("2026-11-22T01:00:00"))).toBe("2026-11-22");
  });

  it("reads hour 24 as midnight at the end of the day", () => {
    expect(dueDay(24, utc("2026-11-22T23:59:59"))).toBe("2026-11-21");
    expect(dueDay(24, utc("2026-11-23T00:00:00"))).toBe("2026-11-22");
    expect(dueDay(24, utc("2026-01-01T00:00:00"))).toBe("2025-12-31");
  });

  it("starts a new subscription at its next hour, never with a day already past", () => {
    expect(firstDeliveryDay(18, utc("2026-11-22T10:00:00"))).toBe("2026-11-22");
    expect(firstDeliveryDay(18, utc("2026-11-22T19:00:00"))).toBe("2026-11-23");
    expect(firstDeliveryDay(24, utc("2026-11-22T19:00:00"))).toBe("2026-11-22");
  });

  it("labels footfall buckets as dd/mm/yyyy, with the hour for hourly ones", () => {
    expect(formatBucket(utc("2026-11-22T14:00:00"), "hour")).toBe("22/11/2026 14:00");
    expect(formatBucket(utc("2026-11-22T00:00:00"), "day")).toBe("22/11/2026");
  });
});

describe("visitor CSV rows", () => {
  it("keeps text a guest typed from being read as a formula, and phone numbers as they are", async () => {
    const { visitorCsvRow } = await import("~/services/report-visitors.server");
    const { csvLine } = await import("~/lib/csv-line");
    const row = visitorCsvRow(
      {
        id: 1,
        name: '=HYPERLINK("http://evil.example","x")',
        identity: "+254712345678",
        phone_number: "+254712345678",
        email_address: "guest@example.com",
        facebook: "@guest",
        twitter: null,
        more_info: "-1+1",
        devicesCount: 2,
        connectionsCount: 3,
      },
      7,
    );
    // The writer (csvCell) neutralises every text cell; phone numbers in E.164 stay as they are.
    expect(csvLine(row)).toBe(`7,"'=HYPERLINK(""http://evil.example"",""x"")",+254712345678,+254712345678,guest@example.com,'@guest,,'-1+1,2,3\n`);
  });
});
