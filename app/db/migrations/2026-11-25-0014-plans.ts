import { sql, type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Fair usage and prepaid, first part: bandwidth policies and service plans,
// the free plan among them (free_internet = 1, at most one per organisation). Limits are kept as the
// operator entered them (value + unit, for the forms) and in base units (kbps, minutes, bytes) for
// enforcement. Money is integer cents (decision 0001).
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("bandwidth_policies"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("max_upload", "integer", (c) => c.notNull())
      .addColumn("max_upload_unit", "text", (c) => c.notNull()) // Kbps | Mbps
      .addColumn("max_download", "integer", (c) => c.notNull())
      .addColumn("max_download_unit", "text", (c) => c.notNull())
      .addColumn("max_upload_kbps", "integer", (c) => c.notNull())
      .addColumn("max_download_kbps", "integer", (c) => c.notNull())
      .addColumn("description", "text"),
  ).execute();
  await db.schema.createIndex("bandwidth_policies_org").on("bandwidth_policies").columns(["organization_id", "created_at"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("service_plans"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("code", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("free_internet", "integer", (c) => c.notNull().defaultTo(0))
      // A policy used by plans cannot be deleted (the service says which plans use it).
      .addColumn("bandwidth_policy_id", "integer", (c) => c.references("bandwidth_policies.id"))
      .addColumn("time_limit", "integer") // null: no time limit
      .addColumn("time_limit_unit", "text") // Mins | Hrs | Days
      .addColumn("time_limit_minutes", "integer")
      .addColumn("usage_limit", "integer") // null: no data limit
      .addColumn("usage_limit_unit", "text") // MBs | GBs
      .addColumn("usage_limit_bytes", "bigint")
      .addColumn("simultaneous_connections", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("validity", "integer", (c) => c.notNull())
      .addColumn("validity_units", "text", (c) => c.notNull()) // Mins | Hrs | Days
      .addColumn("validity_minutes", "integer", (c) => c.notNull())
      .addColumn("price_cents", "integer", (c) => c.notNull().defaultTo(0))
      // The free plan: how often one device may take it (day | week | validity: once its last one ended).
      .addColumn("free_every", "text"),
  ).execute();
  await db.schema.createIndex("service_plans_org").on("service_plans").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("service_plans_code").on("service_plans").columns(["organization_id", "code"]).unique().execute();
  await db.schema.createIndex("service_plans_policy").on("service_plans").column("bandwidth_policy_id").execute();
  await db.schema
    .createIndex("service_plans_one_free")
    .on("service_plans")
    .column("organization_id")
    .unique()
    .where(sql.ref("free_internet"), "=", 1)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("service_plans").ifExists().execute();
  await db.schema.dropTable("bandwidth_policies").ifExists().execute();
}
