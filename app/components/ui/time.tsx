import { useRouteLoaderData } from "@remix-run/react";
import { formatDateTime, formatUtcDateTime } from "~/lib/time";
import { formatOffset, UTC_CLOCK, type OrgClock } from "~/lib/time-zone";

/** The clock of the organisation being viewed (its layout's loader), UTC outside one. */
export function useOrgClock(): OrgClock {
  const data = useRouteLoaderData("routes/$orgId+/_layout") as { org?: { clock?: OrgClock } } | undefined;
  return data?.org?.clock ?? UTC_CLOCK;
}

/**
 * A time in the organisation's zone, with the UTC time as its tooltip (the spec's tables show UTC;
 * issue 17 §3 keeps that reading a hover away). `dateOnly` shows the day alone.
 */
export function Time({ ms, dateOnly = false }: { ms: number; dateOnly?: boolean }) {
  const clock = useOrgClock();
  const local = formatDateTime(ms, clock.offsetMs);
  return (
    <time dateTime={new Date(ms).toISOString()} title={`${formatUtcDateTime(ms)} UTC`}>
      {dateOnly ? local.slice(0, 10) : local}
    </time>
  );
}

/** A column header naming the zone of its times: "Connected At (UTC+03:00)". */
export function useTimeHeader(): (label: string) => string {
  const clock = useOrgClock();
  return (label) => `${label} (${formatOffset(clock.offsetMs)})`;
}
