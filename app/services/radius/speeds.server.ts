// A plan's speed changes while guests are online under it: the operator edits
// a bandwidth policy, or gives a plan another one. The Active subscriptions of those plans take the
// new speeds (they are what RADIUS replies and CoA read), and every guest online under them through
// a RADIUS gateway gets a CoA-Request with the new speed, one retried job per connection.
import { sql, type Kysely } from "kysely";
import { db as defaultDb } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { enqueue } from "../jobs/queue.server";
import { changeSpeed } from "./coa.server";

export const COA_JOB = "radius.coa";

/** After plans' speeds changed: the subscriptions follow, and online RADIUS guests are told. Answers how many. */
export async function pushPlanSpeeds(
  organizationId: number,
  planIds: readonly number[],
  now = Date.now(),
  db: Kysely<DB> = defaultDb,
): Promise<number> {
  if (planIds.length === 0) return 0;
  const policy = (column: "max_upload_kbps" | "max_download_kbps") =>
    sql<
      number | null
    >`(select bandwidth_policies.${sql.ref(column)} from service_plans join bandwidth_policies on bandwidth_policies.id = service_plans.bandwidth_policy_id where service_plans.id = subscriptions.service_plan_id)`;
  const changed = await db
    .updateTable("subscriptions")
    .set({ max_upload_kbps: policy("max_upload_kbps"), max_download_kbps: policy("max_download_kbps"), updated_at: now })
    .where("organization_id", "=", organizationId)
    .where("service_plan_id", "in", planIds)
    .where("status", "=", "Active")
    .returning("id")
    .execute();
  if (changed.length === 0) return 0;
  const online = await db
    .selectFrom("connections")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where(
      "subscription_id",
      "in",
      changed.map((s) => Number(s.id)),
    )
    .where("radius_client_id", "is not", null)
    .where("ended_at", "is", null)
    .where("session_expires_at", ">", now)
    .execute();
  for (const c of online) await enqueue(COA_JOB, { connectionId: Number(c.id) }, { dedupeKey: `${COA_JOB}:${c.id}:${now}` }, db);
  return online.length;
}

/** The radius.coa job: the connection's current speeds (its subscription's) to its NAS. */
export async function runCoaJob({ connectionId }: { connectionId: number }): Promise<void> {
  const row = await defaultDb
    .selectFrom("connections")
    .innerJoin("subscriptions", "subscriptions.id", "connections.subscription_id")
    .select(["subscriptions.max_upload_kbps", "subscriptions.max_download_kbps", "connections.ended_at"])
    .where("connections.id", "=", connectionId)
    .executeTakeFirst();
  if (!row || row.ended_at !== null) return;
  await changeSpeed(connectionId, {
    upKbps: row.max_upload_kbps === null ? null : Number(row.max_upload_kbps),
    downKbps: row.max_download_kbps === null ? null : Number(row.max_download_kbps),
  });
}
