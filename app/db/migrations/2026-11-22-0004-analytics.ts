import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { UTC_BUCKETS } from "./frozen/analytics-triggers-v1/sql";
import { analyticsTriggers, switchTriggers } from "./frozen/analytics-triggers-v1/triggers";

// The triggers as this migration made them: UTC hours and days (migration 0033 makes them local),
// no presence chains (migration 0034 adds them), no customer totals (0035).
const TRIGGERS = analyticsTriggers(UTC_BUCKETS, { presence: false });
// The tables this migration makes (later migrations add to the shared list).
const ROLLUP_TABLES = [
  "usage_hourly",
  "usage_daily",
  "usage_daily_ap",
  "dimension_daily",
  "customer_visit_days",
  "customer_gaps",
  "customer_first_days",
];

// Analytics roll-ups kept current by triggers (docs/decisions/0009-analytics-rollups.md).
// Tables are clustered by their primary key on SQLite (WITHOUT ROWID); the key starts with what
// the queries filter on. venue_id / access_point_id 0: the connection's venue or access point was
// deleted; venue_id -1: every venue together. venue_key 0: the whole organisation.
export async function up(db: Kysely<any>): Promise<void> {
  const sums = <T extends string>(table: CreateTableBuilder<T, any>) =>
    table
      .addColumn("footfall", "bigint", (c) => c.notNull())
      .addColumn("connections", "bigint", (c) => c.notNull())
      .addColumn("upload", "bigint", (c) => c.notNull())
      .addColumn("download", "bigint", (c) => c.notNull())
      .addColumn("dwell_ms", "bigint", (c) => c.notNull());

  await clustered(
    db,
    sums(
      db.schema
        .createTable("usage_hourly")
        .addColumn("organization_id", "integer", (c) => c.notNull())
        .addColumn("venue_id", "integer", (c) => c.notNull())
        .addColumn("hour_start", "bigint", (c) => c.notNull()),
    ).addPrimaryKeyConstraint("usage_hourly_pk", ["organization_id", "venue_id", "hour_start"]),
  ).execute();

  await clustered(
    db,
    sums(
      db.schema
        .createTable("usage_daily")
        .addColumn("organization_id", "integer", (c) => c.notNull())
        .addColumn("venue_id", "integer", (c) => c.notNull())
        .addColumn("day_start", "bigint", (c) => c.notNull()),
    ).addPrimaryKeyConstraint("usage_daily_pk", ["organization_id", "venue_id", "day_start"]),
  ).execute();

  await clustered(
    db,
    sums(
      db.schema
        .createTable("usage_daily_ap")
        .addColumn("organization_id", "integer", (c) => c.notNull())
        .addColumn("day_start", "bigint", (c) => c.notNull())
        .addColumn("venue_id", "integer", (c) => c.notNull())
        .addColumn("access_point_id", "integer", (c) => c.notNull()),
    ).addPrimaryKeyConstraint("usage_daily_ap_pk", ["organization_id", "day_start", "venue_id", "access_point_id"]),
  ).execute();

  await clustered(
    db,
    db.schema
      .createTable("dimension_daily")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("dimension", "text", (c) => c.notNull())
      .addColumn("venue_id", "integer", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("footfall", "bigint", (c) => c.notNull())
      .addColumn("connections", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("dimension_daily_pk", ["organization_id", "dimension", "venue_id", "day_start", "value"]),
  ).execute();

  await clustered(
    db,
    db.schema
      .createTable("customer_visit_days")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("customer_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("next_day", "bigint", (c) => c.notNull())
      .addColumn("org_first_day", "bigint", (c) => c.notNull())
      .addColumn("connections", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_visit_days_pk", ["organization_id", "customer_id", "venue_key", "day_start"]),
  ).execute();
  // Distinct customers of several (not all) venues: the only query that reads visit days directly,
  // from this index alone.
  await db.schema
    .createIndex("customer_visit_days_venue_day")
    .on("customer_visit_days")
    .columns(["organization_id", "venue_key", "day_start", "next_day", "customer_id", "org_first_day"])
    .where(sql.ref("venue_key"), "<>", 0)
    .execute();

  await clustered(
    db,
    db.schema
      .createTable("customer_gaps")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("next_day", "bigint", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("customers", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_gaps_pk", ["organization_id", "venue_key", "next_day", "day_start"]),
  ).execute();

  await clustered(
    db,
    db.schema
      .createTable("customer_first_days")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("org_first_day", "bigint", (c) => c.notNull())
      .addColumn("venue_first_day", "bigint", (c) => c.notNull())
      .addColumn("customers", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_first_days_pk", ["organization_id", "venue_key", "org_first_day", "venue_first_day"]),
  ).execute();

  await db.schema
    .createTable("analytics_paused")
    .addColumn("organization_id", "integer", (c) => c.primaryKey())
    .execute();

  await switchTriggers(db, [], TRIGGERS);

  // Connections that exist already (an upgraded database): roll them up once.
  await sql.raw(`insert into analytics_paused (organization_id) select id from organizations`).execute(db);
  for (const statement of REBUILD) await sql.raw(statement).execute(db);
  await sql.raw(`delete from analytics_paused`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, TRIGGERS, []);
  for (const table of ["analytics_paused", ...ROLLUP_TABLES].reverse()) await db.schema.dropTable(table).ifExists().execute();
}

// The roll-ups of every organisation computed from its connections, in UTC days and hours, as the
// rebuild of the time computed them (the app's rebuild, app/db/rollups-rebuild.server.ts, has moved on).
const REBUILD = [
  `delete from usage_hourly where true`,
  `delete from usage_daily where true`,
  `delete from usage_daily_ap where true`,
  `delete from dimension_daily where true`,
  `delete from customer_gaps where true`,
  `delete from customer_first_days where true`,
  `delete from customer_visit_days where true`,
  `insert into usage_hourly (organization_id, venue_id, hour_start, footfall, connections, upload, download, dwell_ms)
     select c.organization_id, coalesce(c.venue_id, 0), (c.created_at - c.created_at % 3600000), count(*), count(c.authorized_at), coalesce(sum(c.upload), 0), coalesce(sum(c.download), 0), coalesce(sum(case when c.authorized_at is not null and c.ended_at > c.authorized_at then c.ended_at - c.authorized_at else 0 end), 0)
     from connections c join organizations zo on zo.id = c.organization_id where true
     group by c.organization_id, coalesce(c.venue_id, 0), (c.created_at - c.created_at % 3600000)`,
  `insert into usage_hourly (organization_id, venue_id, hour_start, footfall, connections, upload, download, dwell_ms)
     select organization_id, -1, hour_start, sum(footfall), sum(connections), sum(upload), sum(download), sum(dwell_ms) from usage_hourly where true and venue_id <> -1
     group by organization_id, hour_start`,
  `insert into usage_daily_ap (organization_id, day_start, venue_id, access_point_id, footfall, connections, upload, download, dwell_ms)
     select c.organization_id, (c.created_at - c.created_at % 86400000), coalesce(c.venue_id, 0), coalesce(c.access_point_id, 0), count(*), count(c.authorized_at), coalesce(sum(c.upload), 0), coalesce(sum(c.download), 0), coalesce(sum(case when c.authorized_at is not null and c.ended_at > c.authorized_at then c.ended_at - c.authorized_at else 0 end), 0)
     from connections c join organizations zo on zo.id = c.organization_id where true
     group by c.organization_id, (c.created_at - c.created_at % 86400000), coalesce(c.venue_id, 0), coalesce(c.access_point_id, 0)`,
  `insert into usage_daily (organization_id, venue_id, day_start, footfall, connections, upload, download, dwell_ms)
     select organization_id, venue_id, day_start, sum(footfall), sum(connections), sum(upload), sum(download), sum(dwell_ms) from usage_daily_ap where true
     group by organization_id, venue_id, day_start`,
  `insert into usage_daily (organization_id, venue_id, day_start, footfall, connections, upload, download, dwell_ms)
     select organization_id, -1, day_start, sum(footfall), sum(connections), sum(upload), sum(download), sum(dwell_ms) from usage_daily where true and venue_id <> -1
     group by organization_id, day_start`,
  `insert into dimension_daily (organization_id, dimension, venue_id, day_start, value, footfall, connections)
     select c.organization_id, k.dimension, coalesce(c.venue_id, 0), (c.created_at - c.created_at % 86400000),
       case k.dimension when 'mode' then coalesce(nullif(trim(c.authorization_mode), ''), 'unknown') when 'is_mobile' then case when d.id is null then 'Unknown' else coalesce(case when d.is_mobile = 1 then 'Mobile' else 'Desktop' end, 'Unknown') end
         when 'os' then case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.os), ''), 'Unknown') end when 'brand' then case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.brand), ''), 'Unknown') end else case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.browser), ''), 'Unknown') end end as value,
       count(*), count(c.authorized_at)
     from connections c join organizations zo on zo.id = c.organization_id left join devices d on d.id = c.device_id cross join (select 'mode' as dimension union all select 'is_mobile' union all select 'os' union all select 'brand' union all select 'browser') k
     where true
     group by c.organization_id, k.dimension, coalesce(c.venue_id, 0), (c.created_at - c.created_at % 86400000),
       case k.dimension when 'mode' then coalesce(nullif(trim(c.authorization_mode), ''), 'unknown') when 'is_mobile' then case when d.id is null then 'Unknown' else coalesce(case when d.is_mobile = 1 then 'Mobile' else 'Desktop' end, 'Unknown') end
         when 'os' then case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.os), ''), 'Unknown') end when 'brand' then case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.brand), ''), 'Unknown') end else case when d.id is null then 'Unknown' else coalesce(nullif(trim(d.browser), ''), 'Unknown') end end`,
  `insert into dimension_daily (organization_id, venue_id, dimension, day_start, value, footfall, connections)
     select organization_id, -1, dimension, day_start, value, sum(footfall), sum(connections) from dimension_daily where true and venue_id <> -1
     group by organization_id, dimension, day_start, value`,
  `insert into customer_visit_days (organization_id, customer_id, venue_key, day_start, next_day, org_first_day, connections)
     select v.organization_id, v.customer_id, v.venue_key, v.day_start,
       coalesce(lead(v.day_start) over (partition by v.organization_id, v.customer_id, v.venue_key order by v.day_start), 253402300800000),
       min(case when v.venue_key = 0 then v.day_start end) over (partition by v.organization_id, v.customer_id), v.n
     from (select c.organization_id, c.customer_id, 0 as venue_key, (c.created_at - c.created_at % 86400000) as day_start, count(*) as n from connections c join organizations zo on zo.id = c.organization_id
     where true and c.authorized_at is not null and c.customer_id is not null
     group by c.organization_id, c.customer_id, (c.created_at - c.created_at % 86400000) union all select c.organization_id, c.customer_id, c.venue_id as venue_key, (c.created_at - c.created_at % 86400000) as day_start, count(*) as n from connections c join organizations zo on zo.id = c.organization_id
     where true and c.authorized_at is not null and c.customer_id is not null and c.venue_id is not null
     group by c.organization_id, c.customer_id, c.venue_id, (c.created_at - c.created_at % 86400000)) v`,
  `insert into customer_gaps (organization_id, venue_key, next_day, day_start, customers)
     select organization_id, venue_key, next_day, day_start, count(*) from customer_visit_days where true
     group by organization_id, venue_key, next_day, day_start`,
  `insert into customer_first_days (organization_id, venue_key, org_first_day, venue_first_day, customers)
     select f.organization_id, f.venue_key, o.day, f.day, count(*)
     from (select organization_id, customer_id, venue_key, min(day_start) as day from customer_visit_days where true
           group by organization_id, customer_id, venue_key) f
     join (select organization_id, customer_id, min(day_start) as day from customer_visit_days where true and venue_key = 0
           group by organization_id, customer_id) o on o.organization_id = f.organization_id and o.customer_id = f.customer_id
     group by f.organization_id, f.venue_key, o.day, f.day`,
];
