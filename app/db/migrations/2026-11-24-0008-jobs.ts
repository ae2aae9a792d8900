import type { Kysely } from "kysely";
import { withId } from "./_dialect";

// The job queue (decision 0011): every piece of background work is a row, claimed by one worker at a
// time with a lease, retried with backoff, and left `failed` (the dead letter) after its last attempt.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("jobs"), true)
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull()) // JSON
    .addColumn("status", "text", (c) => c.notNull()) // queued | running | done | failed
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_at", "bigint", (c) => c.notNull())
    .addColumn("locked_until", "bigint")
    .addColumn("lock_token", "text")
    .addColumn("last_error", "text")
    // Enqueueing the same key twice makes one job (recurring slots, idempotent producers).
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  // The claim reads waiting jobs by time; running ones are found again when their lease is over.
  await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "run_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").ifExists().execute();
}
