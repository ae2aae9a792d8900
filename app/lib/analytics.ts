// The shapes of the analytics answers (docs/glossary.md#analytics-definitions), shared by the
// analytics service, the dashboard, the network overview and the reports.
//
// Meanings, one everywhere:
// - footfall: connection records created in the window (portal visits);
// - connections: those of them that were authorized; abandoned = footfall − connections (never < 0);
// - new customers: customers whose first authorized connection in the organisation falls in the window;
//   repeat customers: customers authorized in the window who also had an authorized connection before it;
// - dwell time: sum of authorized connections' durations in seconds, an open session's being its time
//   so far (now − authorization); average = dwell time ÷ connections;
// - bandwidth = upload + download bytes.
// A connection counts in the hour (and day) it was created.

import type { DateRange } from "./date-range";

export interface AnalyticsScope {
  organizationId: number;
  /** Empty or undefined: every venue of the organisation. */
  venueIds?: readonly number[];
  /** offsetMs must be the organisation's own (ctx.org.clock): its roll-ups are keyed by its days. */
  range: Pick<DateRange, "startMs" | "endMs" | "offsetMs">;
}

export type Bucket = "hour" | "day";

/** usageSummary: one point per bucket that has data, oldest first; `time` is the bucket's start (UTC ms). */
export interface UsagePoint {
  time: number;
  footfall: number;
  connections: number;
  upload: number;
  download: number;
}

/** aggregateUsageSummary. */
export interface UsageTotals {
  upload: number;
  download: number;
  bandwidth: number;
  footfall: number;
  connections: number;
  abandoned: number;
  newCustomers: number;
  repeatCustomers: number;
  /** Seconds. */
  dwellTime: number;
  /** Seconds, dwellTime ÷ ended connections (0 when none has ended). */
  avgDwellTime: number;
}

/** venueUsageSummary row (top 5 by bandwidth by default; connections of deleted venues are left out). */
export interface VenueUsage {
  venueId: number;
  venueName: string;
  footfall: number;
  connections: number;
  bandwidth: number;
}

/** accessPointUsageSummary row (top 5 by bandwidth by default; connections of deleted access points are left out). */
export interface AccessPointUsage {
  accessPointId: number;
  apName: string;
  /** The access point's network, so two "Reception"s can be told apart. */
  venueName: string | null;
  accessPointMac: string;
  footfall: number;
  connections: number;
  bandwidth: number;
}

/** aggregateAuthModeSummary row. */
export interface AuthModeUsage {
  mode: string;
  connections: number;
}

export type DeviceDimension = "is_mobile" | "os" | "brand" | "browser";

/** aggregateDeviceSummary row; `key` is "Mobile"/"Desktop" for is_mobile, else the os/brand/browser ("Unknown" when empty). */
export interface DeviceUsage {
  key: string;
  connections: number;
  footfall: number;
}

export interface DwellPoint {
  time: number;
  /** Seconds. */
  dwellTime: number;
}

export interface FootfallPoint {
  time: number;
  footfall: number;
}

/** Traffic flow heatmap: footfall by weekday (0 = Monday … 6 = Sunday) and hour of day, the organisation's. */
export interface TrafficCell {
  weekday: number;
  hour: number;
  footfall: number;
}

/** Picks hourly points for windows of up to two days, daily ones beyond. */
export function bucketFor(range: Pick<DateRange, "startMs" | "endMs">): Bucket {
  return range.endMs - range.startMs <= 2 * 86_400_000 ? "hour" : "day";
}

/** The network (venue) profile's overview cards. */
export interface VenueOverview {
  /** Access points of the venue now. */
  accessPoints: number;
  /** Distinct customers with an authorized connection at the venue in the window. */
  uniqueClients: number;
  /** Authorized connections at the venue created in the window. */
  totalConnections: number;
  /** Online now (authorized, not ended), whatever the window. */
  currentlyConnected: number;
  /** Seconds, of the window's connections. */
  dwellTime: number;
}

/**
 * A chart's series with every bucket of the window, empty ones as zero, up to the bucket holding
 * `now`: the services answer only buckets with data (the APIs keep that), which drew a morning's
 * three hours as three lone bars or dots.
 */
export function fillBuckets<T extends { time: number }>(
  points: readonly T[],
  range: Pick<DateRange, "startMs" | "endMs">,
  bucket: Bucket,
  zero: (time: number) => T,
  now = Date.now(),
): T[] {
  const step = bucket === "hour" ? 3_600_000 : 86_400_000;
  const byTime = new Map(points.map((p) => [p.time, p]));
  const end = Math.min(range.endMs, now - (now % step) + step);
  const filled: T[] = [];
  for (let time = range.startMs; time < end; time += step) filled.push(byTime.get(time) ?? zero(time));
  // A point outside the window's buckets (none today) is kept rather than lost.
  for (const p of points) if (p.time < range.startMs || p.time >= end) filled.push(p);
  return filled.sort((a, b) => a.time - b.time);
}
