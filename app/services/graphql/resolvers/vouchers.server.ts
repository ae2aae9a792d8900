// Voucher groups (docs/guide/plans-and-prepaid.md#vouchers, docs/guide/api.md#queries): the organisation's
// groups, newest first, as the Vouchers page lists them (view_vouchers). The codes themselves are
// not here: they are money, printed from the console or downloaded as CSV by those who may see them.
import { listVoucherGroups } from "../../prepaid/vouchers.server";
import { pageOf, searchOf, type PageArgs } from "../args.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "A voucher group: codes that each give its plan."
  type VoucherGroup {
    id: ID!
    name: String!
    "Kes."
    face_value: Float!
    "The last day its codes can be used (YYYY-MM-DD, inclusive)."
    valid_till: String!
    "How many times its codes were redeemed."
    redeemed_entries: Int!
    description: String
    "How many codes it has."
    codes_count: Int!
    "How many times each code can be used."
    uses_per_code: Int!
    "The plan its codes give (null once that plan was deleted)."
    servicePlan: VoucherPlan
    created_at: String!
  }

  type VoucherPlan {
    id: ID!
    name: String!
  }

  extend type Query {
    "view_vouchers. Newest first; search matches the group's name."
    vouchers(limit: Int = 10, offset: Int = 0, search: String): [VoucherGroup!]! @complexity(value: 1, multipliers: ["limit"])
    "view_vouchers."
    vouchersCount(search: String): Int!
  }
`;

type GroupRow = Awaited<ReturnType<typeof listVoucherGroups>>["rows"][number];

export const resolvers: Resolvers = {
  Query: {
    async vouchers(_, args: PageArgs, context) {
      return (await listVoucherGroups(await context.org(), pageOf(args))).rows;
    },
    async vouchersCount(_, args: { search?: string | null }, context) {
      return (await listVoucherGroups(await context.org(), { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
  },
  VoucherGroup: {
    face_value: (g: GroupRow) => Number(g.face_value_cents) / 100,
    servicePlan: (g: GroupRow) => (g.service_plan_id === null ? null : { id: g.service_plan_id, name: g.service_plan_name }),
    created_at: (g: GroupRow) => iso(g.created_at),
  },
};
