import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { isPaymentExceptionAction, PAYMENT_EXCEPTION_MESSAGES, PAYMENT_EXCEPTIONS_PERMISSION } from "~/lib/schemas/payment-exceptions";
import { apiData, apiError, dispatch, type ApiMethods } from "~/services/api.server";
import { actOnPaymentException, getPaymentException } from "~/services/prepaid/payment-exceptions.server";
import { paymentExceptionJson } from "./__payment-exceptions.server";
import { readScopedBody } from "./__venues.server";

// POST /account/api/v1/payment_exceptions/{id}/grant | refund | dismiss — the Payment Exceptions
//     page's buttons (decision 0077), through the same service: grant the purchase's plan, refund
//     through Daraja's Reversal API (accepted now, its result later: status refunding, then refunded
//     or refund_failed), or mark it resolved. view_subscriptions and the organisation's owner (403
//     otherwise) → 200 { data: { message, payment_exception } }; 409 { error: { message } } when it
//     was already dealt with or the action does not apply; 502 when Daraja refused the refund. The
//     organisation is organization_id (body) or X-Organization-Id; an exception of another
//     organisation, an unknown or a malformed id, or another action is a 404.

const methods: ApiMethods = {
  async POST({ request, params }) {
    const { ctx } = await readScopedBody(request, PAYMENT_EXCEPTIONS_PERMISSION);
    const intent = params.action;
    if (!isPaymentExceptionAction(intent)) return apiError(404, "Not found");
    const id = parseId(params.id);
    const outcome =
      id === null
        ? { ok: false as const, status: 404, message: PAYMENT_EXCEPTION_MESSAGES.notFound }
        : await actOnPaymentException(ctx, intent, id);
    if (!outcome.ok) return apiError(outcome.status, outcome.message);
    const exception = await getPaymentException(ctx, id);
    return apiData({ message: outcome.message, payment_exception: paymentExceptionJson(ctx.org.id, exception) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
