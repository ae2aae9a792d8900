// Display of figures shared by every screen (docs/guide/README.md#shared-behaviour: binary units for bytes, GB in charts).

const BYTE_UNITS = ["Bytes", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"] as const;
export const BYTES_PER_GB = 1_073_741_824;

/** 1536 → "1.50 KB"; binary steps of 1024 from Bytes up to YB, 2 decimals. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), BYTE_UNITS.length - 1);
  if (exponent === 0) return `${Math.round(bytes)} Bytes`;
  return `${(bytes / 1024 ** exponent).toFixed(2)} ${BYTE_UNITS[exponent]}`;
}

/** Bytes to gigabytes for charts: ÷1073741824, 2 decimals. */
export function toGigabytes(bytes: number): number {
  return Math.round((bytes / BYTES_PER_GB) * 100) / 100;
}

const SECONDS_PER_DAY = 86_400;

/**
 * A duration, the one way every screen writes it: 3725 → "1h 2m 5s" (the dashboard's summary text: h, m and s,
 * docs/guide/dashboard.md#summary-cards). A day or more reads as days, hours and minutes in the same style:
 * 16_583_729 → "191d 22h 35m", not "4606h 35m 29s". (The overview report's hours:minutes:seconds is
 * formatClock, as spec 3 asks; exports give seconds.)
 */
export function formatHms(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const hms = `${Math.floor((s % SECONDS_PER_DAY) / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  if (s >= SECONDS_PER_DAY) return `${Math.floor(s / SECONDS_PER_DAY)}d ${hms}`;
  return `${hms} ${s % 60}s`;
}

/** 3725 → "01:02:05" (hours:minutes:seconds, the reports' format; hours may exceed 24). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Seconds to hours for the dwell-time chart, 2 decimals. */
export function toHours(seconds: number): number {
  return Math.round((seconds / 3600) * 100) / 100;
}

// One formatter for every call: building an Intl.NumberFormat costs more than formatting with it
// (~1 ms per dashboard request, decision 0073).
const COUNT = new Intl.NumberFormat("en-GB");

/** Thousands separators: 12345 → "12,345". */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** The spec's stored units (plans' Mins/Hrs/Days, MBs/GBs) as people write them. */
const UNIT_WORDS: Record<string, [one: string, many: string]> = {
  Mins: ["minute", "minutes"],
  Hrs: ["hour", "hours"],
  Days: ["day", "days"],
  MBs: ["MB", "MB"],
  GBs: ["GB", "GB"],
};

/** 1 and "Days" → "1 day", 2 → "2 days", 200 and "MBs" → "200 MB"; a unit it does not know is kept as it is. */
export function formatQuantity(value: number, unit: string): string {
  const words = UNIT_WORDS[unit];
  if (!words) return `${formatCount(value)} ${unit}`;
  return `${formatCount(value)} ${value === 1 ? words[0] : words[1]}`;
}
