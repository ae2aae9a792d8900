import type { Kysely } from "kysely";
import { withId } from "./_dialect";

// One-time codes a guest proves a phone number with before seeing or deleting their data
// (issue 35 item 5; app/services/portal/data-access-code.server.ts, a stand-in until the phone
// proof module lands). Only the code's hash is kept; a code is single use and expires.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("guest_codes"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("phone_number", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("guest_codes_org_phone")
    .on("guest_codes")
    .columns(["organization_id", "phone_number", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("guest_codes").execute();
}
