// What every resolver gets: the API client's user, the guard's context of the organisation (asked
// for only by resolvers that need one, so `profile` works without X-Organization-Id), the request's
// DataLoaders, and a memo for answers two fields share.
import { parseId } from "~/lib/ids";
import { requireMembership, type AuthUser, type OrgContext } from "../guard.server";
import { GRAPHQL_MESSAGES, graphqlError } from "./errors.server";
import { createLoaders, type Loaders } from "./loaders.server";

export interface GraphQLContext {
  request: Request;
  user: AuthUser;
  /**
   * The guard's context for the organisation of X-Organization-Id; `id` (organization(id)) must be
   * that one, or stands for it when the header is absent. Unknown, foreign or malformed: not found.
   */
  org(id?: string | null): Promise<OrgContext>;
  /** The request's DataLoaders for the organisation (one set per organisation context). */
  loaders(ctx: OrgContext): Loaders;
  /** One answer per key for the whole request (e.g. the organisation's counts asked by several fields). */
  memo<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function createContext(request: Request, user: AuthUser): GraphQLContext {
  const orgs = new Map<number, Promise<OrgContext>>();
  const loaders = new WeakMap<OrgContext, Loaders>();
  const memos = new Map<string, Promise<unknown>>();
  const header = request.headers.get("X-Organization-Id");
  return {
    request,
    user,
    org(id) {
      const fromHeader = header === null || header.trim() === "" ? null : header.trim();
      if (fromHeader === null && (id === null || id === undefined))
        throw graphqlError("BAD_USER_INPUT", GRAPHQL_MESSAGES.organizationRequired);
      const wanted = parseId(fromHeader ?? id);
      if (wanted === null || (fromHeader !== null && id !== null && id !== undefined && parseId(id) !== wanted)) {
        throw graphqlError("NOT_FOUND", GRAPHQL_MESSAGES.organizationNotFound);
      }
      let ctx = orgs.get(wanted);
      if (!ctx) {
        ctx = requireMembership(user, wanted).catch((thrown) => {
          if (thrown instanceof Response && thrown.status === 404) throw graphqlError("NOT_FOUND", GRAPHQL_MESSAGES.organizationNotFound);
          throw thrown;
        });
        orgs.set(wanted, ctx);
      }
      return ctx;
    },
    loaders(ctx) {
      let set = loaders.get(ctx);
      if (!set) loaders.set(ctx, (set = createLoaders(ctx)));
      return set;
    },
    memo<T>(key: string, work: () => Promise<T>) {
      let answer = memos.get(key) as Promise<T> | undefined;
      if (!answer) memos.set(key, (answer = work()));
      return answer;
    },
  };
}
