import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { rollupRebuildStatements } from "./_analytics-rebuild";
import { analyticsTriggers, switchTriggers } from "./_analytics-triggers";
import { UTC_BUCKETS } from "./_analytics-sql";

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
  for (const statement of rollupRebuildStatements(null, UTC_BUCKETS, { presence: false, totals: false }))
    await sql.raw(statement).execute(db);
  await sql.raw(`delete from analytics_paused`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, TRIGGERS, []);
  for (const table of ["analytics_paused", ...ROLLUP_TABLES].reverse()) await db.schema.dropTable(table).ifExists().execute();
}
