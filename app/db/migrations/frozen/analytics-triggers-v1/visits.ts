// FROZEN (app/db/migrations/README.md): part of the analytics trigger generator as migrations 0004,
// 0012 and 0033–0036 use it, unchanged since 0036. Never edit this folder: tests/unit/migrations.test.ts
// holds its contents' hashes. New trigger behaviour is a new migration with its own statements.
//
// Customers' visit chains (docs/decisions/0009-analytics-rollups.md): customer_visit_days holds, per
// customer, the days (the organisation's local days since migration 0033) with an authorized connection in the whole organisation (venue_key 0) and
// at each venue, each day with the next visit day there (NEVER for the last) and the customer's
// first day in the organisation. Two aggregates follow from the chains and are kept with them:
// customer_gaps counts (day, next day) pairs and customer_first_days counts (first day in the
// organisation, first day at the venue) pairs. The chain helpers also serve the presence chains
// (every connection record, presence.ts), which keep gaps only.
import { type Buckets, NEVER, type Row } from "./sql";

/** A per-customer day chain: its day table, its gap counts and the connections it holds. */
export interface DayChain {
  days: string;
  gaps: string;
  /** The column counting the connections of the day. */
  count: string;
  /** Which connections count, besides having a customer (none: all of them). */
  holds?: (r: string) => string;
  /** Its days carry the customer's first day in the organisation (org_first_day). */
  orgFirstDay: boolean;
}

export const VISIT_DAYS: DayChain = {
  days: "customer_visit_days",
  gaps: "customer_gaps",
  count: "connections",
  holds: (r) => `${r}.authorized_at is not null`,
  orgFirstDay: true,
};

/** Adds or removes one authorized connection's visit day in a customer's chain (venue_key 0 or its venue). */
export function visit(b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string): string[] {
  return chainDay(VISIT_DAYS, b, r, sign, scope, onlyIf);
}

/** Adds or removes one connection's day in a customer's chain `c` (venue_key 0 or its venue). */
export function chainDay(c: DayChain, b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string): string[] {
  const day = (row: Row) => b.day(row);
  const key = scope === "organization" ? "0" : `${r}.venue_id`;
  const applies = [c.holds?.(r), `${r}.customer_id is not null`, scope === "venue" && `${r}.venue_id is not null`, onlyIf && `(${onlyIf})`]
    .filter(Boolean)
    .join(" and ");
  const same = `organization_id = ${r}.organization_id and customer_id = ${r}.customer_id and venue_key = ${key} and day_start = ${day(r)}`;
  if (sign === 1) {
    const firstDay = c.orgFirstDay
      ? `,
         coalesce((select min(v.day_start) from ${c.days} v where v.organization_id = ${r}.organization_id
           and v.customer_id = ${r}.customer_id and v.venue_key = 0), ${NEVER})`
      : "";
    return [
      `insert into ${c.days} (organization_id, customer_id, venue_key, day_start, next_day${c.orgFirstDay ? ", org_first_day" : ""}, ${c.count})
       select ${r}.organization_id, ${r}.customer_id, ${key}, ${day(r)},
         coalesce((select min(v.day_start) from ${c.days} v where v.organization_id = ${r}.organization_id
           and v.customer_id = ${r}.customer_id and v.venue_key = ${key} and v.day_start > ${day(r)}), ${NEVER})${firstDay}, 1
       where ${applies}
       on conflict (organization_id, customer_id, venue_key, day_start) do update set ${c.count} = ${c.days}.${c.count} + 1`,
    ];
  }
  return [
    `update ${c.days} set ${c.count} = ${c.count} - 1 where ${same} and ${applies}`,
    `delete from ${c.days} where ${same} and ${c.count} <= 0 and ${applies}`,
  ];
}

// Chain maintenance on customer_visit_days. `chain(x)`: the rows of the same customer and venue key.
export const chain = (alias: string, r: Row) =>
  `${alias}.organization_id = ${r}.organization_id and ${alias}.customer_id = ${r}.customer_id and ${alias}.venue_key = ${r}.venue_key`;
export const previousDay = (r: Row, days = VISIT_DAYS.days) =>
  `(select max(v.day_start) as day from ${days} v where ${chain("v", r)} and v.day_start < ${r}.day_start)`;
const organizationFirst = (r: Row) =>
  `(select min(v.day_start) as day from customer_visit_days v where v.organization_id = ${r}.organization_id and v.customer_id = ${r}.customer_id and v.venue_key = 0)`;
const venueFirsts = (r: Row) =>
  `(select v.venue_key, min(v.day_start) as day from customer_visit_days v where v.organization_id = ${r}.organization_id
     and v.customer_id = ${r}.customer_id and v.venue_key <> 0 group by v.venue_key)`;

export function gapChanges(r: Row, rows: string, gaps = VISIT_DAYS.gaps): string {
  return `insert into ${gaps} (organization_id, venue_key, next_day, day_start, customers)
    select ${r}.organization_id, ${r}.venue_key, g.next_day, g.day_start, g.delta from (${rows}) g where true
    order by g.next_day, g.day_start
    on conflict (organization_id, venue_key, next_day, day_start) do update set customers = ${gaps}.customers + excluded.customers`;
}

/**
 * A day joined chain `c` (`r` = NEW) or left it (`r` = OLD): its gap counts move, and the previous
 * day's next day becomes this day (joined) or this day's next day (left).
 */
export function chainLinks(c: DayChain, r: Row): string[] {
  const rows =
    r === "NEW"
      ? `select p.day as day_start, NEW.next_day as next_day, -1 as delta from ${previousDay("NEW", c.days)} p where p.day is not null
         union all select p.day, NEW.day_start, 1 from ${previousDay("NEW", c.days)} p where p.day is not null
         union all select NEW.day_start, NEW.next_day, 1`
      : `select p.day as day_start, OLD.day_start as next_day, -1 as delta from ${previousDay("OLD", c.days)} p where p.day is not null
         union all select p.day, OLD.next_day, 1 from ${previousDay("OLD", c.days)} p where p.day is not null
         union all select OLD.day_start, OLD.next_day, -1`;
  const next = r === "NEW" ? "NEW.day_start" : "OLD.next_day";
  return [
    gapChanges(r, rows, c.gaps),
    `update ${c.days} set next_day = ${next}
       where ${chain(c.days, r)} and day_start = (select p.day from ${previousDay(r, c.days)} p)`,
  ];
}

/**
 * Pairs (first day in the organisation, first day at the venue) move when a chain's first day
 * changes from `from` to `to` (NEVER: no first day). `r` is the visit day whose insert or delete did it.
 */
export function firstChanges(r: Row, from: string, to: string): string {
  const pairs = [
    // A venue chain: the organisation's first day stays.
    `select ${r}.venue_key as venue_key, o.day as org_first_day, ${from} as venue_first_day, -1 as delta from ${organizationFirst(r)} o
       where ${r}.venue_key <> 0 and o.day is not null and ${from} <> ${NEVER}`,
    `select ${r}.venue_key, o.day, ${to}, 1 from ${organizationFirst(r)} o where ${r}.venue_key <> 0 and o.day is not null and ${to} <> ${NEVER}`,
    // The organisation chain: its own pair and the pair of every venue the customer visited.
    `select 0, ${from}, ${from}, -1 where ${r}.venue_key = 0 and ${from} <> ${NEVER}`,
    `select 0, ${to}, ${to}, 1 where ${r}.venue_key = 0 and ${to} <> ${NEVER}`,
    `select f.venue_key, ${from}, f.day, -1 from ${venueFirsts(r)} f where ${r}.venue_key = 0 and ${from} <> ${NEVER}`,
    `select f.venue_key, ${to}, f.day, 1 from ${venueFirsts(r)} f where ${r}.venue_key = 0 and ${to} <> ${NEVER}`,
  ];
  return `insert into customer_first_days (organization_id, venue_key, org_first_day, venue_first_day, customers)
    select ${r}.organization_id, p.venue_key, p.org_first_day, p.venue_first_day, p.delta from (${pairs.join(" union all ")}) p
    where not exists (select 1 from customer_visit_days e where ${chain("e", r)} and e.day_start < ${r}.day_start)
    order by p.venue_key, p.org_first_day, p.venue_first_day
    on conflict (organization_id, venue_key, org_first_day, venue_first_day) do update set customers = customer_first_days.customers + excluded.customers`;
}

/** Every visit day of the customer carries the organisation's first day: updated when that day moves. */
export function organizationFirstDay(r: Row, to: string): string {
  return `update customer_visit_days set org_first_day = ${to}
    where organization_id = ${r}.organization_id and customer_id = ${r}.customer_id and ${r}.venue_key = 0
      and not exists (select 1 from customer_visit_days e where ${chain("e", r)} and e.day_start < ${r}.day_start)`;
}
