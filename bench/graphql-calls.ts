// The cases of bench/graphql.bench.ts: each a GraphQL query and the service calls that answer it directly.
import type { Kysely, KyselyPlugin, RootOperationNode } from "kysely";
import type { DB } from "~/db/schema";
import { bucketFor, type AnalyticsScope } from "~/lib/analytics";
import * as analytics from "~/services/analytics.server";
import { listConnections } from "~/services/connections.server";
import type { OrgContext } from "~/services/guard.server";

type Range = AnalyticsScope["range"];
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const DASHBOARD = /* GraphQL */ `
  query Dashboard($start: String!, $end: String!) {
    aggregateUsageSummary(startDate: $start, endDate: $end) {
      upload download bandwidth formattedBandwidth new_customers repeat_customers connections footfall abandoned dwell_time avg_dwell_time
    }
    usageSummary(startDate: $start, endDate: $end) { footfall connections upload download created }
    venueUsageSummary(startDate: $start, endDate: $end, limit: 5) { venue_id venue_name footfall connections formattedBandwidth }
    accessPointUsageSummary(startDate: $start, endDate: $end, limit: 5) { access_point_id ap_name footfall connections formattedBandwidth }
    aggregateAuthModeSummary(startDate: $start, endDate: $end) { mode connections }
    mobile: aggregateDeviceSummary(startDate: $start, endDate: $end, groupBy: is_mobile) { is_mobile connections footfall }
    os: aggregateDeviceSummary(startDate: $start, endDate: $end, groupBy: os, limit: 10) { os connections footfall }
    brand: aggregateDeviceSummary(startDate: $start, endDate: $end, groupBy: brand) { brand connections footfall }
    browser: aggregateDeviceSummary(startDate: $start, endDate: $end, groupBy: browser) { browser connections footfall }
    organization {
      dwellTime(startDate: $start, endDate: $end) { dwell_time time }
      footfall(startDate: $start, endDate: $end) { footfall time }
    }
  }
`;

/** The home dashboard's figures over the range: one query, or the eleven service calls. */
export function dashboard(ctx: OrgContext, range: Range) {
  const scope: AnalyticsScope = { organizationId: ctx.org.id, range };
  const bucket = bucketFor(range);
  return {
    query: DASHBOARD,
    variables: { start: day(range.startMs), end: day(range.endMs - 1) },
    direct: () =>
      Promise.all([
        analytics.aggregateUsage(scope),
        analytics.usageSeries(scope, bucket),
        analytics.venueUsage(scope, 5),
        analytics.accessPointUsage(scope, 5),
        analytics.authModeSummary(scope),
        analytics.deviceSummary(scope, "is_mobile"),
        analytics.deviceSummary(scope, "os", 10),
        analytics.deviceSummary(scope, "brand"),
        analytics.deviceSummary(scope, "browser"),
        analytics.dwellTimeSeries(scope, bucket),
        analytics.footfallSeries(scope, bucket),
      ]),
  };
}

const CONNECTIONS = /* GraphQL */ `
  {
    organization {
      connections(limit: 250) {
        id isOnline created_at authorized_at duration usage authorization_mode
        customer { id identity name }
        device { id name mac_address }
        venue { id name }
        accessPoint { id name }
      }
    }
  }
`;

/** The newest 250 connections with their customer, device, network and access point. */
export function connectionsPage(ctx: OrgContext) {
  return { query: CONNECTIONS, variables: {}, direct: () => listConnections(ctx, {}, { offset: 0, pageSize: 250, search: "" }) };
}

/** How many database queries `work` sends (the shared Kysely instance counted for its length). */
export async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const store = globalThis as unknown as { __mlangoDatabase: { db: Kysely<DB> } };
  const original = store.__mlangoDatabase.db;
  let count = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => {
      count++;
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  store.__mlangoDatabase.db = original.withPlugin(counter);
  try {
    await work();
  } finally {
    store.__mlangoDatabase.db = original;
  }
  return count;
}
