// Reports (docs/guide/reports.md, docs/guide/api.md#data-api-graphql): the overview, the visitor
// lists with their counts, and the member's report e-mail subscriptions. Reports need membership
// only; the visitors' names and contacts need view_clients, and so does a count with a search (it
// would tell whether someone visited), as on the report pages.
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { formatSendHour, isReportSlug, reportTitle, type ReportSlug, type VisitorReport } from "~/lib/reports";
import { subscribeReportSchema } from "~/lib/schemas/reports";
import { notFound, requirePermission, type OrgContext } from "../../guard.server";
import { myReports, subscribeReport, unsubscribeReport } from "../../report-subscriptions.server";
import { listVisitors, overview } from "../../reports.server";
import { badInput, done, mutation } from "../errors.server";
import { checkOrder, pageOf, recordId, searchOf, windowOf, type PageArgs, type WindowArgs } from "../args.server";
import type { GraphQLContext } from "../context.server";
import type { Resolver, Resolvers } from "./common.server";
import { formatOffset } from "~/lib/time-zone";

const window = `venues: [ID!], startDate: String, endDate: String`;
const list = `${window}, limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String`;
const count = `${window}, search: String`;

export const typeDefs = /* GraphQL */ `
  "A customer of a visitor list; counts are within the window."
  type Visitor {
    id: ID!
    name: String!
    identity: String!
    phone_number: String
    email_address: String
    facebook: String
    twitter: String
    more_info: String
    devicesCount: Int!
    connectionsCount: Int!
  }

  "The overview report: totals of the window and the calendar periods it spans."
  type Overview {
    days: Int!
    weeks: Int!
    months: Int!
    years: Int!
    footfall: Int!
    connections: Int!
    abandoned: Int!
    upload: Float!
    download: Float!
    bandwidth: Float!
    "Seconds."
    dwellTime: Float!
    newCustomers: Int!
    repeatCustomers: Int!
    totalCustomers: Int!
  }

  type ReportSubscription {
    id: ID!
    "overview, new_visitors, unique_visitors, all_visitors, repeat_visitors or footfall."
    report: String!
    "Hour of the UTC day, 1–24."
    send_at: Int!
  }

  extend type Query {
    overview(${window}): Overview! @complexity(value: 10)
    "view_clients. Customers whose first authorized connection in the organization falls in the window."
    newVisitors(${list}): [Visitor!]! @complexity(value: 10, multipliers: ["limit"])
    newVisitorsCount(${count}): Int! @complexity(value: 10)
    "view_clients. Every customer who got online in the window, once each."
    uniqueVisitors(${list}): [Visitor!]! @complexity(value: 10, multipliers: ["limit"])
    uniqueVisitorsCount(${count}): Int! @complexity(value: 10)
    "view_clients. Customers who got online in the window and had got online before it."
    repeatVisitors(${list}): [Visitor!]! @complexity(value: 10, multipliers: ["limit"])
    repeatVisitorsCount(${count}): Int! @complexity(value: 10)
    "view_clients. Every customer who reached the portal in the window."
    allVisitors(${list}): [Visitor!]! @complexity(value: 10, multipliers: ["limit"])
    allVisitorsCount(${count}): Int! @complexity(value: 10)
    "Your report e-mail subscriptions in the organization, all or one report's."
    myReports(report: String): [ReportSubscription!]!
  }

  extend type Mutation {
    "Subscribes you to a report by e-mail every day at sendTime (hour of the UTC day, 1–24); again moves the hour."
    subscribeReport(report: String!, sendTime: Int!): MutationResult!
    unsubscribeReport(id: ID!): MutationResult!
  }
`;

async function visitors(ctx: OrgContext, report: VisitorReport, args: WindowArgs & PageArgs & { order?: string }) {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  checkOrder(args.order, "created_at desc");
  const page = pageOf(args);
  const { scope } = await windowOf(ctx, args);
  return (await listVisitors(scope, report, page)).rows;
}

async function visitorsCount(ctx: OrgContext, report: VisitorReport, args: WindowArgs & { search?: string }) {
  const search = searchOf(args.search);
  if (search) requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  const { scope } = await windowOf(ctx, args);
  return (await listVisitors(scope, report, { offset: 0, pageSize: 1, search })).total;
}

const listOf =
  (report: VisitorReport): Resolver =>
  async (_, args, context: GraphQLContext) =>
    visitors(await context.org(), report, args);

const countOf =
  (report: VisitorReport): Resolver =>
  async (_, args, context: GraphQLContext) =>
    visitorsCount(await context.org(), report, args);

export const resolvers: Resolvers = {
  Query: {
    async overview(_, args: WindowArgs, context) {
      return overview((await windowOf(await context.org(), args)).scope);
    },
    newVisitors: listOf("new_visitors"),
    newVisitorsCount: countOf("new_visitors"),
    uniqueVisitors: listOf("unique_visitors"),
    uniqueVisitorsCount: countOf("unique_visitors"),
    repeatVisitors: listOf("repeat_visitors"),
    repeatVisitorsCount: countOf("repeat_visitors"),
    allVisitors: listOf("all_visitors"),
    allVisitorsCount: countOf("all_visitors"),
    async myReports(_, args: { report?: string | null }, context) {
      if (args.report != null && !isReportSlug(args.report))
        badInput("report must be overview, new_visitors, unique_visitors, all_visitors, repeat_visitors or footfall.");
      return myReports(await context.org(), (args.report ?? undefined) as ReportSlug | undefined);
    },
  },
  Mutation: {
    subscribeReport: (_, args: { report: string; sendTime: number }, context) =>
      mutation(async () => {
        const parsed = subscribeReportSchema.safeParse(args);
        if (!parsed.success) badInput(parsed.error.issues[0]?.message ?? "Invalid input.");
        const ctx = await context.org();
        const saved = await subscribeReport(ctx, parsed.data.report, parsed.data.sendTime);
        return done(
          `You will receive the ${reportTitle(saved.report)} report by email every day at ${formatSendHour(saved.send_at)} (${formatOffset(ctx.org.clock.offsetMs)}).`,
          saved.id,
        );
      }),
    unsubscribeReport: (_, args: { id: string }, context) =>
      mutation(async () => {
        const report = await unsubscribeReport(await context.org(), recordId(args.id) ?? notFound());
        return done(`You will no longer receive the ${reportTitle(report)} report by email.`, args.id);
      }),
  },
};
