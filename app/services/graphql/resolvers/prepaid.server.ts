// Fair usage and prepaid, first part (docs/guide/plans-and-prepaid.md#plan-form, #bandwidth-policies,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql):
// service plans (the free plan among them) and bandwidth policies. The services check the permissions
// as for the pages; inputs go through the pages' own zod schemas as the form's strings, so a script
// is refused with the form's messages. A page of plans reads its policies in one batch
// (loaders.server.ts), and a policy's id and name come with the plan's row.
import type { ZodTypeAny, z } from "zod";
import { bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import { requirePermission, type OrgContext } from "../../guard.server";
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from "../../prepaid/policies.server";
import {
  createPlan,
  deletePlan,
  getFreePlan,
  getPlan,
  listPlans,
  updatePlan,
  type PlanSaveResult,
  type ServicePlan,
} from "../../prepaid/plans.server";
import { done, mutation, refused, type MutationResult } from "../errors.server";
import { checkOrder, pageOf, recordId, searchOf, type PageArgs } from "../args.server";
import type { GraphQLContext } from "../context.server";
import type { PolicyRecord } from "../loaders.server";
import { iso, type Resolver, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "A bandwidth policy: the speeds a plan's guests get."
  type BandwidthPolicy {
    id: ID!
    name: String!
    max_upload: Int!
    "Kbps or Mbps"
    max_upload_unit: String!
    max_download: Int!
    "Kbps or Mbps"
    max_download_unit: String!
    description: String
    created_at: String!
    updated_at: String!
  }

  "A service plan guests buy, or the organization's free plan (free_internet)."
  type ServicePlan {
    id: ID!
    name: String!
    "Up to 20 letters, digits and dashes; generated (6 characters) when not given."
    code: String!
    description: String
    "The free plan: at most one per organization, no price."
    free_internet: Boolean!
    bandwidth_policy_id: ID
    "view_service_plan is enough: a plan's policy is part of the plan."
    bandwidthPolicy: BandwidthPolicy
    "Unlimited (no time or data limit) or Limited."
    plan_kind: String!
    "Time, Data or Both for a Limited plan; null when Unlimited."
    limit_type: String
    "Null when the plan has no time limit."
    time_limit: Int
    "Mins, Hrs or Days; null without a time limit."
    time_limit_unit: String
    "Null when the plan has no data limit."
    usage_limit: Int
    "MBs or GBs; null without a data limit."
    usage_limit_unit: String
    simultaneous_connections: Int!
    validity: Int!
    "Mins, Hrs or Days"
    validity_units: String!
    "Kes (0 for the free plan)."
    price: Float!
    "The free plan: how often one device may take it (day, week, or validity: when its last one has ended); null for paid plans."
    free_every: String
    "Subscriptions to the plan (0 until subscriptions exist)."
    subscriptionsCount: Int!
    created_at: String!
    updated_at: String!
  }

  """
  A service plan to create (no id) or update (id), with the form's fields and rules: unset fields
  take the form's defaults (Unlimited, Time, Mins, MBs, 1 connection, validity 1 Hrs).
  """
  input ServicePlanInput {
    "The plan to update; without it a plan is created."
    id: ID
    "Create the organization's free plan (no price; at most one). Ignored with an id: a plan stays free or paid."
    free: Boolean
    name: String
    "Up to 20 letters, digits and dashes (kept in capitals); generated when creating without one, kept when updating without one."
    code: String
    description: String
    "One of the organization's bandwidth policies; none when unset."
    bandwidth_policy_id: ID
    "Unlimited (default; limits are ignored) or Limited."
    plan_kind: String
    "Time (default), Data or Both, for a Limited plan."
    limit_type: String
    "1 to 1,000,000; needed for limit type Time or Both."
    time_limit: Int
    "Mins (default), Hrs or Days."
    time_limit_unit: String
    "1 to 1,000,000; needed for limit type Data or Both."
    usage_limit: Int
    "MBs (default) or GBs."
    usage_limit_unit: String
    "1 to 100 (default 1)."
    simultaneous_connections: Int
    "1 to 1,000,000 (default 1)."
    validity: Int
    "Mins, Hrs (default) or Days."
    validity_units: String
    "Kes, at least 1, with up to 2 decimals (49.50). Ignored for the free plan."
    price: Float
    "The free plan: day (default), week or validity."
    free_every: String
  }

  "A bandwidth policy to create (no id) or update (id). Speeds default to 1 Mbps."
  input BandwidthPolicyInput {
    "The policy to update; without it a policy is created."
    id: ID
    name: String
    "1 to 1,000,000 (default 1)."
    max_upload: Int
    "Kbps or Mbps (default)."
    max_upload_unit: String
    "1 to 1,000,000 (default 1)."
    max_download: Int
    "Kbps or Mbps (default)."
    max_download_unit: String
    description: String
  }

  extend type Query {
    "view_service_plan. The paid plans and the free plan, newest first; search looks in names and codes."
    servicePlans(limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String): [ServicePlan!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_service_plan."
    servicePlansCount(search: String): Int!
    "view_service_plan (or edit_service_plan)."
    servicePlan(id: ID!): ServicePlan!
    "view_service_plan. The organization's free plan, or null when it has none."
    freePlan: ServicePlan
    "view_bandwidth_policy. Newest first; search looks in names."
    bandwidthPolicies(limit: Int = 10, offset: Int = 0, search: String): [BandwidthPolicy!]! @complexity(value: 1, multipliers: ["limit"])
    "view_bandwidth_policy."
    bandwidthPoliciesCount(search: String): Int!
    "view_bandwidth_policy (or edit_bandwidth_policy)."
    bandwidthPolicy(id: ID!): BandwidthPolicy!
  }

  extend type Mutation {
    """
    create_service_plan without an id (free: true creates the free plan), edit_service_plan with one.
    code 200 with the plan's recordId; 422 with the form's first message for an invalid field (e.g.
    'Service plan price can not be less than Ksh 1', or a policy that is not the organization's);
    409 when the code is another plan's or the organization already has a free plan; 403; 404 for an
    unknown id.
    """
    createOrUpdateServicePlan(input: ServicePlanInput!): MutationResult!
    """
    create_bandwidth_policy without an id, edit_bandwidth_policy with one. code 200 with the policy's
    recordId; 422 with the form's first message; 403; 404 for an unknown id.
    """
    bandwidthPolicy(input: BandwidthPolicyInput!): MutationResult!
    "delete_bandwidth_policy. 409 (nothing deleted) while plans use it: the message names them."
    deleteBandwidthPolicy(id: ID!): MutationResult!
    "delete_service_plan."
    deleteServicePlan(id: ID!): MutationResult!
  }
`;

type PlanParent = ServicePlan & { ctx: OrgContext };

/**
 * A policy: a whole row (listed or read), or what a plan's row knows (id and name) with the rest
 * read in the page's batch.
 */
type PolicyParent = (PolicyRecord & { ctx?: undefined }) | { ctx: OrgContext; id: number; name: string };

interface ServicePlanArgs {
  id?: string | null;
  free?: boolean | null;
  [field: string]: string | number | boolean | null | undefined;
}

/**
 * Input as the form posts it: strings, unset fields left out (the schema's defaults apply). Numbers
 * keep their written form, so 1.5 for a whole number is refused with the form's message.
 */
function asForm(input: Record<string, unknown>, leave: string[]): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined || leave.includes(key)) continue;
    form[key] = String(value);
  }
  return form;
}

/** Parsed through the page's schema, or the refusal with its first message (422). */
function parsed<S extends ZodTypeAny>(schema: S, form: Record<string, string>): { data: z.output<S> } | { refusal: MutationResult } {
  const result = schema.safeParse(form);
  return result.success ? { data: result.data } : { refusal: refused(422, result.error.issues[0]?.message ?? "Invalid input.") };
}

/** A save the service refused: a clash with another record is 409, an invalid field 422. */
const CONFLICTS = new Set(["code", "name"]);
function planOutcome(outcome: PlanSaveResult, id: string | null): MutationResult {
  if (outcome.ok) return done(outcome.message, outcome.id);
  const [field, messages] = Object.entries(outcome.errors)[0] ?? ["", []];
  return refused(CONFLICTS.has(field) ? 409 : 422, messages[0] ?? "Invalid input.", id);
}

const planParent = (ctx: OrgContext, plan: ServicePlan): PlanParent => ({ ...plan, ctx });

/** A field of a policy: from the row when the parent is one, else from the page's batch. */
const policyField =
  (key: keyof PolicyRecord, shape: (v: never) => unknown = (v) => v): Resolver =>
  async (p: PolicyParent, _args, context: GraphQLContext) => {
    if (!p.ctx) return shape(p[key] as never);
    const row = await context.loaders(p.ctx).bandwidthPolicies.load(p.id);
    return row ? shape(row[key] as never) : null;
  };

const time = (v: never) => iso(v as number);

export const resolvers: Resolvers = {
  Query: {
    async servicePlans(_, args: PageArgs & { order?: string }, context) {
      const ctx = await context.org();
      checkOrder(args.order, "created_at desc");
      const { rows } = await listPlans(ctx, pageOf(args));
      return rows.map((p) => planParent(ctx, p));
    },
    async servicePlansCount(_, args: { search?: string | null }, context) {
      const ctx = await context.org();
      return (await listPlans(ctx, { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async servicePlan(_, args: { id: string }, context) {
      const ctx = await context.org();
      return planParent(ctx, await getPlan(ctx, recordId(args.id)));
    },
    async freePlan(_, _args, context) {
      const ctx = await context.org();
      const plan = await getFreePlan(ctx);
      return plan && planParent(ctx, plan);
    },
    async bandwidthPolicies(_, args: PageArgs, context) {
      const ctx = await context.org();
      return (await listPolicies(ctx, pageOf(args))).rows;
    },
    async bandwidthPoliciesCount(_, args: { search?: string | null }, context) {
      const ctx = await context.org();
      return (await listPolicies(ctx, { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async bandwidthPolicy(_, args: { id: string }, context) {
      return getPolicy(await context.org(), recordId(args.id));
    },
  },
  Mutation: {
    createOrUpdateServicePlan: (_, args: { input: ServicePlanArgs }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        const { input } = args;
        const form = asForm(input, ["id", "free"]);
        if (input.id === null || input.id === undefined) {
          // Refused for the permission before the input is looked at, as the page's action does.
          requirePermission(ctx, "create_service_plan");
          const free = input.free === true;
          const values = parsed(servicePlanSchema(free), form);
          if ("refusal" in values) return values.refusal;
          return planOutcome(await createPlan(ctx, values.data, free), null);
        }
        requirePermission(ctx, "edit_service_plan");
        // A malformed id is not found, like an unknown one (never a create).
        const plan = await getPlan(ctx, recordId(input.id));
        const values = parsed(servicePlanSchema(plan.free_internet), form);
        if ("refusal" in values) return { ...values.refusal, recordId: String(plan.id) };
        return planOutcome(await updatePlan(ctx, plan.id, values.data), String(plan.id));
      }),
    bandwidthPolicy: (_, args: { input: Record<string, string | number | null | undefined> }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        const { input } = args;
        const creating = input.id === null || input.id === undefined;
        requirePermission(ctx, creating ? "create_bandwidth_policy" : "edit_bandwidth_policy");
        // An unknown or malformed id is not found before the input is looked at (never a create).
        const existing = creating ? null : await getPolicy(ctx, recordId(input.id));
        const values = parsed(bandwidthPolicySchema, asForm(input, ["id"]));
        if ("refusal" in values) return existing ? { ...values.refusal, recordId: String(existing.id) } : values.refusal;
        const saved = existing ? await updatePolicy(ctx, existing.id, values.data) : await createPolicy(ctx, values.data);
        return done(saved.message, saved.id);
      }),
    deleteBandwidthPolicy: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await deletePolicy(await context.org(), recordId(args.id));
        return outcome.ok ? done(outcome.message, args.id) : refused(409, outcome.message, args.id);
      }),
    deleteServicePlan: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await deletePlan(await context.org(), recordId(args.id));
        return done(outcome.message, args.id);
      }),
  },
  ServicePlan: {
    bandwidthPolicy: (p: PlanParent) =>
      p.bandwidth_policy_id === null
        ? null
        : ({ ctx: p.ctx, id: Number(p.bandwidth_policy_id), name: p.bandwidth_policy_name ?? "" } satisfies PolicyParent),
    limit_type: (p: PlanParent) =>
      p.plan_kind === "Unlimited"
        ? null
        : p.time_limit !== null && p.usage_limit !== null
          ? "Both"
          : p.usage_limit !== null
            ? "Data"
            : "Time",
    price: (p: PlanParent) => p.price_cents / 100,
    subscriptionsCount: (p: PlanParent) => p.subscriptions_count,
    created_at: (p: PlanParent) => iso(p.created_at),
    updated_at: (p: PlanParent) => iso(p.updated_at),
  },
  BandwidthPolicy: {
    // id and name are known from a plan's row; the other fields of a plan's policy are read in one batch.
    max_upload: policyField("max_upload"),
    max_upload_unit: policyField("max_upload_unit"),
    max_download: policyField("max_download"),
    max_download_unit: policyField("max_download_unit"),
    description: policyField("description"),
    created_at: policyField("created_at", time),
    updated_at: policyField("updated_at", time),
  },
};
