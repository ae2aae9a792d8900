// Customers' visit chains (docs/decisions/0009-analytics-rollups.md): customer_visit_days holds, per
// customer, the days (the organisation's local days since migration 0033) with an authorized connection in the whole organisation (venue_key 0) and
// at each venue, each day with the next visit day there (NEVER for the last) and the customer's
// first day in the organisation. Two aggregates follow from the chains and are kept with them:
// customer_gaps counts (day, next day) pairs and customer_first_days counts (first day in the
// organisation, first day at the venue) pairs.
import { type Buckets, NEVER, type Row } from "./_analytics-sql";

/** Adds or removes one authorized connection's visit day in a customer's chain (venue_key 0 or its venue). */
export function visit(b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string): string[] {
  const day = (row: Row) => b.day(row);
  const key = scope === "organization" ? "0" : `${r}.venue_id`;
  const applies = [
    `${r}.authorized_at is not null and ${r}.customer_id is not null`,
    scope === "venue" && `${r}.venue_id is not null`,
    onlyIf && `(${onlyIf})`,
  ].filter(Boolean).join(" and ");
  const same = `organization_id = ${r}.organization_id and customer_id = ${r}.customer_id and venue_key = ${key} and day_start = ${day(r)}`;
  if (sign === 1) {
    return [
      `insert into customer_visit_days (organization_id, customer_id, venue_key, day_start, next_day, org_first_day, connections)
       select ${r}.organization_id, ${r}.customer_id, ${key}, ${day(r)},
         coalesce((select min(v.day_start) from customer_visit_days v where v.organization_id = ${r}.organization_id
           and v.customer_id = ${r}.customer_id and v.venue_key = ${key} and v.day_start > ${day(r)}), ${NEVER}),
         coalesce((select min(v.day_start) from customer_visit_days v where v.organization_id = ${r}.organization_id
           and v.customer_id = ${r}.customer_id and v.venue_key = 0), ${NEVER}), 1
       where ${applies}
       on conflict (organization_id, customer_id, venue_key, day_start) do update set connections = customer_visit_days.connections + 1`,
    ];
  }
  return [
    `update customer_visit_days set connections = connections - 1 where ${same} and ${applies}`,
    `delete from customer_visit_days where ${same} and connections <= 0 and ${applies}`,
  ];
}

// Chain maintenance on customer_visit_days. `chain(x)`: the rows of the same customer and venue key.
export const chain = (alias: string, r: Row) =>
  `${alias}.organization_id = ${r}.organization_id and ${alias}.customer_id = ${r}.customer_id and ${alias}.venue_key = ${r}.venue_key`;
export const previousDay = (r: Row) => `(select max(v.day_start) as day from customer_visit_days v where ${chain("v", r)} and v.day_start < ${r}.day_start)`;
const organizationFirst = (r: Row) =>
  `(select min(v.day_start) as day from customer_visit_days v where v.organization_id = ${r}.organization_id and v.customer_id = ${r}.customer_id and v.venue_key = 0)`;
const venueFirsts = (r: Row) =>
  `(select v.venue_key, min(v.day_start) as day from customer_visit_days v where v.organization_id = ${r}.organization_id
     and v.customer_id = ${r}.customer_id and v.venue_key <> 0 group by v.venue_key)`;

export function gapChanges(r: Row, rows: string): string {
  return `insert into customer_gaps (organization_id, venue_key, next_day, day_start, customers)
    select ${r}.organization_id, ${r}.venue_key, g.next_day, g.day_start, g.delta from (${rows}) g where true
    order by g.next_day, g.day_start
    on conflict (organization_id, venue_key, next_day, day_start) do update set customers = customer_gaps.customers + excluded.customers`;
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
