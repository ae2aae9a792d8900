// Bandwidth policies (docs/guide/plans-and-prepaid.md#bandwidth-policies,
// docs/guide/access-control.md#what-each-permission-shows). Every function takes the guard's
// context first, filters by ctx.org.id and checks its permission, so the pages and the data API
// refuse alike; another organisation's policy is a 404. The spec's swapped permission checks are
// built the intended way: create_bandwidth_policy creates, edit_… edits.
import { db } from "~/db/db.server";
import { pushPlanSpeeds } from "../radius/speeds.server";
import { containsText, inIds, isForeignKeyViolation } from "~/db/sql.server";
import { KBPS, type BandwidthPolicyInput } from "~/lib/schemas/plans";
import { notFound, requirePermission, type OrgContext } from "../guard.server";

const COLUMNS = [
  "id",
  "name",
  "max_upload",
  "max_upload_unit",
  "max_download",
  "max_download_unit",
  "max_upload_kbps",
  "max_download_kbps",
  "description",
  "created_at",
  "updated_at",
] as const;

export const POLICY_MESSAGES = {
  created: "Bandwidth policy created.",
  updated: "Bandwidth policy updated.",
  deleted: (name: string) => `Bandwidth policy ${name} deleted.`,
  inUse: (name: string, plans: string[]) =>
    `Bandwidth policy ${name} is used by ${plans.length === 1 ? "the plan" : `${plans.length} plans:`} ${plans.join(", ")}. Give ${plans.length === 1 ? "it" : "them"} another policy first.`,
  notFound: "Bandwidth policy not found.",
} as const;

function columns(input: BandwidthPolicyInput) {
  return {
    name: input.name,
    max_upload: input.max_upload,
    max_upload_unit: input.max_upload_unit,
    max_download: input.max_download,
    max_download_unit: input.max_download_unit,
    max_upload_kbps: input.max_upload * KBPS[input.max_upload_unit],
    max_download_kbps: input.max_download * KBPS[input.max_download_unit],
    description: input.description,
  };
}

/** bandwidthPolicies (limit, offset, search): newest first, with the count. */
export async function listPolicies(ctx: OrgContext, params: { offset: number; pageSize: number; search?: string | null }) {
  requirePermission(ctx, "view_bandwidth_policy");
  let query = db.selectFrom("bandwidth_policies").where("organization_id", "=", ctx.org.id);
  if (params.search) query = query.where(containsText("name", params.search));
  const [rows, total] = await Promise.all([
    query
      .select([...COLUMNS])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * The organisation's policies of these ids (the data API's plans' bandwidthPolicy, one query for a
 * page of plans); ids of other organisations are left out. Reading a plan lets one read its policy,
 * so the caller checks view_service_plan or view_bandwidth_policy.
 */
export async function policiesByIds(ctx: OrgContext, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("bandwidth_policies")
    .select([...COLUMNS])
    .where("organization_id", "=", ctx.org.id)
    .where(inIds("id", ids))
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** All of the organisation's policies by name (the plan form's select). */
export async function policyChoices(ctx: OrgContext) {
  return db
    .selectFrom("bandwidth_policies")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name")
    .limit(500)
    .execute();
}

export async function getPolicy(ctx: OrgContext, policyId: number | null) {
  requirePermission(ctx, "view_bandwidth_policy", "edit_bandwidth_policy");
  return findPolicy(ctx, policyId);
}

/** The organisation's policy, or 404; the caller has checked the permission of what it does with it. */
async function findPolicy(ctx: OrgContext, policyId: number | null) {
  if (policyId === null) notFound(POLICY_MESSAGES.notFound);
  const row = await db
    .selectFrom("bandwidth_policies")
    .select([...COLUMNS])
    .where("id", "=", policyId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound(POLICY_MESSAGES.notFound);
}

export async function createPolicy(ctx: OrgContext, input: BandwidthPolicyInput) {
  requirePermission(ctx, "create_bandwidth_policy");
  const now = Date.now();
  const row = await db
    .insertInto("bandwidth_policies")
    .values({ organization_id: ctx.org.id, ...columns(input), created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), message: POLICY_MESSAGES.created };
}

export async function updatePolicy(ctx: OrgContext, policyId: number | null, input: BandwidthPolicyInput) {
  requirePermission(ctx, "edit_bandwidth_policy");
  const policy = await findPolicy(ctx, policyId);
  await db
    .updateTable("bandwidth_policies")
    .set({ ...columns(input), updated_at: Date.now() })
    .where("id", "=", policy.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  const plans = await db
    .selectFrom("service_plans")
    .select("id")
    .where("organization_id", "=", ctx.org.id)
    .where("bandwidth_policy_id", "=", policy.id)
    .execute();
  await pushPlanSpeeds(
    ctx.org.id,
    plans.map((p) => p.id),
  );
  return { id: policy.id, message: POLICY_MESSAGES.updated };
}

/** Deletes a policy no plan uses; otherwise says which plans use it and deletes nothing. */
export async function deletePolicy(ctx: OrgContext, policyId: number | null): Promise<{ ok: boolean; message: string }> {
  requirePermission(ctx, "delete_bandwidth_policy");
  const policy = await findPolicy(ctx, policyId); // delete_bandwidth_policy alone may delete (getPolicy would want view_ or edit_)
  const inUse = async () => {
    const plans = await db
      .selectFrom("service_plans")
      .select("name")
      .where("bandwidth_policy_id", "=", policy.id)
      .orderBy("name")
      .execute();
    return plans.length > 0
      ? {
          ok: false,
          message: POLICY_MESSAGES.inUse(
            policy.name,
            plans.map((p) => p.name),
          ),
        }
      : null;
  };
  const refusal = await inUse();
  if (refusal) return refusal;
  try {
    await db.deleteFrom("bandwidth_policies").where("id", "=", policy.id).where("organization_id", "=", ctx.org.id).execute();
  } catch (error) {
    // A plan took the policy between the check and the delete: the foreign key refused it.
    if (isForeignKeyViolation(error)) return (await inUse()) ?? { ok: false, message: POLICY_MESSAGES.inUse(policy.name, []) };
    throw error;
  }
  return { ok: true, message: POLICY_MESSAGES.deleted(policy.name) };
}

/** "1 Mbps". */
export const speedText = (value: number, unit: string) => `${value} ${unit}`;
