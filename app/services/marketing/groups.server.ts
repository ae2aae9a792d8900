// Customer groups (docs/guide/marketing.md#customer-groups,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql): the
// list, a group, its live customers, and the changes. Every function takes the guard's context and
// filters by ctx.org.id (another organisation's id is a 404); view_groups to read, create_groups to
// create and change (the spec has no edit permission for groups), delete_groups to delete. Members
// are computed when asked (group-filter.server.ts), never stored; their count is kept for the groups
// list (COUNT_FRESH_MS).
import { db } from "~/db/db.server";
import { containsText } from "~/db/sql.server";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { EMPTY_FILTERS, type GroupFilters } from "~/lib/schemas/group-filters";
import { GROUP_MESSAGES, type GroupInput } from "~/lib/schemas/groups";
import type { CustomerRow } from "~/lib/records";
import { toCustomerRow } from "../customers.server";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { countGroupMembers, groupMembersPage, parseStoredFilters } from "./group-filter.server";

export interface GroupRecord {
  id: number;
  name: string;
  description: string | null;
  /** The stored JSON text, as the data API answers it. */
  filtersJson: string;
  /** The structure; null when the stored text is not one (the group then has no members). */
  filters: GroupFilters | null;
  createdBy: { id: number; first_name: string; last_name: string } | null;
  createdAt: number;
  /** The last count made and when; null after the filters changed or before the first count. */
  lastCount: { count: number; at: number } | null;
}

/** The groups list shows a count made this recently rather than counting again (ten groups at scale take seconds). */
export const COUNT_FRESH_MS = 10 * 60_000;

const groups = (ctx: OrgContext) =>
  db
    .selectFrom("customer_groups")
    .leftJoin("users", "users.id", "customer_groups.created_by_user_id")
    .where("customer_groups.organization_id", "=", ctx.org.id);

const COLUMNS = [
  "customer_groups.id",
  "customer_groups.name",
  "customer_groups.description",
  "customer_groups.filters",
  "customer_groups.created_at",
  "customer_groups.customers_count",
  "customer_groups.counted_at",
  "users.id as user_id",
  "users.first_name as user_first_name",
  "users.last_name as user_last_name",
] as const;

type Row = {
  id: number;
  name: string;
  description: string | null;
  filters: string;
  created_at: number | string;
  customers_count: number | null;
  counted_at: number | string | null;
  user_id: number | null;
  user_first_name: string | null;
  user_last_name: string | null;
};

function toRecord(r: Row): GroupRecord {
  return {
    id: Number(r.id),
    name: r.name,
    description: r.description,
    filtersJson: r.filters,
    filters: parseStoredFilters(r.filters),
    createdBy:
      r.user_id === null ? null : { id: Number(r.user_id), first_name: r.user_first_name ?? "", last_name: r.user_last_name ?? "" },
    createdAt: Number(r.created_at),
    lastCount: r.customers_count === null || r.counted_at === null ? null : { count: Number(r.customers_count), at: Number(r.counted_at) },
  };
}

/** The Owner column: the creator's name, or — once their account is gone. */
export const ownerName = (g: GroupRecord) => (g.createdBy ? `${g.createdBy.first_name} ${g.createdBy.last_name}`.trim() : "—");

/** groups: newest first, searched by name. */
export async function listGroups(
  ctx: OrgContext,
  params: { offset: number; pageSize: number; search?: string | null },
): Promise<{ rows: GroupRecord[]; total: number }> {
  requirePermission(ctx, "view_groups");
  let query = groups(ctx);
  if (params.search) query = query.where(containsText("customer_groups.name", params.search));
  const [rows, total] = await Promise.all([
    query
      .select([...COLUMNS])
      .orderBy("customer_groups.created_at", "desc")
      .orderBy("customer_groups.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/**
 * A page of groups with each one's customers (the list's Customers column): the last count while it
 * is fresh, else counted now. `countedAt` says when, for the list to show.
 */
export async function withCounts(ctx: OrgContext, rows: GroupRecord[], now = Date.now()) {
  const counts = await Promise.all(
    rows.map(async (g) =>
      g.lastCount && now - g.lastCount.at < COUNT_FRESH_MS ? g.lastCount : { count: await membersCount(ctx, g), at: now },
    ),
  );
  return rows.map((g, i) => ({ ...g, customersCount: counts[i]!.count, countedAt: counts[i]!.at }));
}

export async function getGroup(ctx: OrgContext, groupId: number | null): Promise<GroupRecord> {
  requirePermission(ctx, "view_groups");
  return findGroup(ctx, groupId);
}

/** The organisation's group, whatever the caller may do with it (the changes check their own permission first). */
export async function findGroup(ctx: OrgContext, groupId: number | null): Promise<GroupRecord> {
  if (groupId === null) notFound(GROUP_MESSAGES.notFound);
  const row = await groups(ctx)
    .select([...COLUMNS])
    .where("customer_groups.id", "=", groupId)
    .executeTakeFirst();
  return row ? toRecord(row) : notFound(GROUP_MESSAGES.notFound);
}

/** How many customers the group has now; kept as its last count for the list. */
export async function membersCount(ctx: OrgContext, group: GroupRecord, now = Date.now()): Promise<number> {
  const count = group.filters ? await countGroupMembers(db, ctx.org.id, group.filters) : 0;
  // Not over a newer count, nor over a filter change made while counting (that clears counted_at).
  await db
    .updateTable("customer_groups")
    .set({ customers_count: count, counted_at: now })
    .where("id", "=", group.id)
    .where("organization_id", "=", ctx.org.id)
    .where("filters", "=", group.filtersJson)
    .where((eb) => eb.or([eb("counted_at", "is", null), eb("counted_at", "<", now)]))
    .execute();
  return count;
}

/** A page of the group's customers, newest first; names and contacts need view_clients. */
export async function groupMembers(
  ctx: OrgContext,
  group: GroupRecord,
  page: { offset: number; pageSize: number },
): Promise<CustomerRow[]> {
  requirePermission(ctx, PERSONAL_DATA_PERMISSION);
  if (!group.filters) return [];
  return (await groupMembersPage(db, ctx.org.id, group.filters, page)).map(toCustomerRow);
}

/** A new group (no filters yet: every customer of the organisation). */
export async function createGroup(ctx: OrgContext, input: GroupInput): Promise<number> {
  requirePermission(ctx, "create_groups");
  const now = Date.now();
  const row = await db
    .insertInto("customer_groups")
    .values({
      organization_id: ctx.org.id,
      name: input.name,
      description: input.description,
      filters: JSON.stringify(EMPTY_FILTERS),
      created_by_user_id: ctx.user.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateGroup(ctx: OrgContext, groupId: number | null, input: GroupInput): Promise<void> {
  requirePermission(ctx, "create_groups");
  const group = await findGroup(ctx, groupId);
  await db
    .updateTable("customer_groups")
    .set({ name: input.name, description: input.description, updated_at: Date.now() })
    .where("id", "=", group.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
}

/**
 * Saves the filters (already checked by the form's schema); venues and access points must be the
 * organisation's. Answers the field errors, or null when saved.
 */
export async function updateGroupFilters(
  ctx: OrgContext,
  groupId: number | null,
  filters: GroupFilters,
): Promise<Record<string, string[]> | null> {
  requirePermission(ctx, "create_groups");
  const group = await findGroup(ctx, groupId);
  const errors: Record<string, string[]> = {};
  if (!(await allOwn(ctx, "venues", filters.venues))) errors.venues = [GROUP_MESSAGES.foreignVenue];
  if (!(await allOwn(ctx, "access_points", filters.accessPoints))) errors.accessPoints = [GROUP_MESSAGES.foreignAccessPoint];
  if (Object.keys(errors).length > 0) return errors;
  await db
    .updateTable("customer_groups")
    .set({ filters: JSON.stringify(filters), customers_count: null, counted_at: null, updated_at: Date.now() })
    .where("id", "=", group.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return null;
}

async function allOwn(ctx: OrgContext, table: "venues" | "access_points", ids: readonly number[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", ctx.org.id)
    .where("id", "in", [...ids])
    .executeTakeFirstOrThrow();
  return Number(row.n) === new Set(ids).size;
}

export async function deleteGroup(ctx: OrgContext, groupId: number | null): Promise<void> {
  requirePermission(ctx, "delete_groups");
  const group = await findGroup(ctx, groupId);
  await db.deleteFrom("customer_groups").where("id", "=", group.id).where("organization_id", "=", ctx.org.id).execute();
}

/** The venues and access points the Filters form offers. */
export async function filterChoices(ctx: OrgContext) {
  const [venues, accessPoints] = await Promise.all([
    db
      .selectFrom("venues")
      .select(["id", "name"])
      .where("organization_id", "=", ctx.org.id)
      .orderBy("name")
      .orderBy("id")
      .limit(500)
      .execute(),
    db
      .selectFrom("access_points")
      .select(["id", "name", "venue_id"])
      .where("organization_id", "=", ctx.org.id)
      .orderBy("name")
      .orderBy("id")
      .limit(2000)
      .execute(),
  ]);
  return {
    venues: venues.map((v) => ({ id: Number(v.id), name: v.name })),
    accessPoints: accessPoints.map((a) => ({ id: Number(a.id), name: a.name, venueId: Number(a.venue_id) })),
  };
}
