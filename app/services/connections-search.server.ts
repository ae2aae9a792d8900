// The search box of the connections, devices and customers lists, without scanning connections
// (docs/decisions/0006-connections-at-scale.md).
//
// customers.search_text and devices.search_text (migration 0003) hold the lower-cased searchable
// fields in one column; a term of three characters or more is looked up in their trigram index
// (FTS5 on SQLite, pg_trgm on PostgreSQL), a shorter one scans the column. A term is resolved to
// the matching customers, devices, venues and access points first; then connections are read:
// - few matches ("sparse"): through the customer and device indexes, then sorted;
// - more ("dense"): newest first through the list's own index, keeping rows that belong to a match
//   (matches are frequent, so a page fills quickly); the ids travel as one parameter.
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { checkedPerRow, containsText, hasTrigramTables, inIds } from "~/db/sql.server";
import { likePattern } from "~/lib/pagination";
import type { OrgContext } from "./guard.server";

/** Up to this many matching customers (and devices) are read through their own indexes. */
export const SPARSE_LIMIT = 500;
/** Up to this many matching ids are passed as a list; beyond it the match is re-evaluated in SQL. */
const DENSE_LIMIT = 20_000;

type Searchable = "customers" | "devices";

export interface SearchMatch {
  /** Nothing matches: the list is empty without asking the connections table. */
  none: boolean;
  /** Few matches: the caller should read connections through the customer/device indexes. */
  sparse: boolean;
  condition: (eb: ExpressionBuilder<DB, "connections">) => Expression<SqlBool>;
}

/**
 * What a term is looked for as (lower case): the term itself and, for something that looks like a
 * phone number (07…, +254 7…, 254…), its digits without the leading 0, so "0712 345 678" finds the
 * stored "+254712345678"; a MAC written with dashes or dots is also looked for with colons.
 */
export function searchVariants(term: string): string[] {
  const lower = term.trim().toLowerCase();
  const variants = [lower];
  if (/^\+?[\d\s()-]{4,}$/.test(lower)) {
    const digits = lower.replace(/\D/g, "").replace(/^0/, "");
    if (digits && digits !== lower) variants.push(digits);
  }
  if (/^[0-9a-f]{2}([-.][0-9a-f]{2})+[-.]?$/.test(lower)) variants.push(lower.replace(/[-.]/g, ":"));
  return variants;
}

/** A trigram index can answer "contains" for three characters or more without wildcards. */
const trigramReady = (variant: string) => variant.length >= 3 && !/[%_\\]/.test(variant);

/** search_text contains one of the term's variants, tested row by row (no trigram index). */
export function searchTextMatches(table: Searchable, term: string): Expression<SqlBool> {
  const column = sql.ref(`${table}.search_text`);
  const tests = searchVariants(term).map((v) => sql<SqlBool>`${column} like ${likePattern(v)} escape '\\'`);
  return tests.length === 1 ? tests[0] : sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/**
 * Ids of the organisation's customers or devices whose search_text contains the term, read
 * through the trigram index where it can answer (SQLite: the FTS5 table; PostgreSQL: its planner
 * uses the pg_trgm index for LIKE).
 */
export function matchingIds(table: Searchable, orgId: number, term: string): RawBuilder<{ id: number }> {
  const variants = searchVariants(term);
  if (!hasTrigramTables() || !variants.every(trigramReady)) {
    return sql<{
      id: number;
    }>`select ${sql.ref(`${table}.id`)} as id from ${sql.table(table)} where ${sql.ref(`${table}.organization_id`)} = ${orgId} and ${searchTextMatches(table, term)}`;
  }
  // Joined (not `id IN (…)`), so a LIMIT stops reading the index early; UNION ALL for the same reason.
  const fts = sql.table(`${table}_search`);
  const id = sql.ref(`${table}.id`);
  return sql.join(
    variants.map(
      (v) =>
        sql<{
          id: number;
        }>`select ${id} as id from ${fts} join ${sql.table(table)} on ${id} = ${fts}.rowid where ${fts}.search_text like ${`%${v}%`} and ${checkedPerRow(`${table}.organization_id`)} = ${orgId}`,
    ),
    sql` union all `,
  ) as RawBuilder<{ id: number }>;
}

/** Up to `limit` distinct matching ids (a phone number's variants may find a record twice). */
async function ids(table: Searchable, orgId: number, term: string, limit = DENSE_LIMIT + 1): Promise<number[]> {
  const result = await sql<{ id: number }>`${matchingIds(table, orgId, term)} limit ${limit}`.execute(db);
  return [...new Set(result.rows.map((r) => Number(r.id)))];
}

export async function resolveSearch(ctx: OrgContext, term: string): Promise<SearchMatch> {
  const orgId = ctx.org.id;
  const [venues, accessPoints, customerIds, deviceIds] = await Promise.all([
    db.selectFrom("venues").select("id").where("organization_id", "=", orgId).where(containsText("name", term)).execute(),
    db
      .selectFrom("access_points")
      .select("id")
      .where("organization_id", "=", orgId)
      .where((eb) => eb.or([containsText("name", term), containsText("mac_address", term)]))
      .execute(),
    ids("customers", orgId, term),
    ids("devices", orgId, term),
  ]);
  const venueIds = venues.map((r) => r.id);
  const accessPointIds = accessPoints.map((r) => r.id);
  if (!venueIds.length && !accessPointIds.length && !customerIds.length && !deviceIds.length) {
    return { none: true, sparse: true, condition: () => sql<SqlBool>`1 = 0` };
  }
  const sparse = !venueIds.length && !accessPointIds.length && customerIds.length <= SPARSE_LIMIT && deviceIds.length <= SPARSE_LIMIT;
  if (sparse) {
    return {
      none: false,
      sparse,
      condition: (eb) =>
        eb.or([
          ...(customerIds.length ? [eb("connections.customer_id", "in", customerIds)] : []),
          ...(deviceIds.length ? [eb("connections.device_id", "in", deviceIds)] : []),
        ]),
    };
  }
  // Many matches: each is tested per row while the list's index gives the order.
  const among = (column: string, table: Searchable, found: number[]) =>
    found.length > DENSE_LIMIT
      ? sql<SqlBool>`${checkedPerRow(column)} in (${matchingIds(table, orgId, term)})`
      : inIds(column, found, { indexed: false });
  return {
    none: false,
    sparse,
    condition: (eb) =>
      eb.or([
        ...(venueIds.length ? [inIds("connections.venue_id", venueIds, { indexed: false })] : []),
        ...(accessPointIds.length ? [inIds("connections.access_point_id", accessPointIds, { indexed: false })] : []),
        ...(customerIds.length ? [among("connections.customer_id", "customers", customerIds)] : []),
        ...(deviceIds.length ? [among("connections.device_id", "devices", deviceIds)] : []),
      ]),
  };
}

export type RecordSearch =
  { kind: "none" } | { kind: "ids"; condition: Expression<SqlBool> } | { kind: "scan"; condition: Expression<SqlBool> };

/**
 * The search of the customers and devices lists: up to 20,000 matches are looked up by id (primary
 * key) and sorted; more are tested row by row (searchTextMatches) while the list reads newest
 * first, which finds a page quickly because matches are that frequent.
 */
export async function recordSearch(table: Searchable, orgId: number, term: string): Promise<RecordSearch> {
  const found = await ids(table, orgId, term);
  if (found.length === 0) return { kind: "none" };
  if (found.length <= DENSE_LIMIT) return { kind: "ids", condition: inIds(`${table}.id`, found) };
  return { kind: "scan", condition: searchTextMatches(table, term) };
}
