import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams } from "~/lib/pagination";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
import { apiData, apiValidationFailed, dispatch, parseApiBody, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { generateVouchers, getVoucherGroup, listVoucherGroups } from "~/services/prepaid/vouchers.server";
import { todayUtc } from "~/routes/$orgId+/_prepaid+/vouchers+/__vouchers.server";
import { readScopedBody, requireQueryOrg } from "./__venues.server";
import { savedJson, voucherJson } from "./__vouchers.server";

// GET  /account/api/v1/vouchers[?page=&per_page=&search=] (organization_id or X-Organization-Id;
//      view_vouchers) → { data: { vouchers: [group…], meta: { page, per_page, total } } }, newest first.
// POST /account/api/v1/vouchers — name, face_value (Kes), valid_till (YYYY-MM-DD, today or later,
//      UTC), description, organization_id, service_plan_id, codes_count (default 10, at most
//      10,000), uses_per_code (default 1) (edit_vouchers) → 201 { data: { message, data: { message },
//      voucher } } (docs/guide/api.md#vouchers: "The success message is in data.data.message"); 422
//      { errors } with the form's messages ('Name field is required.', 'Voucher value is required.',
//      'Voucher validity is required.', …). The codes are read with GET vouchers/{id}.
// A group is id, organization_id, name, face_value, valid_till, redeemed_entries, description,
// service_plan_id, service_plan_name, codes_count, uses_per_code, created_at, updated_at.

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, "view_vouchers");
    const page = parseListParams(new URL(request.url).searchParams);
    const { rows, total } = await listVoucherGroups(ctx, page);
    return apiData({ vouchers: rows.map((g) => voucherJson(ctx.org.id, g)), meta: { page: page.page, per_page: page.pageSize, total } });
  },

  async POST({ request }) {
    const { ctx, body } = await readScopedBody(request);
    // The permission is checked before the body, so a refused caller learns nothing from 422s.
    requirePermission(ctx, "edit_vouchers");
    const input = parseApiBody(body, voucherGroupSchema(todayUtc(), true));
    const result = await generateVouchers(ctx, input);
    if (!result.ok) return apiValidationFailed(result.errors);
    const group = await getVoucherGroup(ctx, result.id);
    return apiData(savedJson(result.message, voucherJson(ctx.org.id, group)), 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
