import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams } from "~/lib/pagination";
import { PAYMENT_EXCEPTIONS_PERMISSION, paymentExceptionsFilterSchema } from "~/lib/schemas/payment-exceptions";
import { apiData, dispatch, parseApiQuery, type ApiMethods } from "~/services/api.server";
import { listPaymentExceptions } from "~/services/prepaid/payment-exceptions.server";
import { paymentExceptionJson } from "./__payment-exceptions.server";
import { requireQueryOrg } from "./__venues.server";

// GET /account/api/v1/payment_exceptions[?show=open|all&page=&per_page=] (organization_id or
//     X-Organization-Id; view_subscriptions, phones need view_clients) → { data: { payment_exceptions:
//     [exception…], meta: { page, per_page, total, open } } }, newest first, as the console's Payment
//     Exceptions page lists them (decision 0077). show is the page's filter: open (default) or all; 422
//     { errors: { show } } otherwise. An exception is id, organization_id, kind (+ kind_text), status
//     (+ status_text), receipt, phone_number (2547XXXXXXXX, null without view_clients), amount,
//     expected_amount, plan_name, connection_id (its timeline: connections/{id}/timeline),
//     subscription_id, detail, reversal_result, can_grant, can_refund, created_at.

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, PAYMENT_EXCEPTIONS_PERMISSION);
    const { show } = parseApiQuery(request, paymentExceptionsFilterSchema);
    const params = parseListParams(new URL(request.url).searchParams);
    const list = await listPaymentExceptions(ctx, { openOnly: show === "open", offset: params.offset, perPage: params.pageSize });
    return apiData({
      payment_exceptions: list.rows.map((row) => paymentExceptionJson(ctx.org.id, row)),
      meta: { page: params.page, per_page: params.pageSize, total: list.total, open: list.open },
    });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
