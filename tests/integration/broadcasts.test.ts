// The broadcast console (docs/guide/marketing.md#broadcasts,
// docs/guide/access-control.md#what-each-permission-shows) through its loaders and actions, on SQLite
// and PostgreSQL: creating, the list, settings, the e-mail and the SMS, delete with the spec's
// confirmation, the Messages section's totals and rows, permissions and other organisations' ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { DeliveryStatus } from "~/db/schema";
import { refusalMessage, type Permission } from "~/lib/permissions";
import { BROADCAST_MESSAGES, SMS_MAX_SEGMENTS } from "~/lib/schemas/broadcasts";
import * as layout from "~/routes/$orgId+/_marketing+/broadcast+/$id";
import * as messages from "~/routes/$orgId+/_marketing+/broadcast+/$id._index";
import * as email from "~/routes/$orgId+/_marketing+/broadcast+/$id.email";
import * as settings from "~/routes/$orgId+/_marketing+/broadcast+/$id.settings";
import * as sms from "~/routes/$orgId+/_marketing+/broadcast+/$id.sms";
import * as list from "~/routes/$orgId+/_marketing+/broadcasts+/_index";
import * as create from "~/routes/$orgId+/_marketing+/broadcasts+/create";
import { DELETE_BROADCAST_QUESTION } from "~/lib/schemas/broadcasts";
import { BROADCAST_RESULT_MESSAGES } from "~/services/marketing/broadcasts.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { insertCustomer, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function world(name = "Mlango Cafe") {
  const owner = await makeUser();
  const { org } = await makeOrg(`${name} ${Math.random()}`, owner);
  return { orgId: org.id, owner };
}

/** Calls a route as the user: GET without a form, POST with one (repeated fields as arrays). */
async function call(
  fn: Fn,
  userId: number,
  orgId: number,
  path: string,
  params: Record<string, string> = {},
  form?: Record<string, string | string[]>,
) {
  const request = makeRequest(`/${orgId}/${path}`, { form, cookie: await sessionCookie(userId) });
  return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
}

/** A broadcast made through broadcasts/create; returns its id. */
async function created(userId: number, orgId: number, title = "Weekend offer", description = "Half price on Saturday") {
  const res = await call(create.action, userId, orgId, "broadcasts/create", {}, { title, description });
  expect(res.status).toBe(302);
  const match = /\/broadcast\/(\d+)\/email$/.exec(res.headers.get("Location")!);
  expect(match).not.toBeNull();
  return Number(match![1]);
}

const row = (id: number) => db.selectFrom("broadcasts").selectAll().where("id", "=", id).executeTakeFirst();

async function member(orgId: number, permissions: Permission[]) {
  return (await makeMember(orgId, "custom", permissions)).user.id;
}

describe("creating a broadcast (broadcasts/create)", () => {
  it("stores the title and description, then opens the e-mail section with a toast", async () => {
    const { orgId, owner } = await world();
    const res = await call(
      create.action,
      owner.id,
      orgId,
      "broadcasts/create",
      {},
      { title: "  Weekend offer ", description: "Half price" },
    );
    expect(res.status).toBe(302);
    const id = Number(/\/broadcast\/(\d+)\/email$/.exec(res.headers.get("Location")!)![1]);
    expect(res.headers.get("Location")).toBe(`/${orgId}/broadcast/${id}/email`);
    expect(await toastOf(res)).toMatchObject({ type: "success", message: BROADCAST_RESULT_MESSAGES.created });
    expect(await row(id)).toMatchObject({
      organization_id: orgId,
      title: "Weekend offer",
      description: "Half price",
      sms: null,
      email_html: null,
      created_by_user_id: owner.id,
    });
  });

  it("requires the title (the e-mail's subject) and refuses bad input with messages, never a 500", async () => {
    const { orgId, owner } = await world();
    const post = (form: Record<string, string>) => call(create.action, owner.id, orgId, "broadcasts/create", {}, form);
    for (const form of [{}, { title: "" }, { title: "   " }] as Record<string, string>[]) {
      const res = await post(form);
      expect(res.status).toBe(400);
      expect(((await res.json()) as Json).error.title).toEqual([BROADCAST_MESSAGES.titleRequired]);
    }
    const long = await post({ title: "x".repeat(201) });
    expect(((await long.json()) as Json).error.title).toEqual([BROADCAST_MESSAGES.tooLong]);
    const nul = await post({ title: "Offer\u0000" });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as Json).error.title).toEqual([BROADCAST_MESSAGES.nul]);
    const description = await post({ title: "Offer", description: "d".repeat(1001) });
    expect(((await description.json()) as Json).error.description).toEqual([BROADCAST_MESSAGES.tooLong]);
    expect(await db.selectFrom("broadcasts").select("id").where("organization_id", "=", orgId).execute()).toEqual([]);
  });

  it("lets create_broadcasts or create_groups create; view_broadcasts alone is refused", async () => {
    const { orgId } = await world();
    for (const permission of ["create_broadcasts", "create_groups"] as Permission[]) {
      const userId = await member(orgId, [permission]);
      expect((await call(create.loader, userId, orgId, "broadcasts/create")).status).toBe(200);
      await created(userId, orgId, `By ${permission}`);
    }
    const viewer = await member(orgId, ["view_broadcasts"]);
    for (const res of [
      await call(create.loader, viewer, orgId, "broadcasts/create"),
      await call(create.action, viewer, orgId, "broadcasts/create", {}, { title: "No" }),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: refusalMessage("create_broadcasts") });
    }
  });
});

describe("the broadcast list (broadcasts)", () => {
  it("lists Title, Created on, Owner and Description, newest first, with search and paging", async () => {
    const { orgId, owner } = await world();
    const first = await created(owner.id, orgId, "Easter promo", "Eggs");
    await db
      .updateTable("broadcasts")
      .set({ created_at: Date.UTC(2026, 3, 1, 9, 30) })
      .where("id", "=", first)
      .execute();
    const second = await created(owner.id, orgId, "Weekend offer", "");
    const other = await world("Other");
    await created(other.owner.id, other.orgId, "Not ours");
    const page: Json = await (await call(list.loader, owner.id, orgId, "broadcasts")).json();
    expect(page.total).toBe(2);
    expect(page.canCreate).toBe(true);
    expect(page.broadcasts.map((b: Json) => b.id)).toEqual([second, first]);
    expect(page.broadcasts[1]).toEqual({
      id: first,
      title: "Easter promo",
      description: "Eggs",
      created_on: "01-04-2026 09:30",
      owner: `${owner.first_name} ${owner.last_name}`,
    });
    expect(page.broadcasts[0].description).toBeNull();
    const searched: Json = await (await call(list.loader, owner.id, orgId, "broadcasts?search=EASTER")).json();
    expect(searched.broadcasts.map((b: Json) => b.title)).toEqual(["Easter promo"]);
    const wildcard: Json = await (await call(list.loader, owner.id, orgId, "broadcasts?search=%25")).json();
    expect(wildcard.total).toBe(0);
    const paged: Json = await (await call(list.loader, owner.id, orgId, "broadcasts?per_page=5&page=2")).json();
    expect(paged.broadcasts).toEqual([]);
    expect(paged.total).toBe(2);
  });

  it("needs view_broadcasts or create_broadcasts (or create_groups); New Message needs create_broadcasts or create_groups", async () => {
    const { orgId } = await world();
    const cases: [Permission[], number, boolean | null][] = [
      [["view_broadcasts"], 200, false],
      [["create_broadcasts"], 200, true],
      [["create_groups"], 200, true],
      [["view_groups", "delete_groups"], 403, null],
    ];
    for (const [permissions, status, canCreate] of cases) {
      const res = await call(list.loader, await member(orgId, permissions), orgId, "broadcasts");
      expect(res.status).toBe(status);
      if (status === 403) expect(await res.json()).toEqual({ message: refusalMessage("view_broadcasts") });
      else expect(((await res.json()) as Json).canCreate).toBe(canCreate);
    }
  });
});

describe("a broadcast's sections", () => {
  it("saves the settings (title and description) and shows the title as the e-mail's subject", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const bad = await call(settings.action, owner.id, orgId, `broadcast/${id}/settings`, params, { title: " ", description: "x" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.title).toEqual([BROADCAST_MESSAGES.titleRequired]);
    const res = await call(settings.action, owner.id, orgId, `broadcast/${id}/settings`, params, {
      title: "Christmas offer",
      description: "",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/broadcast/${id}/settings`);
    expect(await toastOf(res)).toMatchObject({ message: BROADCAST_RESULT_MESSAGES.updated });
    expect(await row(id)).toMatchObject({ title: "Christmas offer", description: null });
    const page: Json = await (await call(email.loader, owner.id, orgId, `broadcast/${id}/email`, params)).json();
    expect(page.broadcast).toMatchObject({ id, title: "Christmas offer", has_design: false });
    const frame: Json = await (await call(layout.loader, owner.id, orgId, `broadcast/${id}`, params)).json();
    expect(frame).toMatchObject({ broadcast: { id, title: "Christmas offer", description: null }, canDelete: true });
  });

  it("saves the e-mail's HTML and plain-text bodies; hand-written HTML clears a designer's JSON", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    await db.updateTable("broadcasts").set({ email_design: '{"body":{}}' }).where("id", "=", id).execute();
    const html = '<h1 style="color:red">Karibu</h1><script>alert(1)</script>';
    const res = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, {
      email_html: html,
      email_text: "Karibu\r\nsana",
    });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toMatchObject({ message: BROADCAST_RESULT_MESSAGES.emailSaved });
    expect(await row(id)).toMatchObject({ email_html: html, email_text: "Karibu\r\nsana", email_design: null });
    const page: Json = await (await call(email.loader, owner.id, orgId, `broadcast/${id}/email`, params)).json();
    // The page gets the HTML as data for the sandboxed preview frame (srcdoc), not as markup of its own.
    expect(page.values).toEqual({ email_html: html, email_text: "Karibu\r\nsana" });
    // An empty e-mail is refused with a message, and the saved one stays.
    const empty = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, { email_html: "  ", email_text: "" });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as Json).error.email_html).toEqual([BROADCAST_MESSAGES.emailRequired]);
    expect(await row(id)).toMatchObject({ email_html: html, email_text: "Karibu\r\nsana" });
    const huge = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, { email_html: "x".repeat(200_001) });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as Json).error.email_html).toEqual([BROADCAST_MESSAGES.tooLong]);
    const nul = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, { email_text: "a\u0000b" });
    expect(((await nul.json()) as Json).error.email_text).toEqual([BROADCAST_MESSAGES.nul]);
  });

  it("saves the SMS with line breaks as typed and counts its parts on the server", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const res = await call(sms.action, owner.id, orgId, `broadcast/${id}/sms`, params, { sms: "Karibu!\r\nHalf price {today}" });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toMatchObject({ message: "SMS saved. 28 characters, 1 SMS (GSM-7), 132 left in this part." });
    expect((await row(id))!.sms).toBe("Karibu!\nHalf price {today}");
    const page: Json = await (await call(sms.loader, owner.id, orgId, `broadcast/${id}/sms`, params)).json();
    expect(page).toMatchObject({
      sms: "Karibu!\nHalf price {today}",
      count: { encoding: "GSM-7", characters: 28, segments: 1 },
      canEdit: true,
    });
    // 400 emoji: 33 whole pairs (66 units) per part of 67, so 13 parts.
    const tooLong = await call(sms.action, owner.id, orgId, `broadcast/${id}/sms`, params, { sms: "😀".repeat(400) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as Json).error.sms).toEqual([BROADCAST_MESSAGES.smsTooLong(13, SMS_MAX_SEGMENTS)]);
    // An empty SMS is refused with a message, and the saved one stays.
    for (const empty of ["", "  \r\n "]) {
      const refused = await call(sms.action, owner.id, orgId, `broadcast/${id}/sms`, params, { sms: empty });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Json).error.sms).toEqual([BROADCAST_MESSAGES.smsRequired]);
    }
    expect((await row(id))!.sms).toBe("Karibu!\nHalf price {today}");
  });

  it("shows the sections to view_broadcasts but refuses its changes", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const viewer = await member(orgId, ["view_broadcasts"]);
    const page: Json = await (await call(sms.loader, viewer, orgId, `broadcast/${id}/sms`, params)).json();
    expect(page.canEdit).toBe(false);
    expect(((await (await call(layout.loader, viewer, orgId, `broadcast/${id}`, params)).json()) as Json).canDelete).toBe(false);
    for (const [fn, path, form] of [
      [settings.action, "settings", { title: "Changed" }],
      [email.action, "email", { email_html: "<p>x</p>" }],
      [sms.action, "sms", { sms: "x" }],
    ] as const) {
      const res = await call(fn, viewer, orgId, `broadcast/${id}/${path}`, params, form);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: refusalMessage("create_broadcasts") });
    }
    expect(await row(id)).toMatchObject({ title: "Weekend offer", sms: null, email_html: null });
  });

  it("answers 404 for another organisation's broadcast and for ids that are not ids", async () => {
    const { orgId, owner } = await world();
    const other = await world("Other");
    const theirs = await created(other.owner.id, other.orgId);
    for (const raw of [String(theirs), "abc", "0", "-1", "99999999999", "1e3"]) {
      const params = { id: raw };
      for (const fn of [layout.loader, messages.loader, email.loader, sms.loader, settings.loader]) {
        expect((await call(fn, owner.id, orgId, `broadcast/${raw}`, params)).status).toBe(404);
      }
      expect((await call(settings.action, owner.id, orgId, `broadcast/${raw}/settings`, params, { title: "Mine now" })).status).toBe(404);
      expect((await call(email.action, owner.id, orgId, `broadcast/${raw}/email`, params, { email_html: "<p>x</p>" })).status).toBe(404);
      expect((await call(sms.action, owner.id, orgId, `broadcast/${raw}/sms`, params, { sms: "x" })).status).toBe(404);
      expect((await call(layout.action, owner.id, orgId, `broadcast/${raw}`, params, { intent: "delete", confirmed: "yes" })).status).toBe(
        404,
      );
    }
    expect(await row(theirs)).toMatchObject({ title: "Weekend offer", sms: null });
  });
});

describe("deleting a broadcast", () => {
  it("asks the spec's question first, then deletes it with its schedules", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const now = Date.now();
    await db
      .insertInto("broadcast_schedules")
      .values({
        organization_id: orgId,
        broadcast_id: id,
        channel: "SMS",
        dispatch_at: now,
        status: "Sent",
        created_at: now,
        updated_at: now,
        started_at: null,
        finished_at: null,
        error: null,
        created_by_user_id: null,
      })
      .execute();
    const ask = await call(layout.action, owner.id, orgId, `broadcast/${id}`, params, { intent: "delete" });
    expect(ask.status).toBe(200);
    expect(await ask.json()).toEqual({ confirm: { message: DELETE_BROADCAST_QUESTION, intent: "delete", fields: {} } });
    expect(DELETE_BROADCAST_QUESTION).toBe("Are you sure you want to delete this broadcast?");
    expect(await row(id)).toBeDefined();
    const res = await call(layout.action, owner.id, orgId, `broadcast/${id}`, params, { intent: "delete", confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${orgId}/broadcasts`);
    expect(await toastOf(res)).toMatchObject({ type: "info", message: BROADCAST_RESULT_MESSAGES.deleted("Weekend offer") });
    expect(await row(id)).toBeUndefined();
    expect(await db.selectFrom("broadcast_schedules").select("id").where("broadcast_id", "=", id).execute()).toEqual([]);
    const unknown = await call(layout.action, owner.id, orgId, `broadcast/${id}`, params, { intent: "rename" });
    expect(unknown.status).toBe(400);
  });

  it("needs delete_groups, and is refused while a schedule is being sent", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const editor = await member(orgId, ["view_broadcasts", "create_broadcasts", "create_groups"]);
    const refused = await call(layout.action, editor, orgId, `broadcast/${id}`, params, { intent: "delete", confirmed: "yes" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: refusalMessage("delete_groups") });
    const now = Date.now();
    await db
      .insertInto("broadcast_schedules")
      .values({
        organization_id: orgId,
        broadcast_id: id,
        channel: "SMS",
        dispatch_at: now,
        status: "Sending",
        created_at: now,
        updated_at: now,
        started_at: now,
        finished_at: null,
        error: null,
        created_by_user_id: null,
      })
      .execute();
    const deleter = await member(orgId, ["delete_groups"]);
    const sending = await call(layout.action, deleter, orgId, `broadcast/${id}`, params, { intent: "delete", confirmed: "yes" });
    expect(sending.status).toBe(409);
    expect(await sending.json()).toEqual({ message: BROADCAST_RESULT_MESSAGES.sending });
    await db.updateTable("broadcast_schedules").set({ status: "Sent" }).where("broadcast_id", "=", id).execute();
    expect((await call(layout.action, deleter, orgId, `broadcast/${id}`, params, { intent: "delete", confirmed: "yes" })).status).toBe(302);
    expect(await row(id)).toBeUndefined();
  });
});

describe("the Messages section", () => {
  async function withDeliveries() {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const now = Date.now();
    const schedule = await db
      .insertInto("broadcast_schedules")
      .values({
        organization_id: orgId,
        broadcast_id: id,
        channel: "BOTH",
        dispatch_at: now,
        status: "Sent",
        created_at: now,
        updated_at: now,
        started_at: now,
        finished_at: now,
        error: null,
        created_by_user_id: owner.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const statuses: DeliveryStatus[] = ["queued", "sent", "sent", "delivered", "failed", "bounced", "opted_out"];
    const customers = [];
    for (const [i, status] of statuses.entries()) {
      const customer = await insertCustomer(orgId, {
        first_name: `Guest${i}`,
        last_name: "Otieno",
        phone_number: `+25471200000${i}`,
        email_address: `g${i}@example.com`,
      });
      customers.push(customer);
      await db
        .insertInto("broadcast_deliveries")
        .values({
          organization_id: orgId,
          schedule_id: Number(schedule.id),
          customer_id: customer.id,
          channel: i % 2 ? "SMS" : "EMAIL",
          address: i % 2 ? customer.phone_number! : customer.email_address!,
          status,
          error: status === "failed" ? "Rejected by the provider" : null,
          sent_at: status === "queued" ? null : now,
          delivered_at: status === "delivered" ? now : null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    return { orgId, owner, id, customers };
  }

  it("shows the totals per status and one row per recipient, newest first", async () => {
    const { orgId, owner, id } = await withDeliveries();
    const other = await withDeliveries(); // another organisation's deliveries are not counted
    expect(other.id).not.toBe(id);
    const page: Json = await (await call(messages.loader, owner.id, orgId, `broadcast/${id}`, { id: String(id) })).json();
    expect(page.total).toBe(7);
    expect(page.totals).toEqual({ queued: 1, sent: 2, delivered: 1, failed: 1, bounced: 1, opted_out: 1 });
    expect(page.personal).toBe(true);
    expect(page.rows).toHaveLength(7);
    expect(page.rows[0]).toMatchObject({
      status: "opted_out",
      channel: "EMAIL",
      customer: { name: "Guest6 Otieno", address: "g6@example.com" },
    });
    expect(page.rows[2]).toMatchObject({ status: "failed", error: "Rejected by the provider", customer: { address: "g4@example.com" } });
    const paged: Json = await (
      await call(messages.loader, owner.id, orgId, `broadcast/${id}?per_page=5&page=2`, { id: String(id) })
    ).json();
    expect(paged.rows).toHaveLength(2);
    expect(paged.total).toBe(7);
  });

  it("hides customers' names and addresses without view_clients", async () => {
    const { orgId, id } = await withDeliveries();
    const viewer = await member(orgId, ["view_broadcasts"]);
    const page: Json = await (await call(messages.loader, viewer, orgId, `broadcast/${id}`, { id: String(id) })).json();
    expect(page.personal).toBe(false);
    expect(page.rows.every((r: Json) => r.customer === null)).toBe(true);
    expect(JSON.stringify(page)).not.toContain("@example.com");
    expect(page.totals.sent).toBe(2);
  });
});

describe("the pages as a browser gets them (built server)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBuiltServer();
  });
  afterAll(() => server?.close());

  it("renders every section, the e-mail's HTML only inside the sandboxed preview frame, the SMS count from the server", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const html = '<h1>Karibu</h1><script>alert("owned")</script><img src=x onerror=alert(1)>';
    await db.updateTable("broadcasts").set({ email_html: html, email_text: "Karibu", sms: "Karibu sana" }).where("id", "=", id).execute();
    const cookie = await sessionCookie(owner.id);
    const get = async (path: string) => {
      const res = await fetch(`${server.origin}/${orgId}/${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(res.status, path).toBe(200);
      return res.text();
    };
    for (const path of ["broadcasts", "broadcasts/create", `broadcast/${id}`, `broadcast/${id}/schedules`, `broadcast/${id}/settings`])
      await get(path);
    const emailPage = await get(`broadcast/${id}/email`);
    expect(emailPage).toMatch(/<iframe sandbox="" srcDoc="&lt;h1&gt;Karibu&lt;\/h1&gt;&lt;script&gt;/i);
    expect(emailPage).not.toContain("<h1>Karibu</h1>");
    expect(emailPage).not.toContain('<script>alert("owned")');
    expect(emailPage).not.toContain("onerror=alert(1)>");
    const smsPage = await get(`broadcast/${id}/sms`);
    expect(smsPage).toContain("11 characters, 1 SMS (GSM-7), 149 left in this part");
  });
});
