// The subscriptions list (docs/guide/plans-and-prepaid.md#subscriptions,
// docs/guide/api.md#data-api-graphql) on SQLite and PostgreSQL: the service, the page's loader
// and the data API over HTTP. Subscriptions are inserted directly.
import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { SubscriptionsTable } from "~/db/schema";
import * as subscriptionsPage from "~/routes/$orgId+/_prepaid+/subscriptions";
import { issueToken } from "~/services/auth.server";
import { listSubscriptions } from "~/services/prepaid/subscriptions.server";
import { makeMember, makeOrg } from "../fixtures";
import { gql, gqlData } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { callRoute, contextOf, insertCustomer } from "../fixtures/records";

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 10, 20, 12, 0);
const list = (search = "", pageSize = 10, offset = 0) => ({ search, pageSize, offset });

let serial = 0;
async function insertSubscription(orgId: number, fields: Partial<Insertable<SubscriptionsTable>> = {}) {
  const created = fields.created_at ?? BASE + ++serial * 1000;
  const row = await db
    .insertInto("subscriptions")
    .values({
      organization_id: orgId,
      customer_id: null,
      device_id: null,
      service_plan_id: null,
      plan_name: "Daily free",
      price_cents: 0,
      source: "free",
      status: "Active",
      started_on: created,
      expires_on: Date.now() + 24 * HOUR,
      time_limit_minutes: null,
      usage_limit_bytes: null,
      simultaneous_connections: 1,
      used_bytes: 0,
      created_at: created,
      updated_at: created,
      ...fields,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** An organisation with two guests and four subscriptions (the newest last), one of them expired. */
async function world() {
  const { org, owner } = await makeOrg();
  const achieng = await insertCustomer(org.id, { first_name: "Achieng", last_name: "Odhiambo", phone_number: "+254712000111" });
  const baraka = await insertCustomer(org.id, { first_name: "Baraka", last_name: "Mwangi", phone_number: "+254722000222" });
  const ids = {
    expired: await insertSubscription(org.id, { customer_id: achieng.id, created_at: BASE, started_on: BASE, expires_on: BASE + HOUR }),
    exhausted: await insertSubscription(org.id, {
      customer_id: baraka.id,
      plan_name: "Weekly 300",
      price_cents: 30_000,
      source: "mpesa",
      status: "Exhausted",
      usage_limit_bytes: 1024 ** 3,
      used_bytes: 1024 ** 3,
      created_at: BASE + HOUR,
    }),
    deviceOnly: await insertSubscription(org.id, { created_at: BASE + 2 * HOUR }),
    active: await insertSubscription(org.id, {
      customer_id: achieng.id,
      plan_name: "Daily 49.50",
      price_cents: 4_950,
      source: "mpesa",
      usage_limit_bytes: 1024 ** 3,
      used_bytes: 13_002_342,
      created_at: BASE + 3 * HOUR,
    }),
  };
  return { org, owner, achieng, baraka, ids, ctx: await contextOf(owner.id, org.id) };
}

describe("listSubscriptions", () => {
  it("lists newest first with the customer, the plan as bought, usage and status, Active past its expiry reading Expired", async () => {
    const { ctx, ids, achieng, baraka } = await world();
    const page = await listSubscriptions(ctx, list());
    expect(page.rows.map((r) => r.id)).toEqual([ids.active, ids.deviceOnly, ids.exhausted, ids.expired]);
    expect(page).toMatchObject({ total: 4, capped: false });
    expect(page.rows[0]).toMatchObject({
      customer: { id: achieng.id, identity: "+254712000111", name: "Achieng Odhiambo", phone_number: "+254712000111" },
      servicePlan: { id: null, name: "Daily 49.50", price: 49.5 },
      usage: 13_002_342,
      usage_limit: 1024 ** 3,
      status: "Active",
      source: "mpesa",
    });
    expect(page.rows[1]).toMatchObject({ customer: null, status: "Active" });
    expect(page.rows[2]).toMatchObject({
      customer: { id: baraka.id, name: "Baraka Mwangi" },
      status: "Exhausted",
      servicePlan: { price: 300 },
    });
    expect(page.rows[3]).toMatchObject({ status: "Expired", started_on: BASE, expires_on: BASE + HOUR, usage_limit: null });
    // Paging keeps the order, and ties on created_at fall back to the id.
    const second = await listSubscriptions(ctx, list("", 2, 2));
    expect(second.rows.map((r) => r.id)).toEqual([ids.exhausted, ids.expired]);
    expect(second.total).toBe(4);
  });

  it("orders subscriptions created in the same millisecond by id, newest first", async () => {
    const { org, owner } = await makeOrg();
    const ctx = await contextOf(owner.id, org.id);
    const a = await insertSubscription(org.id, { created_at: BASE });
    const b = await insertSubscription(org.id, { created_at: BASE });
    expect((await listSubscriptions(ctx, list())).rows.map((r) => r.id)).toEqual([b, a]);
  });

  it("searches the guest's name, phone number and identity, and the plan's name", async () => {
    const { ctx, ids } = await world();
    const idsOf = async (term: string) => (await listSubscriptions(ctx, list(term))).rows.map((r) => r.id);
    expect(await idsOf("achieng")).toEqual([ids.active, ids.expired]);
    expect(await idsOf("Mwangi")).toEqual([ids.exhausted]);
    expect(await idsOf("0722 000 222")).toEqual([ids.exhausted]);
    expect(await idsOf("+254712000111")).toEqual([ids.active, ids.expired]);
    expect(await idsOf("weekly")).toEqual([ids.exhausted]);
    expect(await idsOf("daily")).toEqual([ids.active, ids.deviceOnly, ids.expired]);
    // A plan name and a guest together.
    expect(await idsOf("a")).toHaveLength(4);
    expect(await idsOf("nobody")).toEqual([]);
    expect(await idsOf("50%")).toEqual([]);
    const counted = await listSubscriptions(ctx, list("daily", 1));
    expect(counted).toMatchObject({ total: 3, capped: false });
  });

  it("hides guests' names and phone numbers without view_clients, and searches plan names only", async () => {
    const { org, ids, achieng } = await world();
    const member = await makeMember(org.id, "custom", ["view_subscriptions"]);
    const ctx = await contextOf(member.user.id, org.id);
    const page = await listSubscriptions(ctx, list());
    expect(page.rows[0].customer).toEqual({ id: achieng.id, identity: null, name: null, phone_number: null });
    expect(JSON.stringify(page)).not.toContain("Achieng");
    expect(JSON.stringify(page)).not.toContain("254712000111");
    expect((await listSubscriptions(ctx, list("achieng"))).rows).toEqual([]);
    expect((await listSubscriptions(ctx, list("0712000111"))).rows).toEqual([]);
    expect((await listSubscriptions(ctx, list("weekly"))).rows.map((r) => r.id)).toEqual([ids.exhausted]);
  });

  it("refuses without view_subscriptions", async () => {
    const { org } = await world();
    const member = await makeMember(org.id, "custom", ["view_clients"]);
    const ctx = await contextOf(member.user.id, org.id);
    const refused = await listSubscriptions(ctx, list()).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
  });

  it("never lists another organisation's subscriptions, nor finds them by search", async () => {
    const { ctx, ids } = await world();
    const other = await makeOrg("Other Cafe");
    const stranger = await insertCustomer(other.org.id, { first_name: "Achieng", last_name: "Stranger", phone_number: "+254733000333" });
    await insertSubscription(other.org.id, { customer_id: stranger.id, plan_name: "Weekly 300", created_at: BASE + 10 * HOUR });
    await insertSubscription(other.org.id, { plan_name: "Secret plan", created_at: BASE + 11 * HOUR });
    expect((await listSubscriptions(ctx, list())).rows.map((r) => r.id)).toEqual([ids.active, ids.deviceOnly, ids.exhausted, ids.expired]);
    expect((await listSubscriptions(ctx, list("achieng"))).rows.map((r) => r.id)).toEqual([ids.active, ids.expired]);
    expect((await listSubscriptions(ctx, list("weekly"))).rows.map((r) => r.id)).toEqual([ids.exhausted]);
    expect((await listSubscriptions(ctx, list("secret"))).rows).toEqual([]);
    expect((await listSubscriptions(ctx, list("0733000333"))).rows).toEqual([]);
  });
});

describe("the Subscriptions page", () => {
  it("answers the page with paging and search for view_subscriptions, and refuses without it", async () => {
    const { org, owner, ids } = await world();
    const res = await callRoute(subscriptionsPage.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/subscriptions?per_page=5&search=daily`,
    });
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.personalData).toBe(true);
    expect(data.list).toMatchObject({ page: 1, pageSize: 5, search: "daily" });
    expect(data.page.rows.map((r: { id: number }) => r.id)).toEqual([ids.active, ids.deviceOnly, ids.expired]);

    const viewer = await makeMember(org.id, "custom", ["view_subscriptions"]);
    const hidden = await (
      await callRoute(subscriptionsPage.loader, { userId: viewer.user.id, orgId: org.id, path: `/${org.id}/subscriptions` })
    ).json();
    expect(hidden.personalData).toBe(false);
    expect(hidden.page.rows[0].customer).toMatchObject({ name: null, phone_number: null });

    const outsider = await makeMember(org.id, "custom", ["view_clients"]);
    const refused = await callRoute(subscriptionsPage.loader, {
      userId: outsider.user.id,
      orgId: org.id,
      path: `/${org.id}/subscriptions`,
    });
    expect(refused.status).toBe(403);
  });

  it("answers an empty list for an organisation without subscriptions", async () => {
    const { org, owner } = await makeOrg();
    const res = await callRoute(subscriptionsPage.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/subscriptions?page=3` });
    expect(res.status).toBe(200);
    expect((await res.json()).page).toEqual({ rows: [], total: 0, capped: false });
    expect(subscriptionsPage.EMPTY_SUBSCRIPTIONS).toBe("No subscriptions yet. Guests get one when they take the free plan.");
  });
});

describe("subscriptions in the data API", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBuiltServer();
  });
  afterAll(() => server?.close());

  const QUERY = `query($search: String, $limit: Int, $offset: Int) {
    subscriptions(limit: $limit, offset: $offset, search: $search) {
      id customer { id identity name phone_number } servicePlan { id name price } started_on expires_on usage usage_limit status source created_at
    }
    subscriptionsCount(search: $search)
  }`;

  it("lists and counts, searches, hides personal data without view_clients, refuses without view_subscriptions", async () => {
    const { org, owner, ids, achieng } = await world();
    const caller = { token: await issueToken(owner.id, "api"), org: org.id };
    const all = await gqlData(server, caller, QUERY, {});
    expect(all.subscriptionsCount).toBe(4);
    expect(all.subscriptions.map((s: { id: string }) => s.id)).toEqual(
      [ids.active, ids.deviceOnly, ids.exhausted, ids.expired].map(String),
    );
    expect(all.subscriptions[0]).toEqual({
      id: String(ids.active),
      customer: { id: String(achieng.id), identity: "+254712000111", name: "Achieng Odhiambo", phone_number: "+254712000111" },
      servicePlan: { id: null, name: "Daily 49.50", price: 49.5 },
      started_on: new Date(BASE + 3 * HOUR).toISOString(),
      expires_on: expect.any(String),
      usage: 13_002_342,
      usage_limit: 1024 ** 3,
      status: "Active",
      source: "mpesa",
      created_at: new Date(BASE + 3 * HOUR).toISOString(),
    });
    expect(all.subscriptions[3].status).toBe("Expired");
    const searched = await gqlData(server, caller, QUERY, { search: "weekly", limit: 1, offset: 0 });
    expect(searched).toEqual({
      subscriptions: [expect.objectContaining({ id: String(ids.exhausted), status: "Exhausted" })],
      subscriptionsCount: 1,
    });

    const viewer = await makeMember(org.id, "custom", ["view_subscriptions"]);
    const hidden = await gqlData(server, { token: await issueToken(viewer.user.id, "api"), org: org.id }, QUERY, {});
    expect(hidden.subscriptions[0].customer).toEqual({ id: String(achieng.id), identity: null, name: null, phone_number: null });
    expect(
      (await gqlData(server, { token: await issueToken(viewer.user.id, "api"), org: org.id }, QUERY, { search: "achieng" }))
        .subscriptionsCount,
    ).toBe(0);

    const outsider = await makeMember(org.id, "custom", ["view_clients"]);
    const refused = await gql(server, { token: await issueToken(outsider.user.id, "api"), org: org.id }, `{ subscriptions { id } }`);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const badOrder = await gql(server, caller, `{ subscriptions(order: "created_at asc") { id } }`);
    expect(badOrder.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");

    const other = await makeOrg("Other Cafe");
    await insertSubscription(other.org.id, { plan_name: "Secret plan" });
    const otherCaller = { token: await issueToken(other.owner.id, "api"), org: other.org.id };
    const foreign = await gqlData(server, otherCaller, QUERY, {});
    expect(foreign.subscriptions.map((s: { servicePlan: { name: string } }) => s.servicePlan.name)).toEqual(["Secret plan"]);
    expect(foreign.subscriptionsCount).toBe(1);
  });
});
