// SQL pieces of the analytics queries. Times are epoch milliseconds (docs/decisions/0001), so hour
// and day buckets at the organisation's offset from UTC are plain integer arithmetic that both
// SQLite and PostgreSQL evaluate alike.
// Constants are inlined (sql.lit), so PostgreSQL sees the SELECT and GROUP BY expressions as equal.
import { sql, type Expression, type RawBuilder, type SqlBool } from "kysely";
import type { Bucket } from "~/lib/analytics";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const bucketMs = (bucket: Bucket) => (bucket === "hour" ? HOUR_MS : DAY_MS);

/** Start of the hour or day holding the time, at `offsetMs` from UTC (UTC ms). */
export function bucketStart(time: Expression<unknown>, bucket: Bucket, offsetMs: number): RawBuilder<number> {
  return sql<number>`(${time} - (${time} + ${sql.lit(offsetMs)}) % ${sql.lit(bucketMs(bucket))})`;
}

/** 0 = Monday … 6 = Sunday at `offsetMs` from UTC (1970-01-01 was a Thursday). */
export function weekdayOf(time: Expression<unknown>, offsetMs: number): RawBuilder<number> {
  return sql<number>`(((${time} + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)} + 3) % 7)`;
}

/** Hour of the day at `offsetMs` from UTC, 0–23. */
export function hourOfDay(time: Expression<unknown>, offsetMs: number): RawBuilder<number> {
  return sql<number>`(((${time} + ${sql.lit(offsetMs)}) % ${sql.lit(DAY_MS)}) / ${sql.lit(HOUR_MS)})`;
}

/**
 * A connection's dwell in milliseconds: from authorization to its end. Connections still online
 * contribute nothing until they end, so a window's dwell time does not change with the clock.
 */
export function dwellMsOf(table: string): RawBuilder<number> {
  const authorizedAt = sql.ref(`${table}.authorized_at`);
  const endedAt = sql.ref(`${table}.ended_at`);
  return sql<number>`case when ${authorizedAt} is not null and ${endedAt} > ${authorizedAt} then ${endedAt} - ${authorizedAt} else 0 end`;
}

export function isAuthorized(table: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${table}.authorized_at`)} is not null`;
}
