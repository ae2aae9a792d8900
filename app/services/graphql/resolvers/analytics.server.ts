// The dashboard's figures (docs/guide/api.md#data-api-graphql): usage summaries, top networks and
// access points, auth modes, device mixes, dwell time and footfall. Membership is enough, as on the
// home dashboard; the window and venues are checked like the dashboard's URL (args.server.ts
// windowOf).
import { bucketFor, type DeviceDimension, type DeviceUsage, type UsagePoint, type UsageTotals } from "~/lib/analytics";
import {
  accessPointUsage,
  aggregateUsage,
  authModeSummary,
  deviceSummary,
  dwellTimeSeries,
  footfallSeries,
  usageSeries,
  venueUsage,
} from "../../analytics.server";
import type { OrgContext } from "../../guard.server";
import { badInput } from "../errors.server";
import { windowOf, type WindowArgs } from "../args.server";
import { formatted, iso, type Resolvers } from "./common.server";

const window = `venues: [ID!], startDate: String, endDate: String`;

export const typeDefs = /* GraphQL */ `
  "One hour or day of usage (hours for windows of up to two days, days beyond), oldest first."
  type UsagePoint {
    footfall: Int!
    connections: Int!
    "Bytes."
    upload: Float!
    "Bytes."
    download: Float!
    "The bucket's start, ISO 8601 (UTC)."
    created: String!
    "The bucket's hour of the organization's day (its time zone, 0–23); 0 for daily buckets."
    hour: Int!
    "The bucket's day in the organization's time zone, YYYY-MM-DD."
    date: String!
  }

  type VenueUsage {
    venue_id: ID!
    venue_name: String!
    footfall: Int!
    connections: Int!
    "Bytes."
    bandwidth: Float!
    formattedBandwidth: String!
  }

  type AccessPointUsage {
    access_point_id: ID!
    ap_name: String!
    access_point_mac: String!
    footfall: Int!
    connections: Int!
    "Bytes."
    bandwidth: Float!
    formattedBandwidth: String!
  }

  "The summary cards. Bytes and seconds are Float: they outgrow 32-bit integers."
  type UsageSummary {
    upload: Float!
    download: Float!
    bandwidth: Float!
    formattedUpload: String!
    formattedDownload: String!
    formattedBandwidth: String!
    new_customers: Int!
    repeat_customers: Int!
    connections: Int!
    footfall: Int!
    "footfall − connections."
    abandoned: Int!
    "Seconds."
    dwell_time: Float!
    "Seconds."
    avg_dwell_time: Float!
  }

  type AuthModeUsage {
    mode: String!
    connections: Int!
  }

  enum DeviceGroup {
    is_mobile
    os
    brand
    browser
  }

  "One group of aggregateDeviceSummary: the field named by groupBy is set, the others are null."
  type DeviceUsage {
    connections: Int!
    footfall: Int!
    "Mobile, Desktop or Unknown for is_mobile; the os, brand or browser otherwise."
    key: String!
    is_mobile: Boolean
    os: String
    brand: String
    browser: String
  }

  type DwellPoint {
    "Seconds of the bucket's ended connections."
    dwell_time: Float!
    "The bucket's start, ISO 8601 (UTC)."
    time: String!
  }

  type FootfallPoint {
    footfall: Int!
    time: String!
  }

  extend type Query {
    usageSummary(${window}): [UsagePoint!]! @complexity(value: 10)
    "Top networks by bandwidth (5 by default, at most 250)."
    venueUsageSummary(${window}, orderBy: String = "bandwidth", limit: Int = 5): [VenueUsage!]! @complexity(value: 10, multipliers: ["limit"])
    "Top access points by bandwidth (5 by default, at most 250)."
    accessPointUsageSummary(${window}, orderBy: String = "bandwidth", limit: Int = 5): [AccessPointUsage!]! @complexity(value: 10, multipliers: ["limit"])
    aggregateUsageSummary(${window}): UsageSummary! @complexity(value: 10)
    aggregateAuthModeSummary(${window}): [AuthModeUsage!]! @complexity(value: 10)
    "Brands are cut to 5 and browsers to 10 unless a limit (at most 250) is given."
    aggregateDeviceSummary(${window}, groupBy: DeviceGroup!, limit: Int): [DeviceUsage!]! @complexity(value: 10, multipliers: ["limit"])
  }
`;

function topLimit(args: { orderBy?: string | null; limit?: number | null }): number {
  if (args.orderBy && args.orderBy !== "bandwidth") badInput("orderBy must be 'bandwidth'.");
  const limit = args.limit ?? 5;
  if (limit < 1 || limit > 250) badInput("limit must be between 1 and 250.");
  return limit;
}

/** created, hour and date are worked out only when asked for (a year of hours is 8,760 points). */
class UsagePointAnswer {
  constructor(
    private readonly point: UsagePoint,
    /** The organization's offset from UTC: hour and date are its own (decision 0023). */
    private readonly offsetMs: number,
  ) {}
  get footfall() {
    return this.point.footfall;
  }
  get connections() {
    return this.point.connections;
  }
  get upload() {
    return this.point.upload;
  }
  get download() {
    return this.point.download;
  }
  get created() {
    return new Date(this.point.time).toISOString();
  }
  get hour() {
    return new Date(this.point.time + this.offsetMs).getUTCHours();
  }
  get date() {
    return new Date(this.point.time + this.offsetMs).toISOString().slice(0, 10);
  }
}

export const usageSummaryOf = (u: UsageTotals) => ({
  upload: u.upload,
  download: u.download,
  bandwidth: u.bandwidth,
  formattedUpload: formatted(u.upload),
  formattedDownload: formatted(u.download),
  formattedBandwidth: formatted(u.bandwidth),
  new_customers: u.newCustomers,
  repeat_customers: u.repeatCustomers,
  connections: u.connections,
  footfall: u.footfall,
  abandoned: u.abandoned,
  dwell_time: u.dwellTime,
  avg_dwell_time: u.avgDwellTime,
});

const deviceRow = (dimension: DeviceDimension) => (d: DeviceUsage) => ({
  connections: d.connections,
  footfall: d.footfall,
  key: d.key,
  is_mobile: dimension === "is_mobile" ? (d.key === "Mobile" ? true : d.key === "Desktop" ? false : null) : null,
  os: dimension === "os" ? d.key : null,
  brand: dimension === "brand" ? d.key : null,
  browser: dimension === "browser" ? d.key : null,
});

/** The fields Organization repeats with the same arguments (docs/guide/api.md#queries). */
export async function aggregateUsageSummary(ctx: OrgContext, args: WindowArgs) {
  return usageSummaryOf(await aggregateUsage((await windowOf(ctx, args)).scope));
}

export async function dwellTime(ctx: OrgContext, args: WindowArgs) {
  const { scope, range } = await windowOf(ctx, args);
  const points = await dwellTimeSeries(scope, bucketFor(range));
  return points.map((p) => ({ dwell_time: p.dwellTime, time: iso(p.time) }));
}

export async function footfall(ctx: OrgContext, args: WindowArgs) {
  const { scope, range } = await windowOf(ctx, args);
  const points = await footfallSeries(scope, bucketFor(range));
  return points.map((p) => ({ footfall: p.footfall, time: iso(p.time) }));
}

export const resolvers: Resolvers = {
  Query: {
    async usageSummary(_, args: WindowArgs, context) {
      const { scope, range } = await windowOf(await context.org(), args);
      return (await usageSeries(scope, bucketFor(range))).map((p) => new UsagePointAnswer(p, scope.range.offsetMs));
    },
    async venueUsageSummary(_, args: WindowArgs & { orderBy?: string; limit?: number }, context) {
      const limit = topLimit(args);
      const { scope } = await windowOf(await context.org(), args);
      return (await venueUsage(scope, limit)).map((v) => ({
        venue_id: v.venueId,
        venue_name: v.venueName,
        footfall: v.footfall,
        connections: v.connections,
        bandwidth: v.bandwidth,
        formattedBandwidth: formatted(v.bandwidth),
      }));
    },
    async accessPointUsageSummary(_, args: WindowArgs & { orderBy?: string; limit?: number }, context) {
      const limit = topLimit(args);
      const { scope } = await windowOf(await context.org(), args);
      return (await accessPointUsage(scope, limit)).map((a) => ({
        access_point_id: a.accessPointId,
        ap_name: a.apName,
        access_point_mac: a.accessPointMac,
        footfall: a.footfall,
        connections: a.connections,
        bandwidth: a.bandwidth,
        formattedBandwidth: formatted(a.bandwidth),
      }));
    },
    async aggregateUsageSummary(_, args: WindowArgs, context) {
      return aggregateUsageSummary(await context.org(), args);
    },
    async aggregateAuthModeSummary(_, args: WindowArgs, context) {
      const { scope } = await windowOf(await context.org(), args);
      return authModeSummary(scope);
    },
    async aggregateDeviceSummary(_, args: WindowArgs & { groupBy: DeviceDimension; limit?: number | null }, context) {
      if (args.limit !== null && args.limit !== undefined && (args.limit < 1 || args.limit > 250))
        badInput("limit must be between 1 and 250.");
      const { scope } = await windowOf(await context.org(), args);
      return (await deviceSummary(scope, args.groupBy, args.limit ?? undefined)).map(deviceRow(args.groupBy));
    },
  },
};
