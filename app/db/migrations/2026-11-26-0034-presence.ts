import { sql, type Kysely } from "kysely";
import { clustered } from "./_dialect";
import { LOCAL_BUCKETS } from "./frozen/analytics-triggers-v1/sql";
import { analyticsTriggers, switchTriggers } from "./frozen/analytics-triggers-v1/triggers";

// Presence chains (frozen/analytics-triggers-v1/presence.ts): the all-visitors report counts its
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
  for (const statement of REBUILD) await sql.raw(statement).execute(db);
  let resume = db.deleteFrom("analytics_paused");
  if (paused.length) resume = resume.where("organization_id", "not in", paused);
  await resume.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, WITH_PRESENCE, WITHOUT_PRESENCE);
  await db.schema.dropTable("presence_gaps").execute();
  await db.schema.dropTable("customer_presence_days").execute();
}

// The presence chains of every organisation computed from its connections, in its own days.
const REBUILD = [
  `delete from customer_presence_days where true`,
  `delete from presence_gaps where true`,
  `insert into customer_presence_days (organization_id, customer_id, venue_key, day_start, next_day, records)
     select p.organization_id, p.customer_id, p.venue_key, p.day_start,
       coalesce(lead(p.day_start) over (partition by p.organization_id, p.customer_id, p.venue_key order by p.day_start), 253402300800000), p.n
     from (select c.organization_id, c.customer_id, 0 as venue_key, (c.created_at - (c.created_at + zo.utc_offset_ms) % 86400000) as day_start, count(*) as n
     from connections c join organizations zo on zo.id = c.organization_id
     where true and c.customer_id is not null
     group by c.organization_id, c.customer_id, (c.created_at - (c.created_at + zo.utc_offset_ms) % 86400000) union all select c.organization_id, c.customer_id, c.venue_id as venue_key, (c.created_at - (c.created_at + zo.utc_offset_ms) % 86400000) as day_start, count(*) as n
     from connections c join organizations zo on zo.id = c.organization_id
     where true and c.customer_id is not null and c.venue_id is not null
     group by c.organization_id, c.customer_id, c.venue_id, (c.created_at - (c.created_at + zo.utc_offset_ms) % 86400000)) p`,
  `insert into presence_gaps (organization_id, venue_key, next_day, day_start, customers)
     select organization_id, venue_key, next_day, day_start, count(*) from customer_presence_days where true
     group by organization_id, venue_key, next_day, day_start`,
];
