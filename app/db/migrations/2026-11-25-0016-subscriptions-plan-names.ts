import type { Kysely } from "kysely";

// The subscriptions list's search matches the plan name each subscription
// copied. An organisation's distinct plan names are read from this index by skipping from one
// name to the next (a handful of lookups, not a scan of a million rows), so a term that names no
// plan can be answered through the customers' own index instead of testing every subscription;
// and a term naming one plan reads that plan's subscriptions newest first from it, however rare.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("subscriptions_org_plan")
    .on("subscriptions")
    .columns(["organization_id", "plan_name", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("subscriptions_org_plan").ifExists().execute();
}
