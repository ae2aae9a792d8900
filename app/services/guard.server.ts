import { json, redirect } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import { db } from "~/db/db.server";
import type { TokenKind } from "~/db/schema";
import { parseId } from "~/lib/ids";
import { ALL_PERMISSIONS, VIEW_PERMISSIONS, refusalMessage, type Permission } from "~/lib/permissions";
import { hashToken } from "./crypto.server";
import { commitSession, getSession } from "./session.server";
import type { OrgClock } from "~/lib/time-zone";

export interface AuthUser {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string;
  phone_number: string;
}

export interface OrgContext {
  user: AuthUser;
  /** The organisation, with the clock its days and displayed times follow (app/lib/time-zone.ts). */
  org: { id: number; name: string; clock: OrgClock };
  permissions: ReadonlySet<Permission>;
  /** The organisation's creator (im_admin): holds every permission. */
  isOwner: boolean;
  roleName: string | null;
}

/** The bearer token of an API client, else the token in the session cookie. */
async function requestToken(request: Request): Promise<{ token: string | null; bearer: boolean }> {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (match) return { token: match[1], bearer: true };
  const session = await getSession(request);
  return { token: session.get("token") ?? null, bearer: false };
}

/** last_used_at is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 5 * 60_000;

/**
 * The user of a live token of the given kind: a browser session's token is no bearer token and
 * the other way round, and an expired token is nobody's.
 */
export async function userForToken(token: string, kind: TokenKind): Promise<AuthUser | null> {
  const now = Date.now();
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .select([
      "api_tokens.id as token_id",
      "api_tokens.last_used_at",
      "users.id",
      "first_name",
      "middle_name",
      "last_name",
      "email",
      "phone_number",
    ])
    .where("token_hash", "=", hashToken(token))
    .where("label", "=", kind)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  if (!row) return null;
  const { token_id, last_used_at, ...user } = row;
  if (last_used_at === null || Number(last_used_at) < now - LAST_USED_RESOLUTION_MS) {
    await db.updateTable("api_tokens").set({ last_used_at: now }).where("id", "=", token_id).execute();
  }
  return user;
}

async function userOfRequest(request: Request): Promise<{ user: AuthUser | null; bearer: boolean }> {
  const { token, bearer } = await requestToken(request);
  return { user: token ? await userForToken(token, bearer ? "api" : "web") : null, bearer };
}

export async function getOptionalUser(request: Request): Promise<AuthUser | null> {
  return (await userOfRequest(request)).user;
}

/**
 * The signed-in user, or: a 401 for API clients; for browsers, a redirect to /login that
 * remembers the wanted URL (in the query and in the session, so sign-up returns there too).
 */
export async function requireUser(request: Request): Promise<AuthUser> {
  const { user, bearer } = await userOfRequest(request);
  if (user) return user;
  if (bearer) throw json({ message: "Unauthenticated." }, { status: 401 });
  const url = new URL(request.url);
  const wanted = `${url.pathname}${url.search}`;
  const session = await getSession(request);
  session.unset("token");
  session.set("redirectTo", wanted);
  const query = wanted === "/" ? "" : `?${new URLSearchParams({ redirectTo: wanted })}`;
  throw redirect(`/login${query}`, { headers: { "Set-Cookie": await commitSession(session) } });
}

/** Guest-only pages (login, register, password reset) send a signed-in user home. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getOptionalUser(request)) throw redirect("/");
}

export function notFound(message = "Not found"): never {
  throw json({ message }, { status: 404 });
}

export function forbidden(message: string): never {
  throw json({ message }, { status: 403 });
}

function parseOrgId(request: Request, params: Params): number | null {
  return parseId(params.orgId ?? request.headers.get("X-Organization-Id"));
}

/** Permissions held through a membership: owners and r_w hold all, r every view_*, custom the chosen ones. */
export async function permissionsOf(membership: {
  is_owner: number;
  role_id: number | null;
  role_type: string | null;
}): Promise<Set<Permission>> {
  if (membership.is_owner === 1 || membership.role_type === "r_w") return new Set(ALL_PERMISSIONS);
  if (membership.role_type === "r") return new Set(VIEW_PERMISSIONS);
  if (membership.role_type !== "custom" || membership.role_id === null) return new Set();
  const rows = await db
    .selectFrom("role_permissions")
    .innerJoin("permissions", "permissions.id", "role_permissions.permission_id")
    .select("permissions.identifier")
    .where("role_permissions.role_id", "=", membership.role_id)
    .execute();
  return new Set(rows.map((r) => r.identifier as Permission));
}

/**
 * The one guard of every organisation-scoped loader and action. Throws a redirect to login
 * (no session), a 404 (unknown organisation or not an accepted member) or a 403 with the
 * spec's message (none of the wanted permissions held; any one of them suffices).
 */
export async function requireOrg(request: Request, params: Params, ...anyOf: Permission[]): Promise<OrgContext> {
  // A path whose first segment is no organisation id is simply unknown, signed in or not.
  const orgId = parseOrgId(request, params);
  if (orgId === null) notFound();
  return requireMembership(await requireUser(request), orgId, ...anyOf);
}

/**
 * The second half of requireOrg, for callers that have authenticated the user already (the data
 * API, once per request): the accepted membership's context, or a 404; a 403 without the permission.
 */
export async function requireMembership(user: AuthUser, orgId: number, ...anyOf: Permission[]): Promise<OrgContext> {
  const membership = await db
    .selectFrom("administrators")
    .innerJoin("organizations", "organizations.id", "administrators.organization_id")
    .leftJoin("roles", "roles.id", "administrators.role_id")
    .select([
      "organizations.id as org_id",
      "organizations.name as org_name",
      "organizations.time_zone",
      "organizations.utc_offset_ms",
      "administrators.is_owner",
      "administrators.role_id",
      "roles.role_type",
      "roles.name as role_name",
    ])
    .where("administrators.organization_id", "=", orgId)
    .where("administrators.user_id", "=", user.id)
    .where("administrators.status", "=", "Accepted")
    .executeTakeFirst();
  if (!membership) notFound();
  const ctx: OrgContext = {
    user,
    org: {
      id: membership.org_id,
      name: membership.org_name,
      clock: { timeZone: membership.time_zone, offsetMs: Number(membership.utc_offset_ms) },
    },
    permissions: await permissionsOf(membership),
    isOwner: membership.is_owner === 1,
    roleName: membership.is_owner === 1 ? "Administrator" : membership.role_name,
  };
  if (anyOf.length > 0) requirePermission(ctx, ...anyOf);
  return ctx;
}

/** Refuses with the spec's message of the first wanted permission unless one of them is held. */
export function requirePermission(ctx: OrgContext, ...anyOf: Permission[]): void {
  if (!anyOf.some((p) => ctx.permissions.has(p))) forbidden(refusalMessage(anyOf[0]));
}

/** Actions that belong to the organisation's administrator (im_admin) alone. */
export function requireOwner(ctx: OrgContext): void {
  if (!ctx.isOwner) forbidden("Only the organization's administrator can do that.");
}
