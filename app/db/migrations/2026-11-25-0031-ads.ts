import { type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Ads (docs/guide/ads.md#campaigns, #banners): campaigns, the networks they
// target (or every network of the organisation: all_networks), banners (images in the asset store), an
// append-only table of impressions and clicks (one row per connection, banner, kind and minute: the
// unique index is the "repeated reloads within a minute count once" rule) and the hourly roll-up
// the dashboard reads (decision 0020).
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("ad_campaigns"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("client_name", "text", (c) => c.notNull())
      .addColumn("revenue_cents", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("activate_at", "bigint", (c) => c.notNull())
      .addColumn("expire_at", "bigint") // null: runs until paused
      .addColumn("paused", "integer", (c) => c.notNull().defaultTo(0)) // the spec's pause flag (1 = Paused)
      // 1: every network of the organisation (also those added later); 0: the networks in ad_campaign_networks
      // (a flag, not "no rows", so deleting the only targeted network does not widen the campaign to all).
      .addColumn("all_networks", "integer", (c) => c.notNull().defaultTo(1)),
  ).execute();
  await db.schema.createIndex("ad_campaigns_org_created").on("ad_campaigns").columns(["organization_id", "created_at"]).execute();

  await db.schema
    .createTable("ad_campaign_networks")
    .addColumn("campaign_id", "integer", (c) => cascade(c.notNull().references("ad_campaigns.id")))
    .addColumn("venue_id", "integer", (c) => cascade(c.notNull().references("venues.id")))
    .addPrimaryKeyConstraint("ad_campaign_networks_pk", ["campaign_id", "venue_id"])
    .execute();
  await db.schema.createIndex("ad_campaign_networks_venue").on("ad_campaign_networks").columns(["venue_id"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("ad_banners"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("campaign_id", "integer", (c) => cascade(c.notNull().references("ad_campaigns.id")))
      .addColumn("asset_key", "text", (c) => c.notNull().unique())
      .addColumn("description", "text")
      .addColumn("width", "integer", (c) => c.notNull())
      .addColumn("height", "integer", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("click_url", "text", (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex("ad_banners_campaign").on("ad_banners").columns(["campaign_id", "active"]).execute();
  await db.schema.createIndex("ad_banners_org").on("ad_banners").columns(["organization_id", "created_at"]).execute();

  // Append only. kind: 'i' impression, 'c' click. minute: epoch minutes (created_at / 60000).
  await withId(db, db.schema.createTable("ad_events"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("campaign_id", "integer", (c) => cascade(c.notNull().references("ad_campaigns.id")))
    .addColumn("banner_id", "integer", (c) => cascade(c.notNull().references("ad_banners.id")))
    .addColumn("connection_id", "bigint", (c) => c.notNull()) // no foreign key: the count outlives the connection
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("minute", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // Dedupe (insert or ignore) and the "first impression of this banner on this connection" lookup.
  await db.schema
    .createIndex("ad_events_once")
    .on("ad_events")
    .columns(["connection_id", "banner_id", "kind", "minute"])
    .unique()
    .execute();
  // The roll-up and the not-yet-rolled tail read by time.
  await db.schema.createIndex("ad_events_minute").on("ad_events").columns(["minute"]).execute();
  await db.schema.createIndex("ad_events_banner").on("ad_events").columns(["banner_id"]).execute();

  await db.schema
    .createTable("ad_hourly")
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("campaign_id", "integer", (c) => cascade(c.notNull().references("ad_campaigns.id")))
    .addColumn("banner_id", "integer", (c) => cascade(c.notNull().references("ad_banners.id")))
    .addColumn("hour", "bigint", (c) => c.notNull()) // epoch ms of the hour's start (UTC)
    .addColumn("impressions", "integer", (c) => c.notNull())
    .addColumn("clicks", "integer", (c) => c.notNull())
    .addColumn("conversions", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("ad_hourly_pk", ["banner_id", "hour"])
    .execute();
  await db.schema.createIndex("ad_hourly_org_hour").on("ad_hourly").columns(["organization_id", "hour"]).execute();
  await db.schema.createIndex("ad_hourly_hour").on("ad_hourly").columns(["hour"]).execute();

  // One row: every hour before rolled_until is in ad_hourly (re-rolled for a while after, see the job).
  await db.schema
    .createTable("ad_rollup_state")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("rolled_until", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("ad_rollup_state").values({ id: 1, rolled_until: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["ad_rollup_state", "ad_hourly", "ad_events", "ad_banners", "ad_campaign_networks", "ad_campaigns"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
