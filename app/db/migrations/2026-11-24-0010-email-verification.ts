import { sql, type Kysely } from "kysely";
import { cascade, withId } from "./_dialect";

// Sign-up proves the e-mail address (decision 0013): an address is verified when its owner opens a
// link mailed to it. Accounts made before this signed up under the old rules and count as verified.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_verified_at", "bigint").execute();
  await db
    .updateTable("users")
    .set({ email_verified_at: sql`created_at` })
    .execute();

  // One row per mailed link: sign-up (the account's own address) or an e-mail change (a new one).
  await withId(db, db.schema.createTable("email_verifications"))
    .addColumn("user_id", "integer", (c) => cascade(c.notNull().references("users.id")))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("email_verifications_user").on("email_verifications").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("email_verifications").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
