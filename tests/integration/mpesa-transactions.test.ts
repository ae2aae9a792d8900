// The M-Pesa transactions list (docs/guide/plans-and-prepaid.md#m-pesa-transactions,
// docs/guide/api.md#m-pesa-transactions) on SQLite and PostgreSQL: the service, the page's loader,
// mpesa_transactions.csv, the REST call, and all of them over HTTP. Rows are inserted directly.
import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { MpesaTransactionsTable } from "~/db/schema";
import { refusalMessage } from "~/lib/permissions";
import { MPESA_TRANSACTIONS_MESSAGES, mpesaStatusText, mpesaWindow } from "~/lib/schemas/mpesa-transactions";
import * as csvRoute from "~/routes/$orgId+/_prepaid+/prepaid+/mpesa-transactions[.csv]";
import * as page from "~/routes/$orgId+/_prepaid+/prepaid+/mpesa-transactions";
import * as api from "~/routes/api.v1.getmpesatransactions";
import { issueToken } from "~/services/auth.server";
import { listMpesaTransactions } from "~/services/prepaid/mpesa-transactions.server";
import { BASE as ORIGIN, makeMember, makeOrg, run, sessionCookie } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { callRoute, contextOf } from "../fixtures/records";

type Json = Record<string, any>;

const DAY = 86_400_000;
/** 2026-11-20 12:00 UTC. */
const BASE = Date.UTC(2026, 10, 20, 12, 0);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ALL = { startMs: 0, endMs: Date.now() + DAY };

let serial = 0;
function build(orgId: number, fields: Partial<Insertable<MpesaTransactionsTable>> = {}): Insertable<MpesaTransactionsTable> {
  const n = ++serial;
  const created = fields.created_at ?? BASE + n * 1000;
  return {
    organization_id: orgId,
    source: "stk",
    status: 1,
    phone_number: `2547${String(10_000_000 + n).padStart(8, "0")}`,
    amount: 50,
    short_code: "174379",
    checkout_request_id: `ws_CO_${n}_${Math.random().toString(36).slice(2)}`,
    transaction_id: `RK${String(n).padStart(8, "0")}`,
    created_at: created,
    updated_at: created,
    ...fields,
  };
}

async function insertTransaction(orgId: number, fields: Partial<Insertable<MpesaTransactionsTable>> = {}): Promise<number> {
  const row = await db.insertInto("mpesa_transactions").values(build(orgId, fields)).returning("id").executeTakeFirstOrThrow();
  return Number(row.id);
}

/** `count` completed payments a minute apart, the oldest at `from`; their ids, oldest first. */
async function insertMany(orgId: number, count: number, from = BASE - 5 * DAY): Promise<number[]> {
  const ids: number[] = [];
  for (let done = 0; done < count; done += 200) {
    const rows = Array.from({ length: Math.min(200, count - done) }, (_, i) => build(orgId, { created_at: from + (done + i) * 60_000 }));
    const inserted = await db.insertInto("mpesa_transactions").values(rows).returning("id").execute();
    ids.push(...inserted.map((r) => Number(r.id)));
  }
  return ids;
}

/** An organisation with four payments of every kind (the newest last). */
async function world() {
  const { org, owner } = await makeOrg(`Mlango Cafe ${Math.random()}`);
  const ids = {
    completed: await insertTransaction(org.id, {
      phone_number: "254712000111",
      amount: 1500,
      short_code: "600999",
      transaction_id: "SKL7ABC123",
      created_at: BASE,
    }),
    pending: await insertTransaction(org.id, { status: 0, transaction_id: null, created_at: BASE + 1000 }),
    failed: await insertTransaction(org.id, { status: 2, transaction_id: null, created_at: BASE + 2000 }),
    c2b: await insertTransaction(org.id, {
      source: "c2b",
      checkout_request_id: null,
      transaction_id: "SKL7C2B999",
      amount: 20,
      created_at: BASE + 3000,
    }),
  };
  return { org, owner, orgId: org.id, ids, ctx: await contextOf(owner.id, org.id) };
}

const pageOf = (userId: number, orgId: number, query = "") =>
  callRoute(page.loader, { userId, orgId, path: `/${orgId}/prepaid/mpesa-transactions${query}` });
const csvOf = (userId: number, orgId: number, query = "") =>
  callRoute(csvRoute.loader, { userId, orgId, path: `/${orgId}/prepaid/mpesa-transactions.csv${query}` });

/** The REST call through the route module (the request boundary is not in the way: JSON works here). */
function callApi(options: { token?: string; json?: unknown; form?: Record<string, string>; method?: string; org?: number } = {}) {
  const headers = new Headers();
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.org !== undefined) headers.set("X-Organization-Id", String(options.org));
  let body: string | URLSearchParams | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  } else if (options.form) {
    body = new URLSearchParams(options.form);
  }
  const method = options.method ?? "POST";
  const request = new Request(new URL("/api/v1/getmpesatransactions", ORIGIN), { method, headers, body });
  const args = { request, params: {}, context: {} };
  return run(() => (method === "GET" ? api.loader(args) : api.action(args)));
}

describe("status words and the window", () => {
  it("reads status 1 as Completed and anything else as Incomplete", () => {
    expect(mpesaStatusText(1)).toBe("Completed");
    for (const s of [0, 2, 3, -1]) expect(mpesaStatusText(s)).toBe("Incomplete");
  });

  it("defaults to 1970-01-01 to today, whole UTC days, and refuses malformed or reversed dates", () => {
    const now = Date.UTC(2026, 10, 25, 14, 0);
    expect(mpesaWindow(null, "", now)).toEqual({
      ok: true,
      range: { start: "1970-01-01", end: "2026-11-25", startMs: 0, endMs: Date.UTC(2026, 10, 26), days: expect.any(Number), offsetMs: 0 },
    });
    expect(mpesaWindow("2026-11-20", "2026-11-20 23:59:59", now)).toMatchObject({
      ok: true,
      range: { startMs: Date.UTC(2026, 10, 20), endMs: Date.UTC(2026, 10, 21) },
    });
    // After today is today.
    expect(mpesaWindow("2026-11-30", null, now)).toMatchObject({ ok: true, range: { start: "2026-11-25", end: "2026-11-25" } });
    expect(mpesaWindow("2026-11-01", "2027-01-01", now)).toMatchObject({ ok: true, range: { start: "2026-11-01", end: "2026-11-25" } });
    for (const bad of ["2026-02-31", "20/11/2026", "2026-11-20x", "yesterday", "2026-11-20\u0000", "9".repeat(400)]) {
      expect(mpesaWindow(bad, null, now), bad).toEqual({ ok: false, field: "start", message: MPESA_TRANSACTIONS_MESSAGES.date });
      expect(mpesaWindow(null, bad, now), bad).toEqual({ ok: false, field: "end", message: MPESA_TRANSACTIONS_MESSAGES.date });
    }
    expect(mpesaWindow("2026-11-21", "2026-11-20", now)).toEqual({
      ok: false,
      field: "start",
      message: "Start date cannot be later than End date!",
    });
  });
});

describe("listMpesaTransactions", () => {
  it("lists newest first with the receipt, phone, amount, short code, status and time", async () => {
    const { ctx, ids } = await world();
    const list = await listMpesaTransactions(ctx, ALL, 1);
    expect(list.rows.map((r) => r.id)).toEqual([ids.c2b, ids.failed, ids.pending, ids.completed]);
    expect(list).toMatchObject({ page: 1, perPage: 50, total: 4, capped: false, lastPage: 1 });
    expect(list.rows[3]).toEqual({
      id: ids.completed,
      transaction_id: "SKL7ABC123",
      phone_number: "254712000111",
      amount: 1500,
      short_code: "600999",
      status: 1,
      created_at: BASE,
    });
    expect(list.rows.map((r) => [r.transaction_id, mpesaStatusText(r.status)])).toEqual([
      ["SKL7C2B999", "Completed"],
      [null, "Incomplete"],
      [null, "Incomplete"],
      ["SKL7ABC123", "Completed"],
    ]);
  });

  it("pages 50 at a time, ties on created_at falling back to the id", async () => {
    const { org, owner } = await makeOrg();
    const ctx = await contextOf(owner.id, org.id);
    const ids = await insertMany(org.id, 120);
    const same = [await insertTransaction(org.id, { created_at: BASE }), await insertTransaction(org.id, { created_at: BASE })];
    const newestFirst = [...same].reverse().concat([...ids].reverse());
    const pages = await Promise.all([1, 2, 3, 4].map((p) => listMpesaTransactions(ctx, ALL, p)));
    expect(pages.map((p) => p.rows.length)).toEqual([50, 50, 22, 0]);
    expect(pages.flatMap((p) => p.rows.map((r) => r.id))).toEqual(newestFirst);
    for (const p of pages) expect(p).toMatchObject({ total: 122, capped: false, lastPage: 3, perPage: 50 });
  });

  it("keeps to the window: whole UTC days, both ends included", async () => {
    const { org, owner } = await makeOrg();
    const ctx = await contextOf(owner.id, org.id);
    const midnight = Date.UTC(2026, 10, 20);
    const before = await insertTransaction(org.id, { created_at: midnight - 1 });
    const first = await insertTransaction(org.id, { created_at: midnight });
    const last = await insertTransaction(org.id, { created_at: midnight + DAY - 1 });
    const after = await insertTransaction(org.id, { created_at: midnight + DAY });
    const epoch = await insertTransaction(org.id, { created_at: 0 });
    const idsIn = async (start: string | null, end: string | null) => {
      const window = mpesaWindow(start, end);
      if (!window.ok) throw new Error(window.message);
      return (await listMpesaTransactions(ctx, window.range, 1)).rows.map((r) => r.id);
    };
    expect(await idsIn("2026-11-20", "2026-11-20")).toEqual([last, first]);
    expect(await idsIn("2026-11-19", "2026-11-20")).toEqual([last, first, before]);
    expect(await idsIn("2026-11-21", null)).toEqual([after]);
    expect(await idsIn(null, null)).toEqual([after, last, first, before, epoch]);
    expect(await idsIn("2026-11-22", "2026-11-23")).toEqual([]);
  });

  it("shows phone numbers only with view_clients, and refuses without view_subscriptions", async () => {
    const { org, ids } = await world();
    const viewer = await makeMember(org.id, "custom", ["view_subscriptions"]);
    const hidden = await listMpesaTransactions(await contextOf(viewer.user.id, org.id), ALL, 1);
    expect(hidden.rows.map((r) => r.phone_number)).toEqual([null, null, null, null]);
    expect(hidden.rows.find((r) => r.id === ids.completed)).toMatchObject({ transaction_id: "SKL7ABC123", amount: 1500 });
    expect(JSON.stringify(hidden)).not.toContain("254712000111");

    const both = await makeMember(org.id, "custom", ["view_subscriptions", "view_clients"]);
    expect((await listMpesaTransactions(await contextOf(both.user.id, org.id), ALL, 1)).rows[3].phone_number).toBe("254712000111");

    const outsider = await makeMember(org.id, "custom", ["view_clients"]);
    const refused = await listMpesaTransactions(await contextOf(outsider.user.id, org.id), ALL, 1).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
  });

  it("never lists another organisation's transactions", async () => {
    const { ctx, ids } = await world();
    const other = await makeOrg("Other Cafe");
    await insertTransaction(other.org.id, { transaction_id: "THEIRS0001", created_at: BASE + 10_000 });
    const list = await listMpesaTransactions(ctx, ALL, 1);
    expect(list.rows.map((r) => r.id)).toEqual([ids.c2b, ids.failed, ids.pending, ids.completed]);
    expect(list.total).toBe(4);
    const theirs = await listMpesaTransactions(await contextOf(other.owner.id, other.org.id), ALL, 1);
    expect(theirs.rows.map((r) => r.transaction_id)).toEqual(["THEIRS0001"]);
  });
});

describe("the M-Pesa Transactions page", () => {
  it("answers page 1 of the default range with 50 a page, and a deeper page", async () => {
    const { org, owner } = await makeOrg();
    await insertMany(org.id, 130);
    const res = await pageOf(owner.id, org.id);
    expect(res.status).toBe(200);
    const data = (await res.json()) as Json;
    expect(data.range).toMatchObject({ start: "1970-01-01", end: day(Date.now()) });
    expect(data.list).toMatchObject({ page: 1, pageSize: 50, offset: 0 });
    expect(data.page).toMatchObject({ total: 130, lastPage: 3, perPage: 50 });
    expect(data.page.rows).toHaveLength(50);
    expect(data.personalData).toBe(true);
    expect(data.error).toBeNull();

    const third = (await (await pageOf(owner.id, org.id, "?page=3&per_page=250")).json()) as Json;
    expect(third.list).toMatchObject({ page: 3, pageSize: 50, offset: 100 });
    expect(third.page.rows).toHaveLength(30);
    // Out-of-range page numbers are clamped like every list's: an empty page, not an error.
    for (const q of ["?page=99999999999", "?page=-4", "?page=abc", "?page=1e30"]) {
      const res = await pageOf(owner.id, org.id, q);
      expect(res.status, q).toBe(200);
    }
    expect(((await (await pageOf(owner.id, org.id, "?page=99999999999")).json()) as Json).page.rows).toEqual([]);
  });

  it("filters by the date range and says so when nothing is found", async () => {
    const { orgId, owner } = await world();
    const data = (await (await pageOf(owner.id, orgId, "?start=2026-11-20&end=2026-11-20")).json()) as Json;
    expect(data.page.total).toBe(4);
    const none = await pageOf(owner.id, orgId, "?start=2026-11-21&end=2026-11-22");
    expect(none.status).toBe(200);
    expect(((await none.json()) as Json).page).toMatchObject({ rows: [], total: 0 });
    expect(MPESA_TRANSACTIONS_MESSAGES.empty).toBe("No M-Pesa transactions found.");
  });

  it("answers 400 with the reason for a malformed or reversed range", async () => {
    const { orgId, owner } = await world();
    for (const [q, message] of [
      ["?start=2026-13-01", MPESA_TRANSACTIONS_MESSAGES.date],
      ["?end=not-a-date", MPESA_TRANSACTIONS_MESSAGES.date],
      ["?start=2026-11-20%00", MPESA_TRANSACTIONS_MESSAGES.date],
      ["?start=2026-11-21&end=2026-11-20", "Start date cannot be later than End date!"],
    ] as const) {
      const res = await pageOf(owner.id, orgId, q);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as Json).error, q).toBe(message);
    }
  });

  it("refuses without view_subscriptions, hides phones without view_clients, and is a 404 for another organisation", async () => {
    const { org, orgId } = await world();
    const outsider = await makeMember(orgId, "custom", ["view_clients"]);
    const refused = await pageOf(outsider.user.id, orgId);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).message).toBe(refusalMessage("view_subscriptions"));

    const viewer = await makeMember(orgId, "custom", ["view_subscriptions"]);
    const hidden = (await (await pageOf(viewer.user.id, orgId)).json()) as Json;
    expect(hidden.personalData).toBe(false);
    expect(hidden.page.rows.map((r: Json) => r.phone_number)).toEqual([null, null, null, null]);

    const stranger = await makeOrg("Stranger Cafe");
    expect((await pageOf(stranger.owner.id, org.id)).status).toBe(404);
  });
});

describe("mpesa_transactions.csv", () => {
  it("downloads the range's rows, newest first, with status words and an empty receipt while unpaid", async () => {
    const { orgId, owner } = await world();
    await insertTransaction(orgId, { transaction_id: "OLDER00001", created_at: BASE - 3 * DAY });
    const res = await csvOf(owner.id, orgId, "?start=2026-11-20&end=2026-11-20");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="mpesa_transactions.csv"');
    const lines = (await res.text()).split("\n");
    expect(lines).toEqual([
      "#,Transaction ID,Phone Number,Amount (Kes),Short Code,Status,Created At (UTC)",
      expect.stringMatching(/^1,SKL7C2B999,\+2547\d{8},20,174379,Completed,20-11-2026 12:00$/),
      expect.stringMatching(/^2,,\+2547\d{8},50,174379,Incomplete,20-11-2026 12:00$/),
      expect.stringMatching(/^3,,\+2547\d{8},50,174379,Incomplete,20-11-2026 12:00$/),
      "4,SKL7ABC123,+254712000111,1500,600999,Completed,20-11-2026 12:00",
      "",
    ]);
    const all = (await (await csvOf(owner.id, orgId)).text()).trim().split("\n");
    expect(all).toHaveLength(6);
    expect(all[5]).toContain("OLDER00001");
  });

  it("reads every row of a large range in batches, and an empty range is the header alone", async () => {
    const { org, owner } = await makeOrg();
    await insertMany(org.id, 2_345);
    const lines = (await (await csvOf(owner.id, org.id)).text()).trim().split("\n");
    expect(lines).toHaveLength(2_346);
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(Array.from({ length: 2_345 }, (_, i) => i + 1));
    expect(await (await csvOf(owner.id, org.id, "?start=2026-11-24&end=2026-11-24")).text()).toBe(
      "#,Transaction ID,Phone Number,Amount (Kes),Short Code,Status,Created At (UTC)\n",
    );
  });

  it("leaves phone numbers out without view_clients, refuses without view_subscriptions, 400 for a bad range", async () => {
    const { org, orgId } = await world();
    const viewer = await makeMember(orgId, "custom", ["view_subscriptions"]);
    const text = await (await csvOf(viewer.user.id, orgId)).text();
    expect(text).not.toContain("2547");
    expect(text).toContain("4,SKL7ABC123,,1500,600999,Completed,20-11-2026 12:00");
    const outsider = await makeMember(orgId, "custom", ["view_clients"]);
    expect((await csvOf(outsider.user.id, orgId)).status).toBe(403);
    const bad = await csvOf(viewer.user.id, orgId, "?start=2026-11-21&end=2026-11-01");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("Start date cannot be later than End date!");
    const stranger = await makeOrg("Stranger Cafe");
    expect((await csvOf(stranger.owner.id, org.id)).status).toBe(404);
  });
});

describe("POST /api/v1/getmpesatransactions", () => {
  it("answers { data: { data, current_page, last_page, per_page, count } } for the organisation and window", async () => {
    const { org, owner, ids } = await world();
    const token = await issueToken(owner.id, "api");
    const res = await callApi({ token, json: { organization_id: org.id, start_date: "2026-11-20", end_date: "2026-11-20", page: 1 } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toEqual({
      data: {
        data: [
          expect.objectContaining({ id: ids.c2b, transaction_id: "SKL7C2B999", amount: 20, status: 1 }),
          expect.objectContaining({ id: ids.failed, transaction_id: null, status: 2 }),
          expect.objectContaining({ id: ids.pending, transaction_id: null, status: 0 }),
          {
            id: ids.completed,
            transaction_id: "SKL7ABC123",
            phone_number: "254712000111",
            amount: 1500,
            short_code: "600999",
            status: 1,
            created_at: new Date(BASE).toISOString(),
          },
        ],
        current_page: 1,
        last_page: 1,
        per_page: 50,
        count: 4,
        count_capped: false,
      },
    });
    // Defaults: the whole history, page 1; the organisation may come in the header; form bodies work too.
    const defaults = (await (await callApi({ token, json: {}, org: org.id })).json()) as Json;
    expect(defaults.data).toMatchObject({ current_page: 1, count: 4 });
    const form = (await (await callApi({ token, form: { organization_id: String(org.id), start_date: "2026-11-21" } })).json()) as Json;
    expect(form.data).toMatchObject({ data: [], current_page: 1, last_page: 1, per_page: 50, count: 0 });
  });

  it("pages 50 at a time with last_page, and a page past the end is empty", async () => {
    const { org, owner } = await makeOrg();
    await insertMany(org.id, 101);
    const token = await issueToken(owner.id, "api");
    const at = async (page: number | string) =>
      ((await (await callApi({ token, json: { organization_id: org.id, page } })).json()) as Json).data;
    expect(await at(1)).toMatchObject({ current_page: 1, last_page: 3, per_page: 50, count: 101 });
    expect((await at(1)).data).toHaveLength(50);
    expect((await at("3")).data).toHaveLength(1);
    expect(await at(9)).toMatchObject({ data: [], current_page: 9, count: 101 });
  });

  it("answers 422 with the reason for malformed dates, a reversed range and bad pages", async () => {
    const { org, owner } = await world();
    const token = await issueToken(owner.id, "api");
    const cases: [Json, string, string][] = [
      [{ start_date: "2026-02-30" }, "start_date", MPESA_TRANSACTIONS_MESSAGES.date],
      [{ end_date: "tomorrow" }, "end_date", MPESA_TRANSACTIONS_MESSAGES.date],
      [{ start_date: "2026-11-20\u0000" }, "start_date", MPESA_TRANSACTIONS_MESSAGES.date],
      [{ start_date: { day: 1 } }, "start_date", "This field must be text, a number or true/false."],
      [{ start_date: "2026-11-21", end_date: "2026-11-20" }, "start_date", "Start date cannot be later than End date!"],
      [{ page: 0 }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: -1 }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: 1.5 }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: "abc" }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: 1e30 }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: "99999999999999999999" }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
      [{ page: 1_000_001 }, "page", MPESA_TRANSACTIONS_MESSAGES.page],
    ];
    for (const [fields, field, message] of cases) {
      const res = await callApi({ token, json: { organization_id: org.id, ...fields } });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(((await res.json()) as Json).errors[field], JSON.stringify(fields)).toEqual([message]);
    }
    // The deepest page allowed is an answer (empty), not an error.
    expect((await callApi({ token, json: { organization_id: org.id, page: 1_000_000 } })).status).toBe(200);
  });

  it("refuses without a token, without the permission, for another organisation, and for other methods", async () => {
    const { org, owner } = await world();
    const token = await issueToken(owner.id, "api");
    const unauthenticated = await callApi({ json: { organization_id: org.id } });
    expect(unauthenticated.status).toBe(401);
    // A browser session is not enough: bearer tokens only.
    const cookie = await sessionCookie(owner.id);
    const withCookie = await run(() =>
      api.action({
        request: new Request(new URL("/api/v1/getmpesatransactions", ORIGIN), {
          method: "POST",
          headers: { Cookie: cookie },
          body: new URLSearchParams({ organization_id: String(org.id) }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(withCookie.status).toBe(401);

    const outsider = await issueToken((await makeMember(org.id, "custom", ["view_clients"])).user.id, "api");
    const refused = await callApi({ token: outsider, json: { organization_id: org.id, page: "abc" } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { message: refusalMessage("view_subscriptions") } });

    const viewer = await issueToken((await makeMember(org.id, "custom", ["view_subscriptions"])).user.id, "api");
    const hidden = (await (await callApi({ token: viewer, json: { organization_id: org.id } })).json()) as Json;
    expect(hidden.data.data.map((t: Json) => t.phone_number)).toEqual([null, null, null, null]);

    const other = await makeOrg("Other Cafe");
    await insertTransaction(other.org.id, { transaction_id: "THEIRS0001" });
    for (const organization_id of [other.org.id, "99999999", "1\u0000", "abc", "99999999999999999999"]) {
      const res = await callApi({ token, json: { organization_id } });
      expect(res.status, String(organization_id)).toBe(404);
      expect(await res.json()).toEqual({ error: { message: "Organization not found." } });
    }
    const missing = await callApi({ token, json: {} });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as Json).errors.organization_id).toEqual(["Organization field is required."]);
    const theirs = (await (
      await callApi({ token: await issueToken(other.owner.id, "api"), json: { organization_id: other.org.id } })
    ).json()) as Json;
    expect(theirs.data.data.map((t: Json) => t.transaction_id)).toEqual(["THEIRS0001"]);

    const get = await callApi({ token, method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const malformed = await run(() =>
      api.action({
        request: new Request(new URL("/api/v1/getmpesatransactions", ORIGIN), {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: "{not json",
        }),
        params: {},
        context: {},
      }),
    );
    expect(malformed.status).toBe(400);
  });
});

describe("over HTTP (the built server)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBuiltServer();
  });
  afterAll(() => server?.close());

  it("renders the table, the page window, the range form and the export link without JavaScript", async () => {
    const { org, owner } = await makeOrg();
    await insertMany(org.id, 600); // 12 pages
    await insertTransaction(org.id, { status: 0, transaction_id: null, created_at: BASE + DAY });
    const cookie = await sessionCookie(owner.id);
    const get = (path: string) => fetch(`${server.origin}/${org.id}/${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    const res = await get("prepaid/mpesa-transactions?page=6");
    expect(res.status).toBe(200);
    const html = (await res.text()).replace(/<!-- -->/g, ""); // React's separators between text parts
    for (const text of [
      "M-Pesa Transactions",
      "Transaction ID",
      "Phone Number",
      "Amount",
      "Short Code",
      "Status",
      "Created At",
      "Completed",
      'name="start"',
      'name="end"',
      'value="1970-01-01"',
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain(`/${org.id}/prepaid/mpesa-transactions.csv?start=1970-01-01&amp;end=${day(Date.now())}`);
    expect(html).toContain("Showing 251 to 300 of 601 transactions");
    // Page 6 of 13: 1 … 4 5 [6] 7 8 … 13.
    const linked = [...html.matchAll(/href="[^"]*[?&]page=(\d+)"/g)].map((m) => Number(m[1]));
    expect([...new Set(linked)].sort((a, b) => a - b)).toEqual([1, 4, 5, 6, 7, 8, 13]);
    expect(html).toMatch(/aria-current="page"[^>]*>6</);

    const first = await (await get("prepaid/mpesa-transactions")).text();
    expect(first).toContain("Incomplete");
    expect(first).toContain("—"); // the unpaid transaction's receipt

    const empty = await (await get("prepaid/mpesa-transactions?start=2026-11-24&end=2026-11-24")).text();
    expect(empty).toContain("No M-Pesa transactions found.");
    const bad = await get("prepaid/mpesa-transactions?start=2026-11-30&end=2026-11-01");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Start date cannot be later than End date!");
    expect((await get("prepaid/mpesa-transactions?start=2026-11-20%00")).status).toBe(400);
  });

  it("downloads mpesa_transactions.csv by cookie and by bearer token", async () => {
    const { orgId, owner } = await world();
    const cookie = await sessionCookie(owner.id);
    const byCookie = await fetch(`${server.origin}/${orgId}/prepaid/mpesa-transactions.csv?start=2026-11-20&end=2026-11-20`, {
      headers: { Cookie: cookie },
    });
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get("Content-Disposition")).toBe('attachment; filename="mpesa_transactions.csv"');
    expect((await byCookie.text()).trim().split("\n")).toHaveLength(5);
    const token = await issueToken(owner.id, "api");
    const byToken = await fetch(`${server.origin}/${orgId}/prepaid/mpesa-transactions.csv`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(byToken.status).toBe(200);
    expect(await byToken.text()).toContain("SKL7ABC123");
    const bad = await fetch(`${server.origin}/${orgId}/prepaid/mpesa-transactions.csv?end=2026-99-99`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(bad.status).toBe(400);
  });

  it("answers the REST call at the root path with a bearer token, and never a 500 for bad input", async () => {
    const { org, owner } = await world();
    const token = await issueToken(owner.id, "api");
    const post = (body: string, type = "application/x-www-form-urlencoded", auth = `Bearer ${token}`) =>
      fetch(`${server.origin}/api/v1/getmpesatransactions`, {
        method: "POST",
        headers: { Authorization: auth, "Content-Type": type },
        body,
      });
    const res = await post(
      new URLSearchParams({ organization_id: String(org.id), start_date: "2026-11-20", end_date: "2026-11-20", page: "1" }).toString(),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).data).toMatchObject({ current_page: 1, last_page: 1, per_page: 50, count: 4 });
    expect((await post(`organization_id=${org.id}&start_date=2026-11-21&end_date=2026-11-20`)).status).toBe(422);
    expect((await post(`organization_id=${org.id}&page=999999999999999999999999`)).status).toBe(422);
    expect((await post(`organization_id=${org.id}&start_date=2026-11-20%00`)).status).toBe(400);
    const other = await makeOrg("Other Cafe");
    expect((await post(`organization_id=${other.org.id}`)).status).toBe(404);
    expect((await post(`organization_id=${org.id}`, undefined, "Bearer nope")).status).toBe(401);
    // Scripts send JSON: the same answer.
    const json = await post(
      JSON.stringify({ organization_id: org.id, start_date: "2026-11-20", end_date: "2026-11-20", page: 1 }),
      "application/json",
    );
    expect(json.status).toBe(200);
    expect(((await json.json()) as Json).data).toMatchObject({ current_page: 1, count: 4 });
    const nul = await post(JSON.stringify({ organization_id: org.id, start_date: "2026-11-20\u0000" }), "application/json");
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ error: { message: expect.any(String) } });
  });
});
