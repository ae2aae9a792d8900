// The group filter compiler (app/services/marketing/group-filter.server.ts) on
// SQLite and PostgreSQL: every operator on every kind of filter field, AND/OR precedence, date ranges,
// venues and access points, minimums of connections and days, values that look like SQL, LIKE
// wildcards as literal text, and other organisations' customers and venues — each written as a table
// of (filters → the customers in the group), the same answer expected from both engines.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { EMPTY_FILTERS, type GroupFilters, type ProfileRule } from "~/lib/schemas/group-filters";
import { checkedFiltersSchema, GROUP_MESSAGES } from "~/lib/schemas/groups";
import { countGroupMembers, groupMemberIds, groupMembersPage, parseStoredFilters } from "~/services/marketing/group-filter.server";
import { makeOrg } from "../fixtures";
import { insertAccessPoint, insertConnection, insertCustomer, insertVenue } from "../fixtures/records";

const TODAY = new Date(Date.UTC(2026, 10, 25, 15, 0));
const at = (day: string, hour = 12) => Date.parse(`${day}T${String(hour).padStart(2, "0")}:00:00Z`);

type Letter = "A" | "B" | "C" | "D" | "E" | "F";
interface World {
  orgId: number;
  letterOf: Map<number, string>;
  venues: { V1: number; V2: number; VX: number };
  aps: { A1: number; A2: number; A3: number; AX: number };
}

let world: World;

// A Achieng Atieno Odhiambo: 3 connections at V1/A1 (11-01 twice, 11-10): 2 days.
// B Brian Kamau, twitter @brian_k: 1 at V2/A3 (11-20).
// C cynthia Wanjiru, email c%w@example.com: V1/A2 (10-15), V2/A3 (11-24): 2 days, 2 connections.
// D no names, never connected. E Émile Dupont: a connection never authorized (counts nowhere).
// F Fiona O'Brien. X: another organisation's customer at its own venue VX.
async function build(): Promise<World> {
  const { org } = await makeOrg(`Filters ${Math.random()}`);
  const other = await makeOrg(`Other ${Math.random()}`);
  const orgId = org.id;
  const V1 = (await insertVenue(orgId, { name: "Westlands" })).id;
  const V2 = (await insertVenue(orgId, { name: "Kilimani" })).id;
  const VX = (await insertVenue(other.org.id, { name: "Elsewhere" })).id;
  const A1 = (await insertAccessPoint(orgId, V1, { name: "Lobby" })).id;
  const A2 = (await insertAccessPoint(orgId, V1, { name: "Terrace" })).id;
  const A3 = (await insertAccessPoint(orgId, V2, { name: "Bar" })).id;
  const AX = (await insertAccessPoint(other.org.id, VX, { name: "Theirs" })).id;
  const customer = (fields: Parameters<typeof insertCustomer>[1]) => insertCustomer(orgId, fields);
  const A = await customer({
    first_name: "Achieng",
    middle_name: "Atieno",
    last_name: "Odhiambo",
    phone_number: "+254712000001",
    email_address: "achieng@example.com",
    facebook: "fb.achieng",
  });
  const B = await customer({ first_name: "Brian", last_name: "Kamau", phone_number: "+254712000002", twitter: "@brian_k" });
  const C = await customer({
    first_name: "cynthia",
    last_name: "Wanjiru",
    phone_number: "+254712000003",
    email_address: "c%w@example.com",
  });
  const D = await customer({ phone_number: "+254712000004" });
  const E = await customer({ first_name: "Émile", last_name: "Dupont", phone_number: "+254712000005", email_address: "emile@example.org" });
  const F = await customer({ first_name: "Fiona", last_name: "O'Brien", phone_number: "+254712000006" });
  const X = await insertCustomer(other.org.id, { first_name: "Achieng", last_name: "Kamau", phone_number: "+254712000009" });
  const connect = (customerId: number, venueId: number, apId: number, day: string, authorized = true, org = orgId) =>
    insertConnection(org, {
      customer_id: customerId,
      venue_id: venueId,
      access_point_id: apId,
      created_at: at(day),
      authorized_at: authorized ? at(day) + 1000 : null,
    });
  await connect(A.id, V1, A1, "2026-11-01");
  await connect(A.id, V1, A1, "2026-11-01");
  await connect(A.id, V1, A1, "2026-11-10");
  await connect(B.id, V2, A3, "2026-11-20");
  await connect(C.id, V1, A2, "2026-10-15");
  await connect(C.id, V2, A3, "2026-11-24");
  await connect(E.id, V1, A1, "2026-11-05", false);
  await connect(X.id, VX, AX, "2026-11-10", true, other.org.id);
  await connect(X.id, VX, AX, "2026-11-11", true, other.org.id);
  const letterOf = new Map<number, string>(Object.entries({ A, B, C, D, E, F, X }).map(([letter, c]) => [Number(c.id), letter]));
  return { orgId, letterOf, venues: { V1, V2, VX }, aps: { A1, A2, A3, AX } };
}

beforeEach(async () => {
  world = await build();
});

async function members(filters: Partial<GroupFilters>): Promise<string[]> {
  const rows = await groupMemberIds(db, world.orgId, { ...EMPTY_FILTERS, ...filters }, TODAY).execute();
  return rows.map((r) => world.letterOf.get(Number(r.id)) ?? `?${r.id}`).sort();
}

const rule = (
  field: ProfileRule["field"],
  equation: ProfileRule["equation"],
  value = "",
  condition: ProfileRule["condition"] = "AND",
): ProfileRule => ({
  condition,
  field,
  equation,
  value,
});
const ALL: Letter[] = ["A", "B", "C", "D", "E", "F"];
const range = (startDate: string, endDate: string) => ({ byDate: "YES" as const, dateRange: { startDate, endDate } });

describe("the group filter compiler", () => {
  it("scopes by venues, access points, dates and minimums", async () => {
    const { V1, V2, VX } = world.venues;
    const { A1, A2, A3, AX } = world.aps;
    const cases: [string, Partial<GroupFilters>, string[]][] = [
      ["no filters: every customer of the organisation, also those never online", {}, ALL],
      ["one venue", { venues: [V1] }, ["A", "C"]],
      ["the other venue", { venues: [V2] }, ["B", "C"]],
      ["two venues", { venues: [V1, V2] }, ["A", "B", "C"]],
      ["one access point", { accessPoints: [A1] }, ["A"]],
      ["two access points", { accessPoints: [A2, A3] }, ["B", "C"]],
      ["venue AND access point: none at both", { venues: [V1], accessPoints: [A3] }, []],
      ["a venue's access points answer as the venue", { venues: [V1], accessPoints: [A1, A2] }, ["A", "C"]],
      ["dates, both ends included", range("2026-11-01", "2026-11-10"), ["A"]],
      ["dates up to today", range("2026-11-15", "2026-11-25"), ["B", "C"]],
      ["an end after today counts up to today", range("2026-11-20", "2026-12-31"), ["B", "C"]],
      ["byDate NO ignores the range", { byDate: "NO", dateRange: { startDate: "2026-11-01", endDate: "2026-11-01" } }, ALL],
      ["byDate YES without a range restricts nothing", { byDate: "YES", dateRange: null }, ALL],
      ["an impossible date matches nobody", range("2026-02-31", "2026-11-25"), []],
      ["a start after the end matches nobody", range("2026-11-20", "2026-11-01"), []],
      ["dates and a venue", { ...range("2026-11-15", "2026-11-25"), venues: [V1] }, []],
      ["dates and an access point", { ...range("2026-10-01", "2026-10-31"), accessPoints: [A2] }, ["C"]],
      ["at least 2 connections", { connections: 2 }, ["A", "C"]],
      ["at least 3 connections", { connections: 3 }, ["A"]],
      ["at least 1 connection: those ever online", { connections: 1 }, ["A", "B", "C"]],
      ["at least 2 days", { days: 2 }, ["A", "C"]],
      ["at least 2 days at one venue", { days: 2, venues: [V1] }, ["A"]],
      ["at least 2 days at access points", { days: 2, accessPoints: [A1, A3] }, ["A"]],
      ["at least 2 connections at access points", { connections: 2, accessPoints: [A1, A2, A3] }, ["A", "C"]],
      ["at least 2 connections in one day", { ...range("2026-11-01", "2026-11-01"), connections: 2 }, ["A"]],
      [
        "at least 2 connections in one day at an access point",
        { ...range("2026-11-01", "2026-11-01"), connections: 2, accessPoints: [A1] },
        ["A"],
      ],
      ["another organisation's venue matches nothing", { venues: [VX] }, []],
      ["another organisation's access point matches nothing", { accessPoints: [AX] }, []],
      ["a foreign venue beside an own one", { venues: [V2, VX] }, ["B", "C"]],
    ];
    for (const [name, filters, expected] of cases) expect(await members(filters), name).toEqual(expected);
  });

  it("applies every operator to every text field", async () => {
    const cases: [string, ProfileRule, string[]][] = [
      ["first name equals, any case of A–Z", rule("firstName", "eq", "ACHIENG"), ["A"]],
      ["a stored lower case name", rule("firstName", "eq", "Cynthia"), ["C"]],
      ["values are trimmed", rule("firstName", "eq", "  brian "), ["B"]],
      ["not equal includes customers without one", rule("firstName", "neq", "Brian"), ["A", "C", "D", "E", "F"]],
      ["first name empty", rule("firstName", "empty"), ["D"]],
      ["first name not empty", rule("firstName", "notEmpty"), ["A", "B", "C", "E", "F"]],
      ["first name starts with", rule("firstName", "startsWith", "fi"), ["F"]],
      ["first name ends with", rule("firstName", "endsWith", "IAN"), ["B"]],
      ["first name contains", rule("firstName", "like", "hi"), ["A", "C"]],
      ["first name does not contain", rule("firstName", "notLike", "i"), ["D"]],
      ["letters outside A–Z compare exactly", rule("firstName", "eq", "émile"), []],
      ["… and match as written", rule("firstName", "eq", "Émile"), ["E"]],
      ["middle name empty", rule("middleName", "empty"), ["B", "C", "D", "E", "F"]],
      ["middle name equals", rule("middleName", "eq", "atieno"), ["A"]],
      ["last name with a quote", rule("lastName", "eq", "o'brien"), ["F"]],
      ["last name does not contain", rule("lastName", "notLike", "a"), ["D", "E", "F"]],
      ["name: first, middle and last joined", rule("name", "eq", "Achieng Atieno Odhiambo"), ["A"]],
      ["name without a middle name", rule("name", "eq", "brian kamau"), ["B"]],
      ["name starts with", rule("name", "startsWith", "achieng a"), ["A"]],
      ["name ends with", rule("name", "endsWith", "kamau"), ["B"]],
      ["name contains a middle name", rule("name", "like", "atieno"), ["A"]],
      ["name does not contain", rule("name", "notLike", "an"), ["A", "D", "E", "F"]],
      ["name empty", rule("name", "empty"), ["D"]],
      ["name not empty", rule("name", "notEmpty"), ["A", "B", "C", "E", "F"]],
      ["name not equal", rule("name", "neq", "Fiona O'Brien"), ["A", "B", "C", "D", "E"]],
      ["a phone number typed locally", rule("phoneNumber", "eq", "0712 000 001"), ["A"]],
      ["phone number not equal", rule("phoneNumber", "neq", "+254712000002"), ["A", "C", "D", "E", "F"]],
      ["phone number starts with", rule("phoneNumber", "startsWith", "+25471200000"), ALL],
      ["phone number starts with, typed 07…", rule("phoneNumber", "startsWith", "071"), ALL],
      ["phone number starts with, typed 7…", rule("phoneNumber", "startsWith", "7120000"), ALL],
      ["phone number starts with, typed 2547…", rule("phoneNumber", "startsWith", "2547120"), ALL],
      ["phone number starts with, typed with spaces", rule("phoneNumber", "startsWith", "0712 000 00"), ALL],
      ["phone number starts with another prefix", rule("phoneNumber", "startsWith", "0713"), []],
      ["phone number equals, typed 7…", rule("phoneNumber", "eq", "712000004"), ["D"]],
      ["phone number equals, typed 2547…", rule("phoneNumber", "eq", "254712000005"), ["E"]],
      ["phone number contains, typed 07…", rule("phoneNumber", "like", "0712000003"), ["C"]],
      ["phone number does not contain, typed 07…", rule("phoneNumber", "notLike", "0712000003"), ["A", "B", "D", "E", "F"]],
      ["phone number ends with", rule("phoneNumber", "endsWith", "06"), ["F"]],
      ["phone number ends with, typed with a space", rule("phoneNumber", "endsWith", "0 06"), ["F"]],
      ["phone number contains", rule("phoneNumber", "like", "0003"), ["C"]],
      ["phone number empty", rule("phoneNumber", "empty"), []],
      ["e-mail ends with", rule("emailAddress", "endsWith", "@EXAMPLE.com"), ["A", "C"]],
      ["e-mail empty", rule("emailAddress", "empty"), ["B", "D", "F"]],
      ["e-mail not empty", rule("emailAddress", "notEmpty"), ["A", "C", "E"]],
      ["% is a literal character", rule("emailAddress", "like", "%"), ["C"]],
      ["% inside a value", rule("emailAddress", "startsWith", "c%w"), ["C"]],
      ["% does not match anything", rule("emailAddress", "like", "a%e"), []],
      ["_ is a literal character", rule("twitter", "like", "_"), ["B"]],
      ["_ does not match one character", rule("emailAddress", "like", "achieng_"), []],
      ["a backslash is literal", rule("emailAddress", "like", "\\"), []],
      ["e-mail does not contain", rule("emailAddress", "notLike", "example.com"), ["B", "D", "E", "F"]],
      ["facebook starts with", rule("facebook", "startsWith", "fb."), ["A"]],
      ["facebook not empty", rule("facebook", "notEmpty"), ["A"]],
      ["twitter equals", rule("twitter", "eq", "@Brian_K"), ["B"]],
      ["twitter not equal", rule("twitter", "neq", "@brian_k"), ["A", "C", "D", "E", "F"]],
      ["more than on text matches nobody (the form refuses it)", rule("lastName", "moreThan", "K"), []],
      ["less than on text matches nobody", rule("firstName", "lessThan", "Z"), []],
      ["SQL in a value is text", rule("lastName", "eq", "x' OR '1'='1"), []],
      ["SQL in a pattern is text", rule("firstName", "like", "'; drop table customers; --"), []],
    ];
    for (const [name, r, expected] of cases) expect(await members({ profile: [r] }), name).toEqual(expected);
    expect(
      Number(
        (
          await db
            .selectFrom("customers")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(6);
  });

  it("compares days connected and total connections as numbers", async () => {
    const cases: [string, ProfileRule, string[]][] = [
      ["days equal", rule("days", "eq", "2"), ["A", "C"]],
      ["days not equal", rule("days", "neq", "1"), ["A", "C", "D", "E", "F"]],
      ["days more than", rule("days", "moreThan", "1"), ["A", "C"]],
      ["days less than", rule("days", "lessThan", "2"), ["B", "D", "E", "F"]],
      ["days empty: never connected", rule("days", "empty"), ["D", "E", "F"]],
      ["days not empty", rule("days", "notEmpty"), ["A", "B", "C"]],
      ["connections equal", rule("connections", "eq", "3"), ["A"]],
      ["connections equal 0", rule("connections", "eq", "0"), ["D", "E", "F"]],
      ["connections not equal", rule("connections", "neq", "2"), ["A", "B", "D", "E", "F"]],
      ["connections more than", rule("connections", "moreThan", "1"), ["A", "C"]],
      ["connections less than", rule("connections", "lessThan", "3"), ["B", "C", "D", "E", "F"]],
      ["connections empty", rule("connections", "empty"), ["D", "E", "F"]],
      ["connections not empty", rule("connections", "notEmpty"), ["A", "B", "C"]],
      ["a value that is no number matches nobody", rule("connections", "eq", "abc"), []],
      ["a negative number matches nobody", rule("days", "moreThan", "-1"), []],
      ["SQL as a number matches nobody", rule("days", "eq", "1 or 1=1"), []],
      ["text operators on numbers match nobody (the form refuses them)", rule("days", "like", "1"), []],
      ["starts with on a number", rule("connections", "startsWith", "3"), []],
    ];
    for (const [name, r, expected] of cases) expect(await members({ profile: [r] }), name).toEqual(expected);
  });

  it("binds AND tighter than OR", async () => {
    const brian = rule("firstName", "eq", "Brian");
    const achieng = rule("firstName", "eq", "Achieng");
    const cynthia = rule("firstName", "eq", "Cynthia");
    const withEmail = rule("emailAddress", "notEmpty");
    const oneDay = rule("days", "eq", "1");
    const kamau = rule("lastName", "eq", "Kamau");
    const or = (r: ProfileRule): ProfileRule => ({ ...r, condition: "OR" });
    const cases: [string, ProfileRule[], string[]][] = [
      // left to right would read (Brian OR Achieng) AND e-mail = A
      ["x OR y AND z = x OR (y AND z)", [brian, or(achieng), withEmail], ["A", "B"]],
      // right to left would read e-mail AND (Cynthia OR Brian) = C
      ["x AND y OR z = (x AND y) OR z", [withEmail, cynthia, or(brian)], ["B", "C"]],
      ["a OR b AND c OR d", [rule("firstName", "eq", "Émile"), or(oneDay), kamau, or(rule("lastName", "eq", "O'Brien"))], ["B", "E", "F"]],
      ["a AND b AND c", [withEmail, rule("days", "moreThan", "1"), rule("lastName", "like", "o")], ["A"]],
      ["a OR b OR c", [brian, or(achieng), or(cynthia)], ["A", "B", "C"]],
      ["(a AND b) OR (c AND d)", [achieng, rule("days", "eq", "2"), or(brian), oneDay], ["A", "B"]],
      ["(a AND b) OR (c AND d), neither", [achieng, oneDay, or(brian), rule("days", "eq", "2")], []],
      ["the first rule's condition is ignored", [or(achieng), rule("days", "eq", "2")], ["A"]],
    ];
    for (const [name, rules, expected] of cases) expect(await members({ profile: rules }), name).toEqual(expected);
  });

  it("applies the profile rules inside the scope", async () => {
    const { V1 } = world.venues;
    const cases: [string, Partial<GroupFilters>, string[]][] = [
      ["a venue and a name", { venues: [V1], profile: [rule("firstName", "eq", "cynthia")] }, ["C"]],
      [
        "an OR of names does not leave the venue",
        { venues: [V1], profile: [rule("firstName", "eq", "Brian"), rule("firstName", "eq", "Achieng", "OR")] },
        ["A"],
      ],
      ["dates and a total", { ...range("2026-11-15", "2026-11-25"), profile: [rule("connections", "moreThan", "1")] }, ["C"]],
    ];
    for (const [name, filters, expected] of cases) expect(await members(filters), name).toEqual(expected);
  });

  it("counts and pages the members, newest first, and answers a subquery of ids", async () => {
    const filters = { ...EMPTY_FILTERS, venues: [world.venues.V1, world.venues.V2] };
    expect(await countGroupMembers(db, world.orgId, filters, TODAY)).toBe(3);
    const page = await groupMembersPage(db, world.orgId, filters, { offset: 0, pageSize: 2 }, TODAY);
    expect(page.map((r) => world.letterOf.get(Number(r.id)))).toEqual(["C", "B"]);
    const next = await groupMembersPage(db, world.orgId, filters, { offset: 2, pageSize: 2 }, TODAY);
    expect(next.map((r) => world.letterOf.get(Number(r.id)))).toEqual(["A"]);
    // As the dispatch uses it: a subquery whose only column is the customer's id.
    const viaSubquery = await db
      .selectFrom("customers")
      .select("first_name")
      .where("id", "in", groupMemberIds(db, world.orgId, filters, TODAY))
      .orderBy("first_name")
      .execute();
    expect(viaSubquery.map((r) => r.first_name)).toEqual(["Achieng", "Brian", "cynthia"]);
  });

  it("reads stored filters, and refuses what the form refuses", () => {
    expect(
      parseStoredFilters(JSON.stringify({ byDate: "YES", dateRange: { startDate: "2026-11-01", endDate: "2026-11-02" } })),
    ).toMatchObject({ byDate: "YES", venues: [], profile: [] });
    expect(parseStoredFilters("not json")).toBeNull();
    expect(parseStoredFilters(JSON.stringify({ profile: [{ field: "password", equation: "eq", value: "x" }] }))).toBeNull();
    const check = (filters: unknown) => {
      const result = checkedFiltersSchema("2026-11-25").safeParse(filters);
      return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(check({ byDate: "YES", dateRange: { startDate: "2026-11-01", endDate: "2026-11-26" } })).toEqual([
      `dateRange.endDate: ${GROUP_MESSAGES.dateAfterToday}`,
    ]);
    expect(check({ byDate: "YES", dateRange: { startDate: "2026-11-20", endDate: "2026-11-01" } })).toEqual([
      `dateRange.startDate: ${GROUP_MESSAGES.datesOrder}`,
    ]);
    expect(check({ byDate: "YES", dateRange: { startDate: "2026-02-30", endDate: "2026-11-01" } })).toEqual([
      `dateRange.startDate: ${GROUP_MESSAGES.dateFormat}`,
    ]);
    expect(check({ byDate: "YES" })).toEqual([`dateRange.startDate: ${GROUP_MESSAGES.datesRequired}`]);
    expect(check({ profile: [rule("lastName", "moreThan", "K")] })).toEqual([`profile.0.equation: ${GROUP_MESSAGES.textEquation}`]);
    expect(check({ profile: [rule("days", "like", "1")] })).toEqual([`profile.0.equation: ${GROUP_MESSAGES.numberEquation}`]);
    expect(check({ profile: [rule("days", "eq", "two")] })).toEqual([`profile.0.value: ${GROUP_MESSAGES.wholeNumber}`]);
    expect(check({ profile: [rule("name", "eq", " ")] })).toEqual([`profile.0.value: ${GROUP_MESSAGES.valueRequired}`]);
    expect(check({ profile: [rule("name", "empty")], connections: 2, venues: [1] })).toEqual([]);
  });
});

describe("dates in the organisation's days", () => {
  it("cuts a Nairobi organisation's dates at its midnight (21:00 UTC), through the visit days and through access points", async () => {
    const { org } = await makeOrg(`Nairobi filters ${Math.random()}`);
    await db
      .updateTable("organizations")
      .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * 3_600_000 })
      .where("id", "=", org.id)
      .execute();
    const venue = (await insertVenue(org.id, { name: "Westlands" })).id;
    const ap = (await insertAccessPoint(org.id, venue, { name: "Lobby" })).id;
    const late = await insertCustomer(org.id, { first_name: "Late", phone_number: "+254712000011" });
    const early = await insertCustomer(org.id, { first_name: "Early", phone_number: "+254712000012" });
    const visit = (customerId: number, created: number) =>
      insertConnection(org.id, {
        customer_id: customerId,
        venue_id: venue,
        access_point_id: ap,
        created_at: created,
        authorized_at: created + 60_000,
      });
    // 22:30 and 23:30 UTC on 1 November are 2 November in Nairobi; 20:30 UTC is still 1 November there.
    await visit(late.id, Date.UTC(2026, 10, 1, 22, 30));
    await visit(late.id, Date.UTC(2026, 10, 2, 23, 30));
    await visit(early.id, Date.UTC(2026, 10, 1, 20, 30));
    const names = async (filters: Partial<GroupFilters>) =>
      (await groupMembersPage(db, org.id, { ...EMPTY_FILTERS, ...filters }, { offset: 0, pageSize: 10 }, TODAY))
        .map((r) => r.first_name)
        .sort();
    expect(await names(range("2026-11-01", "2026-11-01"))).toEqual(["Early"]);
    expect(await names(range("2026-11-02", "2026-11-02"))).toEqual(["Late"]);
    expect(await names({ ...range("2026-11-02", "2026-11-02"), accessPoints: [ap] })).toEqual(["Late"]);
    expect(await names({ ...range("2026-11-01", "2026-11-01"), accessPoints: [ap] })).toEqual(["Early"]);
    // Late's two visits fall on 2 and 3 November in Nairobi: two days, both through the roll-up and the connections.
    expect(await countGroupMembers(db, org.id, { ...EMPTY_FILTERS, ...range("2026-11-01", "2026-11-03"), days: 2 }, TODAY)).toBe(1);
    expect(
      await countGroupMembers(db, org.id, { ...EMPTY_FILTERS, ...range("2026-11-01", "2026-11-03"), days: 2, accessPoints: [ap] }, TODAY),
    ).toBe(1);
    expect(await countGroupMembers(db, org.id, { ...EMPTY_FILTERS, ...range("2026-11-02", "2026-11-02"), venues: [venue] }, TODAY)).toBe(1);
  });
});
