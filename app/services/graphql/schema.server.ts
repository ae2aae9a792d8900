// The data API's schema (docs/guide/api.md#data-api-graphql), written as SDL beside each
// area's resolvers and merged here. schema.graphql at the repository root is this schema printed
// (`npm run graphql:schema`); tests/integration/graphql-schema.test.ts fails when they differ.
//
// A new area adds resolvers/<area>.server.ts with `typeDefs` (extend type Query / Mutation) and
// `resolvers`, and lists it in AREAS (docs/conventions.md "GraphQL").
import { isObjectType, printSchema, type GraphQLSchema } from "graphql/index.js"; // one graphql module: errors.server.ts
import { createSchema } from "graphql-yoga";
import { asGraphQLError } from "./errors.server";
import * as accessControl from "./resolvers/access-control.server";
import * as account from "./resolvers/account.server";
import * as analytics from "./resolvers/analytics.server";
import * as clients from "./resolvers/clients.server";
import * as common from "./resolvers/common.server";
import * as networks from "./resolvers/networks.server";
import * as organization from "./resolvers/organization.server";
import * as paymentExceptions from "./resolvers/payment-exceptions.server";
import * as prepaid from "./resolvers/prepaid.server";
import * as reports from "./resolvers/reports.server";
import * as splash from "./resolvers/splash.server";
import * as subscriptions from "./resolvers/subscriptions.server";
import * as vouchers from "./resolvers/vouchers.server";
import * as groups from "./resolvers/groups.server";
import * as broadcasts from "./resolvers/broadcasts.server";

const AREAS = [
  account,
  analytics,
  organization,
  networks,
  clients,
  accessControl,
  reports,
  splash,
  prepaid,
  paymentExceptions,
  subscriptions,
  vouchers,
  groups,
  broadcasts,
];

const root = /* GraphQL */ `
  "Every query needs Authorization: Bearer <api token>; organization data needs X-Organization-Id too."
  type Query
  "Mutations answer { code, message, recordId }: refusals are answers, not errors."
  type Mutation
`;

function mergeResolvers(): common.Resolvers {
  const merged: common.Resolvers = { ...common.resolvers };
  for (const area of AREAS) {
    for (const [type, fields] of Object.entries(area.resolvers)) merged[type] = { ...merged[type], ...fields };
  }
  return merged;
}

/**
 * Guard and service refusals are thrown Responses (403 with the spec's message, 404 …), as for the
 * pages; every resolver turns them into GraphQL errors with that message and a code.
 */
function translateRefusals(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve) continue;
      // Synchronous answers stay synchronous: a 250-row page has thousands of fields.
      const refuse = async (thrown: unknown) => {
        throw await asGraphQLError(thrown);
      };
      field.resolve = (...args) => {
        try {
          const answer = resolve(...args);
          return answer instanceof Promise ? answer.catch(refuse) : answer;
        } catch (thrown) {
          return refuse(thrown);
        }
      };
    }
  }
  return schema;
}

export const schema: GraphQLSchema = translateRefusals(
  createSchema({
    typeDefs: [root, common.typeDefs, ...AREAS.map((a) => a.typeDefs)],
    resolvers: mergeResolvers(),
  }),
);

/** The SDL checked in as schema.graphql. */
export const printedSchema = () => `${printSchema(schema)}\n`;
