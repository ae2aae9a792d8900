// The analytics roll-ups computed from scratch, as plain SQL for both dialects, in the organisations'
// own days and hours: rebuildRollups (app/db/rollups.server.ts) runs them after a bulk load and a
// change of time zone. They hold the same rows as the triggers the latest migration built; they must
// run while the organisation is in analytics_paused, so the visit-day triggers stay quiet.
import { ALL_VENUES, deviceLabel, DIMENSIONS, localDay, localHour, modeLabel, NEVER } from "./rollups-sql.server";

/** Statements that replace the roll-ups of one organisation, or of all (null). */
export function rollupRebuildStatements(organizationId: number | null): string[] {
  if (organizationId !== null && !Number.isSafeInteger(organizationId)) throw new Error(`Not an organization id: ${organizationId}`);
  const of = (alias?: string) => (organizationId === null ? "true" : `${alias ? `${alias}.` : ""}organization_id = ${organizationId}`);
  const sums = "footfall, connections, upload, download, dwell_ms";
  const sumsOf = (columns: string) =>
    columns
      .split(", ")
      .map((c) => `sum(${c})`)
      .join(", ");
  /** The every-venue rows, summed from the per-venue rows just written. */
  const allVenues = (table: string, key: string, columns: string) =>
    `insert into ${table} (organization_id, venue_id, ${key}, ${columns})
     select organization_id, ${ALL_VENUES}, ${key}, ${sumsOf(columns)} from ${table} where ${of()} and venue_id <> ${ALL_VENUES}
     group by organization_id, ${key}`;
  // Every query that buckets joins its organisation as zo (GROUP BY takes the plain column).
  const day = (alias: string) => localDay(alias, "zo.utc_offset_ms");
  const hour = localHour("c", "zo.utc_offset_ms");
  const connections = "connections c join organizations zo on zo.id = c.organization_id";
  const dwell = `case when c.authorized_at is not null and c.ended_at > c.authorized_at then c.ended_at - c.authorized_at else 0 end`;
  const figures = `count(*), count(c.authorized_at), coalesce(sum(c.upload), 0), coalesce(sum(c.download), 0), coalesce(sum(${dwell}), 0)`;
  const device = (d: "is_mobile" | "os" | "brand" | "browser") =>
    `case when d.id is null then 'Unknown' else coalesce(${deviceLabel(d, "d")}, 'Unknown') end`;
  const visits = (key: string, venueCondition: string, groupVenue: string) =>
    `select c.organization_id, c.customer_id, ${key} as venue_key, ${day("c")} as day_start, count(*) as n from ${connections}
     where ${of("c")} and c.authorized_at is not null and c.customer_id is not null${venueCondition}
     group by c.organization_id, c.customer_id${groupVenue}, ${day("c")}`;
  return [
    ...[
      "usage_hourly",
      "usage_daily",
      "usage_daily_ap",
      "dimension_daily",
      "customer_gaps",
      "customer_first_days",
      "customer_visit_days",
    ].map((t) => `delete from ${t} where ${of()}`),
    `insert into usage_hourly (organization_id, venue_id, hour_start, ${sums})
     select c.organization_id, coalesce(c.venue_id, 0), ${hour}, ${figures}
     from ${connections} where ${of("c")}
     group by c.organization_id, coalesce(c.venue_id, 0), ${hour}`,
    allVenues("usage_hourly", "hour_start", sums),
    `insert into usage_daily_ap (organization_id, day_start, venue_id, access_point_id, ${sums})
     select c.organization_id, ${day("c")}, coalesce(c.venue_id, 0), coalesce(c.access_point_id, 0), ${figures}
     from ${connections} where ${of("c")}
     group by c.organization_id, ${day("c")}, coalesce(c.venue_id, 0), coalesce(c.access_point_id, 0)`,
    `insert into usage_daily (organization_id, venue_id, day_start, ${sums})
     select organization_id, venue_id, day_start, ${sumsOf(sums)} from usage_daily_ap where ${of()}
     group by organization_id, venue_id, day_start`,
    allVenues("usage_daily", "day_start", sums),
    `insert into dimension_daily (organization_id, dimension, venue_id, day_start, value, footfall, connections)
     select c.organization_id, k.dimension, coalesce(c.venue_id, 0), ${day("c")},
       case k.dimension when 'mode' then ${modeLabel("c")} when 'is_mobile' then ${device("is_mobile")}
         when 'os' then ${device("os")} when 'brand' then ${device("brand")} else ${device("browser")} end as value,
       count(*), count(c.authorized_at)
     from ${connections} left join devices d on d.id = c.device_id cross join ${DIMENSIONS} k
     where ${of("c")}
     group by c.organization_id, k.dimension, coalesce(c.venue_id, 0), ${day("c")},
       case k.dimension when 'mode' then ${modeLabel("c")} when 'is_mobile' then ${device("is_mobile")}
         when 'os' then ${device("os")} when 'brand' then ${device("brand")} else ${device("browser")} end`,
    allVenues("dimension_daily", "dimension, day_start, value", "footfall, connections"),
    `insert into customer_visit_days (organization_id, customer_id, venue_key, day_start, next_day, org_first_day, connections)
     select v.organization_id, v.customer_id, v.venue_key, v.day_start,
       coalesce(lead(v.day_start) over (partition by v.organization_id, v.customer_id, v.venue_key order by v.day_start), ${NEVER}),
       min(case when v.venue_key = 0 then v.day_start end) over (partition by v.organization_id, v.customer_id), v.n
     from (${visits("0", "", "")} union all ${visits("c.venue_id", " and c.venue_id is not null", ", c.venue_id")}) v`,
    `insert into customer_gaps (organization_id, venue_key, next_day, day_start, customers)
     select organization_id, venue_key, next_day, day_start, count(*) from customer_visit_days where ${of()}
     group by organization_id, venue_key, next_day, day_start`,
    `insert into customer_first_days (organization_id, venue_key, org_first_day, venue_first_day, customers)
     select f.organization_id, f.venue_key, o.day, f.day, count(*)
     from (select organization_id, customer_id, venue_key, min(day_start) as day from customer_visit_days where ${of()}
           group by organization_id, customer_id, venue_key) f
     join (select organization_id, customer_id, min(day_start) as day from customer_visit_days where ${of()} and venue_key = 0
           group by organization_id, customer_id) o on o.organization_id = f.organization_id and o.customer_id = f.customer_id
     group by f.organization_id, f.venue_key, o.day, f.day`,
    ...presenceStatements(organizationId),
    ...totalsStatements(organizationId),
  ];
}

/**
 * The presence chains (customer_presence_days, presence_gaps; migration 0034): per customer, the
 * days with any connection record, authorized or not, each with the next such day there.
 */
function presenceStatements(organizationId: number | null): string[] {
  const of = (alias?: string) => (organizationId === null ? "true" : `${alias ? `${alias}.` : ""}organization_id = ${organizationId}`);
  const day = localDay("c", "zo.utc_offset_ms");
  const days = (key: string, venueCondition: string, groupVenue: string) =>
    `select c.organization_id, c.customer_id, ${key} as venue_key, ${day} as day_start, count(*) as n
     from connections c join organizations zo on zo.id = c.organization_id
     where ${of("c")} and c.customer_id is not null${venueCondition}
     group by c.organization_id, c.customer_id${groupVenue}, ${day}`;
  return [
    ...["customer_presence_days", "presence_gaps"].map((t) => `delete from ${t} where ${of()}`),
    `insert into customer_presence_days (organization_id, customer_id, venue_key, day_start, next_day, records)
     select p.organization_id, p.customer_id, p.venue_key, p.day_start,
       coalesce(lead(p.day_start) over (partition by p.organization_id, p.customer_id, p.venue_key order by p.day_start), ${NEVER}), p.n
     from (${days("0", "", "")} union all ${days("c.venue_id", " and c.venue_id is not null", ", c.venue_id")}) p`,
    `insert into presence_gaps (organization_id, venue_key, next_day, day_start, customers)
     select organization_id, venue_key, next_day, day_start, count(*) from customer_presence_days where ${of()}
     group by organization_id, venue_key, next_day, day_start`,
  ];
}

/** customer_totals (migration 0035) from the organisation's visit days (no trigger reads it). */
function totalsStatements(organizationId: number | null): string[] {
  const of = organizationId === null ? "true" : `organization_id = ${organizationId}`;
  return [
    `delete from customer_totals where ${of}`,
    `insert into customer_totals (organization_id, customer_id, days, connections)
     select organization_id, customer_id, count(*), sum(connections) from customer_visit_days where ${of} and venue_key = 0
     group by organization_id, customer_id`,
  ];
}
