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
    expect(dueDay(18, utc("2026-11-22T17:59:59"), 0)).toBe("2026-11-21");
    expect(dueDay(18, utc("2026-11-22T18:00:00"), 0)).toBe("2026-11-22");
    expect(dueDay(1, utc("2026-11-22T00:59:00"), 0)).toBe("2026-11-21");
    expect(dueDay(1, utc("2026-11-22T01:00:00"), 0)).toBe("2026-11-22");
  });

  it("reads hour 24 as midnight at the end of the day", () => {
    expect(dueDay(24, utc("2026-11-22T23:59:59"), 0)).toBe("2026-11-21");
    expect(dueDay(24, utc("2026-11-23T00:00:00"), 0)).toBe("2026-11-22");
    expect(dueDay(24, utc("2026-01-01T00:00:00"), 0)).toBe("2025-12-31");
  });

  it("starts a new subscription at its next hour, never with a day already past", () => {
    expect(firstDeliveryDay(18, utc("2026-11-22T10:00:00"), 0)).toBe("2026-11-22");
    expect(firstDeliveryDay(18, utc("2026-11-22T19:00:00"), 0)).toBe("2026-11-23");
    expect(firstDeliveryDay(24, utc("2026-11-22T19:00:00"), 0)).toBe("2026-11-22");
  });

  it("takes the organisation's day in Nairobi (UTC+03:00): its 18:00 is 15:00 UTC, its 01:00 falls on the UTC day before", () => {
    const nairobi = 3 * 3_600_000;
    expect(dueDay(18, utc("2026-11-22T14:59:59"), nairobi)).toBe("2026-11-21");
    expect(dueDay(18, utc("2026-11-22T15:00:00"), nairobi)).toBe("2026-11-22");
    // 22:30 UTC on the 21st is 01:30 on the 22nd in Nairobi: the 22nd's 01:00 report is due.
    expect(dueDay(1, utc("2026-11-21T22:30:00"), nairobi)).toBe("2026-11-22");
    expect(dueDay(24, utc("2026-11-22T21:00:00"), nairobi)).toBe("2026-11-22");
    expect(firstDeliveryDay(18, utc("2026-11-22T16:00:00"), nairobi)).toBe("2026-11-23");
    expect(formatBucket(utc("2026-11-22T21:00:00"), "day", nairobi)).toBe("23/11/2026");
    expect(formatBucket(utc("2026-11-22T11:00:00"), "hour", nairobi)).toBe("22/11/2026 14:00");
  });

  it("labels footfall buckets as dd/mm/yyyy, with the hour for hourly ones", () => {
    expect(formatBucket(utc("2026-11-22T14:00:00"), "hour", 0)).toBe("22/11/2026 14:00");
    expect(formatBucket(utc("2026-11-22T00:00:00"), "day", 0)).toBe("22/11/2026");
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
    expect(csvLine(row)).toBe(
      `7,"'=HYPERLINK(""http://evil.example"",""x"")",+254712345678,+254712345678,guest@example.com,'@guest,,'-1+1,2,3\n`,
    );
  });
});
