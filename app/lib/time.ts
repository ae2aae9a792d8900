// Times are epoch milliseconds in UTC everywhere (docs/decisions/0001-storage-representations.md).

const pad = (n: number) => String(n).padStart(2, "0");

/** DD-MM-YYYY HH:mm in UTC, as the connections table shows it. */
export function formatUtcDateTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** DD-MM-YYYY in UTC: the date of formatUtcDateTime, for pages that show a day only. */
export function formatUtcDate(ms: number): string {
  return formatUtcDateTime(ms).slice(0, 10);
}
