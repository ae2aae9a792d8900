// SQL pieces of the analytics queries. Times are epoch milliseconds (docs/decisions/0001), so hours
// of day and weekdays at the organisation's offset from UTC are plain integer arithmetic that both
// SQLite and PostgreSQL evaluate alike.
// Constants are inlined (sql.lit), so PostgreSQL sees the SELECT and GROUP BY expressions as equal.
import { sql, type Expression, type RawBuilder } from "kysely";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** 0 = Monday … 6 = Sunday at `offsetMs` from UTC (1970-01-01 was a Thursday). */
export function weekdayOf(time: Expression<unknown>, offsetMs: number): RawBuilder<number> {
  return sql<number>`(((${time} + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)} + 3) % 7)`;
}

/** Hour of the day at `offsetMs` from UTC, 0–23. */
export function hourOfDay(time: Expression<unknown>, offsetMs: number): RawBuilder<number> {
  return sql<number>`(((${time} + ${sql.lit(offsetMs)}) % ${sql.lit(DAY_MS)}) / ${sql.lit(HOUR_MS)})`;
}
