// Totals of the connections, devices and customers lists without counting millions of rows
// (docs/decisions/0006-connections-at-scale.md). Those lists are ordered newest first by
// (created_at, id); a total is the rows up to the end of the page plus those after it, counted
// from the page's last row (so a deep page does not walk its offset twice) up to a cap.
import { sql, type Expression, type SqlBool } from "kysely";
import type { ListParams } from "~/lib/pagination";

/** Totals are exact up to this many rows (or a few pages past the current page)… */
export const COUNT_CAP = 10_000;
/** …or this many for a search or a venue/access point scope, whose matches may be spread thin. */
export const NARROW_COUNT_CAP = 1_000;
const PAGES_AHEAD = 5;

export interface Cursor {
  createdAt: number;
  id: number;
}

/** Rows of `table` after `cursor` in newest-first order, written as an index range on created_at. */
export function olderThan(table: "devices" | "customers" | "subscriptions", cursor: Cursor): Expression<SqlBool> {
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  return sql<SqlBool>`(${createdAt} <= ${cursor.createdAt} and (${createdAt} < ${cursor.createdAt} or ${id} < ${cursor.id}))`;
}

/**
 * `count(after, limit)` counts matching rows (after the cursor, the page's last row, when one is
 * given), stopping at `limit`. Past the end of the list (an empty page) it is a plain count up to the cap.
 */
export async function cappedTotal(
  page: { id: number; created_at: number }[],
  params: Pick<ListParams, "offset" | "pageSize">,
  cap: number,
  count: (after: Cursor | null, limit: number) => Promise<number>,
): Promise<{ total: number; capped: boolean }> {
  const last = page.at(-1);
  const before = last ? params.offset + page.length : 0;
  const lookahead = last ? Math.max(cap - before, params.pageSize * PAGES_AHEAD) : cap;
  const after = await count(last ? { createdAt: Number(last.created_at), id: Number(last.id) } : null, lookahead + 1);
  return { total: before + Math.min(after, lookahead), capped: after > lookahead };
}
