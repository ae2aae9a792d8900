// Date ranges of the analytics screens (docs/glossary.md#date-range): `start` and `end` as YYYY-MM-DD in
// the URL, default today, never after today; malformed or reversed values fall back, never an error.
// Days are the organisation's (its fixed offset from UTC, app/lib/time-zone.ts): services get its
// local start-of-day (inclusive) to the next local day's start (exclusive), in UTC milliseconds.

import type { OrgClock } from "./time-zone";

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface DateRange {
  /** YYYY-MM-DD, as in the URL. */
  start: string;
  end: string;
  /** UTC ms of start 00:00:00.000 local time (inclusive). */
  startMs: number;
  /** UTC ms of the day after `end`, 00:00:00.000 local time (exclusive): end 23:59:59.999 included. */
  endMs: number;
  /** Whole days in the range, at least 1. */
  days: number;
  /** The organisation's offset from UTC the days are taken in (0: UTC days). */
  offsetMs: number;
}

export const DATE_RANGE_MESSAGES = {
  afterToday: (today: string) => `There is no data after today (${formatDayMonthYear(today)}): choose dates up to today.`,
} as const;

/**
 * Whether `start` or `end` of the URL is a day after `today` (YYYY-MM-DD). dateRange ends such a range
 * today; the form says so rather than leave the operator thinking the dates were taken.
 */
export function asksAfterToday(searchParams: URLSearchParams, today: string): boolean {
  return ["start", "end"].some((key) => {
    const value = searchParams.get(key);
    return value !== null && parseIsoDate(value) !== null && value > today;
  });
}

/** Today's date (YYYY-MM-DD) at `offsetMs` from UTC. */
export function todayIso(now = Date.now(), offsetMs = 0): string {
  return new Date(now + offsetMs).toISOString().slice(0, 10);
}

function parseIsoDate(value: string | null | undefined): number | null {
  if (!value || !ISO_DATE.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  // Date.parse accepts 2026-02-31 by rolling over; a real date must print back the same.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
  return ms;
}

/** The range of `start`..`end` (both YYYY-MM-DD, inclusive, local days), clamped to today; swapped if reversed. */
export function dateRange(start: string | null | undefined, end: string | null | undefined, now: number, offsetMs: number): DateRange {
  const today = parseIsoDate(todayIso(now, offsetMs))!;
  let from = parseIsoDate(start) ?? parseIsoDate(end) ?? today;
  let to = parseIsoDate(end) ?? today;
  from = Math.min(from, today);
  to = Math.min(to, today);
  if (from > to) [from, to] = [to, from];
  return {
    start: todayIso(from),
    end: todayIso(to),
    startMs: from - offsetMs,
    endMs: to + DAY_MS - offsetMs,
    days: Math.round((to - from) / DAY_MS) + 1,
    offsetMs,
  };
}

/** Whether a window starts and ends on the organisation's midnights: the analytics roll-ups hold whole such days. */
export function isWholeDays(range: Pick<DateRange, "startMs" | "endMs" | "offsetMs">): boolean {
  return (range.startMs + range.offsetMs) % DAY_MS === 0 && (range.endMs + range.offsetMs) % DAY_MS === 0;
}

/**
 * Throws unless the window is whole days of the organisation: the analytics and the visitor reports
 * answer only those (decision 0068). Every window the product builds is (parseDateRange, lastDays,
 * a report's day), so this catches a programming error, not bad input.
 */
export function assertWholeDays(range: Pick<DateRange, "startMs" | "endMs" | "offsetMs">): void {
  if (!isWholeDays(range)) throw new Error("Analytics take whole days of the organization's time zone.");
}

/** `start` and `end` from URL search params, in the organisation's days. */
export function parseDateRange(searchParams: URLSearchParams, clock: OrgClock, now = Date.now()): DateRange {
  return dateRange(searchParams.get("start"), searchParams.get("end"), now, clock.offsetMs);
}

/** A range of the last `days` days ending today (the access point pages use one year). */
export function lastDays(days: number, clock: OrgClock, now = Date.now()): DateRange {
  const today = parseIsoDate(todayIso(now, clock.offsetMs))!;
  return dateRange(todayIso(today - (days - 1) * DAY_MS), todayIso(today), now, clock.offsetMs);
}

/** dd/mm/yyyy, the reports' display format. */
export function formatDayMonthYear(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${d}/${m}/${y}`;
}

/** Monday of the week holding `iso` (weeks start Monday). */
export function mondayOf(iso: string): string {
  const ms = parseIsoDate(iso) ?? parseIsoDate(todayIso())!;
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return todayIso(ms - weekday * DAY_MS);
}

/** Quick choices offered beside the date inputs; "This week" starts on Monday. */
export function rangePresets(offsetMs = 0, now = Date.now()): { label: string; start: string; end: string }[] {
  const today = todayIso(now, offsetMs);
  const daysAgo = (n: number) => todayIso(parseIsoDate(today)! - n * DAY_MS);
  return [
    { label: "Today", start: today, end: today },
    { label: "Yesterday", start: daysAgo(1), end: daysAgo(1) },
    { label: "This week", start: mondayOf(today), end: today },
    { label: "Last 7 days", start: daysAgo(6), end: today },
    { label: "This month", start: `${today.slice(0, 8)}01`, end: today },
    { label: "Last 30 days", start: daysAgo(29), end: today },
    { label: "Last 365 days", start: daysAgo(364), end: today },
  ];
}

export { DAY_MS };
