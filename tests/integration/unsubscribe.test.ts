// Unsubscribing from broadcast mail without signing in: the page, the
// button, the mail client's one-click POST (RFC 8058, cross-site, no cookies), forged tokens, and the
// next schedule skipping the customer.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildCustomer } from "~/tools/factories.server";
import { EMPTY_FILTERS } from "~/lib/schemas/group-filters";
import { runDueJobs } from "~/services/jobs/index.server";
import { scheduleDispatch } from "~/services/marketing/dispatch.server";
import { encryptSecret } from "~/services/secrets.server";
import { unsubscribeToken, unsubscribeUrl } from "~/services/marketing/unsubscribe.server";
import { UNSUBSCRIBE_MESSAGES } from "~/guest/unsubscribe-page";
import { makeOrg } from "../fixtures";
import { startGuestServer } from "../fixtures/guest-server";

const guest = await startGuestServer();
const base = guest.origin;
afterAll(() => guest.close());

async function customer(orgId: number, email: string) {
  const row = buildCustomer(orgId, { email_address: email, phone_number: null, marketing_opt_in_at: Date.now() });
  return db.insertInto("customers").values(row).returning("id").executeTakeFirstOrThrow();
}

const consent = (id: number) =>
  db.selectFrom("customers").select(["marketing_opt_in_at", "marketing_opted_out_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const consentRows = (id: number) =>
  db.selectFrom("customer_consents").select(["kind", "granted", "wording_version"]).where("customer_id", "=", id).execute();
const page = (token: string, init?: RequestInit) => fetch(`${base}/unsubscribe/${token}`, { redirect: "manual", ...init });
const oneClick = (token: string) =>
  page(token, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.net" },
    body: "List-Unsubscribe=One-Click",
  });

describe("unsubscribe link", () => {
  it("asks first on GET (a guest page: sandboxed, no cookie), writes nothing", async () => {
    const { org } = await makeOrg("Java House");
    const c = await customer(org.id, "amina@example.test");
    const res = await page(unsubscribeToken(org.id, c.id));
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("Stop messages from Java House?");
    expect(body).toMatch(
      /<form method="post" action="\/unsubscribe\/v1\.[^"]+"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe<\/button>/,
    );
    expect(body).not.toContain("<script");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await consent(c.id)).marketing_opt_in_at).not.toBeNull();
  });

  it("opts out on the one-click POST from another site, records it, and the next schedule skips the customer", async () => {
    const { org } = await makeOrg("Java House");
    const leaving = await customer(org.id, "leaving@example.test");
    const staying = await customer(org.id, "staying@example.test");
    const res = await oneClick(unsubscribeToken(org.id, leaving.id));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(UNSUBSCRIBE_MESSAGES.done("Java House"));
    expect(await consent(leaving.id)).toMatchObject({ marketing_opt_in_at: null, marketing_opted_out_at: expect.any(Number) });
    expect(await consentRows(leaving.id)).toEqual([{ kind: "marketing", granted: 0, wording_version: "email-unsubscribe" }]);

    // Again (the person clicks too): the same answer, nothing written twice; the page now says so.
    expect((await oneClick(unsubscribeToken(org.id, leaving.id))).status).toBe(200);
    expect(await consentRows(leaving.id)).toHaveLength(1);
    expect(await (await page(unsubscribeToken(org.id, leaving.id))).text()).toContain(UNSUBSCRIBE_MESSAGES.already("Java House"));

    const now = Date.now();
    const group = await db
      .insertInto("customer_groups")
      .values({
        organization_id: org.id,
        name: "All",
        description: null,
        filters: JSON.stringify(EMPTY_FILTERS),
        created_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const broadcast = await db
      .insertInto("broadcasts")
      .values({
        organization_id: org.id,
        title: "News",
        description: null,
        sms: null,
        email_html: null,
        email_text: "Hello",
        email_design: null,
        created_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const schedule = await db
      .insertInto("broadcast_schedules")
      .values({
        organization_id: org.id,
        broadcast_id: broadcast.id,
        channel: "EMAIL",
        dispatch_at: now,
        status: "Scheduled",
        started_at: null,
        finished_at: null,
        error: null,
        created_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("broadcast_schedule_groups").values({ schedule_id: schedule.id, group_id: group.id, group_name: "All" }).execute();
    await scheduleDispatch(schedule.id, now);
    await runDueJobs();
    const rows = await db.selectFrom("broadcast_deliveries").select("customer_id").where("schedule_id", "=", schedule.id).execute();
    expect(rows.map((r) => r.customer_id)).toEqual([staying.id]);
  });

  it("refuses forged, altered, foreign and malformed tokens with a 404 and writes nothing", async () => {
    const { org } = await makeOrg("Java House");
    const { org: other } = await makeOrg("Other Cafe");
    const c = await customer(org.id, "kept@example.test");
    const genuine = unsubscribeToken(org.id, c.id);
    const [v, iv, tag, body] = genuine.split(".");
    // The first character: the last one of base64 may carry only padding bits.
    const flip = (part: string) => `${part.startsWith("A") ? "B" : "A"}${part.slice(1)}`;
    const cases = [
      `${v}.${iv}.${tag}.${flip(body!)}`,
      `${v}.${iv}.${flip(tag!)}.${body}`,
      unsubscribeToken(other.id, c.id), // a real token naming this customer under another organisation
      encryptSecret(`${org.id}.${c.id}`), // our key, but not an unsubscribe token
      String(c.id),
      `${org.id}-${c.id}`,
      "v1.....",
      "x".repeat(5000),
    ];
    for (const token of cases) {
      const get = await page(token);
      expect(get.status, token).toBe(404);
      expect(await get.text()).toContain(UNSUBSCRIBE_MESSAGES.unknown);
      expect((await oneClick(token)).status, token).toBe(404);
    }
    // A NUL never reaches the lookup: the request boundary refuses it in any path.
    expect((await page("%00")).status).toBe(400);
    expect((await oneClick("%00")).status).toBe(400);
    expect((await consent(c.id)).marketing_opt_in_at).not.toBeNull();
    expect(await consentRows(c.id)).toEqual([]);
  });

  it("makes a different, unguessable link in every mail, all of them working", async () => {
    const { org } = await makeOrg();
    const c = await customer(org.id, "twice@example.test");
    const [a, b] = [unsubscribeUrl(org.id, c.id), unsubscribeUrl(org.id, c.id)];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^http:\/\/localhost\/unsubscribe\/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((await page(b.split("/").pop()!)).status).toBe(200);
  });
});
