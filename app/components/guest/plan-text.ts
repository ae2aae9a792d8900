// Plans in words, as the connect page and the simulator read them ("2 hours, up to 1 GB, for use
// within 1 day"), in the words of the guest's language; times on the organisation's clock.
import type { FreeEvery } from "~/db/schema";
import { formatBytes } from "~/lib/format";
import type { OrgClock } from "~/lib/time-zone";
import type { PlanWords } from "./connect-text";

export interface PlanLimits {
  timeLimitMinutes: number | null;
  usageLimitBytes: number | null;
  validityMinutes: number;
}

/** English, for callers outside a guest's page (the simulator). */
export const ENGLISH_PLAN_WORDS: PlanWords = {
  minutes: (n) => `${n} minutes`,
  hours: (n) => `${n} hour${n === 1 ? "" : "s"}`,
  days: (n) => `${n} day${n === 1 ? "" : "s"}`,
  upTo: (size) => `up to ${size}`,
  unlimited: "unlimited",
  within: (time) => `for use within ${time}`,
  every: { day: "once a day", week: "once a week", validity: "again when it has ended" },
  free: (parts) => `Free Wi-Fi: ${parts}.`,
  months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
};

const minutesText = (m: number, w: PlanWords) => (m % 1440 === 0 ? w.days(m / 1440) : m % 60 === 0 ? w.hours(m / 60) : w.minutes(m));
const bytesText = (bytes: number, w: PlanWords) => w.upTo(formatBytes(bytes).replace(".00 ", " "));

/** "Free Wi-Fi: 30 minutes, up to 500 MB, once a day." */
export function freePlanText(plan: PlanLimits & { every: FreeEvery | null }, w: PlanWords = ENGLISH_PLAN_WORDS): string {
  const parts = [minutesText(Math.min(plan.timeLimitMinutes ?? Infinity, plan.validityMinutes), w)];
  if (plan.usageLimitBytes !== null) parts.push(bytesText(plan.usageLimitBytes, w));
  parts.push(w.every[plan.every ?? "day"]);
  return w.free(parts.join(", "));
}

/** "2 hours, up to 1 GB, for use within 1 day" */
export function planSummary(plan: PlanLimits, w: PlanWords = ENGLISH_PLAN_WORDS): string {
  const parts: string[] = [];
  if (plan.timeLimitMinutes !== null) parts.push(minutesText(plan.timeLimitMinutes, w));
  if (plan.usageLimitBytes !== null) parts.push(bytesText(plan.usageLimitBytes, w));
  if (parts.length === 0) parts.push(w.unlimited);
  parts.push(w.within(minutesText(plan.validityMinutes, w)));
  return parts.join(", ");
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A time on the organisation's clock: "17:05" today, else "26 Nov 17:05". An organisation on UTC
 * says so ("14:05 UTC"); elsewhere the guest is in the zone, and the time is theirs.
 */
export function clockText(at: number, clock: OrgClock, w: PlanWords = ENGLISH_PLAN_WORDS, now = Date.now()): string {
  const local = new Date(at + clock.offsetMs);
  const today = new Date(now + clock.offsetMs);
  const sameDay = local.toISOString().slice(0, 10) === today.toISOString().slice(0, 10);
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}${clock.offsetMs === 0 && clock.timeZone === "UTC" ? " UTC" : ""}`;
  return sameDay ? time : `${local.getUTCDate()} ${w.months[local.getUTCMonth()]} ${time}`;
}
