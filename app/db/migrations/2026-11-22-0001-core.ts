import { sql, type Kysely } from "kysely";
import { withId, withTimestamps } from "./_dialect";

// The core schema of spec documents 1 and 2.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("users"))
      .addColumn("first_name", "text", (c) => c.notNull())
      .addColumn("middle_name", "text")
      .addColumn("last_name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("phone_number", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("dashboard", "text"),
  ).execute();

  await withId(db, db.schema.createTable("api_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint")
    .execute();
  await db.schema.createIndex("api_tokens_user").on("api_tokens").column("user_id").execute();

  await withId(db, db.schema.createTable("password_resets"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("password_resets_user").on("password_resets").column("user_id").execute();

  await withTimestamps(
    withId(db, db.schema.createTable("organizations"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("address", "text")
      .addColumn("email_address", "text")
      .addColumn("phone_number", "text")
      .addColumn("more_info", "text")
      .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null")),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("roles"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("role_type", "text", (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex("roles_org_created").on("roles").columns(["organization_id", "created_at"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("administrators"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("role_id", "integer", (c) => c.references("roles.id").onDelete("set null"))
      .addColumn("invited_email_address", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("is_owner", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("invite_token_hash", "text", (c) => c.unique())
      .addColumn("invited_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addUniqueConstraint("administrators_org_user", ["organization_id", "user_id"])
      .addUniqueConstraint("administrators_org_email", ["organization_id", "invited_email_address"]),
  ).execute();
  await db.schema.createIndex("administrators_user").on("administrators").column("user_id").execute();
  await db.schema.createIndex("administrators_email").on("administrators").column("invited_email_address").execute();

  await withId(db, db.schema.createTable("permissions"))
    .addColumn("identifier", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .execute();

  await db.schema
    .createTable("role_permissions")
    .addColumn("role_id", "integer", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addColumn("permission_id", "integer", (c) => c.notNull().references("permissions.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("role_permissions_pk", ["role_id", "permission_id"])
    .execute();

  await withTimestamps(
    withId(db, db.schema.createTable("venues"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("email", "text")
      .addColumn("phone_number", "text")
      .addColumn("custom_splash_url", "text")
      .addColumn("success_url", "text")
      .addColumn("more_info", "text")
      .addColumn("layout_image", "text")
      .addColumn("layout_polygon", "text")
      .addColumn("map_zoom", "real")
      .addColumn("lat", "real")
      .addColumn("lng", "real"),
  ).execute();
  await db.schema.createIndex("venues_org_name").on("venues").columns(["organization_id", "name"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("access_points"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("venue_id", "integer", (c) => c.notNull().references("venues.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("make", "text", (c) => c.notNull())
      .addColumn("mac_address", "text", (c) => c.notNull())
      .addColumn("serial_number", "text", (c) => c.notNull())
      .addColumn("custom_splash_url", "text")
      .addColumn("success_url", "text")
      .addColumn("description", "text")
      .addColumn("lat", "real")
      .addColumn("lng", "real")
      .addColumn("layout_x", "real")
      .addColumn("layout_y", "real")
      .addColumn("last_seen_at", "bigint")
      .addUniqueConstraint("access_points_org_mac", ["organization_id", "mac_address"]),
  ).execute();
  await db.schema.createIndex("access_points_venue").on("access_points").columns(["venue_id", "name"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("customers"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("identity", "text", (c) => c.notNull())
      .addColumn("first_name", "text")
      .addColumn("middle_name", "text")
      .addColumn("last_name", "text")
      .addColumn("phone_number", "text")
      .addColumn("email_address", "text")
      .addColumn("twitter", "text")
      .addColumn("facebook", "text")
      .addColumn("more_info", "text"),
  ).execute();
  await db.schema.createIndex("customers_org_created").on("customers").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("customers_org_phone").on("customers").columns(["organization_id", "phone_number"]).execute();
  await db.schema.createIndex("customers_org_email").on("customers").columns(["organization_id", "email_address"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("devices"))
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("customer_id", "integer", (c) => c.references("customers.id").onDelete("set null"))
      .addColumn("name", "text")
      .addColumn("mac_address", "text", (c) => c.notNull())
      .addColumn("os", "text")
      .addColumn("os_version", "text")
      .addColumn("brand", "text")
      .addColumn("browser", "text")
      .addColumn("is_mobile", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("blocked_at", "bigint")
      .addColumn("last_seen_at", "bigint")
      .addUniqueConstraint("devices_org_mac", ["organization_id", "mac_address"]),
  ).execute();
  await db.schema.createIndex("devices_org_created").on("devices").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("devices_customer").on("devices").column("customer_id").execute();

  await withId(db, db.schema.createTable("connections"), true)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    // History outlives the venue, access point, customer and device it names.
    .addColumn("venue_id", "integer", (c) => c.references("venues.id").onDelete("set null"))
    .addColumn("access_point_id", "integer", (c) => c.references("access_points.id").onDelete("set null"))
    .addColumn("access_point_mac", "text")
    .addColumn("customer_id", "integer", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("device_id", "integer", (c) => c.references("devices.id").onDelete("set null"))
    .addColumn("ssid", "text")
    .addColumn("authorization_mode", "text")
    .addColumn("token", "text", (c) => c.unique())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("authorized_at", "bigint")
    .addColumn("ended_at", "bigint")
    .addColumn("upload", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("download", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("connections_org_created").on("connections").columns(["organization_id", "created_at desc"]).execute();
  await db.schema.createIndex("connections_venue_created").on("connections").columns(["venue_id", "created_at desc"]).execute();
  await db.schema
    .createIndex("connections_org_ap_mac_created")
    .on("connections")
    .columns(["organization_id", "access_point_mac", "created_at desc"])
    .execute();
  await db.schema.createIndex("connections_customer_created").on("connections").columns(["customer_id", "created_at desc"]).execute();
  await db.schema.createIndex("connections_device_created").on("connections").columns(["device_id", "created_at desc"]).execute();
  await db.schema.createIndex("connections_ap").on("connections").column("access_point_id").execute();
  // "Who is online now": a small partial index instead of scanning history.
  await db.schema
    .createIndex("connections_online")
    .on("connections")
    .columns(["organization_id", "created_at desc"])
    .where(sql.ref("authorized_at"), "is not", null)
    .where(sql.ref("ended_at"), "is", null)
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_started_at", "bigint", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "rate_limits",
    "connections",
    "devices",
    "customers",
    "access_points",
    "venues",
    "role_permissions",
    "permissions",
    "administrators",
    "roles",
    "organizations",
    "password_resets",
    "api_tokens",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
