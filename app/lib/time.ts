// Times are epoch milliseconds in UTC everywhere (docs/decisions/0001-storage-representations.md);
// pages show them in the organisation's time zone (its fixed offset, app/lib/time-zone.ts), and a time
// typed into a form without a zone is read on that clock too.

import { formatOffset } from "./time-zone";

const pad = (n: number) => String(n).padStart(2, "0");

/** DD-MM-YYYY HH:mm at `offsetMs` from UTC (the organisation's clock; 0 for UTC). */
export function formatDateTime(ms: number, offsetMs = 0): string {
  const d = new Date(ms + offsetMs);
  return `${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** DD-MM-YYYY: the date of formatDateTime, for pages that show a day only. */
export function formatDate(ms: number, offsetMs = 0): string {
  return formatDateTime(ms, offsetMs).slice(0, 10);
}

/** DD-MM-YYYY HH:mm in UTC (the UTC tooltip of a displayed time). */
export const formatUtcDateTime = (ms: number) => formatDateTime(ms, 0);

/** A column or field label with the clock its times are on: "Created at (UTC+03:00)". */
export function withZone(label: string, offsetMs: number): string {
  return `${label} (${formatOffset(offsetMs)})`;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A date and time as a datetime-local input sends it ("2026-12-31T09:30", read at `offsetMs` from UTC:
 * the organisation's clock), or ISO 8601 with Z or an offset of its own (the data API). Epoch ms, or
 * null when it is no real time (31 February included).
 */
export function parseDateTimeAt(raw: string, offsetMs: number): number | null {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second = "0", fraction = "0"] = m.slice(1, 8);
  const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, Number(fraction.padEnd(3, "0")));
  const d = new Date(wall);
  const real =
    d.getUTCFullYear() === +year &&
    d.getUTCMonth() === +month - 1 &&
    d.getUTCDate() === +day &&
    d.getUTCHours() === +hour &&
    d.getUTCMinutes() === +minute &&
    d.getUTCSeconds() === +second;
  if (!real) return null;
  const zone = m[8];
  if (!zone) return wall - offsetMs;
  if (zone === "Z") return wall;
  const [h, min] = zone.slice(1).split(":").map(Number);
  if (h > 14 || min > 59) return null;
  return wall - (zone.startsWith("-") ? -1 : 1) * (h * 60 + min) * 60_000;
}

/** Epoch ms → "2026-11-25T14:30" at `offsetMs` from UTC, for a datetime-local input. */
export function toDateTimeInputAt(ms: number | null, offsetMs: number): string {
  return ms === null ? "" : new Date(ms + offsetMs).toISOString().slice(0, 16);
}

/** Epoch ms → "2026-11-25 14:30" at `offsetMs` from UTC (messages that repeat a typed time). */
export function formatInputTime(ms: number, offsetMs: number): string {
  return toDateTimeInputAt(ms, offsetMs).replace("T", " ");
}
