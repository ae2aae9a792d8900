// The console's voucher screens and the vouchers REST API (docs/guide/plans-and-prepaid.md#vouchers,
// docs/guide/api.md#vouchers) through their loaders and actions, on SQLite and PostgreSQL:
// generating and updating groups, the list, the detail, the print sheet and the CSV, permissions and
// tenancy.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage, type Permission } from "~/lib/permissions";
import { CODE_ALPHABET, MAX_CODES, VOUCHER_MESSAGES } from "~/lib/schemas/vouchers";
import * as printPage from "~/routes/$orgId_+/vouchers.$groupId.print";
import * as groupDetail from "~/routes/$orgId+/_prepaid+/vouchers+/$groupId";
import * as codesCsv from "~/routes/$orgId+/_prepaid+/vouchers+/$groupId_.codes[.csv]";
import * as vouchersList from "~/routes/$orgId+/_prepaid+/vouchers+/_index";
import * as generate from "~/routes/$orgId+/_prepaid+/vouchers+/generate";
import * as newPlan from "~/routes/$orgId+/_prepaid+/service_plans+/new.($free)";
import * as voucherApi from "~/routes/account+/api.v1.vouchers.$id";
import * as vouchersApi from "~/routes/account+/api.v1.vouchers";
import { issueToken } from "~/services/auth.server";
import { redeemVoucher } from "~/services/prepaid/vouchers.server";
import { BASE, makeMember, makeOrg, run, sessionCookie } from "../fixtures";
import { startBuiltServer } from "../fixtures/http-server";
import { callRoute, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = Parameters<typeof callRoute>[0];
type Route = { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: ActionFunctionArgs) => Promise<Response> };

const today = () => new Date().toISOString().slice(0, 10);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const CODE = new RegExp(`^[${CODE_ALPHABET}]{10}$`);
const DISPLAYED = new RegExp(`^[${CODE_ALPHABET}]{5}-[${CODE_ALPHABET}]{5}$`);

async function world(name = "Mlango Cafe") {
  const { org, owner } = await makeOrg(`${name} ${Math.random()}`);
  return { org, owner, orgId: org.id };
}

const as = (userId: number, orgId: number) => ({
  get: (fn: Fn, path: string, params: Record<string, string> = {}) => callRoute(fn, { userId, orgId, path: `/${orgId}/${path}`, params }),
  post: (fn: Fn, path: string, form: Record<string, string>, params: Record<string, string> = {}) =>
    callRoute(fn, { userId, orgId, path: `/${orgId}/${path}`, params, form }),
});

/** A plan made through its form (1 hour, 500 MBs, valid 1 day, Kes 50); returns its id. */
async function makePlan(userId: number, orgId: number, name = "Hour Pass") {
  const res = await as(userId, orgId).post(newPlan.action, "service_plans/new", {
    name,
    price: "50",
    plan_kind: "Limited",
    limit_type: "Both",
    time_limit: "1",
    time_limit_unit: "Hrs",
    usage_limit: "500",
    usage_limit_unit: "MBs",
    validity: "1",
    validity_units: "Days",
  });
  expect(res.status).toBe(302);
  const row = await db
    .selectFrom("service_plans")
    .select("id")
    .where("organization_id", "=", orgId)
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A group generated through the page; returns its id. */
async function generated(userId: number, orgId: number, planId: number, form: Record<string, string> = {}) {
  const res = await as(userId, orgId).post(generate.action, "vouchers/generate", {
    name: "Lobby Day Pass",
    face_value: "50",
    valid_till: daysFromNow(30),
    service_plan_id: String(planId),
    ...form,
  });
  expect(res.status).toBe(302);
  const id = Number(res.headers.get("Location")!.split("/").pop());
  expect(id).toBeGreaterThan(0);
  return id;
}

const groupRow = (id: number) => db.selectFrom("voucher_groups").selectAll().where("id", "=", id).executeTakeFirst();
const codesOf = (id: number) => db.selectFrom("vouchers").selectAll().where("voucher_group_id", "=", id).orderBy("id").execute();

/** Redeems a code as the connect page does (inside a transaction). */
const redeem = (orgId: number, code: string) => db.transaction().execute((trx) => redeemVoucher(trx, orgId, code, Date.now()));

// --- the REST API ------------------------------------------------------------------------------

function call(
  route: Route,
  path: string,
  options: { method?: string; token?: string; org?: number; json?: unknown; params?: Record<string, string | number> } = {},
) {
  const method = options.method ?? (options.json !== undefined ? "POST" : "GET");
  const headers = new Headers();
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.org !== undefined) headers.set("X-Organization-Id", String(options.org));
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  }
  const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method, headers, body });
  const params = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  const args = { request, params, context: {} };
  return run(() => (method === "GET" || method === "HEAD" ? route.loader(args) : route.action(args)));
}

describe("generating vouchers (vouchers/generate, create mode)", () => {
  it("opens with the defaults and the organisation's plans", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const other = await world("Other");
    await makePlan(other.owner.id, other.orgId, "Their plan");
    const page: Json = await (await as(owner.id, orgId).get(generate.loader, "vouchers/generate")).json();
    expect(page).toMatchObject({ group: null, today: today(), values: { codes_count: "10", uses_per_code: "1" } });
    expect(page.plans).toEqual([{ id: planId, name: "Hour Pass", free: false, price_cents: 5000 }]);
  });

  it("gives the spec's messages word for word, on the validity field itself", async () => {
    const { owner, orgId } = await world();
    const post = (form: Record<string, string>) => as(owner.id, orgId).post(generate.action, "vouchers/generate", form);
    const empty = await post({ name: " ", face_value: "", valid_till: "" });
    expect(empty.status).toBe(400);
    const errors = ((await empty.json()) as Json).error;
    expect(errors.name).toEqual(["Name field is required."]);
    expect(errors.face_value).toEqual(["Voucher value is required."]);
    expect(errors.valid_till).toEqual(["Voucher validity is required."]);
    expect(errors.service_plan_id).toEqual([VOUCHER_MESSAGES.plan]);

    // Only the validity missing: its message, and no other.
    const planId = await makePlan(owner.id, orgId);
    const noValidity: Json = await (await post({ name: "Lobby", face_value: "50", service_plan_id: String(planId) })).json();
    expect(noValidity.error).toEqual({ valid_till: ["Voucher validity is required."] });

    const wrong: Json = await (
      await post({
        name: "Lobby",
        face_value: "fifty",
        valid_till: "2020-01-01",
        service_plan_id: String(planId),
        codes_count: String(MAX_CODES + 1),
        uses_per_code: "0",
      })
    ).json();
    expect(wrong.error).toMatchObject({
      face_value: [VOUCHER_MESSAGES.value],
      valid_till: [VOUCHER_MESSAGES.validity],
      codes_count: [VOUCHER_MESSAGES.count],
      uses_per_code: [VOUCHER_MESSAGES.uses],
    });
    const impossible: Json = await (
      await post({ name: "Lobby", face_value: "50", valid_till: "2030-02-30", service_plan_id: String(planId) })
    ).json();
    expect(impossible.error.valid_till[0]).toBe(VOUCHER_MESSAGES.validity);
    expect(await db.selectFrom("voucher_groups").select("id").execute()).toEqual([]);
  });

  it("generates 10 single-use codes by default: 10 characters of the alphabet, unique, today still valid", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const res = await as(owner.id, orgId).post(generate.action, "vouchers/generate", {
      name: "Lobby Day Pass",
      face_value: "49.50",
      valid_till: today(),
      description: "At the till",
      service_plan_id: String(planId),
    });
    expect(res.status).toBe(302);
    const id = Number(res.headers.get("Location")!.split("/").pop());
    expect(res.headers.get("Location")).toBe(`/${orgId}/vouchers/${id}`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "10 voucher codes generated." });
    expect(await groupRow(id)).toMatchObject({
      organization_id: orgId,
      name: "Lobby Day Pass",
      face_value_cents: 4950,
      valid_till: today(),
      description: "At the till",
      service_plan_id: planId,
      codes_count: 10,
      uses_per_code: 1,
      redeemed_entries: 0,
    });
    const codes = await codesOf(id);
    expect(codes).toHaveLength(10);
    for (const c of codes) {
      expect(c.code).toMatch(CODE);
      expect(c).toMatchObject({ organization_id: orgId, uses: 0, first_redeemed_at: null });
    }
    expect(new Set(codes.map((c) => c.code)).size).toBe(10);
  });

  it("generates as many codes as asked, each usable as often as the group says, unique across groups", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const first = await generated(owner.id, orgId, planId, { codes_count: "300" });
    const second = await generated(owner.id, orgId, planId, { name: "Family", codes_count: "1", uses_per_code: "3" });
    expect((await codesOf(first)).length).toBe(300);
    expect(await groupRow(second)).toMatchObject({ codes_count: 1, uses_per_code: 3 });
    const all = await db.selectFrom("vouchers").select("code").where("organization_id", "=", orgId).execute();
    expect(all).toHaveLength(301);
    expect(new Set(all.map((c) => c.code)).size).toBe(301);
    for (const { code } of all) expect([...code].every((ch) => CODE_ALPHABET.includes(ch))).toBe(true);
    expect(CODE_ALPHABET).not.toMatch(/[01ILO]/);

    // A three-use code: three guests, then no more.
    const [{ code }] = await codesOf(second);
    for (let i = 0; i < 3; i++) expect((await redeem(orgId, code)).ok).toBe(true);
    expect(await redeem(orgId, code)).toMatchObject({ ok: false, status: 409 });
    expect(await groupRow(second)).toMatchObject({ redeemed_entries: 3 });
  });

  it("puts another organisation's plan back into the form as a field error", async () => {
    const { owner, orgId } = await world();
    const other = await world("Other");
    const theirs = await makePlan(other.owner.id, other.orgId, "Theirs");
    const res = await as(owner.id, orgId).post(generate.action, "vouchers/generate", {
      name: "Sneaky",
      face_value: "50",
      valid_till: daysFromNow(1),
      service_plan_id: String(theirs),
    });
    expect(res.status).toBe(400);
    const body: Json = await res.json();
    expect(body.error.service_plan_id).toEqual([VOUCHER_MESSAGES.plan]);
    expect(body.initialValue).toMatchObject({ name: "Sneaky" });
    expect(await db.selectFrom("voucher_groups").select("id").execute()).toEqual([]);
  });
});

describe("updating a voucher group (vouchers/generate?id=, update mode)", () => {
  it("shows the group's values and saves them; the codes stay, codes_count is ignored, a past date is allowed", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const otherPlan = await makePlan(owner.id, orgId, "Week Pass");
    const id = await generated(owner.id, orgId, planId, { face_value: "49.50", description: "Lobby" });
    const before = await codesOf(id);

    const page: Json = await (await as(owner.id, orgId).get(generate.loader, `vouchers/generate?id=${id}`)).json();
    expect(page.group).toEqual({ id, name: "Lobby Day Pass" });
    expect(page.values).toEqual({
      name: "Lobby Day Pass",
      face_value: "49.50",
      valid_till: daysFromNow(30),
      description: "Lobby",
      service_plan_id: String(planId),
      uses_per_code: "1",
    });

    const res = await as(owner.id, orgId).post(generate.action, `vouchers/generate?id=${id}`, {
      name: "Closed early",
      face_value: "100",
      valid_till: "2020-01-31",
      description: "",
      service_plan_id: String(otherPlan),
      uses_per_code: "2",
      codes_count: "500",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/vouchers/${id}`);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Voucher group updated." });
    expect(await groupRow(id)).toMatchObject({
      name: "Closed early",
      face_value_cents: 10_000,
      valid_till: "2020-01-31",
      description: null,
      service_plan_id: otherPlan,
      uses_per_code: 2,
      codes_count: 10,
    });
    expect(await codesOf(id)).toEqual(before);

    const invalid = await as(owner.id, orgId).post(generate.action, `vouchers/generate?id=${id}`, {
      name: "",
      face_value: "",
      valid_till: "",
      service_plan_id: String(planId),
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as Json).error).toEqual({
      name: ["Name field is required."],
      face_value: ["Voucher value is required."],
      valid_till: ["Voucher validity is required."],
    });
    expect(await groupRow(id)).toMatchObject({ name: "Closed early" });
  });

  it("a malformed or unknown id is a 404, never a new group", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    for (const bad of ["abc", "0", "-3", "99999999999", "424242"]) {
      expect((await as(owner.id, orgId).get(generate.loader, `vouchers/generate?id=${bad}`)).status).toBe(404);
      const post = await as(owner.id, orgId).post(generate.action, `vouchers/generate?id=${bad}`, {
        name: "X",
        face_value: "5",
        valid_till: daysFromNow(1),
        service_plan_id: String(planId),
      });
      expect(post.status).toBe(404);
    }
    expect(await db.selectFrom("voucher_groups").select("id").execute()).toEqual([]);
  });
});

describe("the list, the detail, the print sheet and the CSV", () => {
  it("lists groups newest first with the spec's columns, searched and paged", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    await generated(owner.id, orgId, planId, { name: "Old promo", face_value: "20", codes_count: "2" });
    await db
      .updateTable("voucher_groups")
      .set({ valid_till: "2020-01-01", created_at: Date.now() - 60_000 })
      .where("name", "=", "Old promo")
      .execute();
    const id = await generated(owner.id, orgId, planId, {
      name: "Lobby Day Pass",
      face_value: "1500",
      description: "At the till",
      codes_count: "3",
    });
    const [code] = await codesOf(id);
    expect((await redeem(orgId, code.code)).ok).toBe(true);

    const body: Json = await (await as(owner.id, orgId).get(vouchersList.loader, "vouchers")).json();
    expect(body).toMatchObject({ total: 2, canGenerate: true, orgId });
    expect(body.groups.map((g: Json) => g.name)).toEqual(["Lobby Day Pass", "Old promo"]);
    expect(body.groups[0]).toMatchObject({
      id,
      value: "1,500",
      valid_till: daysFromNow(30),
      expired: false,
      redeemed_entries: 1,
      description: "At the till",
      plan: "Hour Pass",
      codes_count: 3,
    });
    expect(body.groups[1]).toMatchObject({ value: "20", valid_till: "2020-01-01", expired: true, redeemed_entries: 0, description: null });

    const searched: Json = await (await as(owner.id, orgId).get(vouchersList.loader, "vouchers?search=promo&per_page=5")).json();
    expect(searched.groups.map((g: Json) => g.name)).toEqual(["Old promo"]);
    expect(searched.list.pageSize).toBe(5);
    const second: Json = await (await as(owner.id, orgId).get(vouchersList.loader, "vouchers?per_page=5&page=2")).json();
    expect(second).toMatchObject({ total: 2, groups: [] });
  });

  it("shows a group with its codes, their uses and first redemption, paged", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const id = await generated(owner.id, orgId, planId, { codes_count: "30" });
    const codes = await codesOf(id);
    expect((await redeem(orgId, codes[0].code.toLowerCase())).ok).toBe(true);

    const params = { groupId: String(id) };
    const page: Json = await (await as(owner.id, orgId).get(groupDetail.loader, `vouchers/${id}?per_page=25`, params)).json();
    expect(page.group).toMatchObject({
      id,
      name: "Lobby Day Pass",
      value: "50",
      plan: "Hour Pass",
      codes_count: 30,
      uses_per_code: 1,
      redeemed_entries: 1,
    });
    expect(page.canEdit).toBe(true);
    expect(page.codes).toHaveLength(25);
    expect(page.codes[0]).toMatchObject({ code: `${codes[0].code.slice(0, 5)}-${codes[0].code.slice(5)}`, uses: 1, used_up: true });
    expect(page.codes[0].first_redeemed_at).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    expect(page.codes[1]).toMatchObject({ uses: 0, used_up: false, first_redeemed_at: null });
    for (const c of page.codes) expect(c.code).toMatch(DISPLAYED);
    const rest: Json = await (await as(owner.id, orgId).get(groupDetail.loader, `vouchers/${id}?per_page=25&page=2`, params)).json();
    expect(rest.codes).toHaveLength(5);
    expect(rest.codes[4].code.replace("-", "")).toBe(codes[29].code);

    for (const bad of ["abc", "0", "99999999999", String(id + 1000)]) {
      expect((await as(owner.id, orgId).get(groupDetail.loader, `vouchers/${bad}`, { groupId: bad })).status).toBe(404);
    }
  });

  it("prints the codes with the organisation, the plan and what it gives, leaving used-up codes out", async () => {
    const { org, owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const id = await generated(owner.id, orgId, planId, { codes_count: "4", face_value: "50" });
    const codes = await codesOf(id);
    expect((await redeem(orgId, codes[3].code)).ok).toBe(true);
    const page: Json = await (await as(owner.id, orgId).get(printPage.loader, `vouchers/${id}/print`, { groupId: String(id) })).json();
    expect(page).toMatchObject({
      organization: org.name,
      group: { id, name: "Lobby Day Pass", value: "Kes 50", valid_till: daysFromNow(30), uses_per_code: 1 },
      plan: { name: "Hour Pass", gives: "1 hour of time · 500 MB of data · lasts 1 day" },
      usedUp: 1,
    });
    expect(page.codes).toEqual(codes.slice(0, 3).map((c) => `${c.code.slice(0, 5)}-${c.code.slice(5)}`));
    expect((await as(owner.id, orgId).get(printPage.loader, `vouchers/${id + 1000}/print`, { groupId: String(id + 1000) })).status).toBe(
      404,
    );
  });

  it("downloads the codes as CSV: UTF-8 BOM, header, one row per code, the file named after the group", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const id = await generated(owner.id, orgId, planId, { codes_count: "2500", uses_per_code: "2" });
    const codes = await codesOf(id);
    expect((await redeem(orgId, codes[1].code)).ok).toBe(true);
    expect((await redeem(orgId, codes[1].code)).ok).toBe(true);

    const res = await as(owner.id, orgId).get(codesCsv.loader, `vouchers/${id}/codes.csv`, { groupId: String(id) });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="vouchers-${id}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe("Code,Uses,First Redeemed At (UTC)");
    expect(lines).toHaveLength(2501);
    expect(lines[1]).toBe(`${codes[0].code.slice(0, 5)}-${codes[0].code.slice(5)},0,`);
    expect(lines[2]).toMatch(new RegExp(`^${codes[1].code.slice(0, 5)}-${codes[1].code.slice(5)},2,\\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2}$`));
    expect(lines[2500].split(",")[0].replace("-", "")).toBe(codes[2499].code);
    for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`^[${CODE_ALPHABET}]{5}-[${CODE_ALPHABET}]{5},[0-2],`));

    const foreign = await as(owner.id, orgId).get(codesCsv.loader, `vouchers/${id + 1000}/codes.csv`, { groupId: String(id + 1000) });
    expect(foreign.status).toBe(404);
  });
});

describe("the REST API (POST/PUT/GET /account/api/v1/vouchers)", () => {
  async function api() {
    const { org, owner, orgId } = await world("API");
    const planId = await makePlan(owner.id, orgId);
    const token = await issueToken(owner.id, "api");
    return { org, owner, orgId, planId, token };
  }

  it("POST generates a group: 201 with the message at data.data.message, the codes made", async () => {
    const { orgId, planId, token } = await api();
    const res = await call(vouchersApi, "vouchers", {
      token,
      json: {
        name: "API batch",
        face_value: 50,
        valid_till: daysFromNow(7),
        description: "Sold at the bar",
        organization_id: orgId,
        service_plan_id: planId,
        codes_count: 25,
        uses_per_code: 1,
      },
    });
    expect(res.status).toBe(201);
    const body: Json = await res.json();
    expect(body.data.data.message).toBe("25 voucher codes generated.");
    expect(body.data.message).toBe("25 voucher codes generated.");
    expect(body.data.voucher).toMatchObject({
      organization_id: orgId,
      name: "API batch",
      face_value: 50,
      valid_till: daysFromNow(7),
      redeemed_entries: 0,
      description: "Sold at the bar",
      service_plan_id: planId,
      service_plan_name: "Hour Pass",
      codes_count: 25,
      uses_per_code: 1,
    });
    expect(body.data.voucher.created_at).toMatch(/Z$/);
    const codes = await codesOf(body.data.voucher.id);
    expect(codes).toHaveLength(25);
    for (const c of codes) expect(c.code).toMatch(CODE);

    // The organisation may come in the header instead; the defaults are the form's.
    const viaHeader = await call(vouchersApi, "vouchers", {
      token,
      org: orgId,
      json: { name: "Defaults", face_value: "20", valid_till: today(), service_plan_id: planId },
    });
    expect(viaHeader.status).toBe(201);
    expect(((await viaHeader.json()) as Json).data.voucher).toMatchObject({
      codes_count: 10,
      uses_per_code: 1,
      face_value: 20,
      description: null,
    });
  });

  it("422s carry the field messages", async () => {
    const { orgId, planId, token } = await api();
    const res = await call(vouchersApi, "vouchers", { token, json: { organization_id: orgId, name: "", service_plan_id: planId } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Json).errors).toEqual({
      name: ["Name field is required."],
      face_value: ["Voucher value is required."],
      valid_till: ["Voucher validity is required."],
    });
    const bad = await call(vouchersApi, "vouchers", {
      token,
      json: { organization_id: orgId, name: "X", face_value: -5, valid_till: "yesterday", service_plan_id: 999999, codes_count: 20000 },
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as Json).errors).toMatchObject({
      face_value: [VOUCHER_MESSAGES.value],
      valid_till: [VOUCHER_MESSAGES.validity],
      codes_count: [VOUCHER_MESSAGES.count],
    });
    const unknownPlan = await call(vouchersApi, "vouchers", {
      token,
      json: { organization_id: orgId, name: "X", face_value: 5, valid_till: today(), service_plan_id: 999999 },
    });
    expect(unknownPlan.status).toBe(422);
    expect(((await unknownPlan.json()) as Json).errors).toEqual({ service_plan_id: [VOUCHER_MESSAGES.plan] });
    const noOrg = await call(vouchersApi, "vouchers", { token, json: { name: "X" } });
    expect(noOrg.status).toBe(422);
    expect(await db.selectFrom("voucher_groups").select("id").execute()).toEqual([]);
  });

  it("PUT updates a group with the same body (codes_count ignored); GET lists and shows it with its codes", async () => {
    const { orgId, planId, token } = await api();
    const created: Json = await (
      await call(vouchersApi, "vouchers", {
        token,
        json: {
          name: "Batch",
          face_value: 50,
          valid_till: daysFromNow(7),
          organization_id: orgId,
          service_plan_id: planId,
          codes_count: 3,
        },
      })
    ).json();
    const id = created.data.voucher.id as number;
    const before = await codesOf(id);

    const put = await call(voucherApi, `vouchers/${id}`, {
      method: "PUT",
      token,
      params: { id },
      json: {
        name: "Batch (renamed)",
        face_value: 75.5,
        valid_till: daysFromNow(14),
        description: "Renamed",
        organization_id: orgId,
        service_plan_id: planId,
        codes_count: 500,
        uses_per_code: 2,
      },
    });
    expect(put.status).toBe(200);
    const putBody: Json = await put.json();
    expect(putBody.data.data.message).toBe("Voucher group updated.");
    expect(putBody.data.voucher).toMatchObject({
      id,
      name: "Batch (renamed)",
      face_value: 75.5,
      valid_till: daysFromNow(14),
      description: "Renamed",
      codes_count: 3,
      uses_per_code: 2,
    });
    expect(await codesOf(id)).toEqual(before);

    const invalid = await call(voucherApi, `vouchers/${id}`, {
      method: "PUT",
      token,
      params: { id },
      json: { organization_id: orgId, name: "", face_value: "", valid_till: "", service_plan_id: planId },
    });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as Json).errors).toEqual({
      name: ["Name field is required."],
      face_value: ["Voucher value is required."],
      valid_till: ["Voucher validity is required."],
    });

    const list: Json = await (await call(vouchersApi, `vouchers?organization_id=${orgId}&search=renamed`, { token })).json();
    expect(list.data.meta).toEqual({ page: 1, per_page: 10, total: 1 });
    expect(list.data.vouchers).toHaveLength(1);
    expect(list.data.vouchers[0]).toMatchObject({ id, name: "Batch (renamed)" });
    expect(list.data.vouchers[0].codes).toBeUndefined();

    const one: Json = await (await call(voucherApi, `vouchers/${id}`, { token, org: orgId, params: { id } })).json();
    expect(one.data.voucher).toMatchObject({ id, name: "Batch (renamed)", codes_count: 3 });
    expect(one.data.voucher.codes).toEqual(
      before.map((c) => ({ code: `${c.code.slice(0, 5)}-${c.code.slice(5)}`, uses: 0, first_redeemed_at: null })),
    );
  });

  it("refuses without a token (401), without the permissions (403), and another organisation's ids (404)", async () => {
    const { orgId, planId, token } = await api();
    const body = { name: "Batch", face_value: 50, valid_till: daysFromNow(7), organization_id: orgId, service_plan_id: planId };
    expect((await call(vouchersApi, "vouchers", { json: body })).status).toBe(401);

    const viewer = await issueToken((await makeMember(orgId, "custom", ["view_vouchers"])).user.id, "api");
    const refused = await call(vouchersApi, "vouchers", { token: viewer, json: body });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).error.message).toBe(refusalMessage("edit_vouchers"));
    // Refused before the body is looked at: no 422 for an empty body either.
    expect((await call(vouchersApi, "vouchers", { token: viewer, json: { organization_id: orgId } })).status).toBe(403);
    expect((await call(vouchersApi, `vouchers?organization_id=${orgId}`, { token: viewer })).status).toBe(200);
    const stranger = await issueToken((await makeMember(orgId, "custom", ["view_networks"])).user.id, "api");
    expect((await call(vouchersApi, `vouchers?organization_id=${orgId}`, { token: stranger })).status).toBe(403);

    const created: Json = await (await call(vouchersApi, "vouchers", { token, json: body })).json();
    const id = created.data.voucher.id as number;
    expect(
      (await call(voucherApi, `vouchers/${id}`, { method: "PUT", token: viewer, params: { id }, json: { ...body, name: "Mine" } })).status,
    ).toBe(403);
    expect((await call(voucherApi, `vouchers/${id}`, { token: stranger, org: orgId, params: { id } })).status).toBe(403);

    const other = await world("Other API");
    const otherPlan = await makePlan(other.owner.id, other.orgId, "Theirs");
    const otherToken = await issueToken(other.owner.id, "api");
    const otherBody = { ...body, organization_id: other.orgId, service_plan_id: otherPlan };
    // Their id in my organisation, or my id in theirs: 404, and nothing changes.
    expect((await call(voucherApi, `vouchers/${id}`, { token: otherToken, org: other.orgId, params: { id } })).status).toBe(404);
    const put = await call(voucherApi, `vouchers/${id}`, { method: "PUT", token: otherToken, params: { id }, json: otherBody });
    expect(put.status).toBe(404);
    expect(((await put.json()) as Json).error.message).toBe("Voucher group not found.");
    expect(
      (
        await call(voucherApi, `vouchers/${id}`, {
          method: "PUT",
          token: otherToken,
          params: { id },
          json: { organization_id: other.orgId },
        })
      ).status,
    ).toBe(404);
    // My token naming their organisation: 404.
    expect((await call(vouchersApi, "vouchers", { token, json: otherBody })).status).toBe(404);
    expect((await call(voucherApi, "vouchers/abc", { token, org: orgId, params: { id: "abc" } })).status).toBe(404);
    expect(await groupRow(id)).toMatchObject({ name: "Batch", organization_id: orgId });
  });
});

describe("permissions and tenancy", () => {
  async function memberWith(orgId: number, permissions: Permission[]) {
    return (await makeMember(orgId, "custom", permissions)).user;
  }

  it("view_vouchers alone sees the list, the detail, the sheet and the CSV but cannot generate or update", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const id = await generated(owner.id, orgId, planId);
    const viewer = as((await memberWith(orgId, ["view_vouchers"])).id, orgId);
    const params = { groupId: String(id) };

    expect(((await (await viewer.get(vouchersList.loader, "vouchers")).json()) as Json).canGenerate).toBe(false);
    expect(((await (await viewer.get(groupDetail.loader, `vouchers/${id}`, params)).json()) as Json).canEdit).toBe(false);
    expect((await viewer.get(printPage.loader, `vouchers/${id}/print`, params)).status).toBe(200);
    expect((await viewer.get(codesCsv.loader, `vouchers/${id}/codes.csv`, params)).status).toBe(200);

    const page = await viewer.get(generate.loader, "vouchers/generate");
    expect(page.status).toBe(403);
    expect(((await page.json()) as Json).message).toBe(refusalMessage("edit_vouchers"));
    expect((await viewer.get(generate.loader, `vouchers/generate?id=${id}`)).status).toBe(403);
    const form = { name: "Sneaky", face_value: "50", valid_till: daysFromNow(1), service_plan_id: String(planId) };
    expect((await viewer.post(generate.action, "vouchers/generate", form)).status).toBe(403);
    expect((await viewer.post(generate.action, `vouchers/generate?id=${id}`, form)).status).toBe(403);
    expect(await db.selectFrom("voucher_groups").select("name").execute()).toEqual([{ name: "Lobby Day Pass" }]);

    // A read-only role holds every view_* permission, and so still cannot generate.
    const readOnly = as((await makeMember(orgId, "r")).user.id, orgId);
    expect((await readOnly.post(generate.action, "vouchers/generate", form)).status).toBe(403);
    // With edit_vouchers, a custom role generates.
    const seller = as((await memberWith(orgId, ["view_vouchers", "edit_vouchers"])).id, orgId);
    expect((await seller.post(generate.action, "vouchers/generate", { ...form, name: "Seller batch" })).status).toBe(302);
  });

  it("refuses everything without view_vouchers", async () => {
    const { owner, orgId } = await world();
    const planId = await makePlan(owner.id, orgId);
    const id = await generated(owner.id, orgId, planId);
    const user = as((await memberWith(orgId, ["view_networks"])).id, orgId);
    const params = { groupId: String(id) };
    const list = await user.get(vouchersList.loader, "vouchers");
    expect(list.status).toBe(403);
    expect(((await list.json()) as Json).message).toBe(refusalMessage("view_vouchers"));
    expect((await user.get(groupDetail.loader, `vouchers/${id}`, params)).status).toBe(403);
    expect((await user.get(printPage.loader, `vouchers/${id}/print`, params)).status).toBe(403);
    expect((await user.get(codesCsv.loader, `vouchers/${id}/codes.csv`, params)).status).toBe(403);
  });

  it("another organisation's group ids are 404 everywhere, and nothing changes", async () => {
    const mine = await world();
    const theirs = await world("Other");
    const theirPlan = await makePlan(theirs.owner.id, theirs.orgId, "Theirs");
    const myPlan = await makePlan(mine.owner.id, mine.orgId);
    const id = await generated(theirs.owner.id, theirs.orgId, theirPlan, { name: "Their batch" });
    const me = as(mine.owner.id, mine.orgId);
    const params = { groupId: String(id) };
    expect((await me.get(groupDetail.loader, `vouchers/${id}`, params)).status).toBe(404);
    expect((await me.get(printPage.loader, `vouchers/${id}/print`, params)).status).toBe(404);
    expect((await me.get(codesCsv.loader, `vouchers/${id}/codes.csv`, params)).status).toBe(404);
    expect((await me.get(generate.loader, `vouchers/generate?id=${id}`)).status).toBe(404);
    const post = await me.post(generate.action, `vouchers/generate?id=${id}`, {
      name: "Mine now",
      face_value: "1",
      valid_till: daysFromNow(1),
      service_plan_id: String(myPlan),
    });
    expect(post.status).toBe(404);
    expect((await me.post(generate.action, `vouchers/generate?id=${id}`, { name: "" })).status).toBe(404);
    expect(await groupRow(id)).toMatchObject({ name: "Their batch", organization_id: theirs.orgId });
    expect(((await (await me.get(vouchersList.loader, "vouchers")).json()) as Json).total).toBe(0);
    // Their codes are unknown on my connect page.
    const [code] = await codesOf(id);
    expect(await redeem(mine.orgId, code.code)).toMatchObject({ ok: false, status: 422 });
    // Their organisation's id in the URL is a 404 for me.
    const foreignOrg = await callRoute(vouchersList.loader, {
      userId: mine.owner.id,
      orgId: theirs.orgId,
      path: `/${theirs.orgId}/vouchers`,
    });
    expect(foreignOrg.status).toBe(404);
  });
});

describe("over HTTP (the built server, no JavaScript)", () => {
  it("renders the list, the form, the detail and the printable sheet on the server", async () => {
    const server = await startBuiltServer();
    try {
      const { org, owner, orgId } = await world();
      const planId = await makePlan(owner.id, orgId);
      const id = await generated(owner.id, orgId, planId, { codes_count: "12" });
      const codes = await codesOf(id);
      const cookie = await sessionCookie(owner.id);
      const get = (path: string) => fetch(`${server.origin}/${orgId}/${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

      const screens: [string, string[]][] = [
        [
          "vouchers",
          [
            "Vouchers",
            "Name",
            "Value (Kes)",
            "Expiry date",
            "Redeemed entries",
            "Description",
            "Generate Vouchers",
            "Lobby Day Pass",
            "Records per page",
          ],
        ],
        [
          "vouchers/generate",
          [
            "Generate vouchers",
            'name="name"',
            'name="face_value"',
            'type="date"',
            'name="valid_till"',
            'name="description"',
            'name="service_plan_id"',
            "Hour Pass (Kes 50)",
            'name="codes_count"',
            'value="10"',
            'name="uses_per_code"',
            "Generate",
          ],
        ],
        [`vouchers/generate?id=${id}`, ["Update Lobby Day Pass", 'value="Lobby Day Pass"', "Update"]],
        [
          `vouchers/${id}`,
          [
            "Lobby Day Pass",
            "Print codes",
            `/${orgId}/vouchers/${id}/print`,
            "Download CSV",
            `/${orgId}/vouchers/${id}/codes.csv`,
            "First redeemed at",
          ],
        ],
      ];
      for (const [path, texts] of screens) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        const html = await res.text();
        for (const text of texts) expect(html, `${path} shows ${text}`).toContain(text);
      }
      expect(await (await get(`vouchers/generate?id=${id}`)).text()).not.toContain('name="codes_count"');

      const sheet = await get(`vouchers/${id}/print`);
      expect(sheet.status).toBe(200);
      const html = await sheet.text();
      expect(html).toContain("@media print");
      expect(html).toContain(org.name.replace("&", "&amp;"));
      expect(html).toContain("Hour Pass");
      expect(html).toContain("1 hour of time · 500 MB of data · lasts 1 day");
      expect(html).toContain(`Valid till ${daysFromNow(30)}`);
      for (const c of codes) expect(html).toContain(`${c.code.slice(0, 5)}-${c.code.slice(5)}`);
      // Without JavaScript the page itself is what prints: no Print button, the browser's command instead.
      expect(html).not.toMatch(/<button[^>]*>Print<\/button>/);
      expect(html).toContain("Print command");
      // Outside the console's shell: no side menu on the sheet.
      expect(html).not.toContain('aria-label="Main"');
      expect(await (await get(`vouchers/${id}`)).text()).toContain('aria-label="Main"');

      const csv = await get(`vouchers/${id}/codes.csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="vouchers-${id}.csv"`);
      expect((await csv.text()).split("\n")).toHaveLength(14); // header, 12 codes, the final newline
    } finally {
      await server.close();
    }
  });
});
