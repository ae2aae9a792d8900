// organization(id){…} (docs/guide/api.md#data-api-graphql): the organisation of X-Organization-Id
// with its counts, lists and figures. The lists and figures are the other areas' fields with the
// organisation as parent; their permissions are theirs (connections: view_clients; accessPoints:
// view_networks …).
import { requirePermission, type OrgContext } from "../../guard.server";
import { getOrganizationDetails, organizationCounts } from "../../organizations.server";
import type { PageArgs, WindowArgs } from "../args.server";
import type { GraphQLContext } from "../context.server";
import { aggregateUsageSummary, dwellTime, footfall } from "./analytics.server";
import { CONNECTION_ARGS, CONNECTION_COUNT_ARGS, connections, connectionsCount, devices } from "./clients.server";
import { iso, type Resolver, type Resolvers } from "./common.server";
import { accessPoints, venues } from "./networks.server";

const window = `venues: [ID!], startDate: String, endDate: String`;

export const typeDefs = /* GraphQL */ `
  """
  The organization. id, name, im_admin, admin_status, the counts and the figures need membership;
  the contact details need view_settings (as GET organizations/{id}).
  """
  type Organization {
    id: ID!
    name: String!
    address: String
    email_address: String
    phone_number: String
    more_info: String
    "IANA time zone (e.g. Africa/Nairobi): the organization's days and hours in analytics and reports follow it."
    time_zone: String!
    created_at: String!
    updated_at: String!
    "Your membership: always Accepted (only accepted members reach the organization)."
    admin_status: String!
    "You are the organization's administrator."
    im_admin: Boolean!
    accessPointsCount: Int!
    venuesCount: Int!
    """
    Without arguments: every connection record ever (from the roll-ups). With filters (view_clients):
    the connections list's count, up to 10,000 (1,000 with a search or a network or access point).
    """
    connectionsCount(${CONNECTION_COUNT_ARGS}): Int! @complexity(value: 10)
    customersCount: Int!
    onlineConnectionsCount: Int!
    devicesCount: Int!
    "view_clients. Newest first; filters take one id each."
    connections(${CONNECTION_ARGS}): [Connection!]! @complexity(value: 1, multipliers: ["limit"])
    "Seconds per hour (windows up to two days) or day."
    dwellTime(${window}): [DwellPoint!]! @complexity(value: 10)
    footfall(${window}): [FootfallPoint!]! @complexity(value: 10)
    aggregateUsageSummary(${window}): UsageSummary! @complexity(value: 10)
    venues(limit: Int = 10, offset: Int = 0, order: String = "name asc", search: String): [Venue!]! @complexity(value: 1, multipliers: ["limit"])
    "view_networks."
    accessPoints(venues: [ID!], startDate: String, endDate: String, limit: Int = 10, offset: Int = 0, search: String): [AccessPoint!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_clients."
    devices(venues: [ID!], accessPoints: [ID!], customers: [ID!], startDate: String, endDate: String, search: String, limit: Int = 10, offset: Int = 0, order: String = "created_at desc"): [Device!]!
      @complexity(value: 1, multipliers: ["limit"])
  }

  extend type Query {
    "The organization of X-Organization-Id; id, when given, must be that one (or names it when the header is absent)."
    organization(id: ID): Organization!
  }
`;

const counts = (ctx: OrgContext, context: GraphQLContext) => context.memo(`counts:${ctx.org.id}`, () => organizationCounts(ctx.org.id));
const details = (ctx: OrgContext, context: GraphQLContext) => {
  requirePermission(ctx, "view_settings");
  return context.memo(`details:${ctx.org.id}`, () => getOrganizationDetails(ctx));
};

type Counts = Awaited<ReturnType<typeof organizationCounts>>;
const count =
  (key: keyof Counts): Resolver =>
  async (ctx: OrgContext, _args, context) =>
    (await counts(ctx, context))[key];

type Details = Awaited<ReturnType<typeof getOrganizationDetails>>;
const detail =
  (read: (d: Details) => unknown): Resolver =>
  async (ctx: OrgContext, _args, context) =>
    read(await details(ctx, context));

const hasArguments = (args: Record<string, unknown>) => Object.values(args).some((v) => v !== null && v !== undefined);

export const resolvers: Resolvers = {
  Query: {
    organization: (_, args: { id?: string | null }, context) => context.org(args.id),
  },
  Organization: {
    id: (ctx: OrgContext) => ctx.org.id,
    name: (ctx: OrgContext) => ctx.org.name,
    address: detail((d) => d.address),
    email_address: detail((d) => d.email_address),
    phone_number: detail((d) => d.phone_number),
    more_info: detail((d) => d.more_info),
    time_zone: (ctx: OrgContext) => ctx.org.clock.timeZone,
    created_at: detail((d) => iso(d.created_at)),
    updated_at: detail((d) => iso(d.updated_at)),
    admin_status: () => "Accepted",
    im_admin: (ctx: OrgContext) => ctx.isOwner,
    accessPointsCount: count("accessPointsCount"),
    venuesCount: count("venuesCount"),
    customersCount: count("customersCount"),
    onlineConnectionsCount: count("onlineConnectionsCount"),
    devicesCount: count("devicesCount"),
    async connectionsCount(ctx: OrgContext, args: Record<string, unknown>, context) {
      return hasArguments(args) ? connectionsCount(ctx, args) : (await counts(ctx, context)).connectionsCount;
    },
    connections: (ctx: OrgContext, args) => connections(ctx, args),
    dwellTime: (ctx: OrgContext, args: WindowArgs) => dwellTime(ctx, args),
    footfall: (ctx: OrgContext, args: WindowArgs) => footfall(ctx, args),
    aggregateUsageSummary: (ctx: OrgContext, args: WindowArgs) => aggregateUsageSummary(ctx, args),
    venues: (ctx: OrgContext, args: PageArgs & { order?: string }) => venues(ctx, args),
    accessPoints: (ctx: OrgContext, args) => accessPoints(ctx, args),
    devices: (ctx: OrgContext, args) => devices(ctx, args),
  },
};
