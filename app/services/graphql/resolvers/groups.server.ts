// PLACEHOLDER: the groups area of the data API (issue [marketing]; spec 3 §7) is being written.
import type { Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  extend type Query {
    "Not built yet."
    groupsPlaceholder: Boolean
  }
`;

export const resolvers: Resolvers = { Query: { groupsPlaceholder: () => null } };
