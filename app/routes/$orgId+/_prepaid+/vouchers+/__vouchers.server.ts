// What the voucher screens share: a group as the list and the detail show it, the form's values,
// today's date (UTC) that the validity is checked against, and the ?id= of the generate page
// (docs/guide/plans-and-prepaid.md#vouchers: "create mode without a voucher id, update mode with one").
import { parseId } from "~/lib/ids";
import { displayCode } from "~/lib/schemas/vouchers";
import { formatDateTime } from "~/lib/time";
import { notFound } from "~/services/guard.server";
import type { getVoucherGroup } from "~/services/prepaid/vouchers.server";
import { kes } from "~/routes/$orgId+/_prepaid+/__plans.server";

export type VoucherGroup = Awaited<ReturnType<typeof getVoucherGroup>>;

/** Today in UTC (YYYY-MM-DD): a group is valid through its valid_till day, in UTC. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The group being updated (?id=), null when creating; a malformed id is a 404, never a new group. */
export function groupIdOf(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("id");
  if (raw === null) return null;
  const id = parseId(raw);
  return id ?? notFound();
}

/**
 * A group as the list's columns show it (docs/guide/plans-and-prepaid.md#vouchers: Name, value, Expiry date,
 * Redeemed entries, Description).
 */
export function groupRow(g: VoucherGroup, offsetMs: number, today = todayUtc()) {
  return {
    id: Number(g.id),
    name: g.name,
    value: kes(Number(g.face_value_cents)),
    valid_till: g.valid_till,
    expired: g.valid_till < today,
    redeemed_entries: Number(g.redeemed_entries),
    description: g.description,
    plan: g.service_plan_name ?? "No plan",
    has_plan: g.service_plan_id !== null,
    codes_count: Number(g.codes_count),
    uses_per_code: Number(g.uses_per_code),
    created_at: formatDateTime(Number(g.created_at), offsetMs),
  };
}

/** Kes as the value field takes it: "50", "49.50" (no thousands separators). */
function kesInput(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** The update form's values for an existing group. */
export function groupFormValues(g: VoucherGroup): Record<string, string> {
  return {
    name: g.name,
    face_value: kesInput(Number(g.face_value_cents)),
    valid_till: g.valid_till,
    description: g.description ?? "",
    service_plan_id: g.service_plan_id === null ? "" : String(g.service_plan_id),
    uses_per_code: String(g.uses_per_code),
  };
}

/** The generate form's defaults (10 codes, single-use). */
export const NEW_GROUP_VALUES: Record<string, string> = { codes_count: "10", uses_per_code: "1" };

/** A code as the detail page lists it (times at `offsetMs` from UTC, the organisation's clock). */
export function codeRow(
  c: { code: string; uses: number; first_redeemed_at: number | string | null },
  usesPerCode: number,
  offsetMs: number,
) {
  const uses = Number(c.uses);
  return {
    code: displayCode(c.code),
    uses,
    used_up: uses >= usesPerCode,
    first_redeemed_at: c.first_redeemed_at === null ? null : formatDateTime(Number(c.first_redeemed_at), offsetMs),
  };
}
