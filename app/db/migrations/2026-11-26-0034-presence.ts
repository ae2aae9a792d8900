import { sql, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { presenceRebuildStatements } from "./_analytics-presence";
import { LOCAL_BUCKETS } from "./_analytics-sql";
import { analyticsTriggers, switchTriggers } from "./_analytics-triggers";

// Presence chains (issue 17 §10, _analytics-presence.ts): the all-visitors report counts its
// customers (any connection record, authorized or not) from roll-ups as the other visitor lists do,
// instead of walking customers with a test on their connections.
const WITH_PRESENCE = analyticsTriggers(LOCAL_BUCKETS, { presence: true });
// Migration 0033's triggers, which down() restores.
const WITHOUT_PRESENCE = analyticsTriggers(LOCAL_BUCKETS);

export async function up(db: Kysely<any>): Promise<void> {
  await clustered(
    db,
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
    db,
    db.schema
      .createTable("presence_gaps")
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("venue_key", "integer", (c) => c.notNull())
      .addColumn("next_day", "bigint", (c) => c.notNull())
      .addColumn("day_start", "bigint", (c) => c.notNull())
      .addColumn("customers", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("presence_gaps_pk", ["organization_id", "venue_key", "next_day", "day_start"]),
  ).execute();

  await switchTriggers(db, WITHOUT_PRESENCE, WITH_PRESENCE);

  // Existing connections, once, with every organisation paused so the chain triggers stay quiet.
  // Organisations paused already (a bulk load under way, a deleted organisation) stay paused.
  const paused = (await db.selectFrom("analytics_paused").select("organization_id").execute()).map((r) => Number(r.organization_id));
  await sql`insert into analytics_paused (organization_id) select id from organizations where true on conflict (organization_id) do nothing`.execute(
    db,
  );
  for (const statement of presenceRebuildStatements(null, LOCAL_BUCKETS)) await sql.raw(statement).execute(db);
  let resume = db.deleteFrom("analytics_paused");
  if (paused.length) resume = resume.where("organization_id", "not in", paused);
  await resume.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, WITH_PRESENCE, WITHOUT_PRESENCE);
  await db.schema.dropTable("presence_gaps").execute();
  await db.schema.dropTable("customer_presence_days").execute();
}
