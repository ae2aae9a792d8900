// Subscriptions (docs/guide/plans-and-prepaid.md#subscriptions, docs/guide/api.md#queries): what guests hold
// under the organisation's plans, newest first, as the Subscriptions page lists them. view_subscriptions;
// guests' identity, name and phone number need view_clients too (PERSONAL_DATA_PERMISSION) and are
// null without it, when the search also looks at plan names only. Statuses: decision 0017.
// The type is GuestSubscription: a type named Subscription would be taken as the schema's root
// subscription type.
import { listSubscriptions, type SubscriptionRow } from "../../prepaid/subscriptions.server";
import { checkOrder, pageOf, searchOf, type PageArgs } from "../args.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "The guest holding a subscription. identity, name and phone_number need view_clients (null without it)."
  type SubscriptionCustomer {
    id: ID!
    identity: String
    name: String
    phone_number: String
  }

  "The plan as it was when the subscription started (editing or deleting the plan changes nothing here)."
  type SubscriptionPlan {
    "Null once the plan was deleted."
    id: ID
    name: String!
    "Kes (0 for the free plan)."
    price: Float!
  }

  "A guest's subscription to a plan."
  type GuestSubscription {
    id: ID!
    "Null when only the device is known."
    customer: SubscriptionCustomer
    servicePlan: SubscriptionPlan!
    started_on: String
    expires_on: String
    "Bytes used so far."
    usage: Float!
    "The plan's data limit in bytes; null when it has none."
    usage_limit: Float
    "Pending, Active, Expired (Active past expires_on), Exhausted (its data ran out) or Cancelled."
    status: String!
    "free, voucher or mpesa."
    source: String!
    created_at: String!
  }

  extend type Query {
    "view_subscriptions. Newest first; search matches the guest's identity, name or phone number (with view_clients) and the plan's name."
    subscriptions(limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String): [GuestSubscription!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_subscriptions. Counted up to 10,000 (1,000 with a search), like the list's pages."
    subscriptionsCount(search: String): Int! @complexity(value: 10)
  }
`;

export const resolvers: Resolvers = {
  Query: {
    async subscriptions(_, args: PageArgs & { order?: string }, context) {
      const ctx = await context.org();
      checkOrder(args.order, "created_at desc");
      return (await listSubscriptions(ctx, pageOf(args))).rows;
    },
    async subscriptionsCount(_, args: { search?: string | null }, context) {
      const ctx = await context.org();
      return (await listSubscriptions(ctx, { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
  },
  GuestSubscription: {
    started_on: (s: SubscriptionRow) => iso(s.started_on),
    expires_on: (s: SubscriptionRow) => iso(s.expires_on),
    created_at: (s: SubscriptionRow) => iso(s.created_at),
  },
};
