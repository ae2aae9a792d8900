import type { Kysely } from "kysely";

// This migration first added a partial index of authorized connections by (organisation, venue,
// customer) for the networks list's all-time counts. It is gone: the list reads the analytics
// roll-ups (migration 0004) instead, and SQLite's planner, which has no statistics, preferred that
// index over the small connections_online one for "online now" counts, scanning millions of rows.
// A database that ran the first version keeps the index until someone runs
// `drop index if exists connections_venue_authorized` (this file is not run twice).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_venue_authorized").ifExists().execute();
}

export async function down(): Promise<void> {}
