// The reports (docs/guide/reports.md#routes) as data: slugs, titles, the send hours of a
// subscription. Pure, shared by the pages, the services and the scheduler.
import { DAY_MS, todayIso, type DateRange } from "./date-range";

export const REPORTS = [
  { slug: "overview", title: "Overview" },
  { slug: "new_visitors", title: "First Timers" },
  { slug: "unique_visitors", title: "Unique Visitors" },
  { slug: "all_visitors", title: "All Visitors" },
  { slug: "repeat_visitors", title: "Repeat Customers" },
  { slug: "footfall", title: "Footfall" },
] as const;

export type ReportSlug = (typeof REPORTS)[number]["slug"];
export type VisitorReport = "new_visitors" | "unique_visitors" | "all_visitors" | "repeat_visitors";

export const VISITOR_REPORTS: readonly VisitorReport[] = ["new_visitors", "unique_visitors", "all_visitors", "repeat_visitors"];

export const REPORT_SLUGS: readonly ReportSlug[] = REPORTS.map((r) => r.slug);

export function isReportSlug(value: unknown): value is ReportSlug {
  return typeof value === "string" && (REPORT_SLUGS as readonly string[]).includes(value);
}

export function isVisitorReport(value: unknown): value is VisitorReport {
  return typeof value === "string" && (VISITOR_REPORTS as readonly string[]).includes(value);
}

export function reportTitle(slug: ReportSlug): string {
  return REPORTS.find((r) => r.slug === slug)!.title;
}

/** What each visitor list holds (docs/glossary.md#analytics-definitions); shown under the list's title. */
export const VISITOR_REPORT_DESCRIPTIONS: Record<VisitorReport, string> = {
  new_visitors: "Customers whose first authorized connection in the organization falls in the period.",
  unique_visitors: "Every customer who got online (an authorized connection) in the period, once each.",
  all_visitors: "Every customer who reached the portal in the period, whether or not they got online.",
  repeat_visitors: "Customers who got online in the period and had also got online before it.",
};

/** Send hours 01–24 (hour of the organisation's day; 24 is midnight at the end of the day), default 18. */
export const SEND_HOURS: readonly number[] = Array.from({ length: 24 }, (_, i) => i + 1);
export const DEFAULT_SEND_HOUR = 18;

/** 18 → "18:00 Hours". */
export function formatSendHour(hour: number): string {
  return `${String(hour).padStart(2, "0")}:00 Hours`;
}

const HOUR_MS = 3_600_000;

/**
 * The organisation's day (at `offsetMs` from UTC) whose report is due most recently at `now` for a
 * send hour: today once today's hour has come, else yesterday (hour 24 of a day is midnight at its
 * end, so it is always yesterday's).
 */
export function dueDay(sendAt: number, now: number, offsetMs: number): string {
  const local = now + offsetMs;
  const todayStart = local - (local % DAY_MS);
  return todayStart + sendAt * HOUR_MS <= local ? todayIso(todayStart) : todayIso(todayStart - DAY_MS);
}

/** The first day a subscription made (or moved) at `now` delivers: the next due day, never one already past. */
export function firstDeliveryDay(sendAt: number, now: number, offsetMs: number): string {
  return todayIso(Date.parse(`${dueDay(sendAt, now, offsetMs)}T00:00:00Z`) + DAY_MS);
}

/** The file name of a report's CSV export and e-mail attachment. */
export function reportFileName(slug: ReportSlug): string {
  return `${slug}.csv`;
}

/** A footfall bucket's start in the reports' format, at `offsetMs` from UTC: "21/11/2026 14:00" for hours, "21/11/2026" for days. */
export function formatBucket(timeMs: number, bucket: "hour" | "day", offsetMs: number): string {
  const iso = new Date(timeMs + offsetMs).toISOString();
  const day = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  return bucket === "hour" ? `${day} ${iso.slice(11, 13)}:00` : day;
}

/** What the top of every report page shows: title, period, venue filter and the user's subscription. */
export interface ReportPageHeader {
  orgId: number;
  report: ReportSlug;
  title: string;
  range: DateRange;
  /** "dd/mm/yyyy – dd/mm/yyyy". */
  period: string;
  venues: { value: string; label: string }[];
  venueIds: string[];
  subscription: { id: number; sendAt: number; label: string } | null;
}
