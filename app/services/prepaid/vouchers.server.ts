// Vouchers (docs/guide/plans-and-prepaid.md#vouchers, docs/guide/api.md#vouchers): groups of printed
// codes that each give a service plan. Every console function takes the guard's context first and
// filters by ctx.org.id; generating needs edit_vouchers (our permission: the spec checks only
// view_vouchers, which would let read-only staff mint internet). Redeeming happens on the connect
// page (redeemVoucher, inside the authorization's transaction), exactly once per allowed use.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { containsText } from "~/db/sql.server";
import { CODE_ALPHABET, CODE_LENGTH, normaliseCode, VOUCHER_MESSAGES, type VoucherGroupInput } from "~/lib/schemas/vouchers";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import type { PlanTerms } from "./subscriptions.server";

export const VOUCHER_RESULT_MESSAGES = {
  generated: (n: number) => `${n.toLocaleString("en-US")} voucher code${n === 1 ? "" : "s"} generated.`,
  updated: "Voucher group updated.",
  notFound: "Voucher group not found.",
  unknownCode: "We do not know this voucher code. Check it and try again.",
  used: "This voucher has already been used.",
  expired: (date: string) => `This voucher expired on ${date}.`,
  noPlan: "This voucher no longer gives any internet: ask the staff for help.",
} as const;

const GROUP_COLUMNS = [
  "voucher_groups.id",
  "voucher_groups.name",
  "voucher_groups.face_value_cents",
  "voucher_groups.valid_till",
  "voucher_groups.service_plan_id",
  "voucher_groups.codes_count",
  "voucher_groups.uses_per_code",
  "voucher_groups.redeemed_entries",
  "voucher_groups.description",
  "voucher_groups.created_at",
  "voucher_groups.updated_at",
  "service_plans.name as service_plan_name",
] as const;

const groups = (ctx: OrgContext) =>
  db
    .selectFrom("voucher_groups")
    .leftJoin("service_plans", "service_plans.id", "voucher_groups.service_plan_id")
    .where("voucher_groups.organization_id", "=", ctx.org.id);

/** vouchers: the organisation's groups, newest first (Name, value, Expiry date, Redeemed entries, Description). */
export async function listVoucherGroups(ctx: OrgContext, params: { offset: number; pageSize: number; search?: string | null }) {
  requirePermission(ctx, "view_vouchers");
  let query = groups(ctx);
  if (params.search) query = query.where(containsText("voucher_groups.name", params.search));
  const [rows, total] = await Promise.all([
    query
      .select([...GROUP_COLUMNS])
      .orderBy("voucher_groups.created_at", "desc")
      .orderBy("voucher_groups.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function getVoucherGroup(ctx: OrgContext, groupId: number | null) {
  requirePermission(ctx, "view_vouchers");
  if (groupId === null) notFound(VOUCHER_RESULT_MESSAGES.notFound);
  const row = await groups(ctx)
    .select([...GROUP_COLUMNS])
    .where("voucher_groups.id", "=", groupId)
    .executeTakeFirst();
  return row ?? notFound(VOUCHER_RESULT_MESSAGES.notFound);
}

/** A group's codes in order (the printable sheet and the CSV), with how often each was used. */
export async function voucherCodes(
  ctx: OrgContext,
  groupId: number | null,
  page: { offset: number; pageSize: number } = { offset: 0, pageSize: 10_000 },
) {
  const group = await getVoucherGroup(ctx, groupId);
  const codes = await db
    .selectFrom("vouchers")
    .select(["code", "uses", "first_redeemed_at"])
    .where("voucher_group_id", "=", group.id)
    .where("organization_id", "=", ctx.org.id)
    .orderBy("id")
    .limit(page.pageSize)
    .offset(page.offset)
    .execute();
  return { group, codes };
}

async function planErrors(ctx: OrgContext, planId: number): Promise<Record<string, string[]>> {
  const plan = await db
    .selectFrom("service_plans")
    .select("id")
    .where("id", "=", planId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return plan ? {} : { service_plan_id: [VOUCHER_MESSAGES.plan] };
}

/** `count` random codes, none equal to each other (collisions with stored codes are retried by the caller). */
export function newCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    // 31 symbols: reject bytes ≥ 248 so every symbol is equally likely.
    const bytes = crypto.randomBytes(CODE_LENGTH * 2);
    let code = "";
    for (const b of bytes) {
      if (b >= 248) continue;
      code += CODE_ALPHABET[b % CODE_ALPHABET.length];
      if (code.length === CODE_LENGTH) break;
    }
    if (code.length === CODE_LENGTH) codes.add(code);
  }
  return [...codes];
}

export type VoucherSaveResult = { ok: true; id: number; message: string } | { ok: false; errors: Record<string, string[]> };

const INSERT_CHUNK = 500;

/** POST vouchers: a group and its codes, in one transaction (a clash with an existing code draws again). */
export async function generateVouchers(ctx: OrgContext, input: VoucherGroupInput): Promise<VoucherSaveResult> {
  requirePermission(ctx, "edit_vouchers");
  const errors = await planErrors(ctx, input.service_plan_id);
  if (Object.keys(errors).length) return { ok: false, errors };
  const count = input.codes_count ?? 10;
  const now = Date.now();
  const id = await db.transaction().execute(async (trx) => {
    const group = await trx
      .insertInto("voucher_groups")
      .values({
        organization_id: ctx.org.id,
        name: input.name,
        face_value_cents: input.face_value,
        valid_till: input.valid_till,
        service_plan_id: input.service_plan_id,
        codes_count: count,
        uses_per_code: input.uses_per_code,
        description: input.description,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    let wanted = count;
    while (wanted > 0) {
      const fresh = newCodes(wanted);
      const taken = new Set<string>();
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
        const chunk = fresh.slice(i, i + INSERT_CHUNK);
        for (const r of await trx
          .selectFrom("vouchers")
          .select("code")
          .where("organization_id", "=", ctx.org.id)
          .where("code", "in", chunk)
          .execute())
          taken.add(r.code);
      }
      const usable = fresh.filter((c) => !taken.has(c));
      for (let i = 0; i < usable.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("vouchers")
          .values(
            usable.slice(i, i + INSERT_CHUNK).map((code) => ({ organization_id: ctx.org.id, voucher_group_id: Number(group.id), code })),
          )
          .execute();
      }
      wanted -= usable.length;
    }
    return Number(group.id);
  });
  return { ok: true, id, message: VOUCHER_RESULT_MESSAGES.generated(count) };
}

/** PUT vouchers/{id}: name, value, validity, plan, uses per code and description (the codes stay). */
export async function updateVoucherGroup(ctx: OrgContext, groupId: number | null, input: VoucherGroupInput): Promise<VoucherSaveResult> {
  requirePermission(ctx, "edit_vouchers");
  const group = await getVoucherGroup(ctx, groupId);
  const errors = await planErrors(ctx, input.service_plan_id);
  if (Object.keys(errors).length) return { ok: false, errors };
  await db
    .updateTable("voucher_groups")
    .set({
      name: input.name,
      face_value_cents: input.face_value,
      valid_till: input.valid_till,
      service_plan_id: input.service_plan_id,
      uses_per_code: input.uses_per_code,
      description: input.description,
      updated_at: Date.now(),
    })
    .where("id", "=", group.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return { ok: true, id: group.id, message: VOUCHER_RESULT_MESSAGES.updated };
}

export type RedeemedPlan = PlanTerms;

export type RedeemOutcome = { ok: true; voucherId: number; plan: RedeemedPlan } | { ok: false; status: number; message: string };

/**
 * Takes one use of a code (the connect page's voucher box), inside the authorization's transaction:
 * a conditional UPDATE, so two guests typing the same single-use code get it once between them.
 */
export async function redeemVoucher(
  trx: Kysely<DB>,
  organizationId: number,
  typed: string | null | undefined,
  now: number,
): Promise<RedeemOutcome> {
  const code = normaliseCode(typed);
  if (!code) return { ok: false, status: 422, message: VOUCHER_RESULT_MESSAGES.unknownCode };
  const row = await trx
    .selectFrom("vouchers")
    .innerJoin("voucher_groups", "voucher_groups.id", "vouchers.voucher_group_id")
    .leftJoin("service_plans", "service_plans.id", "voucher_groups.service_plan_id")
    .leftJoin("bandwidth_policies", "bandwidth_policies.id", "service_plans.bandwidth_policy_id")
    .select([
      "bandwidth_policies.max_upload_kbps",
      "bandwidth_policies.max_download_kbps",
      "vouchers.id",
      "vouchers.uses",
      "voucher_groups.id as group_id",
      "voucher_groups.uses_per_code",
      "voucher_groups.valid_till",
      "voucher_groups.face_value_cents",
      "service_plans.id as plan_id",
      "service_plans.name as plan_name",
      "service_plans.time_limit_minutes",
      "service_plans.usage_limit_bytes",
      "service_plans.validity_minutes",
      "service_plans.simultaneous_connections",
    ])
    .where("vouchers.organization_id", "=", organizationId)
    .where("vouchers.code", "=", code)
    .executeTakeFirst();
  if (!row) return { ok: false, status: 422, message: VOUCHER_RESULT_MESSAGES.unknownCode };
  if (row.valid_till < new Date(now).toISOString().slice(0, 10))
    return { ok: false, status: 410, message: VOUCHER_RESULT_MESSAGES.expired(row.valid_till) };
  if (row.plan_id === null) return { ok: false, status: 409, message: VOUCHER_RESULT_MESSAGES.noPlan };
  const taken = await trx
    .updateTable("vouchers")
    .set((eb) => ({ uses: eb("uses", "+", 1), first_redeemed_at: eb.fn.coalesce("first_redeemed_at", eb.val(now)) }))
    .where("id", "=", row.id)
    .where("uses", "<", row.uses_per_code)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return { ok: false, status: 409, message: VOUCHER_RESULT_MESSAGES.used };
  await trx
    .updateTable("voucher_groups")
    .set((eb) => ({ redeemed_entries: eb("redeemed_entries", "+", 1) }))
    .where("id", "=", row.group_id)
    .execute();
  return {
    ok: true,
    voucherId: Number(row.id),
    plan: {
      id: row.plan_id,
      name: row.plan_name!,
      price_cents: Number(row.face_value_cents),
      time_limit_minutes: row.time_limit_minutes,
      usage_limit_bytes: row.usage_limit_bytes === null ? null : Number(row.usage_limit_bytes),
      validity_minutes: Number(row.validity_minutes),
      simultaneous_connections: Number(row.simultaneous_connections),
      max_upload_kbps: row.max_upload_kbps,
      max_download_kbps: row.max_download_kbps,
    },
  };
}

/** Whether the organisation has any voucher group (the connect page shows its voucher box then). */
export async function sellsVouchers(organizationId: number): Promise<boolean> {
  return (
    (await db.selectFrom("voucher_groups").select("id").where("organization_id", "=", organizationId).limit(1).executeTakeFirst()) !==
    undefined
  );
}
