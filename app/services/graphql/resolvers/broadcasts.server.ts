// PLACEHOLDER: the broadcasts area of the data API (issue [marketing]; spec 3 §7) is being written.
import type { Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  extend type Query {
    "Not built yet."
    broadcastsPlaceholder: Boolean
  }
`;

export const resolvers: Resolvers = { Query: { broadcastsPlaceholder: () => null } };
