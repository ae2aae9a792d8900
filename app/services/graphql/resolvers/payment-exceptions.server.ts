// Payment exceptions (decision 0077, docs/guide/api.md#payment-exceptions): the M-Pesa payments that
// need a person, as the console's Payment Exceptions page lists them (view_subscriptions; phones need
// view_clients), and the owner's actions on them through the page's service: grant the plan, refund
// through Daraja's Reversal API (its result comes later), mark resolved.
import {
  paymentExceptionsFilterSchema,
  PAYMENT_EXCEPTION_KINDS,
  PAYMENT_EXCEPTION_STATUSES,
  type PaymentExceptionAction,
} from "~/lib/schemas/payment-exceptions";
import { actOnPaymentException, listPaymentExceptions, type PaymentExceptionRow } from "../../prepaid/payment-exceptions.server";
import { pageOf, recordId, type PageArgs } from "../args.server";
import { badInput, done, mutation, refused } from "../errors.server";
import type { GraphQLContext } from "../context.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "An M-Pesa payment that needs a person (the console's Payment Exceptions)."
  type PaymentException {
    id: ID!
    "paid_not_granted, late, duplicate_receipt, amount_mismatch, unknown_purchase or unconfirmed."
    kind: String!
    "What the kind means, as the console says it."
    kind_text: String!
    "open, granted, refunding, refunded, refund_failed or dismissed."
    status: String!
    status_text: String!
    "The M-Pesa receipt, when known."
    receipt: String
    "2547XXXXXXXX; null without view_clients."
    phone_number: String
    "Kes, whole shillings."
    amount: Int
    "What the purchase asked for, when it differs or is known."
    expected_amount: Int
    plan_name: String
    "The guest's connection (its timeline: the connection's timeline query)."
    connection_id: ID
    subscription_id: ID
    detail: String!
    "Daraja's answer to a refund."
    reversal_result: String
    "The owner may still grant the plan."
    can_grant: Boolean!
    "The owner may still refund it."
    can_refund: Boolean!
    created_at: String!
  }

  extend type Query {
    "view_subscriptions. Newest first; show is open (default: those still needing someone) or all."
    paymentExceptions(show: String = "open", limit: Int = 10, offset: Int = 0): [PaymentException!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_subscriptions."
    paymentExceptionsCount(show: String = "open"): Int!
  }

  extend type Mutation {
    "The organization's owner. Grants the purchase's plan from now; 409 when already dealt with or no purchase is named; 403; 404."
    grantPaymentException(id: ID!): MutationResult!
    "The organization's owner. Asks Daraja's Reversal API to refund; its result comes later (status refunding, then refunded or refund_failed); 409; 502 when Daraja refused; 403; 404."
    refundPaymentException(id: ID!): MutationResult!
    "The organization's owner. Marks it resolved; 409 when already dealt with; 403; 404."
    dismissPaymentException(id: ID!): MutationResult!
  }
`;

/** The page's filter, checked by its schema: anything but open or all is refused. */
function openOnlyOf(show: string | null | undefined): boolean {
  const parsed = paymentExceptionsFilterSchema.safeParse({ show: show ?? undefined });
  if (!parsed.success) badInput(parsed.error.issues[0]?.message ?? "Invalid show.");
  return parsed.data.show === "open";
}

const act = (action: PaymentExceptionAction) => (_: unknown, args: { id: string }, context: GraphQLContext) =>
  mutation(async () => {
    const ctx = await context.org();
    const id = recordId(args.id);
    const outcome = await actOnPaymentException(ctx, action, id ?? 0);
    return outcome.ok ? done(outcome.message, args.id) : refused(outcome.status, outcome.message, args.id);
  });

export const resolvers: Resolvers = {
  Query: {
    async paymentExceptions(_, args: PageArgs & { show?: string | null }, context) {
      const ctx = await context.org();
      const openOnly = openOnlyOf(args.show);
      const { offset, pageSize } = pageOf(args);
      return (await listPaymentExceptions(ctx, { openOnly, offset, perPage: pageSize })).rows;
    },
    async paymentExceptionsCount(_, args: { show?: string | null }, context) {
      const ctx = await context.org();
      return (await listPaymentExceptions(ctx, { openOnly: openOnlyOf(args.show), offset: 0, perPage: 1 })).total;
    },
  },
  Mutation: {
    grantPaymentException: act("grant"),
    refundPaymentException: act("refund"),
    dismissPaymentException: act("dismiss"),
  },
  PaymentException: {
    kind_text: (e: PaymentExceptionRow) => PAYMENT_EXCEPTION_KINDS[e.kind],
    status_text: (e: PaymentExceptionRow) => PAYMENT_EXCEPTION_STATUSES[e.status],
    created_at: (e: PaymentExceptionRow) => iso(e.created_at),
  },
};
