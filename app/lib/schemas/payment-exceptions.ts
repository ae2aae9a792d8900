import { z } from "zod";
import type { PaymentExceptionKind, PaymentExceptionStatus } from "~/db/schema";
import { MPESA_TRANSACTIONS_PERMISSION } from "./mpesa-transactions";

// Payment exceptions (decision 0077), shared by the console page, its REST calls and GraphQL: the
// labels the page shows (here, not in the .server service, so the browser's bundle has them), the
// list's filter and the owner's actions.

export const PAYMENT_EXCEPTIONS_PERMISSION = MPESA_TRANSACTIONS_PERMISSION;
/** The page's rows per page (the API takes per_page / limit like its other lists). */
export const PAYMENT_EXCEPTIONS_PAGE_SIZE = 50;

/** What each kind means, for the operator. */
export const PAYMENT_EXCEPTION_KINDS: Record<PaymentExceptionKind, string> = {
  paid_not_granted: "Paid, plan not granted",
  late: "Paid after the guest stopped waiting",
  duplicate_receipt: "Receipt already used",
  amount_mismatch: "Amount or phone different from the purchase",
  unknown_purchase: "Payment for an unknown purchase",
  unconfirmed: "M-Pesa never confirmed",
  unmatched_amount: "Receipt typed by a guest: no plan costs this amount",
};

export const PAYMENT_EXCEPTION_STATUSES: Record<PaymentExceptionStatus, string> = {
  open: "Open",
  granted: "Plan granted",
  refunding: "Refund requested",
  refunded: "Refunded",
  refund_failed: "Refund failed",
  dismissed: "Resolved",
};

export const PAYMENT_EXCEPTION_MESSAGES = {
  empty: "No payment exceptions.",
  notFound: "This payment exception does not exist.",
  notOpen: "This payment exception was already dealt with.",
  nothingToGrant: "This payment names no purchase, so there is no plan to grant. Refund it, or mark it resolved.",
  granted: "Plan granted.",
  noReceipt: "No M-Pesa receipt is known for this payment, so it cannot be refunded from here.",
  refundRequested: "Refund requested: M-Pesa will confirm it shortly.",
  dismissed: "Marked as resolved.",
  show: "Show open or all.",
  unknownAction: "Unknown action.",
} as const;

/** The owner's actions on an exception: the page's buttons, POST …/{id}/{action}, the mutations. */
export const PAYMENT_EXCEPTION_ACTIONS = ["grant", "refund", "dismiss"] as const;
export type PaymentExceptionAction = (typeof PAYMENT_EXCEPTION_ACTIONS)[number];

export const isPaymentExceptionAction = (value: unknown): value is PaymentExceptionAction =>
  typeof value === "string" && (PAYMENT_EXCEPTION_ACTIONS as readonly string[]).includes(value);

/** Which exceptions: `open` (the default: those still needing someone) or `all`. */
export const paymentExceptionsFilterSchema = z.object({
  show: z.enum(["open", "all"], { errorMap: () => ({ message: PAYMENT_EXCEPTION_MESSAGES.show }) }).default("open"),
});
export type PaymentExceptionsFilter = z.output<typeof paymentExceptionsFilterSchema>;

/** The page's filter from its URL: anything but a valid `show` is the default (a page never errs on its URL). */
export function paymentExceptionsFilterOfUrl(searchParams: URLSearchParams): PaymentExceptionsFilter {
  const parsed = paymentExceptionsFilterSchema.safeParse({ show: searchParams.get("show") ?? undefined });
  return parsed.success ? parsed.data : { show: "open" };
}
