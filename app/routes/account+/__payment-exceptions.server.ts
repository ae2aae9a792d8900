// Payment exceptions as the account API answers them (docs/guide/api.md#payment-exceptions),
// shared by the list and the actions. Amounts are whole shillings; times ISO strings.
import { PAYMENT_EXCEPTION_KINDS, PAYMENT_EXCEPTION_STATUSES } from "~/lib/schemas/payment-exceptions";
import { isoTime } from "~/services/api.server";
import type { PaymentExceptionRow } from "~/services/prepaid/payment-exceptions.server";

export function paymentExceptionJson(organizationId: number, e: PaymentExceptionRow) {
  return {
    id: e.id,
    organization_id: organizationId,
    kind: e.kind,
    kind_text: PAYMENT_EXCEPTION_KINDS[e.kind],
    status: e.status,
    status_text: PAYMENT_EXCEPTION_STATUSES[e.status],
    receipt: e.receipt,
    phone_number: e.phone_number,
    amount: e.amount,
    expected_amount: e.expected_amount,
    plan_name: e.plan_name,
    connection_id: e.connection_id,
    subscription_id: e.subscription_id,
    detail: e.detail,
    reversal_result: e.reversal_result,
    can_grant: e.can_grant,
    can_refund: e.can_refund,
    created_at: isoTime(e.created_at),
  };
}
