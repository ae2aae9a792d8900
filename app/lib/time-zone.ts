// Organisation time zones (docs/decisions/0023-organization-time-zones.md). An
// organisation keeps an IANA zone name for display and the zone's standard offset from UTC, which
// every day and hour of its analytics, date ranges and displayed times use. A fixed offset is exact
// for zones without daylight saving time (all of East Africa); see the decision for the others.

export const DEFAULT_TIME_ZONE = "Africa/Nairobi";

/** An organisation's clock: what loaders hand to pages and services to ranges. */
export interface OrgClock {
  timeZone: string;
  offsetMs: number;
}

export const UTC_CLOCK: OrgClock = { timeZone: "UTC", offsetMs: 0 };

// Node 20's ICU lists some zones under their old names only (Asia/Calcutta); browsers report the
// current ones (Asia/Kolkata). Both are offered, so the browser's zone is found in the list.
const CURRENT_NAMES = [
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Yangon",
  "Asia/Ho_Chi_Minh",
  "Europe/Kyiv",
  "America/Nuuk",
  "Atlantic/Faroe",
  "Pacific/Kanton",
];

/** Every zone the runtime knows (IANA names), UTC first. */
export function timeZoneNames(): string[] {
  const names = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
  for (const name of CURRENT_NAMES) if (isTimeZone(name)) names.add(name);
  names.delete("UTC");
  return ["UTC", ...[...names].sort()];
}

export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `ms`, in milliseconds (east positive). */
function offsetAt(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - (ms - (ms % 1000));
}

/**
 * The zone's standard offset: the smaller of its January and July offsets (daylight saving time
 * adds to the standard offset in both hemispheres), so it does not depend on the day it is asked.
 */
export function standardOffsetMs(zone: string, now = Date.now()): number {
  const year = new Date(now).getUTCFullYear();
  return Math.min(offsetAt(zone, Date.UTC(year, 0, 1)), offsetAt(zone, Date.UTC(year, 6, 1)));
}

/** "UTC+03:00", "UTC−05:30", "UTC". */
export function formatOffset(offsetMs: number): string {
  if (offsetMs === 0) return "UTC";
  const minutes = Math.abs(offsetMs) / 60_000;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, "0");
  return `UTC${offsetMs < 0 ? "−" : "+"}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/** "Africa/Nairobi (UTC+03:00)". */
export function clockLabel(clock: OrgClock): string {
  return clock.timeZone === "UTC" && clock.offsetMs === 0 ? "UTC" : `${clock.timeZone} (${formatOffset(clock.offsetMs)})`;
}
