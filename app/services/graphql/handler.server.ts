// POST /graphql (and GET for queries): the data API, served by GraphQL Yoga in the same process,
// mounted by server/app.mjs before the request boundary (docs/decisions/0015-graphql.md).
//
// In order, for every request: the bearer token (API tokens only; no cookie session, so no CSRF
// surface) → 401; the token's rate limit → 429; a JSON body → 415; its size (Yoga reads at most
// GRAPHQL_LIMITS.bodyBytes) → 413; parsing with armor's token, depth, alias and directive limits;
// validation; the cost limit; execution with the guard's context. Unexpected errors reach the client as "Unexpected error."
// without a stack and are logged here.
import { EnvelopArmor } from "@escape.tech/graphql-armor";
import { GraphQLError } from "graphql/index.js"; // one graphql module: errors.server.ts
import { directiveEstimator, getComplexity, simpleEstimator } from "graphql-query-complexity";
import { createYoga, maskError, type Plugin } from "graphql-yoga";
import type { AuthUser } from "../guard.server";
import { userForToken } from "../guard.server";
import { limitGraphqlToken, LIMITS as RATE_LIMITS, retryAfterHeaders } from "../rate-limit.server";
import { createContext, type GraphQLContext } from "./context.server";
import { GRAPHQL_MESSAGES, graphqlError, type ErrorCode } from "./errors.server";
import { schema } from "./schema.server";

export const GRAPHQL_LIMITS = {
  /** Nesting of fields: organization { connections { device { customer { … } } } } is 4. */
  maxDepth: 8,
  /** Cost (the @complexity directive): 250 connections with a few fields of each relation cost ~5,500, with all ~20,500. */
  maxCost: 10_000,
  maxAliases: 15,
  maxDirectives: 20,
  /** Lexical tokens of the query text. */
  maxTokens: 3_000,
  /** Request body (query and variables). */
  bodyBytes: 100 * 1024,
  requestsPerMinute: RATE_LIMITS.graphqlPerToken.max,
} as const;

export const ENDPOINT = "/graphql";

function errorResponse(status: number, code: ErrorCode, message: string, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

const users = new WeakMap<Request, AuthUser>();

/** The API token's user, and one request counted against the token, before any GraphQL work. */
const authenticate: Plugin = {
  async onRequest({ request, endResponse }) {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
    const user = token ? await userForToken(token, "api") : null;
    if (!token || !user)
      return endResponse(errorResponse(401, "UNAUTHENTICATED", GRAPHQL_MESSAGES.unauthenticated, { "WWW-Authenticate": "Bearer" }));
    const limited = await limitGraphqlToken(token);
    if (limited) {
      const seconds = Math.ceil(limited.retryAfterMs / 1000);
      const message = `Too many requests with this token (at most ${GRAPHQL_LIMITS.requestsPerMinute} a minute). Try again in ${seconds} seconds.`;
      return endResponse(errorResponse(429, "RATE_LIMITED", message, retryAfterHeaders(limited)));
    }
    users.set(request, user);
    const type = request.headers.get("Content-Type")?.toLowerCase() ?? "";
    if (request.method === "POST" && !/^application\/(json|graphql-response\+json|graphql)\b/.test(type)) {
      return endResponse(errorResponse(415, "BAD_USER_INPUT", GRAPHQL_MESSAGES.contentType));
    }
  },
};

const estimators = [directiveEstimator(), simpleEstimator({ defaultComplexity: 1 })];

/** Refuses an operation whose cost (list sizes times what each row asks for) is over the limit. */
const costLimit: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    let cost: number;
    try {
      cost = getComplexity({
        schema: args.schema,
        query: args.document,
        variables: (args.variableValues ?? {}) as Record<string, unknown>,
        operationName: args.operationName ?? undefined,
        estimators,
      });
    } catch {
      return; // variables that do not fit the operation: execution answers that
    }
    if (cost > GRAPHQL_LIMITS.maxCost) {
      const message = `This query costs ${cost}, over the limit of ${GRAPHQL_LIMITS.maxCost}: ask for fewer rows (limit) or fewer nested lists.`;
      setResultAndStopExecution({ errors: [graphqlError("COST_LIMIT", message, { cost, maxCost: GRAPHQL_LIMITS.maxCost })] });
    }
  },
};

const armor = new EnvelopArmor({
  maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
  maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
  maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
  maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
  // Our own estimator weighs lists by their limit; armor's does not.
  costLimit: { enabled: false },
  // Clients are authenticated and may introspect, so suggestions reveal nothing new.
  blockFieldSuggestion: { enabled: false },
});

export const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
  schema,
  graphqlEndpoint: ENDPOINT,
  context: ({ request }) => {
    const user = users.get(request);
    if (!user) throw graphqlError("UNAUTHENTICATED", GRAPHQL_MESSAGES.unauthenticated);
    return createContext(request, user);
  },
  plugins: [authenticate, ...armor.protect().plugins, costLimit],
  maxRequestBodySize: GRAPHQL_LIMITS.bodyBytes,
  maskedErrors: {
    isDev: false,
    maskError(error, message) {
      const original = error instanceof GraphQLError ? error.originalError : error;
      if (original && !(original instanceof GraphQLError)) {
        const path = error instanceof GraphQLError ? error.path : undefined;
        console.error(
          JSON.stringify({
            at: new Date().toISOString(),
            event: "graphql_error",
            path,
            error: original instanceof Error ? original.stack : String(original),
          }),
        );
      }
      return maskError(error, message, false);
    },
  },
  graphiql: false,
  landingPage: false,
  cors: false,
  batching: false,
  multipart: false,
  logging: false,
});

/** The Express handler server/app.mjs mounts at /graphql. */
export function graphqlHandler() {
  return yoga;
}
