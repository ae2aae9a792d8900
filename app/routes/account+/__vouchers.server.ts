// Voucher groups as the account API answers them (docs/guide/plans-and-prepaid.md#vouchers,
// docs/guide/api.md#vouchers: name, face_value, valid_till, redeemed_entries, description,
// organization_id), shared by the vouchers routes. face_value is in Kes (a number, like 50 or
// 49.5); times are ISO strings.
import { displayCode } from "~/lib/schemas/vouchers";
import { isoTime } from "~/services/api.server";
import type { getVoucherGroup } from "~/services/prepaid/vouchers.server";

type Group = Awaited<ReturnType<typeof getVoucherGroup>>;
type Code = { code: string; uses: number; first_redeemed_at: number | string | null };

export function voucherJson(organizationId: number, g: Group, codes?: Code[]) {
  return {
    id: Number(g.id),
    organization_id: organizationId,
    name: g.name,
    face_value: Number(g.face_value_cents) / 100,
    valid_till: g.valid_till,
    redeemed_entries: Number(g.redeemed_entries),
    description: g.description,
    service_plan_id: g.service_plan_id === null ? null : Number(g.service_plan_id),
    service_plan_name: g.service_plan_name ?? null,
    codes_count: Number(g.codes_count),
    uses_per_code: Number(g.uses_per_code),
    created_at: isoTime(g.created_at),
    updated_at: isoTime(g.updated_at),
    ...(codes
      ? { codes: codes.map((c) => ({ code: displayCode(c.code), uses: Number(c.uses), first_redeemed_at: isoTime(c.first_redeemed_at) })) }
      : {}),
  };
}

/**
 * A save's answer: the spec's client reads the success message at data.data.message, so it is
 * there (and at data.message, where the other account API answers carry theirs).
 */
export function savedJson(message: string, voucher: ReturnType<typeof voucherJson>) {
  return { message, data: { message }, voucher };
}
