import { type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Vouchers: a group (docs/guide/plans-and-prepaid.md#vouchers: name, face value, valid till,
// redeemed entries, description) grants a plan through its codes. Codes are unique per organisation
// and redeemed at most uses_per_code times each; redeemed_entries counts real redemptions.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("voucher_groups"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("face_value_cents", "integer", (c) => c.notNull())
      .addColumn("valid_till", "text", (c) => c.notNull()) // YYYY-MM-DD, inclusive (UTC)
      .addColumn("service_plan_id", "integer", (c) => c.references("service_plans.id").onDelete("set null"))
      .addColumn("codes_count", "integer", (c) => c.notNull())
      .addColumn("uses_per_code", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("redeemed_entries", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("description", "text"),
  ).execute();
  await db.schema.createIndex("voucher_groups_org").on("voucher_groups").columns(["organization_id", "created_at"]).execute();

  await withId(db, db.schema.createTable("vouchers"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("voucher_group_id", "integer", (c) => cascade(c.notNull().references("voucher_groups.id")))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("uses", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_redeemed_at", "bigint")
    .execute();
  await db.schema.createIndex("vouchers_code").on("vouchers").columns(["organization_id", "code"]).unique().execute();
  await db.schema.createIndex("vouchers_group").on("vouchers").columns(["voucher_group_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("vouchers").ifExists().execute();
  await db.schema.dropTable("voucher_groups").ifExists().execute();
}
