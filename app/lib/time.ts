// Times are epoch milliseconds in UTC everywhere (docs/decisions/0001-storage-representations.md);
// pages show them in the organisation's time zone (its fixed offset, app/lib/time-zone.ts).

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

/** DD-MM-YYYY HH:mm in UTC, as the spec's connections table and the exports show it. */
export const formatUtcDateTime = (ms: number) => formatDateTime(ms, 0);
