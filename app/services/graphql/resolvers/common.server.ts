// What every area shares: the cost directive, the mutation result, and small shapers.
import { isoTime } from "../../api.server";
import type { GraphQLContext } from "../context.server";

export const typeDefs = /* GraphQL */ `
  """
  The cost of a field for the query cost limit: value plus the cost of its selection, times the
  named arguments (a list's limit). Fields without it cost 1 plus their selection.
  """
  directive @complexity(value: Int!, multipliers: [String!]) on FIELD_DEFINITION

  """
  The answer of every mutation: code 200 on success, otherwise the refusal's HTTP-style status (403
  not allowed, 404 not found, 409 nothing to do, 422 invalid input) with its message.
  """
  interface Result {
    code: Int!
    message: String!
    "The id of the record saved, when there is one."
    recordId: ID
    "code is 200."
    success: Boolean!
  }

  type MutationResult implements Result {
    code: Int!
    message: String!
    recordId: ID
    success: Boolean!
  }
`;

export const resolvers = {
  Result: { __resolveType: (result: object) => ("dashboard" in result ? "UpdateUserResult" : "MutationResult") },
};

/** Resolvers of one area: type name → field name → resolver. */
export type Resolvers = Record<string, Record<string, Resolver>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Resolver = (parent: any, args: any, context: GraphQLContext) => unknown;

/** Times are stored as epoch milliseconds and answered as ISO 8601 strings (UTC), like the REST API. */
export const iso = isoTime;

/** Bytes in binary units, as the screens show them ("1.50 GB"). */
export { formatBytes as formatted } from "~/lib/format";
