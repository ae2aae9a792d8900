// FROZEN (app/db/migrations/README.md): part of the analytics trigger generator as migrations 0004,
// 0012 and 0033–0036 use it, unchanged since 0036. Never edit this folder: tests/unit/migrations.test.ts
// holds its contents' hashes. New trigger behaviour is a new migration with its own statements.
//
// SQL fragments of the analytics roll-up triggers (docs/decisions/0009-analytics-rollups.md), plain
// text for both SQLite and PostgreSQL.

export const NEVER = 253_402_300_800_000; // 10000-01-01: "no next visit"
/** venue_id of the usage and dimension rows that hold every venue of the organisation together. */
export const ALL_VENUES = -1;
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

export type Row = "NEW" | "OLD";

/**
 * How a row's time falls into hours and days. Since migration 0033 the buckets are the
 * organisation's own: hours and days start at its local midnight, kept as a fixed offset from UTC
 * in organizations.utc_offset_ms (decision 0023). Migrations older than 0033 build the UTC buckets
 * they had, before the column existed.
 */
export interface Buckets {
  /**
   * Start of the row's day (UTC ms of its local midnight). `alias` is NEW, OLD or a table alias;
   * `offset` an expression for its organisation's utc_offset_ms when the query joins it (GROUP BY
   * needs a plain column), else a subquery reads it.
   */
  day(alias: string, offset?: string): string;
  /** Start of the row's hour. */
  hour(alias: string, offset?: string): string;
}

const offsetOf = (alias: string) => `(select zo.utc_offset_ms from organizations zo where zo.id = ${alias}.organization_id)`;
const startOf = (alias: string, size: number, offset: string | null) =>
  offset === null
    ? `(${alias}.created_at - ${alias}.created_at % ${size})`
    : `(${alias}.created_at - (${alias}.created_at + ${offset}) % ${size})`;

export const UTC_BUCKETS: Buckets = { day: (a) => startOf(a, DAY, null), hour: (a) => startOf(a, HOUR, null) };
export const LOCAL_BUCKETS: Buckets = {
  day: (a, offset) => startOf(a, DAY, offset ?? offsetOf(a)),
  hour: (a, offset) => startOf(a, HOUR, offset ?? offsetOf(a)),
};

export const isAuthorized = (r: Row) => `(case when ${r}.authorized_at is null then 0 else 1 end)`;
/** A connection's dwell; `r` is NEW, OLD or a table alias. */
export const dwellMs = (r: Row | string) =>
  `(case when ${r}.authorized_at is not null and ${r}.ended_at > ${r}.authorized_at then ${r}.ended_at - ${r}.authorized_at else 0 end)`;
export const add = (table: string, columns: string[]) => columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(", ");

/** The venue rows a connection counts in: its own (0 once deleted) and every venue's (ALL_VENUES). */
export const venueLevels = (r: Row) => `(select coalesce(${r}.venue_id, 0) as venue_id union all select ${ALL_VENUES})`;

export const DIMENSIONS =
  "(select 'mode' as dimension union all select 'is_mobile' union all select 'os' union all select 'brand' union all select 'browser')";

/** The label of a device property. */
export function deviceLabel(dimension: "is_mobile" | "os" | "brand" | "browser", device: string): string {
  return dimension === "is_mobile"
    ? `case when ${device}.is_mobile = 1 then 'Mobile' else 'Desktop' end`
    : `nullif(trim(${device}.${dimension}), '')`;
}

export const modeLabel = (connection: string) => `coalesce(nullif(trim(${connection}.authorization_mode), ''), 'unknown')`;
