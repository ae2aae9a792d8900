// Customer groups in the data API (docs/guide/marketing.md#customer-groups,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql):
// customerGroups, customerGroupsCount, customerGroup, createCustomerGroup, updateCustomerGroupFilters,
// deleteCustomerGroup, through the pages' services and schemas (the same permissions and messages).
// filters travel as the stored JSON text, as the spec has them; customersCount is counted when asked.
import { checkedFiltersSchema, GROUP_MESSAGES, groupSchema } from "~/lib/schemas/groups";
import { requirePermission, type OrgContext } from "../../guard.server";
import {
  createGroup,
  deleteGroup,
  findGroup,
  getGroup,
  listGroups,
  membersCount,
  updateGroup,
  updateGroupFilters,
  type GroupRecord,
} from "../../marketing/groups.server";
import { checkOrder, pageOf, recordId, searchOf, type PageArgs } from "../args.server";
import { done, mutation, refused } from "../errors.server";
import { iso, type Resolvers } from "./common.server";
import { todayIso } from "~/lib/date-range";

export const typeDefs = /* GraphQL */ `
  "A customer group: customers chosen by filters, computed when asked."
  type CustomerGroup {
    id: ID!
    name: String!
    description: String
    """
    The group filter structure as JSON text: { byDate: "YES"|"NO", dateRange: { startDate, endDate } | null,
    connections, days, venues: [id], accessPoints: [id], profile: [{ condition: "AND"|"OR", field, equation, value }] }.
    """
    filters: String!
    "How many customers match the filters now."
    customersCount: Int!
    "Who created the group (null once their account is gone)."
    createdBy: GroupCreator
    created_at: String!
  }

  type GroupCreator {
    id: ID!
    first_name: String!
    last_name: String!
  }

  extend type Query {
    "view_groups. Newest first; search matches the group's name."
    customerGroups(limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String): [CustomerGroup!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_groups."
    customerGroupsCount(search: String): Int!
    "view_groups."
    customerGroup(id: ID!): CustomerGroup!
  }

  extend type Mutation {
    """
    create_groups. Without an id a group is created (with no filters: every customer); with one, its
    name and description change. 422 'Name field is required.' without a name; 404 for an unknown id.
    """
    createCustomerGroup(id: ID, name: String, description: String): MutationResult!
    """
    create_groups. filters: the structure as JSON text (see CustomerGroup.filters). 422 with the Filters
    form's message when it is not one, has dates after today, a rule the form refuses, or venues or
    access points of another organization; 404 for an unknown id.
    """
    updateCustomerGroupFilters(id: ID!, filters: String!): MutationResult!
    "delete_groups."
    deleteCustomerGroup(id: ID!): MutationResult!
  }
`;

type GroupParent = GroupRecord & { ctx: OrgContext };

/** Today in the organization's zone: filter dates are its days. */
const todayOf = (ctx: OrgContext) => todayIso(Date.now(), ctx.org.clock.offsetMs);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const resolvers: Resolvers = {
  Query: {
    async customerGroups(_, args: PageArgs & { order?: string | null }, context) {
      const ctx = await context.org();
      checkOrder(args.order, "created_at desc");
      const { rows } = await listGroups(ctx, pageOf(args));
      return rows.map((g): GroupParent => ({ ...g, ctx }));
    },
    async customerGroupsCount(_, args: { search?: string | null }, context) {
      return (await listGroups(await context.org(), { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async customerGroup(_, args: { id: string }, context) {
      const ctx = await context.org();
      return { ...(await getGroup(ctx, recordId(args.id))), ctx } satisfies GroupParent;
    },
  },
  Mutation: {
    createCustomerGroup: (_, args: { id?: string | null; name?: string | null; description?: string | null }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, "create_groups");
        const creating = args.id === null || args.id === undefined;
        // A malformed or unknown id is not found (never a create).
        const existing = creating ? null : await findGroup(ctx, recordId(args.id));
        const values = groupSchema.safeParse({ name: args.name ?? undefined, description: args.description ?? undefined });
        if (!values.success) return refused(422, values.error.issues[0].message, existing?.id ?? null);
        if (!existing) return done(GROUP_MESSAGES.created, await createGroup(ctx, values.data));
        await updateGroup(ctx, existing.id, values.data);
        return done(GROUP_MESSAGES.updated, existing.id);
      }),
    updateCustomerGroupFilters: (_, args: { id: string; filters: string }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, "create_groups");
        const group = await findGroup(ctx, recordId(args.id));
        const parsed = checkedFiltersSchema(todayOf(ctx)).safeParse(parseJson(args.filters));
        if (!parsed.success) {
          // The form's own sentences for what it refuses; anything else is not the structure at all.
          const issue = parsed.error.issues[0];
          return refused(422, issue.code === "custom" ? issue.message : GROUP_MESSAGES.filtersJson, group.id);
        }
        const errors = await updateGroupFilters(ctx, group.id, parsed.data);
        if (errors) return refused(422, Object.values(errors)[0][0], group.id);
        return done(GROUP_MESSAGES.filtersSaved, group.id);
      }),
    deleteCustomerGroup: (_, args: { id: string }, context) =>
      mutation(async () => {
        await deleteGroup(await context.org(), recordId(args.id));
        return done(GROUP_MESSAGES.deleted, args.id);
      }),
  },
  CustomerGroup: {
    filters: (g: GroupParent) => g.filtersJson,
    customersCount: (g: GroupParent) => membersCount(g.ctx, g),
    created_at: (g: GroupParent) => iso(g.createdAt),
  },
};
