import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
import { apiData, apiValidationFailed, dispatch, parseApiBody, type ApiMethods } from "~/services/api.server";
import { requirePermission } from "~/services/guard.server";
import { getVoucherGroup, updateVoucherGroup, voucherCodes } from "~/services/prepaid/vouchers.server";
import { todayUtc } from "~/routes/$orgId+/_prepaid+/vouchers+/__vouchers.server";
import { readScopedBody, requireQueryOrg } from "./__venues.server";
import { savedJson, voucherJson } from "./__vouchers.server";

// GET /account/api/v1/vouchers/{id} (view_vouchers) → { data: { voucher } }: the group (see
//     vouchers) with codes [{ code (XXXXX-XXXXX), uses, first_redeemed_at }], in the order generated.
// PUT /account/api/v1/vouchers/{id} — the body of POST vouchers; codes_count is ignored (the codes
//     stay) and valid_till may be in the past (to end a group early) (edit_vouchers) → 200
//     { data: { message, data: { message }, voucher } }; 422 { errors }.
// The organisation is organization_id (query or body) or X-Organization-Id; a group of another
// organisation, an unknown or a malformed id is a 404.

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_vouchers");
    const { group, codes } = await voucherCodes(ctx, parseId(params.id));
    return apiData({ voucher: voucherJson(ctx.org.id, group, codes) });
  },

  async PUT({ request, params }) {
    const { ctx, body } = await readScopedBody(request);
    requirePermission(ctx, "edit_vouchers");
    const current = await getVoucherGroup(ctx, parseId(params.id)); // 404 before the body is looked at
    const input = parseApiBody(body, voucherGroupSchema(todayUtc(), false));
    const result = await updateVoucherGroup(ctx, current.id, input);
    if (!result.ok) return apiValidationFailed(result.errors);
    return apiData(savedJson(result.message, voucherJson(ctx.org.id, await getVoucherGroup(ctx, current.id))));
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
