import { z } from "zod";
import { dateRange, todayIso, type DateRange } from "~/lib/date-range";
import type { Permission } from "~/lib/permissions";

// The M-Pesa transactions list (docs/guide/plans-and-prepaid.md#m-pesa-transactions,
// docs/guide/api.md#m-pesa-transactions), shared by the page, its CSV and the REST call. The window
// is whole days (the organization's on the page and the CSV, UTC for the API), inclusive, from
// 1970-01-01 to today unless given; dates after today are today, like every date range of the
// console. Unlike the analytics screens, a malformed or reversed range is refused with a message
// (400 on the page and the CSV, 422 from the API).

/**
 * M-Pesa payments are prepaid sales, so the Subscriptions permission guards them (the old client checked none:
 * docs/guide/access-control.md#differences-from-the-old-client).
 */
export const MPESA_TRANSACTIONS_PERMISSION: Permission = "view_subscriptions";

/** 50 per page (no choice of page size), a page window of two either side (docs/guide/plans-and-prepaid.md#m-pesa-transactions). */
export const MPESA_TRANSACTIONS_PAGE_SIZE = 50;
export const MPESA_TRANSACTIONS_FIRST_DAY = "1970-01-01";
/** The deepest page asked for (as parseListParams clamps the lists' pages). */
export const MPESA_TRANSACTIONS_MAX_PAGE = 1_000_000;
export const MPESA_TRANSACTIONS_CSV = "mpesa_transactions.csv";

export const MPESA_TRANSACTIONS_MESSAGES = {
  empty: "No M-Pesa transactions found.",
  failed: "Failed to fetch transactions.",
  date: "Use a date like 2026-11-25 (YYYY-MM-DD).",
  // The survey form's sentence for the same rule (docs/guide/surveys.md#validation).
  order: "Start date cannot be later than End date!",
  page: "The page must be a whole number from 1 to 1,000,000.",
} as const;

/** Status 1 is Completed, anything else (0 pending, 2 failed) Incomplete (docs/guide/plans-and-prepaid.md#m-pesa-transactions). */
export function mpesaStatusText(status: number): "Completed" | "Incomplete" {
  return Number(status) === 1 ? "Completed" : "Incomplete";
}

/** YYYY-MM-DD, optionally with a time the day is taken from ("2026-11-20 23:59:59"). */
const DAY = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z?)?$/;

/** The day a date names, or null when it is not a real date. */
function dayOf(value: string): string | null {
  const day = DAY.exec(value.trim())?.[1];
  if (!day) return null;
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  // Date.parse rolls 2026-02-31 over: a real date prints back the same.
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? null : day;
}

export type WindowCheck = { ok: true; range: DateRange } | { ok: false; field: "start" | "end"; message: string };

/**
 * The window of `start`..`end` (absent or empty: 1970-01-01 and today). A malformed date or a start
 * after the end is refused; dates after today become today.
 */
/** Days are the organisation's on its pages (`offsetMs`); the spec's API call keeps UTC days (0). */
export function mpesaWindow(start: string | null | undefined, end: string | null | undefined, now = Date.now(), offsetMs = 0): WindowCheck {
  const given = (v: string | null | undefined) => (v === null || v === undefined || v.trim() === "" ? null : v);
  const rawStart = given(start);
  const rawEnd = given(end);
  const startDay = rawStart === null ? MPESA_TRANSACTIONS_FIRST_DAY : dayOf(rawStart);
  if (startDay === null) return { ok: false, field: "start", message: MPESA_TRANSACTIONS_MESSAGES.date };
  const endDay = rawEnd === null ? todayIso(now, offsetMs) : dayOf(rawEnd);
  if (endDay === null) return { ok: false, field: "end", message: MPESA_TRANSACTIONS_MESSAGES.date };
  // Compared as given; with no end, a start after today is simply today (clamped below).
  if (rawEnd !== null && startDay > endDay) return { ok: false, field: "start", message: MPESA_TRANSACTIONS_MESSAGES.order };
  return { ok: true, range: dateRange(startDay, endDay, now, offsetMs) };
}

/** 1970-01-01 to today. */
export function defaultMpesaRange(offsetMs: number, now = Date.now()): DateRange {
  return dateRange(MPESA_TRANSACTIONS_FIRST_DAY, todayIso(now, offsetMs), now, offsetMs);
}

/** The page's (and the CSV's) window from its URL: `start` and `end`, as the date range form sends them. */
export function mpesaWindowOfUrl(searchParams: URLSearchParams, offsetMs: number, now = Date.now()): WindowCheck {
  return mpesaWindow(searchParams.get("start"), searchParams.get("end"), now, offsetMs);
}

const optionalText = z
  .string({ invalid_type_error: MPESA_TRANSACTIONS_MESSAGES.date })
  .max(40, MPESA_TRANSACTIONS_MESSAGES.date)
  .optional();

/**
 * POST /api/v1/getmpesatransactions {organization_id, start_date, end_date, page}
 * (docs/guide/api.md#m-pesa-transactions). organization_id is read by the route's guard; the
 * rest comes out as the window and the page.
 */
export function mpesaTransactionsQuerySchema(now = Date.now()) {
  return z
    .object({
      start_date: optionalText,
      end_date: optionalText,
      page: z
        .string({ invalid_type_error: MPESA_TRANSACTIONS_MESSAGES.page })
        .trim()
        .regex(/^\d{1,7}$/, MPESA_TRANSACTIONS_MESSAGES.page)
        .transform(Number)
        .refine((n) => n >= 1 && n <= MPESA_TRANSACTIONS_MAX_PAGE, MPESA_TRANSACTIONS_MESSAGES.page)
        .optional(),
    })
    .transform((value, ctx) => {
      const window = mpesaWindow(value.start_date, value.end_date, now);
      if (!window.ok) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [window.field === "start" ? "start_date" : "end_date"],
          message: window.message,
        });
        return z.NEVER;
      }
      return { range: window.range, page: value.page ?? 1 };
    });
}
