// How refusals travel through the data API. Services and the guard throw Responses ({ message }
// with 401/403/404/4xx) as they do for the pages; here they become GraphQL errors with the same
// message and a code in `extensions.code`, or, for mutations, the spec's result { code, message }.
// "graphql/index.js", not "graphql": the file Node loads for graphql-yoga too, so there is one graphql
// module (vitest would otherwise load index.mjs for our code and errors would fail instanceof checks).
import { GraphQLError } from "graphql/index.js";

export type ErrorCode =
  "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "BAD_USER_INPUT" | "RATE_LIMITED" | "COST_LIMIT" | "INTERNAL_SERVER_ERROR";

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: "BAD_USER_INPUT",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "BAD_USER_INPUT",
  422: "BAD_USER_INPUT",
  429: "RATE_LIMITED",
};

export const GRAPHQL_MESSAGES = {
  unauthenticated: "Unauthenticated.",
  organizationRequired: "Send the organization's id in the X-Organization-Id header.",
  organizationNotFound: "Organization not found.",
  notFound: "Not found",
  contentType: "Send the query as JSON (Content-Type: application/json): { query, variables, operationName }.",
  internal: "Unexpected error.",
} as const;

export function graphqlError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/** Bad arguments (a limit over 250, a malformed date …): a GraphQL error naming the argument. */
export function badInput(message: string): never {
  throw graphqlError("BAD_USER_INPUT", message);
}

/** The message of a thrown guard or service Response ({ message } or { error: { message } }). */
export async function responseMessage(response: Response): Promise<string> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (body && typeof body === "object") {
    const direct = (body as { message?: unknown }).message;
    if (typeof direct === "string") return direct;
    const nested = (body as { error?: { message?: unknown } }).error?.message;
    if (typeof nested === "string") return nested;
  }
  return response.status === 404 ? GRAPHQL_MESSAGES.notFound : GRAPHQL_MESSAGES.internal;
}

/**
 * A thrown Response as a GraphQL error with the same message; anything else is rethrown as it is
 * (GraphQL errors pass to the client, other errors are masked by the handler).
 */
export async function asGraphQLError(thrown: unknown): Promise<unknown> {
  if (!(thrown instanceof Response)) return thrown;
  const code = CODE_OF_STATUS[thrown.status];
  if (!code) return new Error(`Unexpected ${thrown.status} response from a service`);
  return graphqlError(code, await responseMessage(thrown));
}

/** The result every mutation answers (docs/guide/api.md#data-api-graphql): code 200 on success, else the refusal's status and message. */
export interface MutationResult {
  code: number;
  message: string;
  recordId: string | null;
  success: boolean;
}

export function done(message: string, recordId: number | string | null = null): MutationResult {
  return { code: 200, message, recordId: recordId === null ? null : String(recordId), success: true };
}

export function refused(code: number, message: string, recordId: number | string | null = null): MutationResult {
  return { code, message, recordId: recordId === null ? null : String(recordId), success: false };
}

/**
 * Runs a mutation: refusals the services throw (403 with the spec's message, 404 for foreign or
 * missing ids, argument errors) become its { code, message }; unexpected errors stay errors.
 */
export async function mutation<T extends MutationResult>(work: () => Promise<T>): Promise<T | MutationResult> {
  try {
    return await work();
  } catch (thrown) {
    if (thrown instanceof Response && CODE_OF_STATUS[thrown.status]) return refused(thrown.status, await responseMessage(thrown));
    if (thrown instanceof GraphQLError && thrown.extensions.code === "BAD_USER_INPUT") return refused(422, thrown.message);
    if (thrown instanceof GraphQLError && thrown.extensions.code === "NOT_FOUND") return refused(404, thrown.message);
    throw thrown;
  }
}
