// The reports (docs/guide/reports.md#routes, #overview, docs/guide/api.md#queries):
// the overview figures with their daily averages, the connection
// modes table and the footfall series. The figures come from the analytics service (one meaning of
// footfall, new and repeat customers … everywhere, read from its roll-ups); this module only adds
// the report's periods and averages. The visitor lists are in report-visitors.server.ts.
//
// Reports need no permission beyond membership
// (docs/guide/access-control.md#what-each-permission-shows): routes build the scope from the
// guard's organisation and venue ids checked against it (`reportVenueIds`).
import { db } from "~/db/db.server";
import { DAY_MS } from "~/lib/date-range";
import { bucketFor, type AnalyticsScope, type Bucket, type FootfallPoint } from "~/lib/analytics";
import { parseId } from "~/lib/ids";
import { aggregateUsage, authModeSummary, footfallSeries } from "./analytics.server";
import { notFound, type OrgContext } from "./guard.server";
import { venueOptions } from "./venues.server";

export {
  listVisitors,
  visitorBatches,
  visitorsCsvStream,
  VISITOR_CSV_HEADER,
  visitorCsvRow,
  type VisitorRow,
} from "./report-visitors.server";

/** The periods a range spans (docs/guide/reports.md#overview): calendar units touched, weeks from Monday. */
export interface ReportPeriods {
  days: number;
  weeks: number;
  months: number;
  years: number;
}

export interface OverviewReport extends ReportPeriods {
  footfall: number;
  connections: number;
  abandoned: number;
  upload: number;
  download: number;
  bandwidth: number;
  /** Seconds. */
  dwellTime: number;
  newCustomers: number;
  repeatCustomers: number;
  /** Customers who got online in the period: new + repeat. */
  totalCustomers: number;
}

export interface ConnectionModeRow {
  mode: string;
  connections: number;
  daily: number;
  weekly: number;
  monthly: number;
  annual: number;
}

/**
 * Whole calendar units the range touches: a range of Tuesday to the next Monday spans 2 weeks,
 * 31 January to 1 February 2 months. Averages divide by these, so a one-day range averages
 * to its own figures instead of multiplying them up.
 */
export function reportPeriods(range: AnalyticsScope["range"]): ReportPeriods {
  // The organisation's calendar: its local midnights, read as UTC dates.
  const first = new Date(range.startMs + range.offsetMs);
  const last = new Date(range.endMs + range.offsetMs - DAY_MS);
  const days = Math.max(1, Math.round((range.endMs - range.startMs) / DAY_MS));
  const mondayIndex = (d: Date) => Math.floor((d.getTime() / DAY_MS + 3) / 7); // epoch day 0 was a Thursday
  const monthIndex = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
  return {
    days,
    weeks: mondayIndex(last) - mondayIndex(first) + 1,
    months: monthIndex(last) - monthIndex(first) + 1,
    years: last.getUTCFullYear() - first.getUTCFullYear() + 1,
  };
}

/** A total per period, rounded to a whole number (docs/guide/reports.md#overview). */
export function average(total: number, periods: number): number {
  return periods > 0 ? Math.round(total / periods) : 0;
}

/** overview(startDate, endDate). */
export async function overview(scope: AnalyticsScope): Promise<OverviewReport> {
  const totals = await aggregateUsage(scope);
  return {
    ...reportPeriods(scope.range),
    footfall: totals.footfall,
    connections: totals.connections,
    abandoned: totals.abandoned,
    upload: totals.upload,
    download: totals.download,
    bandwidth: totals.bandwidth,
    dwellTime: totals.dwellTime,
    newCustomers: totals.newCustomers,
    repeatCustomers: totals.repeatCustomers,
    totalCustomers: totals.newCustomers + totals.repeatCustomers,
  };
}

/** aggregateAuthModeSummary with the report's daily, weekly, monthly and annual averages; busiest mode first. */
export async function connectionModes(scope: AnalyticsScope): Promise<ConnectionModeRow[]> {
  const periods = reportPeriods(scope.range);
  const rows = await authModeSummary(scope);
  return [...rows]
    .sort((a, b) => b.connections - a.connections || a.mode.localeCompare(b.mode))
    .map((r) => ({
      mode: r.mode,
      connections: r.connections,
      daily: average(r.connections, periods.days),
      weekly: average(r.connections, periods.weeks),
      monthly: average(r.connections, periods.months),
      annual: average(r.connections, periods.years),
    }));
}

export interface FootfallReport {
  bucket: Bucket;
  points: FootfallPoint[];
  total: number;
}

/** Footfall per hour (ranges of up to two days) or per day. */
export async function footfallReport(scope: AnalyticsScope): Promise<FootfallReport> {
  const bucket = bucketFor(scope.range);
  const points = await footfallSeries(scope, bucket);
  return { bucket, points, total: points.reduce((sum, p) => sum + p.footfall, 0) };
}

/**
 * The venue filter of a report page (`venue_id`, repeatable): ids of the organisation's venues.
 * A malformed id or one of another organisation is a 404. Also returns the choices for the select.
 */
export async function reportVenueFilter(ctx: OrgContext, searchParams: URLSearchParams) {
  const wanted = searchParams
    .getAll("venue_id")
    .filter((raw) => raw !== "")
    .map((raw) => parseId(raw) ?? notFound());
  const venueIds = [...new Set(wanted)];
  const [options, owned] = await Promise.all([
    venueOptions(ctx),
    venueIds.length
      ? db.selectFrom("venues").select("id").where("organization_id", "=", ctx.org.id).where("id", "in", venueIds).execute()
      : Promise.resolve([]),
  ]);
  if (owned.length !== venueIds.length) notFound();
  return { venueIds, options };
}
