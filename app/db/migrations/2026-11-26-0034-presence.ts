import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";
import { presenceRebuildStatements } from "./_analytics-presence";
import { LOCAL_BUCKETS } from "./_analytics-sql";
import { analyticsTriggers, postgresTriggerDdl, sqliteTriggerDdl } from "./_analytics-triggers";

// Presence chains (issue 17 §10, _analytics-presence.ts): the all-visitors report counts its
// customers (any connection record, authorized or not) from roll-ups as the other visitor lists do,
// instead of walking customers with a test on their connections.
const WITH_PRESENCE = analyticsTriggers(LOCAL_BUCKETS, { presence: true });
// Migration 0033's triggers, which down() restores.
const WITHOUT_PRESENCE = analyticsTriggers(LOCAL_BUCKETS);

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  // Clustered by the primary key on SQLite, as the other roll-ups (migration 0004).
  const clustered = <T extends string>(table: CreateTableBuilder<T, any>) => (postgres ? table : table.modifyEnd(sql`without rowid`));
  await clustered(
    db.schema
      .createTable("customer_presence_days")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("customer_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("next_day", "bigint", (c) => c.notNull())
      .addColumn("records", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("customer_presence_days_pk", ["organization_id", "customer_id", "venue_key", "day_start"]),
  ).execute();
  // Distinct visitors of several (not all) venues: their last presence days in the window, from this index alone.
  await db.schema
    .createIndex("customer_presence_days_venue_day")
    .on("customer_presence_days")
    .columns(["organization_id", "venue_key", "day_start", "next_day", "customer_id"])
    .where(sql.ref("venue_key"), "<>", 0)
    .execute();
  await clustered(
    db.schema
      .createTable("presence_gaps")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("next_day", "bigint", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("customers", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("presence_gaps_pk", ["organization_id", "venue_key", "next_day", "day_start"]),
  ).execute();

  await replaceTriggers(db, WITH_PRESENCE);

  // Existing connections, once, with every organisation paused so the chain triggers stay quiet.
  // Organisations paused already (a bulk load under way, a deleted organisation) stay paused.
  const paused = (await db.selectFrom("analytics_paused").select("organization_id").execute()).map((r) => Number(r.organization_id));
  await sql`insert into analytics_paused (organization_id) select id from organizations where true on conflict (organization_id) do nothing`.execute(db);
  for (const statement of presenceRebuildStatements(null, LOCAL_BUCKETS)) await sql.raw(statement).execute(db);
  let resume = db.deleteFrom("analytics_paused");
  if (paused.length) resume = resume.where("organization_id", "not in", paused);
  await resume.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await replaceTriggers(db, WITHOUT_PRESENCE);
  const kept = new Set(WITHOUT_PRESENCE.map((t) => t.name));
  for (const trigger of WITH_PRESENCE.filter((t) => !kept.has(t.name))) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${trigger.name}()`).execute(db);
  }
  await db.schema.dropTable("presence_gaps").execute();
  await db.schema.dropTable("customer_presence_days").execute();
}

async function replaceTriggers(db: Kysely<any>, triggers: ReturnType<typeof analyticsTriggers>): Promise<void> {
  const postgres = isPostgres(db);
  for (const trigger of triggers) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    for (const statement of postgres ? postgresTriggerDdl(trigger) : [sqliteTriggerDdl(trigger)]) await sql.raw(statement).execute(db);
  }
}
