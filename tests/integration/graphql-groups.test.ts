// Customer groups through the data API (docs/guide/marketing.md#customer-groups,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql), over
// HTTP against the built server on SQLite and PostgreSQL: the answer's shape (filters as JSON text,
// customersCount, createdBy), paging and search, the mutations' { code, message, recordId }, the
// permissions' refusals, other organisations' ids, and filters that are not the structure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage } from "~/lib/permissions";
import { GROUP_MESSAGES } from "~/lib/schemas/groups";
import { issueToken } from "~/services/auth.server";
import { makeMember } from "../fixtures";
import { apiOrg, firstError, gql, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { insertConnection, insertCustomer, insertVenue } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const CREATE = `mutation Create($id: ID, $name: String, $description: String) { createCustomerGroup(id: $id, name: $name, description: $description) { code message recordId success } }`;
const FILTERS = `mutation Filters($id: ID!, $filters: String!) { updateCustomerGroupFilters(id: $id, filters: $filters) { code message recordId success } }`;
const DELETE = `mutation Delete($id: ID!) { deleteCustomerGroup(id: $id) { code message recordId success } }`;

async function setup() {
  const base = await apiOrg();
  return { ...base, caller: { token: base.token, org: base.org.id } as Caller };
}

async function create(caller: Caller, name: string, description?: string): Promise<string> {
  const answer = await gqlData(server, caller, CREATE, { name, description });
  expect(answer.createCustomerGroup).toMatchObject({ code: 200, message: GROUP_MESSAGES.created, success: true });
  return answer.createCustomerGroup.recordId;
}

describe("customer groups in the data API", () => {
  it("creates, lists, counts, reads, updates and deletes groups", async () => {
    const { caller, org, owner } = await setup();
    const venue = await insertVenue(org.id, { name: "Westlands" });
    const achieng = await insertCustomer(org.id, { first_name: "Achieng" });
    await insertCustomer(org.id, { first_name: "Brian" });
    await insertConnection(org.id, {
      customer_id: achieng.id,
      venue_id: venue.id,
      created_at: Date.now() - 3_600_000,
      authorized_at: Date.now() - 3_500_000,
    });
    const first = await create(caller, "Everyone", "All guests");
    const second = await create(caller, "Westlands");

    const filters = {
      byDate: "NO",
      connections: 0,
      days: 0,
      dateRange: null,
      venues: [venue.id],
      accessPoints: [],
      profile: [{ condition: "AND", field: "firstName", equation: "startsWith", value: "ach" }],
    };
    const saved = await gqlData(server, caller, FILTERS, { id: second, filters: JSON.stringify(filters) });
    expect(saved.updateCustomerGroupFilters).toEqual({ code: 200, message: GROUP_MESSAGES.filtersSaved, recordId: second, success: true });

    const list = await gqlData(
      server,
      caller,
      `{ customerGroups(limit: 10, offset: 0, order: "created_at desc") { id name description filters customersCount createdBy { id first_name last_name } created_at } customerGroupsCount }`,
    );
    expect(list.customerGroupsCount).toBe(2);
    expect(list.customerGroups.map((g: { id: string }) => g.id)).toEqual([second, first]);
    expect(list.customerGroups[0]).toEqual({
      id: second,
      name: "Westlands",
      description: null,
      filters: JSON.stringify(filters),
      customersCount: 1,
      createdBy: { id: String(owner.id), first_name: owner.first_name, last_name: owner.last_name },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(JSON.parse(list.customerGroups[1].filters)).toEqual({
      byDate: "NO",
      connections: 0,
      days: 0,
      dateRange: null,
      venues: [],
      accessPoints: [],
      profile: [],
    });
    expect(list.customerGroups[1]).toMatchObject({ description: "All guests", customersCount: 2 });

    const searched = await gqlData(
      server,
      caller,
      `{ customerGroups(search: "west") { name } customerGroupsCount(search: "west") paged: customerGroups(limit: 1, offset: 1) { name } }`,
    );
    expect(searched).toEqual({ customerGroups: [{ name: "Westlands" }], customerGroupsCount: 1, paged: [{ name: "Everyone" }] });
    const one = await gqlData(server, caller, `{ customerGroup(id: "${first}") { id name description filters } }`);
    expect(one.customerGroup).toMatchObject({ id: first, name: "Everyone", description: "All guests" });
    expect(firstError(await gql(server, caller, `{ customerGroups(order: "name asc") { id } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: "order must be 'created_at desc'.",
    });
    expect(firstError(await gql(server, caller, `{ customerGroups(limit: 1000) { id } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: "limit must be between 1 and 250.",
    });

    const renamed = await gqlData(server, caller, CREATE, { id: first, name: "All guests", description: "" });
    expect(renamed.createCustomerGroup).toEqual({ code: 200, message: GROUP_MESSAGES.updated, recordId: first, success: true });
    expect(
      await db.selectFrom("customer_groups").select(["name", "description"]).where("id", "=", Number(first)).executeTakeFirstOrThrow(),
    ).toEqual({ name: "All guests", description: null });

    const deleted = await gqlData(server, caller, DELETE, { id: first });
    expect(deleted.deleteCustomerGroup).toEqual({ code: 200, message: GROUP_MESSAGES.deleted, recordId: first, success: true });
    expect(firstError(await gql(server, caller, `{ customerGroup(id: "${first}") { id } }`))).toEqual({
      code: "NOT_FOUND",
      message: GROUP_MESSAGES.notFound,
    });
  });

  it("refuses a missing name and filters that are not the structure, with the form's messages", async () => {
    const { caller, org } = await setup();
    for (const name of [undefined, "", "   "]) {
      const answer = await gqlData(server, caller, CREATE, { name });
      expect(answer.createCustomerGroup).toEqual({ code: 422, message: GROUP_MESSAGES.nameRequired, recordId: null, success: false });
    }
    const id = await create(caller, "Checked");
    const theirs = await insertVenue((await apiOrg()).org.id, { name: "Theirs" });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: [string, string][] = [
      ["{not json", GROUP_MESSAGES.filtersJson],
      ["null", GROUP_MESSAGES.filtersJson],
      ['"text"', GROUP_MESSAGES.filtersJson],
      [JSON.stringify({ byDate: "MAYBE" }), GROUP_MESSAGES.filtersJson],
      [JSON.stringify({ venues: ["1; drop table customers"] }), GROUP_MESSAGES.filtersJson],
      [JSON.stringify({ profile: [{ field: "password", equation: "eq", value: "x" }] }), GROUP_MESSAGES.filtersJson],
      [
        JSON.stringify({ profile: Array.from({ length: 51 }, () => ({ field: "name", equation: "notEmpty" })) }),
        GROUP_MESSAGES.filtersJson,
      ],
      [JSON.stringify({ connections: 1e12 }), GROUP_MESSAGES.filtersJson],
      [JSON.stringify({ byDate: "YES", dateRange: { startDate: "2026-01-01", endDate: tomorrow } }), GROUP_MESSAGES.dateAfterToday],
      [JSON.stringify({ byDate: "YES" }), GROUP_MESSAGES.datesRequired],
      [JSON.stringify({ profile: [{ field: "days", equation: "like", value: "1" }] }), GROUP_MESSAGES.numberEquation],
      [JSON.stringify({ profile: [{ field: "name", equation: "lessThan", value: "b" }] }), GROUP_MESSAGES.textEquation],
      [JSON.stringify({ profile: [{ field: "connections", equation: "eq", value: "x" }] }), GROUP_MESSAGES.wholeNumber],
      [JSON.stringify({ venues: [theirs.id] }), GROUP_MESSAGES.foreignVenue],
      [JSON.stringify({ accessPoints: [2147483647] }), GROUP_MESSAGES.foreignAccessPoint],
    ];
    for (const [filters, message] of cases) {
      const answer = await gqlData(server, caller, FILTERS, { id, filters });
      expect(answer.updateCustomerGroupFilters, filters).toEqual({ code: 422, message, recordId: id, success: false });
    }
    const stored = await db
      .selectFrom("customer_groups")
      .select("filters")
      .where("id", "=", Number(id))
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.filters)).toMatchObject({ venues: [], profile: [] });
    // Defaults fill what the JSON leaves out.
    const partial = await gqlData(server, caller, FILTERS, { id, filters: JSON.stringify({ days: 2 }) });
    expect(partial.updateCustomerGroupFilters.code).toBe(200);
    expect(JSON.parse((await gqlData(server, caller, `{ customerGroup(id: "${id}") { filters } }`)).customerGroup.filters)).toEqual({
      byDate: "NO",
      connections: 0,
      days: 2,
      dateRange: null,
      venues: [],
      accessPoints: [],
      profile: [],
    });
  });

  it("answers 404 for other organisations' groups and 403 without the permissions", async () => {
    const { caller, org } = await setup();
    const mine = await create(caller, "Mine");
    const other = await setup();
    const theirs = await create(other.caller, "Theirs");
    for (const id of [theirs, "abc", "0", "99999999999"]) {
      expect(firstError(await gql(server, caller, `{ customerGroup(id: "${id}") { id } }`))).toEqual({
        code: "NOT_FOUND",
        message: GROUP_MESSAGES.notFound,
      });
      expect((await gqlData(server, caller, CREATE, { id, name: "Taken" })).createCustomerGroup).toMatchObject({
        code: 404,
        success: false,
      });
      expect((await gqlData(server, caller, FILTERS, { id, filters: "{}" })).updateCustomerGroupFilters).toMatchObject({
        code: 404,
        success: false,
      });
      expect((await gqlData(server, caller, DELETE, { id })).deleteCustomerGroup).toMatchObject({ code: 404, success: false });
    }
    expect((await db.selectFrom("customer_groups").select("name").where("id", "=", Number(theirs)).executeTakeFirstOrThrow()).name).toBe(
      "Theirs",
    );

    const reader = await makeMember(org.id, "custom", ["view_groups"]);
    const readerCaller = { token: await issueToken(reader.user.id, "api"), org: org.id };
    expect((await gqlData(server, readerCaller, `{ customerGroupsCount }`)).customerGroupsCount).toBe(1);
    const noCreate = { code: 403, message: refusalMessage("create_groups"), success: false };
    expect((await gqlData(server, readerCaller, CREATE, { name: "Sneaky" })).createCustomerGroup).toMatchObject(noCreate);
    expect((await gqlData(server, readerCaller, CREATE, { id: mine, name: "Sneaky" })).createCustomerGroup).toMatchObject(noCreate);
    expect((await gqlData(server, readerCaller, FILTERS, { id: mine, filters: "{}" })).updateCustomerGroupFilters).toMatchObject(noCreate);
    expect((await gqlData(server, readerCaller, DELETE, { id: mine })).deleteCustomerGroup).toMatchObject({
      code: 403,
      message: refusalMessage("delete_groups"),
      success: false,
    });

    const outsider = await makeMember(org.id, "custom", ["view_clients"]);
    const outsiderCaller = { token: await issueToken(outsider.user.id, "api"), org: org.id };
    expect(firstError(await gql(server, outsiderCaller, `{ customerGroups { id } }`))).toEqual({
      code: "FORBIDDEN",
      message: refusalMessage("view_groups"),
    });
    expect(firstError(await gql(server, outsiderCaller, `{ customerGroup(id: "${mine}") { id } }`))).toEqual({
      code: "FORBIDDEN",
      message: refusalMessage("view_groups"),
    });
  });
});
