import { useRouteLoaderData } from "@remix-run/react";
import { formatDateTime, formatUtcDateTime } from "~/lib/time";
import { UTC_CLOCK, type OrgClock } from "~/lib/time-zone";

/** The clock of the organisation being viewed (its layout's loader), UTC outside one. */
export function useOrgClock(): OrgClock {
  const data = useRouteLoaderData("routes/$orgId+/_layout") as { org?: { clock?: OrgClock } } | undefined;
  return data?.org?.clock ?? UTC_CLOCK;
}

/**
 * A time in the organisation's zone, with the UTC time as its tooltip (the old client's tables showed UTC;
 * the tooltip keeps that reading a hover away).
 */
export function Time({ ms }: { ms: number }) {
  const clock = useOrgClock();
  return (
    <time dateTime={new Date(ms).toISOString()} title={`${formatUtcDateTime(ms)} UTC`}>
      {formatDateTime(ms, clock.offsetMs)}
    </time>
  );
}
