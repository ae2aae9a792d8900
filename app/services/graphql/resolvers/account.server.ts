// The API client's own profile and personal dashboard (docs/guide/accounts.md#profile,
// docs/guide/api.md#queries). The profile needs no organisation, except its permissions and
// role, which are the user's in the organisation of X-Organization-Id.
import { serializeLayout } from "~/lib/dashboard-layout";
import { parseLayout } from "~/lib/dashboard-layout-schema";
import { getDashboardLayout, saveDashboardLayout } from "../../dashboard.server";
import type { AuthUser } from "../../guard.server";
import { done, mutation, refused } from "../errors.server";
import type { Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  type User {
    id: ID!
    first_name: String!
    middle_name: String
    last_name: String!
    email: String!
    phone_number: String!
    "Your permission identifiers in the organization of X-Organization-Id."
    permissions: [String!]!
    "Your role's name in that organization (Administrator for its creator)."
    role: String
    "Your home dashboard's layout, as JSON text."
    dashboard: String!
  }

  type UpdateUserResult implements Result {
    code: Int!
    message: String!
    recordId: ID
    success: Boolean!
    "The layout as saved, JSON text."
    dashboard: String
  }

  extend type Query {
    profile: User!
  }

  extend type Mutation {
    "Saves your home dashboard: the layout as JSON text, URL-escaped or not."
    updateUser(dashboard: String!): UpdateUserResult!
  }
`;

export const DASHBOARD_UNREADABLE = "The dashboard layout could not be read: send the JSON of a layout (rows of columns of dashlets).";

/** The old client sent the layout URL-escaped; plain JSON is taken as it is. */
function unescape(text: string): string {
  if (!/^\s*%7B/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const resolvers: Resolvers = {
  Query: {
    profile: (_, _args, context) => context.user,
  },
  User: {
    permissions: async (_user: AuthUser, _args, context) => [...(await context.org()).permissions].sort(),
    role: async (_user: AuthUser, _args, context) => (await context.org()).roleName,
    dashboard: async (user: AuthUser) => serializeLayout((await getDashboardLayout(user.id)).layout),
  },
  Mutation: {
    updateUser: (_, args: { dashboard: string }, context) =>
      mutation(async () => {
        const parsed = parseLayout(unescape(args.dashboard));
        if (parsed.status !== "ok") return { ...refused(422, DASHBOARD_UNREADABLE), dashboard: null };
        await saveDashboardLayout(context.user.id, parsed.layout);
        return { ...done("Dashboard saved.", context.user.id), dashboard: serializeLayout(parsed.layout) };
      }),
  },
};
