// FROZEN (app/db/migrations/README.md): part of the analytics trigger generator as migrations 0004,
// 0012 and 0033–0036 use it, unchanged since 0036. Never edit this folder: tests/unit/migrations.test.ts
// holds its contents' hashes. New trigger behaviour is a new migration with its own statements.
//
// Customers' presence chains (migration 0034, issue 17 §10): customer_presence_days holds, per
// customer, the organisation's local days with any connection record (authorized or not) in the
// whole organisation (venue_key 0) and at each venue, each with the next such day there (NEVER for
// the last); presence_gaps counts (day, next day) pairs. A window's distinct visitors are then the
// presence days in it whose next day is at or after its end, one per customer: the all-visitors
// report's total without walking customers. Same chain upkeep as the visit days
// (visits.ts), without first days: the report has no new/repeat split for presence.
import { type Buckets, type Row } from "./sql";
import { chainDay, type DayChain } from "./visits";

export const PRESENCE_DAYS: DayChain = { days: "customer_presence_days", gaps: "presence_gaps", count: "records", orgFirstDay: false };

export const PRESENCE_TABLES = ["customer_presence_days", "presence_gaps"] as const;

/** Adds or removes one connection record's presence day in its customer's chain (venue_key 0 or its venue). */
export function presence(b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string): string[] {
  return chainDay(PRESENCE_DAYS, b, r, sign, scope, onlyIf);
}
