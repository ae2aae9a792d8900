// Service plans and bandwidth policies through the data API (docs/guide/api.md#data-api-graphql), over HTTP
// against the built server on SQLite and PostgreSQL: every query and mutation, the form's refusals
// (422), permissions (403), other organisations' ids (404), and a page of plans with their
// policies read in the same number of queries for 2 plans as for 20.
import type { Kysely, KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/db/schema";
import { PLAN_MESSAGES, bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import { issueToken } from "~/services/auth.server";
import { POLICY_MESSAGES, createPolicy } from "~/services/prepaid/policies.server";
import { PLAN_RESULT_MESSAGES, createPlan, getPlan } from "~/services/prepaid/plans.server";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
import { generateVouchers } from "~/services/prepaid/vouchers.server";
import { db } from "~/db/db.server";
import { makeMember } from "../fixtures";
import { apiOrg, gql, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { contextOf } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

async function setup() {
  const base = await apiOrg();
  const ctx = await contextOf(base.owner.id, base.org.id);
  return { ...base, ctx, caller: { token: base.token, org: base.org.id } as Caller };
}

type Ctx = Awaited<ReturnType<typeof setup>>["ctx"];

async function policy(ctx: Ctx, fields: Record<string, string> = {}) {
  return (await createPolicy(ctx, bandwidthPolicySchema.parse({ name: "Standard", ...fields }))).id;
}

async function plan(ctx: Ctx, fields: Record<string, string> = {}, free = false) {
  const outcome = await createPlan(ctx, servicePlanSchema(free).parse({ name: "Daily", price: "50", ...fields }), free);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome.id;
}

const PLAN_FIELDS = `id name code description free_internet bandwidth_policy_id bandwidthPolicy { id name max_upload max_upload_unit max_download max_download_unit description }
  plan_kind limit_type time_limit time_limit_unit usage_limit usage_limit_unit simultaneous_connections validity validity_units price free_every subscriptionsCount created_at updated_at`;

const SAVE_PLAN = `mutation Save($input: ServicePlanInput!) { createOrUpdateServicePlan(input: $input) { code message recordId success } }`;
const SAVE_POLICY = `mutation Save($input: BandwidthPolicyInput!) { bandwidthPolicy(input: $input) { code message recordId success } }`;

const store = globalThis as unknown as { __mlangoDatabase: { db: Kysely<DB> } };

/** Runs `work` counting the queries sent to the database (as graphql-n-plus-one.test.ts does). */
async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const original = store.__mlangoDatabase.db;
  let count = 0;
  const counter: KyselyPlugin = {
    transformQuery({ node }) {
      const pruning = node.kind === "DeleteQueryNode" && JSON.stringify(node).includes('"rate_limits"');
      if (!pruning) count++;
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  store.__mlangoDatabase.db = original.withPlugin(counter);
  try {
    await work();
  } finally {
    store.__mlangoDatabase.db = original;
  }
  return count;
}

describe("service plans and bandwidth policies in the data API", () => {
  it("lists, counts and reads plans with their policies, and the free plan", async () => {
    const { ctx, caller } = await setup();
    expect((await gqlData(server, caller, `{ freePlan { id } servicePlansCount }`)).freePlan).toBeNull();
    const fast = await policy(ctx, {
      name: "Fast",
      max_upload: "5",
      max_upload_unit: "Mbps",
      max_download: "512",
      max_download_unit: "Kbps",
      description: "For shops",
    });
    const hourly = await plan(ctx, {
      name: "Hourly",
      code: "HOUR",
      price: "10",
      plan_kind: "Limited",
      limit_type: "Both",
      time_limit: "2",
      time_limit_unit: "Hrs",
      usage_limit: "1",
      usage_limit_unit: "GBs",
      validity: "2",
    });
    const daily = await plan(ctx, {
      name: "Daily",
      price: "49.50",
      bandwidth_policy_id: String(fast),
      description: "A day",
      simultaneous_connections: "3",
      validity: "1",
      validity_units: "Days",
    });
    const free = await plan(ctx, { name: "Free 30", free_every: "week", validity: "30", validity_units: "Mins" }, true);

    // Two guests bought the daily plan (one of them has used it up): subscriptionsCount counts both.
    const now = Date.now();
    await db
      .insertInto("subscriptions")
      .values(
        (["Active", "Exhausted"] as const).map((status) => ({
          organization_id: ctx.org.id,
          service_plan_id: daily,
          customer_id: null,
          device_id: null,
          plan_name: "Daily",
          price_cents: 4950,
          source: "mpesa" as const,
          status,
          started_on: now,
          expires_on: now + 86_400_000,
          time_limit_minutes: null,
          usage_limit_bytes: null,
          simultaneous_connections: 3,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const list = await gqlData(
      server,
      caller,
      `{ servicePlans(limit: 10, order: "created_at desc") { ${PLAN_FIELDS} } servicePlansCount }`,
    );
    expect(list.servicePlansCount).toBe(3);
    expect(list.servicePlans.map((p: { id: string }) => p.id)).toEqual([String(free), String(daily), String(hourly)]);
    expect(list.servicePlans[1]).toEqual({
      id: String(daily),
      name: "Daily",
      code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/),
      description: "A day",
      free_internet: false,
      bandwidth_policy_id: String(fast),
      bandwidthPolicy: {
        id: String(fast),
        name: "Fast",
        max_upload: 5,
        max_upload_unit: "Mbps",
        max_download: 512,
        max_download_unit: "Kbps",
        description: "For shops",
      },
      plan_kind: "Unlimited",
      limit_type: null,
      time_limit: null,
      time_limit_unit: null,
      usage_limit: null,
      usage_limit_unit: null,
      simultaneous_connections: 3,
      validity: 1,
      validity_units: "Days",
      price: 49.5,
      free_every: null,
      subscriptionsCount: 2,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(list.servicePlans[2]).toMatchObject({
      code: "HOUR",
      bandwidthPolicy: null,
      plan_kind: "Limited",
      limit_type: "Both",
      time_limit: 2,
      time_limit_unit: "Hrs",
      usage_limit: 1,
      usage_limit_unit: "GBs",
      price: 10,
    });
    expect(list.servicePlans[0]).toMatchObject({ free_internet: true, price: 0, free_every: "week", validity: 30, validity_units: "Mins" });

    const searched = await gqlData(
      server,
      caller,
      `{ servicePlans(search: "hou") { name } servicePlansCount(search: "hou") paged: servicePlans(limit: 1, offset: 1) { name } }`,
    );
    expect(searched).toEqual({ servicePlans: [{ name: "Hourly" }], servicePlansCount: 1, paged: [{ name: "Daily" }] });
    const one = await gqlData(
      server,
      caller,
      `{ servicePlan(id: "${daily}") { name price bandwidthPolicy { name max_download } } freePlan { id name free_internet } }`,
    );
    expect(one).toEqual({
      servicePlan: { name: "Daily", price: 49.5, bandwidthPolicy: { name: "Fast", max_download: 512 } },
      freePlan: { id: String(free), name: "Free 30", free_internet: true },
    });
    const badOrder = await gql(server, caller, `{ servicePlans(order: "name asc") { id } }`);
    expect(badOrder.errors?.[0]).toMatchObject({ message: "order must be 'created_at desc'.", extensions: { code: "BAD_USER_INPUT" } });
  });

  it("lists, counts and reads bandwidth policies", async () => {
    const { ctx, caller } = await setup();
    const slow = await policy(ctx, { name: "Slow", max_download: "256", max_download_unit: "Kbps" });
    const fast = await policy(ctx, { name: "Fast" });
    const answer = await gqlData(
      server,
      caller,
      `{ bandwidthPolicies(limit: 5) { id name max_upload max_upload_unit max_download max_download_unit description created_at updated_at } bandwidthPoliciesCount
         searched: bandwidthPolicies(search: "slo") { name } searchedCount: bandwidthPoliciesCount(search: "slo")
         bandwidthPolicy(id: "${slow}") { id name max_download max_download_unit } }`,
    );
    expect(answer.bandwidthPolicies.map((p: { name: string }) => p.name)).toEqual(["Fast", "Slow"]);
    expect(answer.bandwidthPolicies[0]).toEqual({
      id: String(fast),
      name: "Fast",
      max_upload: 1,
      max_upload_unit: "Mbps",
      max_download: 1,
      max_download_unit: "Mbps",
      description: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(answer.bandwidthPoliciesCount).toBe(2);
    expect(answer.searched).toEqual([{ name: "Slow" }]);
    expect(answer.searchedCount).toBe(1);
    expect(answer.bandwidthPolicy).toEqual({ id: String(slow), name: "Slow", max_download: 256, max_download_unit: "Kbps" });
  });

  it("creates, updates and deletes plans and policies", async () => {
    const { ctx, caller } = await setup();
    const created = await gqlData(server, caller, SAVE_POLICY, {
      input: { name: "Fast", max_upload: 5, max_upload_unit: "Mbps", max_download: 10, description: "Shops" },
    });
    expect(created.bandwidthPolicy).toEqual({
      code: 200,
      message: POLICY_MESSAGES.created,
      recordId: expect.stringMatching(/^\d+$/),
      success: true,
    });
    const policyId = created.bandwidthPolicy.recordId;
    const updated = await gqlData(server, caller, SAVE_POLICY, {
      input: { id: policyId, name: "Faster", max_upload: 512, max_upload_unit: "Kbps" },
    });
    expect(updated.bandwidthPolicy).toEqual({ code: 200, message: POLICY_MESSAGES.updated, recordId: policyId, success: true });
    expect(
      (
        await gqlData(
          server,
          caller,
          `{ bandwidthPolicy(id: "${policyId}") { name max_upload max_upload_unit max_download max_download_unit description } }`,
        )
      ).bandwidthPolicy,
    ).toEqual({
      name: "Faster",
      max_upload: 512,
      max_upload_unit: "Kbps",
      max_download: 1,
      max_download_unit: "Mbps",
      description: null,
    });

    const input = {
      name: "Weekend",
      code: "wknd",
      bandwidth_policy_id: policyId,
      plan_kind: "Limited",
      limit_type: "Data",
      usage_limit: 2,
      usage_limit_unit: "GBs",
      simultaneous_connections: 2,
      validity: 2,
      validity_units: "Days",
      price: 149.5,
    };
    const saved = await gqlData(server, caller, SAVE_PLAN, { input });
    expect(saved.createOrUpdateServicePlan).toEqual({
      code: 200,
      message: PLAN_RESULT_MESSAGES.created,
      recordId: expect.stringMatching(/^\d+$/),
      success: true,
    });
    const planId = Number(saved.createOrUpdateServicePlan.recordId);
    expect(await getPlan(ctx, planId)).toMatchObject({
      code: "WKND",
      usage_limit_bytes: 2 * 1024 ** 3,
      time_limit: null,
      validity_minutes: 2880,
      price_cents: 14950,
      bandwidth_policy_id: Number(policyId),
    });

    const edited = await gqlData(server, caller, SAVE_PLAN, { input: { ...input, id: String(planId), name: "Long weekend", price: 200 } });
    expect(edited.createOrUpdateServicePlan).toEqual({
      code: 200,
      message: PLAN_RESULT_MESSAGES.updated,
      recordId: String(planId),
      success: true,
    });
    expect(await getPlan(ctx, planId)).toMatchObject({ name: "Long weekend", code: "WKND", price_cents: 20000 });

    const free = await gqlData(server, caller, SAVE_PLAN, {
      input: { free: true, name: "Free hour", validity: 1, validity_units: "Hrs", price: 10, free_every: "validity" },
    });
    expect(free.createOrUpdateServicePlan).toMatchObject({ code: 200, success: true });
    expect((await gqlData(server, caller, `{ freePlan { id price free_every } }`)).freePlan).toEqual({
      id: free.createOrUpdateServicePlan.recordId,
      price: 0,
      free_every: "validity",
    });
    // Updating the free plan keeps it free: no price needed.
    const freeEdited = await gqlData(server, caller, SAVE_PLAN, {
      input: { id: free.createOrUpdateServicePlan.recordId, name: "Free 2 hours", validity: 2 },
    });
    expect(freeEdited.createOrUpdateServicePlan).toMatchObject({ code: 200 });
    const second = await gqlData(server, caller, SAVE_PLAN, { input: { free: true, name: "Another" } });
    expect(second.createOrUpdateServicePlan).toEqual({ code: 409, message: PLAN_MESSAGES.oneFreePlan, recordId: null, success: false });
    const taken = await gqlData(server, caller, SAVE_PLAN, { input: { name: "Copy", code: "WKND", price: 5 } });
    expect(taken.createOrUpdateServicePlan).toEqual({ code: 409, message: PLAN_MESSAGES.codeTaken, recordId: null, success: false });

    const inUse = await gqlData(server, caller, `mutation { deleteBandwidthPolicy(id: "${policyId}") { code message recordId success } }`);
    expect(inUse.deleteBandwidthPolicy).toEqual({
      code: 409,
      message: POLICY_MESSAGES.inUse("Faster", ["Long weekend"]),
      recordId: policyId,
      success: false,
    });
    const deleted = await gqlData(server, caller, `mutation { deleteServicePlan(id: "${planId}") { code message recordId success } }`);
    expect(deleted.deleteServicePlan).toEqual({
      code: 200,
      message: PLAN_RESULT_MESSAGES.deleted("Long weekend"),
      recordId: String(planId),
      success: true,
    });
    const policyDeleted = await gqlData(
      server,
      caller,
      `mutation { deleteBandwidthPolicy(id: "${policyId}") { code message recordId success } }`,
    );
    expect(policyDeleted.deleteBandwidthPolicy).toEqual({
      code: 200,
      message: POLICY_MESSAGES.deleted("Faster"),
      recordId: policyId,
      success: true,
    });
    expect(await gqlData(server, caller, `{ servicePlansCount bandwidthPoliciesCount }`)).toEqual({
      servicePlansCount: 1,
      bandwidthPoliciesCount: 0,
    });
  });

  it("refuses invalid input with the form's first message (422)", async () => {
    const { ctx, caller } = await setup();
    const other = await setup();
    const theirs = await policy(other.ctx);
    const existing = await plan(ctx);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "Daily", price: 0.99 }, PLAN_MESSAGES.priceTooLow],
      [{ name: "Daily" }, PLAN_MESSAGES.priceTooLow],
      [{ price: 10 }, PLAN_MESSAGES.nameRequired],
      [{ name: "Daily", price: 10.555 }, PLAN_MESSAGES.price],
      [{ name: "Daily", price: 10, plan_kind: "Limited", limit_type: "Time" }, PLAN_MESSAGES.timeLimit],
      [{ name: "Daily", price: 10, plan_kind: "Limited", limit_type: "Both", time_limit: 5 }, PLAN_MESSAGES.usageLimit],
      [{ name: "Daily", price: 10, simultaneous_connections: 0 }, PLAN_MESSAGES.connections],
      [{ name: "Daily", price: 10, validity_units: "Weeks" }, "Choose Mins, Hrs, Days."],
      [{ name: "Daily", price: 10, bandwidth_policy_id: String(theirs) }, PLAN_MESSAGES.unknownPolicy],
      [{ name: "Daily", price: 10, id: String(existing), time_limit: -1, plan_kind: "Limited" }, PLAN_MESSAGES.timeLimit],
    ];
    for (const [input, message] of cases) {
      const answer = await gqlData(server, caller, SAVE_PLAN, { input });
      expect(answer.createOrUpdateServicePlan, JSON.stringify(input)).toEqual({
        code: 422,
        message,
        recordId: input.id ?? null,
        success: false,
      });
    }
    const badPolicy = await gqlData(server, caller, SAVE_POLICY, { input: { name: "Fast", max_upload: 0 } });
    expect(badPolicy.bandwidthPolicy).toEqual({ code: 422, message: PLAN_MESSAGES.bandwidth, recordId: null, success: false });
    const noName = await gqlData(server, caller, SAVE_POLICY, { input: { max_upload_unit: "Gbps" } });
    expect(noName.bandwidthPolicy).toMatchObject({ code: 422, message: PLAN_MESSAGES.nameRequired });
    // Nothing was saved.
    expect(await gqlData(server, caller, `{ servicePlansCount bandwidthPoliciesCount }`)).toEqual({
      servicePlansCount: 1,
      bandwidthPoliciesCount: 0,
    });
  });

  it("refuses without the permissions (403) and answers not found for another organisation's ids (404)", async () => {
    const { org, ctx, caller } = await setup();
    const other = await setup();
    const planId = await plan(ctx);
    const policyId = await policy(ctx);
    const viewer = await makeMember(org.id, "custom", ["view_service_plan", "view_bandwidth_policy"]);
    const viewerCaller = { token: await issueToken(viewer.user.id, "api"), org: org.id };
    expect(await gqlData(server, viewerCaller, `{ servicePlansCount bandwidthPoliciesCount }`)).toEqual({
      servicePlansCount: 1,
      bandwidthPoliciesCount: 1,
    });
    const attempts = [
      [SAVE_PLAN, { input: { name: "New", price: 10 } }, "createOrUpdateServicePlan"],
      [SAVE_PLAN, { input: { id: String(planId), name: "Renamed", price: 10 } }, "createOrUpdateServicePlan"],
      [SAVE_PLAN, { input: { free: true, name: "Free" } }, "createOrUpdateServicePlan"],
      [SAVE_POLICY, { input: { name: "New" } }, "bandwidthPolicy"],
      [SAVE_POLICY, { input: { id: String(policyId), name: "Renamed" } }, "bandwidthPolicy"],
      [`mutation { deleteServicePlan(id: "${planId}") { code message success } }`, undefined, "deleteServicePlan"],
      [`mutation { deleteBandwidthPolicy(id: "${policyId}") { code message success } }`, undefined, "deleteBandwidthPolicy"],
    ] as const;
    for (const [query, variables, field] of attempts) {
      const answer = await gqlData(server, viewerCaller, query, variables as Record<string, unknown> | undefined);
      expect(answer[field], `${field} ${JSON.stringify(variables)}`).toMatchObject({ code: 403, success: false });
    }
    // Refused for the permission even with invalid input.
    expect((await gqlData(server, viewerCaller, SAVE_PLAN, { input: { price: 0 } })).createOrUpdateServicePlan).toMatchObject({
      code: 403,
    });
    const outsider = await makeMember(org.id, "custom", ["view_networks"]);
    const outsiderCaller = { token: await issueToken(outsider.user.id, "api"), org: org.id };
    for (const query of [
      `{ servicePlans { id } }`,
      `{ freePlan { id } }`,
      `{ bandwidthPolicies { id } }`,
      `{ bandwidthPolicy(id: "${policyId}") { id } }`,
    ]) {
      const denied = await gql(server, outsiderCaller, query);
      expect(denied.errors?.[0]?.extensions?.code, query).toBe("FORBIDDEN");
    }

    for (const query of [
      `{ servicePlan(id: "${planId}") { name } }`,
      `{ bandwidthPolicy(id: "${policyId}") { name } }`,
      `{ servicePlan(id: "nope") { name } }`,
    ]) {
      const foreign = await gql(server, other.caller, query);
      expect(foreign.errors?.[0]?.extensions?.code, query).toBe("NOT_FOUND");
      expect(foreign.data).toBeNull();
    }
    const foreignMutations = [
      [SAVE_PLAN, { input: { id: String(planId), name: "Theirs", price: 10 } }, "createOrUpdateServicePlan", PLAN_RESULT_MESSAGES.notFound],
      [SAVE_PLAN, { input: { id: "x", name: "Theirs", price: 10 } }, "createOrUpdateServicePlan", PLAN_RESULT_MESSAGES.notFound],
      [SAVE_POLICY, { input: { id: String(policyId), name: "Theirs" } }, "bandwidthPolicy", POLICY_MESSAGES.notFound],
      [
        `mutation { deleteServicePlan(id: "${planId}") { code message success } }`,
        undefined,
        "deleteServicePlan",
        PLAN_RESULT_MESSAGES.notFound,
      ],
      [
        `mutation { deleteBandwidthPolicy(id: "${policyId}") { code message success } }`,
        undefined,
        "deleteBandwidthPolicy",
        POLICY_MESSAGES.notFound,
      ],
    ] as const;
    for (const [query, variables, field, message] of foreignMutations) {
      const answer = await gqlData(server, other.caller, query, variables as Record<string, unknown> | undefined);
      expect(answer[field], `${field} ${JSON.stringify(variables)}`).toMatchObject({ code: 404, message, success: false });
    }
    // Nothing of theirs changed.
    expect(await gqlData(server, caller, `{ servicePlan(id: "${planId}") { name } bandwidthPolicy(id: "${policyId}") { name } }`)).toEqual({
      servicePlan: { name: "Daily" },
      bandwidthPolicy: { name: "Standard" },
    });
  });

  it("lists and counts voucher groups with their plan, newest first, for view_vouchers only, never another organisation's", async () => {
    const { org, ctx, caller } = await setup();
    const other = await setup();
    const planId = await plan(ctx, { name: "Two hours" });
    const today = new Date().toISOString().slice(0, 10);
    for (const name of ["Till 1", "Till 2"]) {
      const made = await generateVouchers(
        ctx,
        voucherGroupSchema(today, true).parse({
          name,
          face_value: "50",
          valid_till: today,
          service_plan_id: String(planId),
          codes_count: "3",
          description: "Front desk",
        }),
      );
      expect(made.ok).toBe(true);
    }
    const answer = await gqlData(
      server,
      caller,
      `{ vouchers(limit: 5, search: "till") { name face_value valid_till redeemed_entries description codes_count uses_per_code servicePlan { id name } created_at } vouchersCount }`,
    );
    expect(answer.vouchersCount).toBe(2);
    expect(answer.vouchers).toEqual([
      expect.objectContaining({
        name: "Till 2",
        face_value: 50,
        valid_till: today,
        redeemed_entries: 0,
        description: "Front desk",
        codes_count: 3,
        uses_per_code: 1,
        servicePlan: { id: String(planId), name: "Two hours" },
      }),
      expect.objectContaining({ name: "Till 1" }),
    ]);
    // The codes are money: never in the data API.
    const codes = await db.selectFrom("vouchers").select("code").where("organization_id", "=", org.id).execute();
    expect(codes).toHaveLength(6);
    for (const { code } of codes) expect(JSON.stringify(answer)).not.toContain(code);
    expect(await gqlData(server, other.caller, `{ vouchers { id } vouchersCount }`)).toEqual({ vouchers: [], vouchersCount: 0 });
    const outsider = await makeMember(org.id, "custom", ["view_service_plan"]);
    const denied = await gql(server, { token: await issueToken(outsider.user.id, "api"), org: org.id }, `{ vouchers { id } }`);
    expect(denied.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const tooMany = await gql(server, caller, `{ vouchers(limit: 100000) { id } }`);
    // A huge page is weighed before it runs.
    expect(tooMany.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
  });

  it("reads a page of plans with their policies in the same number of queries for 2 plans as for 20", async () => {
    const { ctx, caller } = await setup();
    for (let i = 0; i < 20; i++) {
      const policyId = await policy(ctx, { name: `Policy ${i}` });
      await plan(ctx, { name: `Plan ${i}`, bandwidth_policy_id: String(policyId) });
    }
    const names = (limit: number) => `{ servicePlans(limit: ${limit}) { id name bandwidthPolicy { name } } }`;
    const full = (limit: number) =>
      `{ servicePlans(limit: ${limit}) { id name bandwidthPolicy { id name max_upload max_download_unit created_at } } }`;
    // The token's first request writes what later ones only read (its rate limit window): not counted.
    await gqlData(server, caller, `{ servicePlansCount }`);
    let rows = 0;
    const namesFew = await countQueries(async () => (rows = (await gqlData(server, caller, names(2))).servicePlans.length));
    expect(rows).toBe(2);
    const namesMany = await countQueries(async () => (rows = (await gqlData(server, caller, names(50))).servicePlans.length));
    expect(rows).toBe(20);
    const fullFew = await countQueries(() => gqlData(server, caller, full(2)));
    let plans: { bandwidthPolicy: { name: string; max_upload: number } }[] = [];
    const fullMany = await countQueries(async () => (plans = (await gqlData(server, caller, full(50))).servicePlans));
    expect(plans.every((p) => p.bandwidthPolicy.max_upload === 1 && p.bandwidthPolicy.name.startsWith("Policy "))).toBe(true);
    console.log(
      JSON.stringify({
        event: "graphql_query_count",
        query: "servicePlans with bandwidthPolicy",
        names2: namesFew,
        names20: namesMany,
        full2: fullFew,
        full20: fullMany,
      }),
    );
    expect(namesMany).toBe(namesFew);
    expect(fullMany).toBe(fullFew);
    // The policy's name comes with the plan's row; its other fields cost one batched query.
    expect(fullFew).toBe(namesFew + 1);
  });
});
