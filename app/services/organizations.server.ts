import { redirect } from "@remix-run/node";
import { ALL_VENUES } from "~/db/rollups-sql.server";
import { db } from "~/db/db.server";
import { rebuildRollups } from "~/db/rollups.server";
import { parseId } from "~/lib/ids";
import { DEFAULT_TIME_ZONE, isTimeZone, standardOffsetMs, type OrgClock } from "~/lib/time-zone";
import type { AdminStatus } from "~/db/schema";
import type { InvitationStatus } from "~/lib/schemas/organizations";
import { forbidden, notFound, permissionsOf, requireOwner, type OrgContext } from "./guard.server";
import { commitSession, getSession, type Toast } from "./session.server";

export interface OrganizationInput {
  name: string;
  address?: string | null;
  email?: string | null;
  phone_number?: string | null;
  more_info?: string | null;
  /** IANA name; new organisations default to Africa/Nairobi (the form offers the browser's zone). */
  time_zone?: string;
  /** Days a guest's personal data is kept after their last visit (the anonymisation job). */
  retention_days?: number;
}

export const ORGANIZATION_REFUSALS = {
  create: "Not allowed to create organizations.",
  ownerCannotLeave:
    "You are this organization's administrator, so you cannot decline or leave it. To remove it, delete the organization from its details page.",
  openInvitationLink: "To accept this invitation, open the link in the invitation e-mail.",
} as const;

/** Creates an organisation; its creator becomes its administrator (im_admin), accepted at once. */
export async function createOrganization(userId: number, input: OrganizationInput): Promise<{ id: number; name: string; clock: OrgClock }> {
  const now = Date.now();
  const timeZone = input.time_zone && isTimeZone(input.time_zone) ? input.time_zone : DEFAULT_TIME_ZONE;
  const clock = { timeZone, offsetMs: standardOffsetMs(timeZone) };
  return db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({
        name: input.name,
        address: input.address ?? null,
        email_address: input.email ?? null,
        phone_number: input.phone_number ?? null,
        more_info: input.more_info ?? null,
        time_zone: clock.timeZone,
        utc_offset_ms: clock.offsetMs,
        created_by_user_id: userId,
        created_at: now,
        updated_at: now,
      })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: userId,
        role_id: null,
        invited_email_address: null,
        status: "Accepted",
        is_owner: 1,
        invite_token_hash: null,
        invited_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { ...org, clock };
  });
}

/**
 * Who may create an organisation: a user without any accepted membership may create a first
 * one; otherwise create_organizations is needed in at least one organisation where the user is
 * an accepted member (owners and r_w roles hold every permission).
 */
export async function canCreateOrganization(userId: number): Promise<boolean> {
  const memberships = await db
    .selectFrom("administrators")
    .leftJoin("roles", (join) =>
      join.onRef("roles.id", "=", "administrators.role_id").onRef("roles.organization_id", "=", "administrators.organization_id"),
    )
    .select(["administrators.is_owner", "roles.id as role_id", "roles.role_type"])
    .where("administrators.user_id", "=", userId)
    .where("administrators.status", "=", "Accepted")
    .execute();
  if (memberships.length === 0) return true;
  // The same rule as the guard's: what each membership's role grants.
  for (const membership of memberships) {
    if ((await permissionsOf(membership)).has("create_organizations")) return true;
  }
  return false;
}

/** Refuses (403) a user who may not create an organisation. */
export async function requireCanCreateOrganization(userId: number): Promise<void> {
  if (!(await canCreateOrganization(userId))) forbidden(ORGANIZATION_REFUSALS.create);
}

/** The organisations the user works in (accepted memberships), by name. */
export async function listUserOrganizations(userId: number) {
  return db
    .selectFrom("administrators")
    .innerJoin("organizations", "organizations.id", "administrators.organization_id")
    .select(["organizations.id", "organizations.name", "organizations.address"])
    .where("administrators.user_id", "=", userId)
    .where("administrators.status", "=", "Accepted")
    .orderBy("organizations.name")
    .orderBy("organizations.id")
    .execute();
}

export async function countPendingInvitations(userId: number): Promise<number> {
  const row = await db
    .selectFrom("administrators")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("status", "=", "Pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which answers a membership row offers (docs/guide/organizations.md#organisations-list); an owner answers nothing here. */
export function invitationActions(status: AdminStatus, isOwner: boolean) {
  if (isOwner) return { accept: false, decline: false, delete: false };
  return { accept: status !== "Accepted", decline: status !== "Declined", delete: true };
}

/**
 * Every membership of the user (accepted, declined and pending invitations), newest organisation
 * first; `filter.status` keeps one status only (GET organizations?admin_status=…).
 */
export async function listMemberships(userId: number, page: { offset: number; pageSize: number }, filter: { status?: AdminStatus } = {}) {
  let base = db
    .selectFrom("administrators")
    .innerJoin("organizations", "organizations.id", "administrators.organization_id")
    .where("administrators.user_id", "=", userId);
  if (filter.status) base = base.where("administrators.status", "=", filter.status);
  const [rows, total] = await Promise.all([
    base
      .select([
        "organizations.id",
        "organizations.name",
        "organizations.address",
        "organizations.email_address",
        "organizations.phone_number",
        "organizations.more_info",
        "organizations.created_at",
        "organizations.updated_at",
        "administrators.status",
        "administrators.is_owner",
      ])
      .orderBy("organizations.created_at", "desc")
      .orderBy("organizations.id", "desc")
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    rows: rows.map((r) => ({ ...r, is_owner: r.is_owner === 1, actions: invitationActions(r.status, r.is_owner === 1) })),
  };
}

/** The user's own membership of an organisation (any status); anything else is a 404. */
export async function findMembership(userId: number, organizationId: unknown) {
  const id = parseId(organizationId);
  if (id === null) notFound();
  const row = await db
    .selectFrom("administrators")
    .innerJoin("organizations", "organizations.id", "administrators.organization_id")
    .select([
      "administrators.id as membership_id",
      "organizations.id",
      "organizations.name",
      "administrators.status",
      "administrators.is_owner",
    ])
    .where("administrators.user_id", "=", userId)
    .where("administrators.organization_id", "=", id)
    .executeTakeFirst();
  if (!row) notFound();
  return row;
}

/**
 * The user's answer to a membership (PUT administrators): Accepted, Declined, or Delete (the
 * membership is removed). The organisation's administrator can neither decline nor leave it.
 * Returns the success message, or refuses with a 403.
 */
export async function respondToInvitation(userId: number, organizationId: unknown, status: InvitationStatus): Promise<string> {
  const membership = await findMembership(userId, organizationId);
  if (membership.is_owner === 1 && status !== "Accepted") forbidden(ORGANIZATION_REFUSALS.ownerCannotLeave);
  if (status === "Accepted" && membership.status === "Pending" && !(await provedInvitedAddress(userId, membership.membership_id))) {
    forbidden(ORGANIZATION_REFUSALS.openInvitationLink);
  }
  if (status === "Delete") {
    await db.deleteFrom("administrators").where("id", "=", membership.membership_id).execute();
    return `You have left ${membership.name}.`;
  }
  await db.updateTable("administrators").set({ status, updated_at: Date.now() }).where("id", "=", membership.membership_id).execute();
  return status === "Accepted" ? `You have joined ${membership.name}.` : `You have declined ${membership.name}.`;
}

/**
 * An invitation is accepted without its mailed token only by the owner of the invited address: an
 * account that has confirmed that very address (decision 0013).
 */
async function provedInvitedAddress(userId: number, membershipId: number): Promise<boolean> {
  const row = await db
    .selectFrom("administrators as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select("a.id")
    .where("a.id", "=", membershipId)
    .where("u.id", "=", userId)
    .where("u.email_verified_at", "is not", null)
    .whereRef("u.email", "=", "a.invited_email_address")
    .executeTakeFirst();
  return row !== undefined;
}

/** How much the organisation holds; count(*) on indexed organisation columns. */
export async function organizationCounts(organizationId: number) {
  const n = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  const count = (table: "venues" | "access_points" | "customers" | "devices") =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organization_id", "=", organizationId);
  const [venuesCount, accessPointsCount, customersCount, devicesCount, connectionsCount, onlineConnectionsCount] = await Promise.all([
    n(count("venues")),
    n(count("access_points")),
    n(count("customers")),
    n(count("devices")),
    // Every connection record counts once in the daily every-venue roll-up (kept current by
    // triggers), so the all-time total is a sum over one row a day instead of a count over millions.
    n(
      db
        .selectFrom("usage_daily")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("footfall"), eb.lit(0)).as("n"))
        .where("organization_id", "=", organizationId)
        .where("venue_id", "=", ALL_VENUES),
    ),
    // Online: authorized and not ended (the connections_online partial index).
    n(
      db
        .selectFrom("connections")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("organization_id", "=", organizationId)
        .where("authorized_at", "is not", null)
        .where("ended_at", "is", null),
    ),
  ]);
  return { venuesCount, accessPointsCount, customersCount, devicesCount, connectionsCount, onlineConnectionsCount };
}

export type OrganizationCounts = Awaited<ReturnType<typeof organizationCounts>>;

/** The organisation of the context with its counts (GET organizations/{id}). */
export async function getOrganizationDetails(ctx: OrgContext) {
  const org = await db
    .selectFrom("organizations")
    .select([
      "id",
      "name",
      "address",
      "email_address",
      "phone_number",
      "more_info",
      "time_zone",
      "retention_days",
      "created_at",
      "updated_at",
    ])
    .where("id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!org) notFound();
  return { ...org, counts: await organizationCounts(ctx.org.id) };
}

/** The organisation's venues, id and name, by name (the venues list of GET organizations/{id}). */
export async function listOrganizationVenues(ctx: OrgContext) {
  return db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name", "asc")
    .orderBy("id", "asc")
    .execute();
}

/**
 * PUT organizations/{id}: the organisation's administrator (im_admin) alone. A new time zone with
 * another offset re-buckets the organisation's analytics by its new days (decision 0023).
 */
export async function updateOrganization(ctx: OrgContext, input: OrganizationInput): Promise<void> {
  requireOwner(ctx);
  const timeZone = input.time_zone && isTimeZone(input.time_zone) ? input.time_zone : ctx.org.clock.timeZone;
  const offsetMs = timeZone === ctx.org.clock.timeZone ? ctx.org.clock.offsetMs : standardOffsetMs(timeZone);
  const setZone = (trx: typeof db) =>
    trx.updateTable("organizations").set({ time_zone: timeZone, utc_offset_ms: offsetMs }).where("id", "=", ctx.org.id).execute();
  if (offsetMs !== ctx.org.clock.offsetMs) await rebuildRollups(ctx.org.id, setZone);
  else if (timeZone !== ctx.org.clock.timeZone) await setZone(db);
  await db
    .updateTable("organizations")
    .set({
      name: input.name,
      address: input.address ?? null,
      email_address: input.email ?? null,
      phone_number: input.phone_number ?? null,
      more_info: input.more_info ?? null,
      ...(input.retention_days !== undefined ? { retention_days: input.retention_days } : {}),
      updated_at: Date.now(),
    })
    .where("id", "=", ctx.org.id)
    .execute();
}

/** DELETE organizations/{id}: the administrator alone; everything of the organisation goes with it. */
export async function deleteOrganization(ctx: OrgContext): Promise<void> {
  requireOwner(ctx);
  await db.deleteFrom("organizations").where("id", "=", ctx.org.id).execute();
}

/**
 * A redirect with a flash message that also changes the session's organisation: `select`
 * stores an organisation, `forget` clears the stored one if it is that organisation.
 * (One Set-Cookie: a separate redirectWithToast would overwrite the change.)
 */
export async function redirectWithOrganization(
  request: Request,
  to: string,
  toast: Toast | string,
  change: { select: number } | { forget: number },
) {
  const session = await getSession(request);
  if ("select" in change) session.set("orgId", change.select);
  else if (session.get("orgId") === change.forget) session.unset("orgId");
  session.flash("toast", typeof toast === "string" ? { type: "success", message: toast } : toast);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/** The Set-Cookie header that stores the organisation opened in the route, or null if already stored. */
export async function rememberOrganization(request: Request, organizationId: number): Promise<string | null> {
  const session = await getSession(request);
  if (session.get("orgId") === organizationId) return null;
  session.set("orgId", organizationId);
  return commitSession(session);
}
