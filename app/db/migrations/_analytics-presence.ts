// Customers' presence chains (migration 0034, issue 17 §10): customer_presence_days holds, per
// customer, the organisation's local days with any connection record (authorized or not) in the
// whole organisation (venue_key 0) and at each venue, each with the next such day there (NEVER for
// the last); presence_gaps counts (day, next day) pairs. A window's distinct visitors are then the
// presence days in it whose next day is at or after its end, one per customer: the all-visitors
// report's total without walking customers. Same chain upkeep as the visit days
// (_analytics-visits.ts), without first days: the report has no new/repeat split for presence.
import { type Buckets, NEVER, type Row } from "./_analytics-sql";
import { chainDay, type DayChain } from "./_analytics-visits";

export const PRESENCE_DAYS: DayChain = { days: "customer_presence_days", gaps: "presence_gaps", count: "records", orgFirstDay: false };

export const PRESENCE_TABLES = ["customer_presence_days", "presence_gaps"] as const;

/** Adds or removes one connection record's presence day in its customer's chain (venue_key 0 or its venue). */
export function presence(b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string): string[] {
  return chainDay(PRESENCE_DAYS, b, r, sign, scope, onlyIf);
}

/**
 * The presence roll-ups of one organisation (all: null) computed from scratch. Run paused, like
 * the other rebuild statements (_analytics-rebuild.ts), so the chain triggers stay quiet.
 */
export function presenceRebuildStatements(organizationId: number | null, b: Buckets): string[] {
  if (organizationId !== null && !Number.isSafeInteger(organizationId)) throw new Error(`Not an organization id: ${organizationId}`);
  const of = (alias?: string) => (organizationId === null ? "true" : `${alias ? `${alias}.` : ""}organization_id = ${organizationId}`);
  const day = b.day("c", "zo.utc_offset_ms");
  const days = (key: string, venueCondition: string, groupVenue: string) =>
    `select c.organization_id, c.customer_id, ${key} as venue_key, ${day} as day_start, count(*) as n
     from connections c join organizations zo on zo.id = c.organization_id
     where ${of("c")} and c.customer_id is not null${venueCondition}
     group by c.organization_id, c.customer_id${groupVenue}, ${day}`;
  return [
    ...PRESENCE_TABLES.map((t) => `delete from ${t} where ${of()}`),
    `insert into customer_presence_days (organization_id, customer_id, venue_key, day_start, next_day, records)
     select p.organization_id, p.customer_id, p.venue_key, p.day_start,
       coalesce(lead(p.day_start) over (partition by p.organization_id, p.customer_id, p.venue_key order by p.day_start), ${NEVER}), p.n
     from (${days("0", "", "")} union all ${days("c.venue_id", " and c.venue_id is not null", ", c.venue_id")}) p`,
    `insert into presence_gaps (organization_id, venue_key, next_day, day_start, customers)
     select organization_id, venue_key, next_day, day_start, count(*) from customer_presence_days where ${of()}
     group by organization_id, venue_key, next_day, day_start`,
  ];
}
