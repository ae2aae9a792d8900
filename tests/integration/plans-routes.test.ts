// The console's bandwidth policy, service plan and free plan screens
// (docs/guide/access-control.md#what-each-permission-shows, docs/guide/plans-and-prepaid.md) through
// their loaders and actions, on SQLite and PostgreSQL: defaults, the spec's messages, deletion and
// its refusal, the free plan, permissions, tenancy, and the pages as a browser without JavaScript
// gets them.
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage, type Permission } from "~/lib/permissions";
import { PLAN_MESSAGES } from "~/lib/schemas/plans";
import * as policiesList from "~/routes/$orgId+/_prepaid+/bandwidth_policies+/_index";
import * as newPolicy from "~/routes/$orgId+/_prepaid+/bandwidth_policies+/new";
import * as policyDetail from "~/routes/$orgId+/_prepaid+/bandwidth_policy+/$policyId.($path)";
import * as freePlan from "~/routes/$orgId+/_prepaid+/free_plan+/$planId.($path)";
import * as planDetail from "~/routes/$orgId+/_prepaid+/service_plan+/$planId.($path)";
import * as plansList from "~/routes/$orgId+/_prepaid+/service_plans+/_index";
import * as newPlan from "~/routes/$orgId+/_prepaid+/service_plans+/new.($free)";
import { makeMember, makeOrg, sessionCookie } from "../fixtures";
import { startBuiltServer } from "../fixtures/http-server";
import { callRoute, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = Parameters<typeof callRoute>[0];

async function world(name = "Mlango Cafe") {
  const { org, owner } = await makeOrg(`${name} ${Math.random()}`);
  return { org, owner, orgId: org.id };
}

const as = (userId: number, orgId: number) => ({
  get: (fn: Fn, path: string, params: Record<string, string> = {}) => callRoute(fn, { userId, orgId, path: `/${orgId}/${path}`, params }),
  post: (fn: Fn, path: string, form: Record<string, string>, params: Record<string, string> = {}) =>
    callRoute(fn, { userId, orgId, path: `/${orgId}/${path}`, params, form }),
});

/** Creates a policy through the form; returns its id. */
async function createdPolicy(userId: number, orgId: number, form: Record<string, string> = { name: "Standard" }) {
  const res = await as(userId, orgId).post(newPolicy.action, "bandwidth_policies/new", form);
  expect(res.status).toBe(302);
  const row = await db
    .selectFrom("bandwidth_policies")
    .select("id")
    .where("organization_id", "=", orgId)
    .where("name", "=", form.name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Creates a plan (or the free plan) through the form; returns its id. */
async function createdPlan(userId: number, orgId: number, form: Record<string, string>, free = false) {
  const res = await as(userId, orgId).post(
    newPlan.action,
    free ? "service_plans/new/free" : "service_plans/new",
    form,
    free ? { free: "free" } : {},
  );
  expect(res.status).toBe(302);
  const row = await db
    .selectFrom("service_plans")
    .select("id")
    .where("organization_id", "=", orgId)
    .where("name", "=", form.name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const policyRow = (id: number) => db.selectFrom("bandwidth_policies").selectAll().where("id", "=", id).executeTakeFirst();
const planRow = (id: number) => db.selectFrom("service_plans").selectAll().where("id", "=", id).executeTakeFirst();

describe("bandwidth policies", () => {
  it("creates a policy with the spec's defaults (1 Mbps up and down) and lists it newest first", async () => {
    const { owner, orgId } = await world();
    const page = await as(owner.id, orgId).get(newPolicy.loader, "bandwidth_policies/new");
    expect(page.status).toBe(200);

    const res = await as(owner.id, orgId).post(newPolicy.action, "bandwidth_policies/new", {
      name: "Standard",
      description: "Lobby guests",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/bandwidth_policies`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Bandwidth policy created." });
    await createdPolicy(owner.id, orgId, {
      name: "Slow",
      max_upload: "256",
      max_upload_unit: "Kbps",
      max_download: "512",
      max_download_unit: "Kbps",
    });

    const list = await as(owner.id, orgId).get(policiesList.loader, "bandwidth_policies");
    const body: Json = await list.json();
    expect(body.total).toBe(2);
    expect(body.canCreate).toBe(true);
    expect(body.policies.map((p: Json) => p.name)).toEqual(["Slow", "Standard"]);
    expect(body.policies[1]).toMatchObject({ max_upload: "1 Mbps", max_download: "1 Mbps", description: "Lobby guests" });
    expect(body.policies[0]).toMatchObject({ max_upload: "256 Kbps", max_download: "512 Kbps", description: null });
    const standard = await db.selectFrom("bandwidth_policies").selectAll().where("name", "=", "Standard").executeTakeFirstOrThrow();
    expect(standard).toMatchObject({ max_upload: 1, max_upload_unit: "Mbps", max_upload_kbps: 1000, max_download_kbps: 1000 });

    const searched: Json = await (await as(owner.id, orgId).get(policiesList.loader, "bandwidth_policies?search=slo&per_page=5")).json();
    expect(searched.policies.map((p: Json) => p.name)).toEqual(["Slow"]);
    expect(searched.list.pageSize).toBe(5);
  });

  it("requires the name with the spec's message and checks the speeds", async () => {
    const { owner, orgId } = await world();
    const res = await as(owner.id, orgId).post(newPolicy.action, "bandwidth_policies/new", {
      name: " ",
      max_upload: "0",
      max_download_unit: "Gbps",
    });
    expect(res.status).toBe(400);
    const body: Json = await res.json();
    expect(body.error.name).toEqual([PLAN_MESSAGES.nameRequired]);
    expect(body.error.name).toEqual(["Name field is required."]);
    expect(body.error.max_upload).toEqual([PLAN_MESSAGES.bandwidth]);
    expect(body.error.max_download_unit).toBeDefined();
    expect(await db.selectFrom("bandwidth_policies").select("id").execute()).toEqual([]);
  });

  it("shows and updates a policy at bandwidth_policy/{id}/{path?}; unknown sections and ids are 404", async () => {
    const { owner, orgId } = await world();
    const id = await createdPolicy(owner.id, orgId);
    const detail = await as(owner.id, orgId).get(policyDetail.loader, `bandwidth_policy/${id}`, { policyId: String(id) });
    expect(detail.status).toBe(200);
    const body: Json = await detail.json();
    expect(body.values).toMatchObject({
      name: "Standard",
      max_upload: "1",
      max_upload_unit: "Mbps",
      max_download: "1",
      max_download_unit: "Mbps",
    });
    expect(body).toMatchObject({ canEdit: true, canDelete: true });
    expect(
      (await as(owner.id, orgId).get(policyDetail.loader, `bandwidth_policy/${id}/edit`, { policyId: String(id), path: "edit" })).status,
    ).toBe(200);
    expect(
      (await as(owner.id, orgId).get(policyDetail.loader, `bandwidth_policy/${id}/nope`, { policyId: String(id), path: "nope" })).status,
    ).toBe(404);
    for (const bad of ["abc", "0", "99999999999", String(id + 1000)]) {
      expect((await as(owner.id, orgId).get(policyDetail.loader, `bandwidth_policy/${bad}`, { policyId: bad })).status).toBe(404);
    }

    const res = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      {
        intent: "update",
        name: "Premium",
        max_upload: "5",
        max_upload_unit: "Mbps",
        max_download: "20",
        max_download_unit: "Mbps",
        description: "VIP",
      },
      { policyId: String(id) },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/bandwidth_policy/${id}`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Bandwidth policy updated." });
    expect(await policyRow(id)).toMatchObject({ name: "Premium", max_upload_kbps: 5000, max_download_kbps: 20000, description: "VIP" });

    const invalid = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      { intent: "update", name: "" },
      { policyId: String(id) },
    );
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as Json).error.name).toEqual(["Name field is required."]);
    const unknown = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      { intent: "explode" },
      { policyId: String(id) },
    );
    expect(unknown.status).toBe(400);
  });

  it("deletes after confirmation with the server's message and goes back to the list", async () => {
    const { owner, orgId } = await world();
    const id = await createdPolicy(owner.id, orgId, { name: "Old" });
    const params = { policyId: String(id) };
    const ask = await as(owner.id, orgId).post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "delete" }, params);
    expect(ask.status).toBe(200);
    expect(((await ask.json()) as Json).confirm).toMatchObject({
      intent: "delete",
      message: "Are you sure you want to delete the bandwidth policy Old?",
    });
    expect(await policyRow(id)).toBeDefined();

    const res = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      { intent: "delete", confirmed: "yes" },
      params,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/bandwidth_policies`);
    expect(await toastOf(res)).toEqual({ type: "info", message: "Bandwidth policy Old deleted." });
    expect(await policyRow(id)).toBeUndefined();
  });

  it("refuses to delete a policy that plans use, naming them, and stays on the page", async () => {
    const { owner, orgId } = await world();
    const id = await createdPolicy(owner.id, orgId, { name: "Shared" });
    await createdPlan(owner.id, orgId, { name: "Day Pass", price: "50", bandwidth_policy_id: String(id) });
    const res = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      { intent: "delete", confirmed: "yes" },
      { policyId: String(id) },
    );
    expect(res.status).toBe(409);
    const { message } = (await res.json()) as Json;
    expect(message).toBe("Bandwidth policy Shared is used by the plan Day Pass. Give it another policy first.");
    expect(message).toContain("Day Pass");
    expect(await policyRow(id)).toBeDefined();

    await createdPlan(owner.id, orgId, { name: "Week Pass", price: "300", bandwidth_policy_id: String(id) });
    const again = await as(owner.id, orgId).post(
      policyDetail.action,
      `bandwidth_policy/${id}`,
      { intent: "delete", confirmed: "yes" },
      { policyId: String(id) },
    );
    expect(((await again.json()) as Json).message).toBe(
      "Bandwidth policy Shared is used by 2 plans: Day Pass, Week Pass. Give them another policy first.",
    );
  });
});

describe("service plans", () => {
  it("creates a plan with the spec's defaults and lists it with the spec's columns", async () => {
    const { owner, orgId } = await world();
    const policy = await createdPolicy(owner.id, orgId, { name: "Standard" });
    const page: Json = await (await as(owner.id, orgId).get(newPlan.loader, "service_plans/new")).json();
    expect(page).toMatchObject({ free: false, policies: [{ id: policy, name: "Standard" }] });

    const res = await as(owner.id, orgId).post(newPlan.action, "service_plans/new", {
      name: "Hour Pass",
      code: "hour-1",
      price: "20",
      description: "One hour",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/service_plans`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Service plan created." });
    await createdPlan(owner.id, orgId, {
      name: "Data Bundle",
      bandwidth_policy_id: String(policy),
      plan_kind: "Limited",
      limit_type: "Both",
      time_limit: "2",
      time_limit_unit: "Days",
      usage_limit: "1",
      usage_limit_unit: "GBs",
      simultaneous_connections: "3",
      validity: "7",
      validity_units: "Days",
      price: "49.50",
    });

    const hour = await db.selectFrom("service_plans").selectAll().where("name", "=", "Hour Pass").executeTakeFirstOrThrow();
    // Defaults: Unlimited (no limits), 1 connection, validity 1 Hrs; the code upper-cased.
    expect(hour).toMatchObject({
      code: "HOUR-1",
      time_limit: null,
      usage_limit: null,
      simultaneous_connections: 1,
      validity: 1,
      validity_units: "Hrs",
      validity_minutes: 60,
      price_cents: 2000,
      free_internet: 0,
      bandwidth_policy_id: null,
    });

    const body: Json = await (await as(owner.id, orgId).get(plansList.loader, "service_plans")).json();
    expect(body.total).toBe(2);
    expect(body.canCreate).toBe(true);
    expect(body.plans[0]).toMatchObject({
      name: "Data Bundle",
      bandwidth_policy: "Standard",
      time_limit: "2 days",
      data_limit: "1 GB",
      validity: "7 days",
      simultaneous_connections: 3,
      price: "49.50",
      subscriptions: 0,
      free: false,
    });
    expect(body.plans[0].code).toMatch(/^[A-Z2-9]{6}$/); // generated when left empty
    expect(body.plans[1]).toMatchObject({
      name: "Hour Pass",
      code: "HOUR-1",
      bandwidth_policy: "No limit",
      time_limit: "Unlimited",
      data_limit: "Unlimited",
      validity: "1 hour",
      price: "20",
      description: "One hour",
    });

    const searched: Json = await (await as(owner.id, orgId).get(plansList.loader, "service_plans?search=hour-")).json();
    expect(searched.plans.map((p: Json) => p.name)).toEqual(["Hour Pass"]);
  });

  it("counts each plan's subscriptions in the list, whatever their status, and only that plan's", async () => {
    const { owner, orgId } = await world();
    const hour = await createdPlan(owner.id, orgId, { name: "Hour Pass", price: "20" });
    const day = await createdPlan(owner.id, orgId, { name: "Day Pass", price: "50" });
    const other = await world("Other Cafe");
    const theirs = await createdPlan(other.owner.id, other.orgId, { name: "Their Pass", price: "20" });
    const now = Date.now();
    const sold = (organization_id: number, service_plan_id: number, status: "Active" | "Cancelled" | "Exhausted") => ({
      organization_id,
      service_plan_id,
      customer_id: null,
      device_id: null,
      plan_name: "Pass",
      price_cents: 2000,
      source: "mpesa" as const,
      status,
      started_on: now,
      expires_on: now + 3_600_000,
      time_limit_minutes: null,
      usage_limit_bytes: null,
      simultaneous_connections: 1,
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto("subscriptions")
      .values([
        sold(orgId, hour, "Active"),
        sold(orgId, hour, "Cancelled"),
        sold(orgId, hour, "Exhausted"),
        sold(orgId, day, "Active"),
        sold(other.orgId, theirs, "Active"),
      ])
      .execute();

    const body: Json = await (await as(owner.id, orgId).get(plansList.loader, "service_plans")).json();
    const counts = Object.fromEntries(body.plans.map((p: Json) => [p.name, p.subscriptions]));
    expect(counts).toEqual({ "Hour Pass": 3, "Day Pass": 1 });
  });

  it("gives the spec's messages: name required, price at least Ksh 1, limits of a Limited plan", async () => {
    const { owner, orgId } = await world();
    const post = (form: Record<string, string>) => as(owner.id, orgId).post(newPlan.action, "service_plans/new", form);

    const empty = await post({ name: "" });
    expect(empty.status).toBe(400);
    const errors = ((await empty.json()) as Json).error;
    expect(errors.name).toEqual(["Name field is required."]);
    expect(errors.price).toEqual(["Service plan price can not be less than Ksh 1"]); // default price 0

    for (const price of ["0", "0.99"]) {
      const low = await post({ name: "Cheap", price });
      expect(((await low.json()) as Json).error.price).toEqual(["Service plan price can not be less than Ksh 1"]);
    }
    expect(((await (await post({ name: "Odd", price: "ten" })).json()) as Json).error.price).toEqual([PLAN_MESSAGES.price]);
    const limited: Json = await (await post({ name: "Limited", price: "10", plan_kind: "Limited", limit_type: "Both" })).json();
    expect(limited.error).toMatchObject({ time_limit: [PLAN_MESSAGES.timeLimit], usage_limit: [PLAN_MESSAGES.usageLimit] });
    expect(await db.selectFrom("service_plans").select("id").execute()).toEqual([]);

    // Limit fields are ignored for an Unlimited plan (the form says so).
    const id = await createdPlan(owner.id, orgId, {
      name: "Ignored",
      price: "1",
      plan_kind: "Unlimited",
      time_limit: "30",
      usage_limit: "500",
    });
    expect(await planRow(id)).toMatchObject({ time_limit: null, usage_limit: null, price_cents: 100 });
  });

  it("puts the service's refusals back into the form as field errors (code taken, another organisation's policy)", async () => {
    const { owner, orgId } = await world();
    const other = await world("Other");
    const foreignPolicy = await createdPolicy(other.owner.id, other.orgId, { name: "Theirs" });
    await createdPlan(owner.id, orgId, { name: "First", code: "DAY", price: "10" });

    const taken = await as(owner.id, orgId).post(newPlan.action, "service_plans/new", { name: "Second", code: "day", price: "10" });
    expect(taken.status).toBe(400);
    const takenBody: Json = await taken.json();
    expect(takenBody.error.code).toEqual([PLAN_MESSAGES.codeTaken]);
    expect(takenBody.initialValue).toMatchObject({ name: "Second", code: "day" });

    const foreign = await as(owner.id, orgId).post(newPlan.action, "service_plans/new", {
      name: "Second",
      price: "10",
      bandwidth_policy_id: String(foreignPolicy),
    });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as Json).error.bandwidth_policy_id).toEqual([PLAN_MESSAGES.unknownPolicy]);
    expect(await db.selectFrom("service_plans").select("name").where("organization_id", "=", orgId).execute()).toEqual([{ name: "First" }]);
  });

  it("shows, updates and deletes a plan at service_plan/{id}/{path?}", async () => {
    const { owner, orgId } = await world();
    const id = await createdPlan(owner.id, orgId, { name: "Day Pass", code: "DAY", price: "50" });
    await createdPlan(owner.id, orgId, { name: "Week Pass", code: "WEEK", price: "300" });
    const params = { planId: String(id) };
    const detail: Json = await (await as(owner.id, orgId).get(planDetail.loader, `service_plan/${id}`, params)).json();
    expect(detail.plan).toMatchObject({ name: "Day Pass", code: "DAY", price: "50", free: false, kind: "Unlimited" });
    expect(detail.values).toMatchObject({ name: "Day Pass", plan_kind: "Unlimited", price: "50", validity: "1", validity_units: "Hrs" });
    expect(detail).toMatchObject({ canEdit: true, canDelete: true });
    expect((await as(owner.id, orgId).get(planDetail.loader, `service_plan/${id}/x`, { ...params, path: "x" })).status).toBe(404);

    const update = (form: Record<string, string>) =>
      as(owner.id, orgId).post(planDetail.action, `service_plan/${id}`, { intent: "update", ...form }, params);
    const res = await update({
      name: "Day Pass+",
      code: "DAY",
      plan_kind: "Limited",
      limit_type: "Data",
      usage_limit: "500",
      usage_limit_unit: "MBs",
      validity: "1",
      validity_units: "Days",
      price: "60",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/service_plan/${id}`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Service plan updated." });
    expect(await planRow(id)).toMatchObject({
      name: "Day Pass+",
      time_limit: null,
      usage_limit: 500,
      usage_limit_bytes: 500 * 1024 ** 2,
      validity_minutes: 1440,
      price_cents: 6000,
    });

    const low = await update({ name: "Day Pass+", price: "0.5" });
    expect(low.status).toBe(400);
    expect(((await low.json()) as Json).error.price).toEqual(["Service plan price can not be less than Ksh 1"]);
    const taken = await update({ name: "Day Pass+", code: "week", price: "60" });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as Json).error.code).toEqual([PLAN_MESSAGES.codeTaken]);

    const ask = await as(owner.id, orgId).post(planDetail.action, `service_plan/${id}`, { intent: "delete" }, params);
    expect(((await ask.json()) as Json).confirm.message).toBe("Are you sure you want to delete the service plan Day Pass+?");
    const deleted = await as(owner.id, orgId).post(planDetail.action, `service_plan/${id}`, { intent: "delete", confirmed: "yes" }, params);
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/${orgId}/service_plans`);
    expect(await toastOf(deleted)).toEqual({ type: "info", message: "Service plan Day Pass+ deleted." });
    expect(await planRow(id)).toBeUndefined();
  });
});

describe("the free plan", () => {
  it("free_plan/free sends to creating it with the free flag when there is none, then shows it", async () => {
    const { owner, orgId } = await world();
    const missing = await as(owner.id, orgId).get(freePlan.loader, "free_plan/free", { planId: "free" });
    expect(missing.status).toBe(302);
    expect(missing.headers.get("Location")).toBe(`/${orgId}/service_plans/new/free`);

    const page: Json = await (await as(owner.id, orgId).get(newPlan.loader, "service_plans/new/free", { free: "free" })).json();
    expect(page.free).toBe(true);
    expect((await as(owner.id, orgId).get(newPlan.loader, "service_plans/new/paid", { free: "paid" })).status).toBe(404);

    // No price: a free plan without one is fine.
    const res = await as(owner.id, orgId).post(
      newPlan.action,
      "service_plans/new/free",
      {
        name: "Free 30",
        plan_kind: "Limited",
        limit_type: "Time",
        time_limit: "30",
        time_limit_unit: "Mins",
        validity: "1",
        validity_units: "Days",
        free_every: "day",
      },
      { free: "free" },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/free_plan/free`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Service plan created." });
    const row = await db.selectFrom("service_plans").selectAll().where("organization_id", "=", orgId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ free_internet: 1, price_cents: 0, time_limit_minutes: 30, free_every: "day" });

    const shown = await as(owner.id, orgId).get(freePlan.loader, "free_plan/free", { planId: "free" });
    expect(shown.status).toBe(200);
    const body: Json = await shown.json();
    expect(body.plan).toMatchObject({ name: "Free 30", free: true, price: "Free", time_limit: "30 minutes", free_every: "Once a day" });
    expect((await as(owner.id, orgId).get(freePlan.loader, `free_plan/${row.id}`, { planId: String(row.id) })).status).toBe(200);

    const list: Json = await (await as(owner.id, orgId).get(plansList.loader, "service_plans")).json();
    expect(list.plans[0]).toMatchObject({ name: "Free 30", price: "Free", free: true });

    // Editing the free plan keeps it free and priceless; its page is where the update returns.
    const updated = await as(owner.id, orgId).post(
      freePlan.action,
      "free_plan/free",
      { intent: "update", name: "Free hour", free_every: "week", price: "0" },
      { planId: "free" },
    );
    expect(updated.status).toBe(302);
    expect(updated.headers.get("Location")).toBe(`/${orgId}/free_plan/free`);
    expect(await planRow(Number(row.id))).toMatchObject({
      name: "Free hour",
      free_internet: 1,
      price_cents: 0,
      free_every: "week",
      time_limit: null,
    });
  });

  it("refuses a second free plan; its creation page sends to the existing one", async () => {
    const { owner, orgId } = await world();
    await createdPlan(owner.id, orgId, { name: "Free", free_every: "day" }, true);
    const page = await as(owner.id, orgId).get(newPlan.loader, "service_plans/new/free", { free: "free" });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/${orgId}/free_plan/free`);
    expect(await toastOf(page)).toEqual({ type: "info", message: PLAN_MESSAGES.oneFreePlan });

    const res = await as(owner.id, orgId).post(newPlan.action, "service_plans/new/free", { name: "Another free" }, { free: "free" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.name).toEqual(["This organization already has a free plan."]);
    expect(await db.selectFrom("service_plans").select("name").where("organization_id", "=", orgId).execute()).toEqual([{ name: "Free" }]);
  });

  it("free_plan/{id} is a 404 for a paid plan, anything not an id, and another organisation's free plan", async () => {
    const { owner, orgId } = await world();
    const paid = await createdPlan(owner.id, orgId, { name: "Paid", price: "10" });
    const other = await world("Other");
    const theirs = await createdPlan(other.owner.id, other.orgId, { name: "Their free" }, true);
    for (const planId of [String(paid), "abc", "-1", String(theirs)]) {
      expect((await as(owner.id, orgId).get(freePlan.loader, `free_plan/${planId}`, { planId })).status).toBe(404);
    }
    const post = await as(owner.id, orgId).post(
      freePlan.action,
      `free_plan/${paid}`,
      { intent: "delete", confirmed: "yes" },
      { planId: String(paid) },
    );
    expect(post.status).toBe(404);
    expect(await planRow(paid)).toBeDefined();
    // Deleting the free plan through its page.
    const gone = await as(other.owner.id, other.orgId).post(
      freePlan.action,
      "free_plan/free",
      { intent: "delete", confirmed: "yes" },
      { planId: "free" },
    );
    expect(gone.status).toBe(302);
    expect(await toastOf(gone)).toEqual({ type: "info", message: "Service plan Their free deleted." });
    const none = await as(other.owner.id, other.orgId).post(
      freePlan.action,
      "free_plan/free",
      { intent: "delete", confirmed: "yes" },
      { planId: "free" },
    );
    expect(none.status).toBe(404);
  });
});

describe("permissions, enforced on the server", () => {
  async function memberWith(orgId: number, permissions: Permission[]) {
    return (await makeMember(orgId, "custom", permissions)).user;
  }

  it("refuses the lists and pages without the view permissions", async () => {
    const { orgId } = await world();
    const user = await memberWith(orgId, ["view_networks"]);
    const policies = await as(user.id, orgId).get(policiesList.loader, "bandwidth_policies");
    expect(policies.status).toBe(403);
    expect(((await policies.json()) as Json).message).toBe(refusalMessage("view_bandwidth_policy"));
    const plans = await as(user.id, orgId).get(plansList.loader, "service_plans");
    expect(plans.status).toBe(403);
    expect(((await plans.json()) as Json).message).toBe(refusalMessage("view_service_plan"));
    expect((await as(user.id, orgId).get(freePlan.loader, "free_plan/free", { planId: "free" })).status).toBe(403);
  });

  it("bandwidth policies: create, edit and delete each need their own permission; the buttons hide", async () => {
    const { owner, orgId } = await world();
    const id = await createdPolicy(owner.id, orgId, { name: "Standard" });
    const params = { policyId: String(id) };
    const viewer = await memberWith(orgId, ["view_bandwidth_policy"]);
    const v = as(viewer.id, orgId);
    expect(((await (await v.get(policiesList.loader, "bandwidth_policies")).json()) as Json).canCreate).toBe(false);
    const newPage = await v.get(newPolicy.loader, "bandwidth_policies/new");
    expect(newPage.status).toBe(403);
    expect(((await newPage.json()) as Json).message).toBe(refusalMessage("create_bandwidth_policy"));
    expect((await v.post(newPolicy.action, "bandwidth_policies/new", { name: "Sneaky" })).status).toBe(403);
    expect((await (await v.get(policyDetail.loader, `bandwidth_policy/${id}`, params)).json()) as Json).toMatchObject({
      canEdit: false,
      canDelete: false,
    });
    const update = await v.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "update", name: "Changed" }, params);
    expect(update.status).toBe(403);
    expect(((await update.json()) as Json).message).toBe(refusalMessage("edit_bandwidth_policy"));
    expect((await v.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(403);

    // create alone does not edit; edit alone does not create (the spec's swapped checks, built the intended way).
    const creator = as((await memberWith(orgId, ["view_bandwidth_policy", "create_bandwidth_policy"])).id, orgId);
    expect((await creator.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "update", name: "Changed" }, params)).status).toBe(
      403,
    );
    expect((await creator.post(newPolicy.action, "bandwidth_policies/new", { name: "Made" })).status).toBe(302);
    const editor = as((await memberWith(orgId, ["view_bandwidth_policy", "edit_bandwidth_policy"])).id, orgId);
    expect((await editor.post(newPolicy.action, "bandwidth_policies/new", { name: "Nope" })).status).toBe(403);
    expect((await editor.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "update", name: "Changed" }, params)).status).toBe(
      302,
    );
    expect((await editor.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(
      403,
    );
    expect((await policyRow(id))?.name).toBe("Changed");
    const deleter = as((await memberWith(orgId, ["view_bandwidth_policy", "delete_bandwidth_policy"])).id, orgId);
    expect((await deleter.post(policyDetail.action, `bandwidth_policy/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(
      302,
    );
    expect(await db.selectFrom("bandwidth_policies").select("name").orderBy("name").execute()).toEqual([{ name: "Made" }]);
  });

  it("service plans: create, edit and delete each need their own permission; the buttons hide", async () => {
    const { owner, orgId } = await world();
    const id = await createdPlan(owner.id, orgId, { name: "Day Pass", price: "50" });
    const params = { planId: String(id) };
    const viewer = as((await memberWith(orgId, ["view_service_plan"])).id, orgId);
    expect(((await (await viewer.get(plansList.loader, "service_plans")).json()) as Json).canCreate).toBe(false);
    const newPage = await viewer.get(newPlan.loader, "service_plans/new");
    expect(newPage.status).toBe(403);
    expect(((await newPage.json()) as Json).message).toBe(refusalMessage("create_service_plan"));
    expect((await viewer.get(newPlan.loader, "service_plans/new/free", { free: "free" })).status).toBe(403);
    expect((await viewer.post(newPlan.action, "service_plans/new", { name: "Sneaky", price: "5" })).status).toBe(403);
    expect((await viewer.post(newPlan.action, "service_plans/new/free", { name: "Sneaky free" }, { free: "free" })).status).toBe(403);
    expect((await (await viewer.get(planDetail.loader, `service_plan/${id}`, params)).json()) as Json).toMatchObject({
      canEdit: false,
      canDelete: false,
    });
    const update = await viewer.post(planDetail.action, `service_plan/${id}`, { intent: "update", name: "Changed", price: "5" }, params);
    expect(update.status).toBe(403);
    expect(((await update.json()) as Json).message).toBe(refusalMessage("edit_service_plan"));
    expect((await viewer.post(planDetail.action, `service_plan/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(403);

    const creator = as((await memberWith(orgId, ["view_service_plan", "create_service_plan"])).id, orgId);
    expect(
      (await creator.post(planDetail.action, `service_plan/${id}`, { intent: "update", name: "Changed", price: "5" }, params)).status,
    ).toBe(403);
    expect((await creator.post(newPlan.action, "service_plans/new", { name: "Made", price: "5" })).status).toBe(302);
    const editor = as((await memberWith(orgId, ["view_service_plan", "edit_service_plan"])).id, orgId);
    expect((await editor.post(newPlan.action, "service_plans/new", { name: "Nope", price: "5" })).status).toBe(403);
    expect(
      (await editor.post(planDetail.action, `service_plan/${id}`, { intent: "update", name: "Changed", price: "5" }, params)).status,
    ).toBe(302);
    expect((await editor.post(planDetail.action, `service_plan/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(403);
    const deleter = as((await memberWith(orgId, ["view_service_plan", "delete_service_plan"])).id, orgId);
    expect((await deleter.post(planDetail.action, `service_plan/${id}`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(302);
    expect(await db.selectFrom("service_plans").select("name").execute()).toEqual([{ name: "Made" }]);
  });
});

describe("tenancy", () => {
  it("another organisation's policy and plan ids are 404 on loaders and actions, and nothing changes", async () => {
    const mine = await world();
    const theirs = await world("Other");
    const policy = await createdPolicy(theirs.owner.id, theirs.orgId, { name: "Theirs" });
    const plan = await createdPlan(theirs.owner.id, theirs.orgId, { name: "Their plan", price: "10" });
    const me = as(mine.owner.id, mine.orgId);
    const p = { policyId: String(policy) };
    const s = { planId: String(plan) };

    expect((await me.get(policyDetail.loader, `bandwidth_policy/${policy}`, p)).status).toBe(404);
    expect((await me.post(policyDetail.action, `bandwidth_policy/${policy}`, { intent: "update", name: "Mine now" }, p)).status).toBe(404);
    expect((await me.post(policyDetail.action, `bandwidth_policy/${policy}`, { intent: "update", name: "" }, p)).status).toBe(404);
    expect((await me.post(policyDetail.action, `bandwidth_policy/${policy}`, { intent: "delete", confirmed: "yes" }, p)).status).toBe(404);
    expect((await me.post(policyDetail.action, `bandwidth_policy/${policy}`, { intent: "delete" }, p)).status).toBe(404);

    expect((await me.get(planDetail.loader, `service_plan/${plan}`, s)).status).toBe(404);
    expect((await me.post(planDetail.action, `service_plan/${plan}`, { intent: "update", name: "Mine now", price: "5" }, s)).status).toBe(
      404,
    );
    expect((await me.post(planDetail.action, `service_plan/${plan}`, { intent: "update", name: "" }, s)).status).toBe(404);
    expect((await me.post(planDetail.action, `service_plan/${plan}`, { intent: "delete", confirmed: "yes" }, s)).status).toBe(404);

    expect(await policyRow(policy)).toMatchObject({ name: "Theirs" });
    expect(await planRow(plan)).toMatchObject({ name: "Their plan" });
    // Their rows are not in my lists either.
    expect(((await (await me.get(policiesList.loader, "bandwidth_policies")).json()) as Json).total).toBe(0);
    expect(((await (await me.get(plansList.loader, "service_plans")).json()) as Json).total).toBe(0);
    // And another organisation's id in the URL is a 404 for me.
    const foreignOrg = await callRoute(plansList.loader, {
      userId: mine.owner.id,
      orgId: theirs.orgId,
      path: `/${theirs.orgId}/service_plans`,
    });
    expect(foreignOrg.status).toBe(404);
  });
});

describe("over HTTP (the built server, no JavaScript)", () => {
  it("renders every screen on the server with its fields and buttons", async () => {
    const server = await startBuiltServer();
    try {
      const { owner, orgId } = await world();
      const policy = await createdPolicy(owner.id, orgId, { name: "Standard" });
      const plan = await createdPlan(owner.id, orgId, { name: "Day Pass", price: "50", bandwidth_policy_id: String(policy) });
      const cookie = await sessionCookie(owner.id);
      const get = (path: string) => fetch(`${server.origin}/${orgId}/${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

      // Before the free plan exists, the menu's Free plan sends to its creation form.
      const missing = await get("free_plan/free");
      expect(missing.status).toBe(302);
      expect(missing.headers.get("Location")).toBe(`/${orgId}/service_plans/new/free`);
      const freeForm = await get("service_plans/new/free");
      expect(freeForm.status).toBe(200);
      const freeHtml = await freeForm.text();
      expect(freeHtml).toContain("New free plan");
      expect(freeHtml).toContain("How often a device may take it");
      expect(freeHtml).not.toContain('name="price"');
      await createdPlan(owner.id, orgId, { name: "Free 30" }, true);

      const screens: [string, string[]][] = [
        ["bandwidth_policies", ["Bandwidth policies", "New policy", "Standard", "1 Mbps", "Records per page"]],
        [
          "bandwidth_policies/new",
          ['name="name"', 'name="max_upload"', 'name="max_upload_unit"', 'name="max_download_unit"', "Kbps", 'value="1"', "Create"],
        ],
        [`bandwidth_policy/${policy}`, ["Standard", 'name="max_download"', "Update", "Delete", 'name="intent"']],
        [`bandwidth_policy/${policy}/edit`, ["Update"]],
        [
          "service_plans",
          [
            "Plan Name",
            "Code",
            "Bandwidth Policy",
            "Time Limit",
            "Data Limit",
            "Validity",
            "Simultaneous connections",
            "Price in Kes",
            "Subscriptions",
            "Description",
            "New plan",
            "Day Pass",
            "Free",
          ],
        ],
        [
          "service_plans/new",
          [
            "New service plan",
            "No limit",
            "Standard",
            'type="radio"',
            "Unlimited",
            "Limited",
            'name="limit_type"',
            'name="time_limit_unit"',
            "Mins",
            "GBs",
            'name="price"',
            "Price in Kes",
            "ignored for them",
            "Create",
          ],
        ],
        [`service_plan/${plan}`, ["Day Pass", "Price in Kes", "Update", "Delete"]],
        ["free_plan/free", ["Free plan", "Free 30", "How often a device may take it", "Once a day", "Update", "Delete"]],
      ];
      for (const [path, texts] of screens) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        const html = await res.text();
        for (const text of texts) expect(html, `${path} shows ${text}`).toContain(text);
      }
      expect(await (await get("free_plan/free")).text()).not.toContain('name="price"');
      // A code field that is optional also without JavaScript (no native required or pattern).
      const newPlanHtml = await (await get("service_plans/new")).text();
      expect(newPlanHtml).not.toMatch(/<input[^>]*name="code"[^>]*required/);
      expect((await get("service_plans/new/other")).status).toBe(404);
      expect((await get("bandwidth_policy/999999")).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
