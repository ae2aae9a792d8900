import { sql, type Kysely } from "kysely";

// API tokens expire (decision 0002, amended): browser sessions after 30 days, API tokens after 90.
// Tokens issued before this get the same lifetime from their creation.
const DAY_MS = 86_400_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("api_tokens").addColumn("expires_at", "bigint").execute();
  await db
    .updateTable("api_tokens")
    .set({ expires_at: sql`created_at + case when label = 'api' then ${sql.lit(90 * DAY_MS)} else ${sql.lit(30 * DAY_MS)} end` })
    .execute();
  await db.schema.createIndex("api_tokens_user_kind").on("api_tokens").columns(["user_id", "label"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("api_tokens_user_kind").ifExists().execute();
  await db.schema.alterTable("api_tokens").dropColumn("expires_at").execute();
}
