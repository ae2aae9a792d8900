// The search box of the connections, devices and customers lists, without scanning connections.
//
// customers.search_text and devices.search_text (migration 0003) hold the lower-cased searchable
// fields in one column (indexed with organization_id on SQLite, so a search reads the index only).
// A term is resolved to the matching customers, devices, venues and access points first; then:
// - few matches ("sparse"): connections are read through their customer and device indexes;
// - many matches or a venue/access point ("dense"): connections are read newest first through the
//   list's own index and kept when they belong to a match, which finds a page quickly because
//   matches are frequent.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { containsText } from "~/db/sql.server";
import { likePattern } from "~/lib/pagination";
import type { OrgContext } from "./guard.server";

/** Up to this many matching customers (and devices) are looked up by id. */
export const SPARSE_LIMIT = 500;

export interface SearchMatch {
  /** Nothing matches: the list is empty without asking the connections table. */
  none: boolean;
  /** Few matches: the caller should read connections through the customer/device indexes. */
  sparse: boolean;
  condition: (eb: ExpressionBuilder<DB, "connections">) => Expression<SqlBool>;
}

/**
 * LIKE patterns for a term (lower case): the term itself and, for something that looks like a
 * phone number (07…, +254 7…, 254…), its digits without the leading 0, so "0712 345 678" finds
 * the stored "+254712345678".
 */
export function searchPatterns(term: string): string[] {
  const lower = term.trim().toLowerCase();
  const patterns = [likePattern(lower)];
  if (/^\+?[\d\s()-]{4,}$/.test(lower)) {
    const digits = lower.replace(/\D/g, "").replace(/^0/, "");
    if (digits && digits !== lower) patterns.push(likePattern(digits));
  }
  if (/^[0-9a-f]{2}([-.][0-9a-f]{2})+[-.]?$/.test(lower)) patterns.push(likePattern(lower.replace(/[-.]/g, ":")));
  return patterns;
}

/** search_text matches one of the term's patterns (search_text is already lower case). */
export function searchTextMatches(table: "customers" | "devices", term: string): Expression<SqlBool> {
  const column = sql.ref(`${table}.search_text`);
  const tests = searchPatterns(term).map((p) => sql<SqlBool>`${column} like ${p} escape '\\'`);
  return tests.length === 1 ? tests[0] : sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

function matchingIds(table: "customers" | "devices", orgId: number, term: string) {
  return db
    .selectFrom(table)
    .select(`${table}.id as id`)
    .where(`${table}.organization_id`, "=", orgId)
    .where(searchTextMatches(table, term));
}

export async function resolveSearch(ctx: OrgContext, term: string): Promise<SearchMatch> {
  const orgId = ctx.org.id;
  const [venues, accessPoints, customers, devices] = await Promise.all([
    db.selectFrom("venues").select("id").where("organization_id", "=", orgId).where(containsText("name", term)).execute(),
    db
      .selectFrom("access_points")
      .select("id")
      .where("organization_id", "=", orgId)
      .where((eb) => eb.or([containsText("name", term), containsText("mac_address", term)]))
      .execute(),
    matchingIds("customers", orgId, term).limit(SPARSE_LIMIT + 1).execute(),
    matchingIds("devices", orgId, term).limit(SPARSE_LIMIT + 1).execute(),
  ]);
  const venueIds = venues.map((r) => r.id);
  const accessPointIds = accessPoints.map((r) => r.id);
  const customerIds = customers.map((r) => Number(r.id));
  const deviceIds = devices.map((r) => Number(r.id));
  if (!venueIds.length && !accessPointIds.length && !customerIds.length && !deviceIds.length) {
    return { none: true, sparse: true, condition: (eb) => eb.lit(false) as unknown as Expression<SqlBool> };
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
  // `col + 0`: membership is checked row by row while another index gives the order.
  const unindexed = (column: string) => sql`${sql.ref(column)} + 0`;
  return {
    none: false,
    sparse,
    condition: (eb) =>
      eb.or([
        ...(venueIds.length ? [eb(unindexed("connections.venue_id"), "in", venueIds)] : []),
        ...(accessPointIds.length ? [eb(unindexed("connections.access_point_id"), "in", accessPointIds)] : []),
        ...(customerIds.length ? [eb(unindexed("connections.customer_id"), "in", matchingIds("customers", orgId, term))] : []),
        ...(deviceIds.length ? [eb(unindexed("connections.device_id"), "in", matchingIds("devices", orgId, term))] : []),
      ]),
  };
}
