// SQL fragments of the analytics roll-ups as the app reads and rebuilds them (decision 0009): plain
// text for both SQLite and PostgreSQL. The triggers that keep the roll-ups are the migrations' own
// (app/db/migrations/frozen/analytics-triggers-v1); these must label and bucket as they do, which the
// tests check by comparing the trigger-kept roll-ups with a rebuild (tests/integration/analytics-rollups.test.ts).

/** next_day of a customer's last day: 10000-01-01, "no next visit". */
export const NEVER = 253_402_300_800_000;
/** venue_id of the usage and dimension rows that hold every venue of the organisation together. */
export const ALL_VENUES = -1;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * Start of the organisation's day or hour holding `alias`.created_at (UTC ms): its local midnights
 * and hours, `offset` being an expression for its utc_offset_ms (decision 0023).
 */
export const localDay = (alias: string, offset: string) => `(${alias}.created_at - (${alias}.created_at + ${offset}) % ${DAY})`;
export const localHour = (alias: string, offset: string) => `(${alias}.created_at - (${alias}.created_at + ${offset}) % ${HOUR})`;

/** The dimensions of dimension_daily, as a table of one column. */
export const DIMENSIONS =
  "(select 'mode' as dimension union all select 'is_mobile' union all select 'os' union all select 'brand' union all select 'browser')";

/** The label of a device property ("Unknown" is the caller's, for a missing device or value). */
export function deviceLabel(dimension: "is_mobile" | "os" | "brand" | "browser", device: string): string {
  return dimension === "is_mobile"
    ? `case when ${device}.is_mobile = 1 then 'Mobile' else 'Desktop' end`
    : `nullif(trim(${device}.${dimension}), '')`;
}

/** A connection's authorization mode label, "unknown" when missing. */
export const modeLabel = (connection: string) => `coalesce(nullif(trim(${connection}.authorization_mode), ''), 'unknown')`;
