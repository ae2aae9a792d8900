// Service plans and bandwidth policies (docs/guide/plans-and-prepaid.md) on SQLite and
// PostgreSQL, through the services the pages and the data API call: the form's rules and messages
// as a table, base units, generated codes, one free plan, tenancy (another organisation's ids are
// 404s, its policies refused) and the permissions of custom roles.
import { describe, expect, it } from "vitest";
import type { Permission } from "~/lib/permissions";
import { PLAN_MESSAGES, bandwidthPolicySchema, servicePlanSchema } from "~/lib/schemas/plans";
import type { OrgContext } from "~/services/guard.server";
import {
  POLICY_MESSAGES,
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  policiesByIds,
  updatePolicy,
} from "~/services/prepaid/policies.server";
import { PLAN_RESULT_MESSAGES, createPlan, deletePlan, getFreePlan, getPlan, listPlans, updatePlan } from "~/services/prepaid/plans.server";
import { makeMember, makeOrg, run } from "../fixtures";
import { contextOf } from "../fixtures/records";

async function world() {
  const { org, owner } = await makeOrg(`Prepaid ${Math.random().toString(36).slice(2, 8)}`);
  return { org, owner, ctx: await contextOf(owner.id, org.id) };
}

/** The form's values through the page's schema (strings, as a form posts them). */
function planInput(fields: Record<string, string>, free = false) {
  const parsed = servicePlanSchema(free).safeParse({ name: "Daily", ...fields });
  if (!parsed.success) throw new Error(`invalid plan: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  return parsed.data;
}

const policyInput = (fields: Record<string, string> = {}) => bandwidthPolicySchema.parse({ name: "Standard", ...fields });

/** The first message of the form's schema for these values, or null when they pass. */
function firstMessage(fields: Record<string, string>, free = false): { path: string; message: string } | null {
  const parsed = servicePlanSchema(free).safeParse(fields);
  return parsed.success ? null : { path: parsed.error.issues[0].path.join("."), message: parsed.error.issues[0].message };
}

async function statusOf(work: () => Promise<unknown>) {
  const res = await run(work);
  return { status: res.status, message: ((await res.json()) as { message?: string } | null)?.message };
}

async function saved(ctx: OrgContext, fields: Record<string, string>, free = false) {
  const outcome = await createPlan(ctx, planInput(fields, free), free);
  if (!outcome.ok) throw new Error(`not saved: ${JSON.stringify(outcome.errors)}`);
  return getPlan(ctx, outcome.id);
}

describe("the service plan form's rules", () => {
  const refusals: [string, Record<string, string>, boolean, { path: string; message: string } | null][] = [
    ["a name and a price", { name: "Daily", price: "50" }, false, null],
    ["no name", { price: "50" }, false, { path: "name", message: PLAN_MESSAGES.nameRequired }],
    ["a blank name", { name: "   ", price: "50" }, false, { path: "name", message: PLAN_MESSAGES.nameRequired }],
    ["no price (0)", { name: "Daily" }, false, { path: "price", message: PLAN_MESSAGES.priceTooLow }],
    ["price 0.99", { name: "Daily", price: "0.99" }, false, { path: "price", message: PLAN_MESSAGES.priceTooLow }],
    ["price 1", { name: "Daily", price: "1" }, false, null],
    ["price 49.505 (three decimals)", { name: "Daily", price: "49.505" }, false, { path: "price", message: PLAN_MESSAGES.price }],
    ["price -5", { name: "Daily", price: "-5" }, false, { path: "price", message: PLAN_MESSAGES.price }],
    ["free plan without a price", { name: "Free" }, true, null],
    ["free plan with price 0.5 (ignored)", { name: "Free", price: "0.5" }, true, null],
    [
      "Limited Time without a time limit",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Time" },
      false,
      { path: "time_limit", message: PLAN_MESSAGES.timeLimit },
    ],
    [
      "Limited Data without a data limit",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Data" },
      false,
      { path: "usage_limit", message: PLAN_MESSAGES.usageLimit },
    ],
    [
      "Limited Both with only time",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Both", time_limit: "30" },
      false,
      { path: "usage_limit", message: PLAN_MESSAGES.usageLimit },
    ],
    [
      "Limited Both with only data",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Both", usage_limit: "1" },
      false,
      { path: "time_limit", message: PLAN_MESSAGES.timeLimit },
    ],
    [
      "Limited Both with both",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Both", time_limit: "30", usage_limit: "1" },
      false,
      null,
    ],
    [
      "a 3 Hrs time limit with 1 Hrs validity",
      { name: "D", price: "5", plan_kind: "Limited", limit_type: "Time", time_limit: "3", time_limit_unit: "Hrs" },
      false,
      { path: "time_limit", message: PLAN_MESSAGES.timeLimitOverValidity },
    ],
    [
      "a 60 Mins time limit with 1 Hrs validity (as long as it)",
      {
        name: "D",
        price: "5",
        plan_kind: "Limited",
        limit_type: "Both",
        time_limit: "60",
        usage_limit: "1",
        validity: "1",
        validity_units: "Hrs",
      },
      false,
      null,
    ],
    [
      "a 2 Days time limit with 3 Days validity",
      {
        name: "D",
        price: "5",
        plan_kind: "Limited",
        limit_type: "Time",
        time_limit: "2",
        time_limit_unit: "Days",
        validity: "3",
        validity_units: "Days",
      },
      false,
      null,
    ],
    [
      "Unlimited ignores a bad limit type's missing limits",
      { name: "D", price: "5", plan_kind: "Unlimited", limit_type: "Both" },
      false,
      null,
    ],
    [
      "a time limit of 1.5",
      { name: "D", price: "5", plan_kind: "Limited", time_limit: "1.5" },
      false,
      { path: "time_limit", message: PLAN_MESSAGES.timeLimit },
    ],
    [
      "a time limit of 0",
      { name: "D", price: "5", plan_kind: "Limited", time_limit: "0" },
      false,
      { path: "time_limit", message: PLAN_MESSAGES.timeLimit },
    ],
    [
      "101 simultaneous connections",
      { name: "D", price: "5", simultaneous_connections: "101" },
      false,
      { path: "simultaneous_connections", message: PLAN_MESSAGES.connections },
    ],
    ["validity 0", { name: "D", price: "5", validity: "0" }, false, { path: "validity", message: PLAN_MESSAGES.validity }],
    [
      "an unknown unit",
      { name: "D", price: "5", validity_units: "Weeks" },
      false,
      { path: "validity_units", message: "Choose Mins, Hrs, Days." },
    ],
    ["a code with a space", { name: "D", price: "5", code: "AB CD" }, false, { path: "code", message: PLAN_MESSAGES.code }],
    [
      "a malformed policy id",
      { name: "D", price: "5", bandwidth_policy_id: "x1" },
      false,
      { path: "bandwidth_policy_id", message: PLAN_MESSAGES.unknownPolicy },
    ],
  ];
  it.each(refusals)("%s", (_label, fields, free, expected) => {
    expect(firstMessage(fields, free)).toEqual(expected);
  });

  it("fills the spec's defaults: Unlimited, 1 connection, validity 1 Hrs", () => {
    expect(planInput({ price: "10" })).toMatchObject({
      plan_kind: "Unlimited",
      limit_type: "Time",
      time_limit: null,
      time_limit_unit: "Mins",
      usage_limit: null,
      usage_limit_unit: "MBs",
      simultaneous_connections: 1,
      validity: 1,
      validity_units: "Hrs",
      price: 1000,
      code: null,
      bandwidth_policy_id: null,
      free_every: "day",
    });
  });
});

describe("saving service plans", () => {
  const stored: [string, Record<string, string>, Record<string, unknown>][] = [
    [
      "Unlimited ignores the limits entered",
      { price: "10", plan_kind: "Unlimited", limit_type: "Both", time_limit: "30", usage_limit: "2" },
      {
        plan_kind: "Unlimited",
        time_limit: null,
        time_limit_unit: null,
        time_limit_minutes: null,
        usage_limit: null,
        usage_limit_unit: null,
        usage_limit_bytes: null,
      },
    ],
    [
      "Limited Time: 2 Hrs is 120 minutes, data ignored",
      { price: "10", plan_kind: "Limited", limit_type: "Time", time_limit: "2", time_limit_unit: "Hrs", usage_limit: "5", validity: "2" },
      { plan_kind: "Limited", time_limit: 2, time_limit_unit: "Hrs", time_limit_minutes: 120, usage_limit: null, usage_limit_bytes: null },
    ],
    [
      "Limited Data: 1 GBs is 1073741824 bytes, time ignored",
      { price: "10", plan_kind: "Limited", limit_type: "Data", usage_limit: "1", usage_limit_unit: "GBs", time_limit: "3" },
      {
        plan_kind: "Limited",
        time_limit: null,
        time_limit_minutes: null,
        usage_limit: 1,
        usage_limit_unit: "GBs",
        usage_limit_bytes: 1073741824,
      },
    ],
    [
      "Limited Both: 1 Days and 500 MBs",
      {
        price: "10",
        plan_kind: "Limited",
        limit_type: "Both",
        time_limit: "1",
        time_limit_unit: "Days",
        usage_limit: "500",
        usage_limit_unit: "MBs",
        validity: "1",
        validity_units: "Days",
      },
      { time_limit_minutes: 1440, usage_limit_bytes: 500 * 1024 * 1024 },
    ],
    [
      "validity 3 Days is 4320 minutes",
      { price: "10", validity: "3", validity_units: "Days" },
      { validity: 3, validity_units: "Days", validity_minutes: 4320 },
    ],
    ["price 49.50 is 4950 cents", { price: "49.50" }, { price_cents: 4950, free_internet: false, free_every: null }],
    ["price 1.29 is 129 cents", { price: "1.29" }, { price_cents: 129 }],
  ];
  it.each(stored)("%s", async (_label, fields, expected) => {
    const { ctx } = await world();
    expect(await saved(ctx, fields)).toMatchObject(expected);
  });

  it("keeps the free plan's free_every and ignores its price; one free plan per organisation", async () => {
    const { ctx } = await world();
    const free = await saved(ctx, { name: "Free hour", price: "20", free_every: "week" }, true);
    expect(free).toMatchObject({ free_internet: true, price_cents: 0, free_every: "week" });
    expect((await getFreePlan(ctx))?.id).toBe(free.id);
    const second = await createPlan(ctx, planInput({ name: "Another free" }, true), true);
    expect(second).toEqual({ ok: false, errors: { name: [PLAN_MESSAGES.oneFreePlan] } });
    // A paid plan is not the free plan, and updating the free plan keeps it free.
    await saved(ctx, { name: "Paid", price: "10" });
    const updated = await updatePlan(ctx, free.id, planInput({ name: "Free 30", free_every: "validity" }, true));
    expect(updated).toEqual({ ok: true, id: free.id, message: PLAN_RESULT_MESSAGES.updated });
    expect(await getPlan(ctx, free.id)).toMatchObject({ name: "Free 30", free_internet: true, price_cents: 0, free_every: "validity" });
  });

  it("answers null for the free plan when there is none", async () => {
    const { ctx } = await world();
    await saved(ctx, { price: "10" });
    expect(await getFreePlan(ctx)).toBeNull();
  });

  it("generates 6-character codes without look-alikes, takes a code given in capitals, and refuses a taken code", async () => {
    const { ctx } = await world();
    const codes = new Set<string>();
    for (let i = 0; i < 12; i++) codes.add((await saved(ctx, { name: `Plan ${i}`, price: "10" })).code);
    expect(codes.size).toBe(12);
    for (const code of codes) expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ2-9]{6}$/);
    const given = await saved(ctx, { name: "Weekly", price: "300", code: "week-1" });
    expect(given.code).toBe("WEEK-1");
    expect(await createPlan(ctx, planInput({ name: "Copy", price: "10", code: "WEEK-1" }))).toEqual({
      ok: false,
      errors: { code: [PLAN_MESSAGES.codeTaken] },
    });
    const other = await saved(ctx, { name: "Other", price: "10" });
    expect(await updatePlan(ctx, other.id, planInput({ name: "Other", price: "10", code: "Week-1" }))).toEqual({
      ok: false,
      errors: { code: [PLAN_MESSAGES.codeTaken] },
    });
    // Without a code an update keeps the plan's.
    expect(await updatePlan(ctx, other.id, planInput({ name: "Other 2", price: "10" }))).toMatchObject({ ok: true });
    expect((await getPlan(ctx, other.id)).code).toBe(other.code);
    // Another organisation may use the same code.
    const elsewhere = await world();
    expect((await saved(elsewhere.ctx, { name: "Weekly", price: "300", code: "WEEK-1" })).code).toBe("WEEK-1");
  });

  it("lists plans newest first with the policy's name, searches names and codes, and counts", async () => {
    const { ctx } = await world();
    const policy = await createPolicy(ctx, policyInput({ name: "Fast" }));
    await saved(ctx, { name: "Hourly", price: "10", code: "HOUR" });
    await saved(ctx, { name: "Daily", price: "50", bandwidth_policy_id: String(policy.id) });
    const all = await listPlans(ctx, { offset: 0, pageSize: 10 });
    expect(all.total).toBe(2);
    expect(all.rows.map((r) => [r.name, r.bandwidth_policy_name])).toEqual([
      ["Daily", "Fast"],
      ["Hourly", null],
    ]);
    expect((await listPlans(ctx, { offset: 0, pageSize: 10, search: "hour" })).rows.map((r) => r.name)).toEqual(["Hourly"]);
    expect((await listPlans(ctx, { offset: 0, pageSize: 10, search: "HOU" })).total).toBe(1);
    expect((await listPlans(ctx, { offset: 1, pageSize: 10 })).rows.map((r) => r.name)).toEqual(["Hourly"]);
  });
});

describe("bandwidth policies", () => {
  it("stores speeds as entered and in kbps (5 Mbps is 5000 kbps), lists, reads in a batch, and updates", async () => {
    const { ctx } = await world();
    const created = await createPolicy(
      ctx,
      policyInput({ name: "Fast", max_upload: "5", max_upload_unit: "Mbps", max_download: "512", max_download_unit: "Kbps" }),
    );
    expect(created.message).toBe(POLICY_MESSAGES.created);
    expect(await getPolicy(ctx, created.id)).toMatchObject({
      name: "Fast",
      max_upload: 5,
      max_upload_unit: "Mbps",
      max_upload_kbps: 5000,
      max_download: 512,
      max_download_unit: "Kbps",
      max_download_kbps: 512,
    });
    expect(policyInput()).toMatchObject({
      max_upload: 1,
      max_upload_unit: "Mbps",
      max_download: 1,
      max_download_unit: "Mbps",
      description: null,
    });
    const slow = await createPolicy(ctx, policyInput({ name: "Slow" }));
    expect((await listPolicies(ctx, { offset: 0, pageSize: 10 })).rows.map((r) => r.name)).toEqual(["Slow", "Fast"]);
    expect((await listPolicies(ctx, { offset: 0, pageSize: 10, search: "fa" })).total).toBe(1);
    expect(await updatePolicy(ctx, slow.id, policyInput({ name: "Slower", max_download: "2" }))).toEqual({
      id: slow.id,
      message: POLICY_MESSAGES.updated,
    });
    expect(await getPolicy(ctx, slow.id)).toMatchObject({ name: "Slower", max_download_kbps: 2000 });
    const other = await world();
    const foreign = await createPolicy(other.ctx, policyInput({ name: "Theirs" }));
    const batch = await policiesByIds(ctx, [created.id, slow.id, foreign.id]);
    expect(batch.map((p) => p.name).sort()).toEqual(["Fast", "Slower"]);
    expect(await policiesByIds(ctx, [])).toEqual([]);
  });

  it("refuses another organisation's policy for a plan", async () => {
    const { ctx } = await world();
    const other = await world();
    const theirs = await createPolicy(other.ctx, policyInput({ name: "Theirs" }));
    const outcome = await createPlan(ctx, planInput({ price: "10", bandwidth_policy_id: String(theirs.id) }));
    expect(outcome).toEqual({ ok: false, errors: { bandwidth_policy_id: [PLAN_MESSAGES.unknownPolicy] } });
    const mine = await saved(ctx, { price: "10" });
    expect(await updatePlan(ctx, mine.id, planInput({ price: "10", bandwidth_policy_id: String(theirs.id) }))).toEqual({
      ok: false,
      errors: { bandwidth_policy_id: [PLAN_MESSAGES.unknownPolicy] },
    });
  });

  it("cannot delete a policy plans use (the message names them), and can once they are gone", async () => {
    const { ctx } = await world();
    const policy = await createPolicy(ctx, policyInput({ name: "Fast" }));
    const daily = await saved(ctx, { name: "Daily", price: "50", bandwidth_policy_id: String(policy.id) });
    const hourly = await saved(ctx, { name: "Hourly", price: "10", bandwidth_policy_id: String(policy.id) });
    expect(await deletePolicy(ctx, policy.id)).toEqual({ ok: false, message: POLICY_MESSAGES.inUse("Fast", ["Daily", "Hourly"]) });
    expect(POLICY_MESSAGES.inUse("Fast", ["Daily", "Hourly"])).toBe(
      "Bandwidth policy Fast is used by 2 plans: Daily, Hourly. Give them another policy first.",
    );
    expect(await deletePlan(ctx, hourly.id)).toEqual({ ok: true, message: PLAN_RESULT_MESSAGES.deleted("Hourly") });
    expect(await deletePolicy(ctx, policy.id)).toEqual({
      ok: false,
      message: "Bandwidth policy Fast is used by the plan Daily. Give it another policy first.",
    });
    await deletePlan(ctx, daily.id);
    expect(await deletePolicy(ctx, policy.id)).toEqual({ ok: true, message: POLICY_MESSAGES.deleted("Fast") });
    expect(await statusOf(() => getPolicy(ctx, policy.id))).toEqual({ status: 404, message: POLICY_MESSAGES.notFound });
  });
});

describe("tenancy and permissions", () => {
  it("answers not found for another organisation's plans and policies", async () => {
    const mine = await world();
    const theirs = await world();
    const plan = await saved(theirs.ctx, { price: "10" });
    const policy = await createPolicy(theirs.ctx, policyInput());
    const notFound = { status: 404, message: PLAN_RESULT_MESSAGES.notFound };
    expect(await statusOf(() => getPlan(mine.ctx, plan.id))).toEqual(notFound);
    expect(await statusOf(() => updatePlan(mine.ctx, plan.id, planInput({ price: "10" })))).toEqual(notFound);
    expect(await statusOf(() => deletePlan(mine.ctx, plan.id))).toEqual(notFound);
    expect(await statusOf(() => getPlan(mine.ctx, null))).toEqual(notFound);
    const policyNotFound = { status: 404, message: POLICY_MESSAGES.notFound };
    expect(await statusOf(() => getPolicy(mine.ctx, policy.id))).toEqual(policyNotFound);
    expect(await statusOf(() => updatePolicy(mine.ctx, policy.id, policyInput()))).toEqual(policyNotFound);
    expect(await statusOf(() => deletePolicy(mine.ctx, policy.id))).toEqual(policyNotFound);
    expect((await listPlans(mine.ctx, { offset: 0, pageSize: 10 })).total).toBe(0);
    expect((await listPolicies(mine.ctx, { offset: 0, pageSize: 10 })).total).toBe(0);
    // Nothing of theirs changed.
    expect((await getPlan(theirs.ctx, plan.id)).name).toBe("Daily");
    expect((await getPolicy(theirs.ctx, policy.id)).name).toBe("Standard");
  });

  async function memberCtx(orgId: number, permissions: Permission[], roleType: "custom" | "r" = "custom") {
    const { user } = await makeMember(orgId, roleType, permissions);
    return contextOf(user.id, orgId);
  }

  it("refuses create, edit and delete to roles that may only view", async () => {
    const { org, ctx } = await world();
    const plan = await saved(ctx, { price: "10" });
    const policy = await createPolicy(ctx, policyInput());
    for (const viewer of [await memberCtx(org.id, ["view_service_plan", "view_bandwidth_policy"]), await memberCtx(org.id, [], "r")]) {
      expect((await getPlan(viewer, plan.id)).id).toBe(plan.id);
      expect((await listPolicies(viewer, { offset: 0, pageSize: 10 })).total).toBe(1);
      expect((await statusOf(() => createPlan(viewer, planInput({ price: "10" })))).status).toBe(403);
      expect((await statusOf(() => createPlan(viewer, planInput({}, true), true))).status).toBe(403);
      expect((await statusOf(() => updatePlan(viewer, plan.id, planInput({ price: "10" })))).status).toBe(403);
      expect((await statusOf(() => deletePlan(viewer, plan.id))).status).toBe(403);
      expect((await statusOf(() => createPolicy(viewer, policyInput()))).status).toBe(403);
      expect((await statusOf(() => updatePolicy(viewer, policy.id, policyInput()))).status).toBe(403);
      expect((await statusOf(() => deletePolicy(viewer, policy.id))).status).toBe(403);
    }
    const outsider = await memberCtx(org.id, ["view_networks"]);
    expect((await statusOf(() => listPlans(outsider, { offset: 0, pageSize: 10 }))).status).toBe(403);
    expect((await statusOf(() => getFreePlan(outsider))).status).toBe(403);
    expect((await statusOf(() => listPolicies(outsider, { offset: 0, pageSize: 10 }))).status).toBe(403);
    expect((await statusOf(() => getPolicy(outsider, policy.id))).status).toBe(403);
    // Nothing changed.
    expect((await getPlan(ctx, plan.id)).name).toBe("Daily");
    expect((await listPolicies(ctx, { offset: 0, pageSize: 10 })).total).toBe(1);
  });

  it("lets each action's own permission do it, without the view permission", async () => {
    const { org, ctx } = await world();
    const creator = await memberCtx(org.id, ["create_service_plan", "create_bandwidth_policy"]);
    const policy = await createPolicy(creator, policyInput({ name: "Made" }));
    const created = await createPlan(creator, planInput({ name: "Made", price: "10", bandwidth_policy_id: String(policy.id) }));
    expect(created).toMatchObject({ ok: true });
    expect(await createPlan(creator, planInput({ name: "Free" }, true), true)).toMatchObject({ ok: true });
    // A second free plan is refused with the message, not a 403 for lacking view_service_plan.
    expect(await createPlan(creator, planInput({ name: "Free 2" }, true), true)).toEqual({
      ok: false,
      errors: { name: [PLAN_MESSAGES.oneFreePlan] },
    });
    const planId = created.ok ? created.id : 0;

    const editor = await memberCtx(org.id, ["edit_service_plan", "edit_bandwidth_policy"]);
    expect(
      await updatePlan(editor, planId, planInput({ name: "Edited", price: "20", bandwidth_policy_id: String(policy.id) })),
    ).toMatchObject({ ok: true });
    expect(await updatePolicy(editor, policy.id, policyInput({ name: "Edited" }))).toMatchObject({ id: policy.id });

    const deleter = await memberCtx(org.id, ["delete_service_plan", "delete_bandwidth_policy"]);
    expect(await deletePolicy(deleter, policy.id)).toMatchObject({ ok: false });
    expect(await deletePlan(deleter, planId)).toEqual({ ok: true, message: PLAN_RESULT_MESSAGES.deleted("Edited") });
    expect(await deletePolicy(deleter, policy.id)).toEqual({ ok: true, message: POLICY_MESSAGES.deleted("Edited") });
    expect((await listPlans(ctx, { offset: 0, pageSize: 10 })).rows.map((r) => r.name)).toEqual(["Free"]);
  });
});
