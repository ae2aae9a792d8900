// The customer group screens (docs/guide/marketing.md#customer-groups,
// docs/guide/access-control.md#what-each-permission-shows) through their loaders and actions, on
// SQLite and PostgreSQL: creating with the required name, the list (Customers counted, Owner, search,
// paging), the three sections, the Filters form with rules added and removed by conform's list
// intents (as a browser without JavaScript posts them), deleting after the spec's question,
// permissions and other organisations' ids.
import { INTENT, serializeIntent } from "@conform-to/dom";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage } from "~/lib/permissions";
import type { GroupFilters } from "~/lib/schemas/group-filters";
import { GROUP_MESSAGES, NEW_RULE } from "~/lib/schemas/groups";
import * as layout from "~/routes/$orgId+/_marketing+/groups+/$id";
import * as customersSection from "~/routes/$orgId+/_marketing+/groups+/$id._index";
import * as customersByName from "~/routes/$orgId+/_marketing+/groups+/$id.customers";
import * as filtersSection from "~/routes/$orgId+/_marketing+/groups+/$id.filters";
import * as settingsSection from "~/routes/$orgId+/_marketing+/groups+/$id.settings";
import * as list from "~/routes/$orgId+/_marketing+/groups+/_index";
import * as newGroup from "~/routes/$orgId+/_marketing+/groups+/new";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { insertAccessPoint, insertConnection, insertCustomer, insertVenue, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<unknown>;

function as(userId: number, orgId: number) {
  const call = async (fn: Fn, path: string, params: Record<string, string>, form?: Record<string, string | string[]>) => {
    const request = makeRequest(`/${orgId}/${path}`, { form, cookie: await sessionCookie(userId) });
    return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
  };
  return {
    get: (fn: Fn, path: string, params: Record<string, string> = {}) => call(fn, path, params),
    post: (fn: Fn, path: string, form: Record<string, string | string[]>, params: Record<string, string> = {}) =>
      call(fn, path, params, form),
  };
}

async function world() {
  const { org, owner } = await makeOrg(`Groups ${Math.random()}`, await makeUser({ first_name: "Wanjiku", last_name: "Mwangi" }));
  return { orgId: org.id, owner, me: as(owner.id, org.id) };
}

async function created(me: ReturnType<typeof as>, name: string, description = ""): Promise<number> {
  const res = await me.post(newGroup.action, "groups/new", { name, description });
  expect(res.status).toBe(302);
  return Number(/groups\/(\d+)\/filters$/.exec(res.headers.get("Location")!)![1]);
}

const storedFilters = async (id: number): Promise<GroupFilters> =>
  JSON.parse((await db.selectFrom("customer_groups").select("filters").where("id", "=", id).executeTakeFirstOrThrow()).filters);

describe("customer groups in the console", () => {
  it("creates a group with a required name and lists it with its customers, owner and description", async () => {
    const { orgId, me } = await world();
    const refused = await me.post(newGroup.action, "groups/new", { name: "  ", description: "x" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).error.name).toEqual([GROUP_MESSAGES.nameRequired]);
    const missing = await me.post(newGroup.action, "groups/new", {});
    expect(((await missing.json()) as Json).error.name).toEqual([GROUP_MESSAGES.nameRequired]);

    const res = await me.post(newGroup.action, "groups/new", { name: "Regulars", description: "Come back often" });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({ type: "success", message: GROUP_MESSAGES.created });
    const id = Number(/groups\/(\d+)\/filters$/.exec(res.headers.get("Location")!)![1]);
    await insertCustomer(orgId, { first_name: "Achieng" });
    await insertCustomer(orgId, { first_name: "Brian" });
    const page = (await (await me.get(list.loader, "groups")).json()) as Json;
    expect(page.groups).toEqual([
      {
        id,
        name: "Regulars",
        description: "Come back often",
        owner: "Wanjiku Mwangi",
        customersCount: 2,
        countedAt: expect.stringMatching(/^\d\d:\d\d$/),
      },
    ]);
    expect(page.can).toEqual({ create: true, delete: true });
    expect(await storedFilters(id)).toEqual({
      byDate: "NO",
      connections: 0,
      days: 0,
      dateRange: null,
      venues: [],
      accessPoints: [],
      profile: [],
    });
  });

  it("lists a count made in the last ten minutes without counting again; a filter change or the group's page counts anew", async () => {
    const { orgId, me } = await world();
    const id = await created(me, "Everyone");
    await insertCustomer(orgId, { first_name: "Achieng" });
    const counts = async () => ((await (await me.get(list.loader, "groups")).json()) as Json).groups.map((g: Json) => g.customersCount);
    expect(await counts()).toEqual([1]);
    await insertCustomer(orgId, { first_name: "Brian" });
    expect(await counts()).toEqual([1]); // the count of a moment ago
    // The group's own page counts live, and the list then shows that count.
    expect(((await (await me.get(customersSection.loader, `groups/${id}`, { id: String(id) })).json()) as Json).total).toBe(2);
    await insertCustomer(orgId, { first_name: "Chebet" });
    expect(await counts()).toEqual([2]);
    // Eleven minutes later the list counts again.
    await db
      .updateTable("customer_groups")
      .set({ counted_at: Date.now() - 11 * 60_000 })
      .where("id", "=", id)
      .execute();
    expect(await counts()).toEqual([3]);
    // Saving filters forgets the count.
    const saved = await me.post(
      filtersSection.action,
      `groups/${id}/filters`,
      {
        byDate: "NO",
        connections: "0",
        days: "0",
        "profile[0].condition": "AND",
        "profile[0].field": "firstName",
        "profile[0].equation": "eq",
        "profile[0].value": "Chebet",
      },
      { id: String(id) },
    );
    expect(saved.status).toBe(302);
    expect(await counts()).toEqual([1]);
  });

  it("pages and searches the list, newest first", async () => {
    const { me } = await world();
    for (const name of ["Alpha", "Beta", "Gamma 10%", "Delta"]) await created(me, name);
    const first = (await (await me.get(list.loader, "groups?per_page=5")).json()) as Json;
    expect(first.groups.map((g: Json) => g.name)).toEqual(["Delta", "Gamma 10%", "Beta", "Alpha"]);
    const paged = (await (await me.get(list.loader, "groups?per_page=5&page=1")).json()) as Json;
    expect(paged.total).toBe(4);
    const searched = (await (await me.get(list.loader, "groups?search=ta")).json()) as Json;
    expect(searched.groups.map((g: Json) => g.name)).toEqual(["Delta", "Beta"]);
    const literal = (await (await me.get(list.loader, "groups?search=10%25")).json()) as Json;
    expect(literal.groups.map((g: Json) => g.name)).toEqual(["Gamma 10%"]);
    expect(((await (await me.get(list.loader, "groups?search=%25")).json()) as Json).total).toBe(1);
  });

  it("edits the filters, adding and removing rules without JavaScript, and shows the group's customers", async () => {
    const { orgId, me } = await world();
    const id = await created(me, "Westlands regulars");
    const venue = await insertVenue(orgId, { name: "Westlands" });
    const other = await insertVenue(orgId, { name: "Kilimani" });
    const ap = await insertAccessPoint(orgId, venue.id, { name: "Lobby" });
    const achieng = await insertCustomer(orgId, { first_name: "Achieng", last_name: "Odhiambo", email_address: "achieng@example.com" });
    const brian = await insertCustomer(orgId, { first_name: "Brian", last_name: "Kamau" });
    await insertCustomer(orgId, { first_name: "Cynthia" });
    for (const c of [achieng, brian]) {
      const at = Date.now() - 86_400_000;
      await insertConnection(orgId, {
        customer_id: c.id,
        venue_id: venue.id,
        access_point_id: ap.id,
        created_at: at,
        authorized_at: at + 1000,
      });
    }
    const params = { id: String(id) };
    const page = (await (await me.get(filtersSection.loader, `groups/${id}/filters`, params)).json()) as Json;
    expect(page.choices).toEqual({
      venues: [
        { id: other.id, name: "Kilimani" },
        { id: venue.id, name: "Westlands" },
      ],
      accessPoints: [{ id: ap.id, name: "Lobby", venueId: venue.id }],
    });
    expect(page.values.profile).toEqual([]);

    // Add rule: the button posts the form with conform's insert intent; the answer is the form with one more row.
    const base = { byDate: "NO", connections: "0", days: "0", venues: [String(venue.id)] };
    const add = await me.post(
      filtersSection.action,
      `groups/${id}/filters`,
      { ...base, [INTENT]: serializeIntent({ type: "insert", payload: { name: "profile", defaultValue: NEW_RULE as never } }) },
      params,
    );
    expect(add.status).toBe(200);
    const added = (await add.json()) as Json;
    // An empty value travels as no value at all (conform).
    expect(added.initialValue.profile).toEqual([{ condition: "AND", field: "firstName", equation: "eq" }]);
    const twoRules = {
      ...base,
      "profile[0].condition": "AND",
      "profile[0].field": "firstName",
      "profile[0].equation": "eq",
      "profile[0].value": "Achieng",
      "profile[1].condition": "OR",
      "profile[1].field": "lastName",
      "profile[1].equation": "eq",
      "profile[1].value": "Kamau",
    };
    const remove = await me.post(
      filtersSection.action,
      `groups/${id}/filters`,
      { ...twoRules, [INTENT]: serializeIntent({ type: "remove", payload: { name: "profile", index: 0 } }) },
      params,
    );
    expect(((await remove.json()) as Json).initialValue.profile).toEqual([
      { condition: "OR", field: "lastName", equation: "eq", value: "Kamau" },
    ]);
    expect((await storedFilters(id)).profile).toEqual([]); // nothing saved by either

    const saved = await me.post(filtersSection.action, `groups/${id}/filters`, twoRules, params);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/${orgId}/groups/${id}`);
    expect(await toastOf(saved)).toEqual({ type: "success", message: GROUP_MESSAGES.filtersSaved });
    expect(await storedFilters(id)).toEqual({
      byDate: "NO",
      connections: 0,
      days: 0,
      dateRange: null,
      venues: [venue.id],
      accessPoints: [],
      profile: [
        { condition: "AND", field: "firstName", equation: "eq", value: "Achieng" },
        { condition: "OR", field: "lastName", equation: "eq", value: "Kamau" },
      ],
    });
    for (const section of [customersSection, customersByName]) {
      const customers = (await (await me.get(section.loader, `groups/${id}`, params)).json()) as Json;
      expect(customers.total).toBe(2);
      expect(customers.rows.map((r: Json) => r.name)).toEqual(["Brian Kamau", "Achieng Odhiambo"]);
    }
    const paged = (await (await me.get(customersSection.loader, `groups/${id}?per_page=5&page=2`, params)).json()) as Json;
    expect(paged).toMatchObject({ total: 2, rows: [] });
    const listed = (await (await me.get(list.loader, "groups")).json()) as Json;
    expect(listed.groups[0].customersCount).toBe(2);
  });

  it("refuses filters the form cannot save, with a message on the field", async () => {
    const { orgId, me } = await world();
    const id = await created(me, "Checked");
    const params = { id: String(id) };
    const foreign = await insertVenue((await makeOrg(`Other ${Math.random()}`)).org.id, { name: "Theirs" });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, string | string[]>, string, string][] = [
      [{ byDate: "YES" }, "dateRange.startDate", GROUP_MESSAGES.datesRequired],
      [
        { byDate: "YES", "dateRange.startDate": "2026-01-01", "dateRange.endDate": tomorrow },
        "dateRange.endDate",
        GROUP_MESSAGES.dateAfterToday,
      ],
      [
        { byDate: "YES", "dateRange.startDate": "2026-13-01", "dateRange.endDate": "2026-01-01" },
        "dateRange.startDate",
        GROUP_MESSAGES.dateFormat,
      ],
      [
        { byDate: "YES", "dateRange.startDate": "2026-02-01", "dateRange.endDate": "2026-01-01" },
        "dateRange.startDate",
        GROUP_MESSAGES.datesOrder,
      ],
      [{ connections: "-1" }, "connections", GROUP_MESSAGES.minimum],
      [{ days: "1.5" }, "days", GROUP_MESSAGES.minimum],
      [{ days: "99999999999" }, "days", GROUP_MESSAGES.minimum],
      [
        { "profile[0].field": "days", "profile[0].equation": "like", "profile[0].value": "1" },
        "profile[0].equation",
        GROUP_MESSAGES.numberEquation,
      ],
      [
        { "profile[0].field": "name", "profile[0].equation": "moreThan", "profile[0].value": "a" },
        "profile[0].equation",
        GROUP_MESSAGES.textEquation,
      ],
      [
        { "profile[0].field": "connections", "profile[0].equation": "eq", "profile[0].value": "many" },
        "profile[0].value",
        GROUP_MESSAGES.wholeNumber,
      ],
      [{ "profile[0].field": "name", "profile[0].equation": "like" }, "profile[0].value", GROUP_MESSAGES.valueRequired],
      [{ venues: [String(foreign.id)] }, "venues", GROUP_MESSAGES.foreignVenue],
    ];
    for (const [form, field, message] of cases) {
      const res = await me.post(filtersSection.action, `groups/${id}/filters`, form, params);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(((await res.json()) as Json).error[field], JSON.stringify(form)).toEqual([message]);
    }
    const malformed: Record<string, string | string[]>[] = [
      { "profile[0].field": "password", "profile[0].equation": "eq", "profile[0].value": "x" },
      { venues: ["abc"] },
      { byDate: "MAYBE" },
      { "profile[0].value": "a\u0000b" },
    ];
    for (const form of malformed) {
      const res = await me.post(filtersSection.action, `groups/${id}/filters`, form, params);
      expect(res.status, JSON.stringify(form)).toBe(400);
    }
    expect(await storedFilters(id)).toMatchObject({ venues: [], profile: [] });
    expect(orgId).toBeGreaterThan(0);
  });

  it("renames in Settings and deletes after the spec's question, from Settings and from the list", async () => {
    const { orgId, me } = await world();
    const id = await created(me, "Old name");
    const params = { id: String(id) };
    const renamed = await me.post(
      settingsSection.action,
      `groups/${id}/settings`,
      { intent: "save", name: "New name", description: "Now described" },
      params,
    );
    expect(renamed.status).toBe(302);
    expect(await toastOf(renamed)).toEqual({ type: "success", message: GROUP_MESSAGES.updated });
    expect(((await (await me.get(layout.loader, `groups/${id}`, params)).json()) as Json).group).toMatchObject({
      name: "New name",
      description: "Now described",
      owner: "Wanjiku Mwangi",
    });
    const blank = await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "save", name: "" }, params);
    expect(((await blank.json()) as Json).error.name).toEqual([GROUP_MESSAGES.nameRequired]);
    expect((await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "rename" }, params)).status).toBe(400);

    const asked = await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "delete", confirmed: "" }, params);
    expect(((await asked.json()) as Json).confirm.message).toBe("Are you sure you want to delete this customers group?");
    const deleted = await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "delete", confirmed: "yes" }, params);
    expect(deleted.headers.get("Location")).toBe(`/${orgId}/groups`);
    expect(await toastOf(deleted)).toEqual({ type: "success", message: GROUP_MESSAGES.deleted });
    expect((await me.get(layout.loader, `groups/${id}`, params)).status).toBe(404);

    const second = await created(me, "From the list");
    const fromList = await me.post(list.action, "groups", { intent: "delete", id: String(second), confirmed: "yes" });
    expect(fromList.status).toBe(302);
    expect(await db.selectFrom("customer_groups").select("id").where("organization_id", "=", orgId).execute()).toEqual([]);
  });

  it("answers 404 for another organisation's groups and malformed ids, and 403 without the permissions", async () => {
    const { orgId, me } = await world();
    const mine = await created(me, "Mine");
    const other = await makeOrg(`Other ${Math.random()}`);
    const theirs = await created(as(other.owner.id, other.org.id), "Theirs");
    for (const id of [String(theirs), "abc", "0", "99999999999", "1e3"]) {
      const params = { id };
      for (const route of [layout, customersSection, filtersSection, settingsSection]) {
        expect((await me.get(route.loader, `groups/${id}`, params)).status, `${id}`).toBe(404);
      }
      expect((await me.post(filtersSection.action, `groups/${id}/filters`, { byDate: "NO" }, params)).status).toBe(404);
      expect((await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "save", name: "Taken" }, params)).status).toBe(404);
      expect((await me.post(settingsSection.action, `groups/${id}/settings`, { intent: "delete", confirmed: "yes" }, params)).status).toBe(
        404,
      );
      expect((await me.post(list.action, "groups", { intent: "delete", id, confirmed: "yes" })).status).toBe(404);
    }
    expect((await db.selectFrom("customer_groups").select("name").where("id", "=", theirs).executeTakeFirstOrThrow()).name).toBe("Theirs");

    const reader = await makeMember(orgId, "custom", ["view_groups"]);
    const r = as(reader.user.id, orgId);
    const params = { id: String(mine) };
    expect(((await (await r.get(list.loader, "groups")).json()) as Json).can).toEqual({ create: false, delete: false });
    const forbidden = refusalMessage("create_groups");
    for (const res of [
      await r.get(newGroup.loader, "groups/new"),
      await r.post(newGroup.action, "groups/new", { name: "Sneaky" }),
      await r.post(settingsSection.action, `groups/${mine}/settings`, { intent: "save", name: "Sneaky" }, params),
      await r.post(filtersSection.action, `groups/${mine}/filters`, { byDate: "NO" }, params),
    ]) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as Json).message).toBe(forbidden);
    }
    for (const res of [
      await r.post(settingsSection.action, `groups/${mine}/settings`, { intent: "delete", confirmed: "yes" }, params),
      await r.post(list.action, "groups", { intent: "delete", id: String(mine), confirmed: "yes" }),
    ]) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as Json).message).toBe(refusalMessage("delete_groups"));
    }
    // Without view_clients the customers are counted, not named.
    await insertCustomer(orgId, { first_name: "Achieng" });
    expect((await (await r.get(customersSection.loader, `groups/${mine}`, params)).json()) as Json).toMatchObject({ total: 1, rows: null });

    const stranger = await makeMember(orgId, "custom", ["view_clients"]);
    expect((await as(stranger.user.id, orgId).get(list.loader, "groups")).status).toBe(403);
    expect((await as(stranger.user.id, orgId).get(customersSection.loader, `groups/${mine}`, params)).status).toBe(403);
  });

  it("gives a group whose stored filters cannot be read no customers", async () => {
    const { orgId, me } = await world();
    const id = await created(me, "Broken");
    await insertCustomer(orgId, { first_name: "Achieng" });
    await db.updateTable("customer_groups").set({ filters: "{not json" }).where("id", "=", id).execute();
    expect((await (await me.get(customersSection.loader, `groups/${id}`, { id: String(id) })).json()) as Json).toMatchObject({
      total: 0,
      rows: [],
      broken: true,
    });
    expect(((await (await me.get(filtersSection.loader, `groups/${id}/filters`, { id: String(id) })).json()) as Json).values.byDate).toBe(
      "NO",
    );
  });
});
