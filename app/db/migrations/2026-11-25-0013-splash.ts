import { sql, type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Splash pages: operators' branded pages that wrap the guest connect form, their
// options, the display rules that choose a page for an access point, and the uploaded images.
// Edits change the draft columns; Publish copies a rendered snapshot into published_before/after
// (the document split where the connect form goes), so guests' requests only concatenate.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("splash_pages"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("css_template", "text", (c) => c.notNull())
      .addColumn("type", "integer") // null: not set up; 1: builder; 2: code editor
      .addColumn("html", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("css", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("custom_scripts", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("project_data", "text") // GrapesJS project JSON (builder pages)
      // Every draft change (code, options, styling template) adds one; published when equal.
      .addColumn("draft_revision", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("published_revision", "integer")
      .addColumn("published_at", "bigint")
      .addColumn("published_before", "text")
      .addColumn("published_after", "text")
      // The public "View page" address (/splash/pages/{public_key}): unguessable, not the id.
      .addColumn("public_key", "text", (c) => c.notNull())
      .addColumn("created_by_user_id", "integer"),
  ).execute();
  await db.schema.createIndex("splash_pages_org").on("splash_pages").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("splash_pages_public_key").on("splash_pages").column("public_key").unique().execute();

  await withId(db, db.schema.createTable("splash_page_configs"))
    .addColumn("splash_page_id", "integer", (c) => cascade(c.notNull().references("splash_pages.id")))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("default_value", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("custom_value", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("splash_page_configs_name").on("splash_page_configs").columns(["splash_page_id", "name"]).unique().execute();

  await withId(db, db.schema.createTable("splash_display_settings"))
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("splash_page_id", "integer", (c) => cascade(c.notNull().references("splash_pages.id")))
    .addColumn("start_date", "text") // YYYY-MM-DD (UTC), inclusive; null: from the start
    .addColumn("end_date", "text") // inclusive; null: no end
    .addColumn("factor", "text", (c) => c.notNull()) // After | On
    .addColumn("factor_count", "integer", (c) => c.notNull())
    .addColumn("factor_type", "text", (c) => c.notNull()) // Session | Day
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("splash_display_settings_org")
    .on("splash_display_settings")
    .columns(["organization_id", "splash_page_id"])
    .execute();
  await db.schema
    .createTable("splash_display_setting_access_points")
    .addColumn("display_setting_id", "integer", (c) => cascade(c.notNull().references("splash_display_settings.id")))
    .addColumn("access_point_id", "integer", (c) => cascade(c.notNull().references("access_points.id")))
    .addPrimaryKeyConstraint("splash_display_setting_access_points_pk", ["display_setting_id", "access_point_id"])
    .execute();
  await db.schema
    .createIndex("splash_display_setting_access_points_ap")
    .on("splash_display_setting_access_points")
    .columns(["access_point_id", "display_setting_id"])
    .execute();

  // Uploaded images of splash pages, served publicly (guests have no session) at /assets/{key}.
  await withId(db, db.schema.createTable("splash_assets"))
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("splash_assets_org").on("splash_assets").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("splash_assets_key").on("splash_assets").column("key").unique().execute();

  // The network's own page, used when no display rule applies (null: the built-in page).
  await db.schema.alterTable("venues").addColumn("splash_page_id", "integer").execute();

  // "After 3 Sessions" counts a device's authorized connections; this keeps that count an index range.
  await db.schema
    .createIndex("connections_device_sessions")
    .on("connections")
    .columns(["device_id", "created_at"])
    .where(sql.ref("authorized_at"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_device_sessions").ifExists().execute();
  await db.schema.alterTable("venues").dropColumn("splash_page_id").execute();
  for (const table of [
    "splash_assets",
    "splash_display_setting_access_points",
    "splash_display_settings",
    "splash_page_configs",
    "splash_pages",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
