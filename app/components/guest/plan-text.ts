// Plans in words, as the connect page and the simulator read them ("2 hours, up to 1 GB, for use
// within 1 day").
import type { FreeEvery } from "~/db/schema";
import { formatBytes } from "~/lib/format";

export interface PlanLimits {
  timeLimitMinutes: number | null;
  usageLimitBytes: number | null;
  validityMinutes: number;
}

const minutesText = (m: number) =>
  m % 1440 === 0 ? `${m / 1440} day${m === 1440 ? "" : "s"}` : m % 60 === 0 ? `${m / 60} hour${m === 60 ? "" : "s"}` : `${m} minutes`;
const EVERY_TEXT = { day: "once a day", week: "once a week", validity: "again when it has ended" } as const;
const bytesText = (bytes: number) => `up to ${formatBytes(bytes).replace(".00 ", " ")}`;

/** "Free Wi-Fi: 30 minutes, up to 500 MB, once a day." */
export function freePlanText(plan: PlanLimits & { every: FreeEvery | null }): string {
  const parts = [minutesText(Math.min(plan.timeLimitMinutes ?? Infinity, plan.validityMinutes))];
  if (plan.usageLimitBytes !== null) parts.push(bytesText(plan.usageLimitBytes));
  parts.push(EVERY_TEXT[plan.every ?? "day"]);
  return `Free Wi-Fi: ${parts.join(", ")}.`;
}

/** "2 hours, up to 1 GB, for use within 1 day" */
export function planSummary(plan: PlanLimits): string {
  const parts: string[] = [];
  if (plan.timeLimitMinutes !== null) parts.push(minutesText(plan.timeLimitMinutes));
  if (plan.usageLimitBytes !== null) parts.push(bytesText(plan.usageLimitBytes));
  if (parts.length === 0) parts.push("unlimited");
  parts.push(`for use within ${minutesText(plan.validityMinutes)}`);
  return parts.join(", ");
}

/** "14:05 UTC" today, else "26 Nov 14:05 UTC". */
export function clockText(at: number, now = Date.now()): string {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return sameDay ? `${iso.slice(11, 16)} UTC` : `${new Date(at).toUTCString().slice(5, 11)} ${iso.slice(11, 16)} UTC`;
}
