// An organisation's M-Pesa (Daraja) credentials on SQLite and PostgreSQL:
// secrets encrypted at rest and never in the page's data, owner only, "Test connection" against
// the fake Daraja, and the one OAuth token per credential that all instances share.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { MPESA_MESSAGES } from "~/lib/schemas/mpesa";
import * as mpesaPage from "~/routes/$orgId+/organization+/mpesa";
import { databaseTokenStore, type DarajaClient } from "~/services/prepaid/daraja.server";
import { getMpesaSettings, loadDarajaClient, saveMpesaSettings, testMpesaConnection } from "~/services/prepaid/mpesa-settings.server";
import { decryptSecret, encryptSecret } from "~/services/secrets.server";
import { SANDBOX_SHORTCODE, startFakeDaraja, type FakeDaraja } from "../../scripts/fakes/daraja";
import { makeMember, makeOrg, sessionCookie } from "../fixtures";
import { startBuiltServer } from "../fixtures/http-server";
import { callRoute, contextOf, toastOf } from "../fixtures/records";

const KEY = "mlango-test-key";
const SECRET = "consumer-secret-7f3a91c2";
const PASSKEY = "passkey-bf279f9aa9bdbcf158e97dd71a467cd2e0c";
const FORM = {
  intent: "save",
  environment: "sandbox",
  type: "paybill",
  consumer_key: KEY,
  consumer_secret: SECRET,
  shortcode: SANDBOX_SHORTCODE,
  passkey: PASSKEY,
  party_b: "",
};
const CALLBACK = "http://127.0.0.1:9/hotspot/mpesa/key"; // loopback; nothing listens

let fake: FakeDaraja;
let savedDarajaUrl: string | undefined;

beforeAll(async () => {
  fake = await startFakeDaraja({ credentials: { [KEY]: SECRET }, shortCodes: { [SANDBOX_SHORTCODE]: PASSKEY } });
  // The page's "Test connection" uses DARAJA_URL: point the (already parsed) environment at the fake
  // so no request leaves this machine.
  savedDarajaUrl = getEnv().DARAJA_URL;
  getEnv().DARAJA_URL = fake.url;
});
afterAll(async () => {
  getEnv().DARAJA_URL = savedDarajaUrl;
  await fake?.close();
});
beforeEach(async () => {
  await fake.idle();
  fake.credentials.set(KEY, SECRET);
});

const pagePath = (orgId: number) => `/${orgId}/organization/mpesa`;
const page = (userId: number, orgId: number) => callRoute(mpesaPage.loader as never, { userId, orgId, path: pagePath(orgId) });
const post = (userId: number, orgId: number, form: Record<string, string>) =>
  callRoute(mpesaPage.action as never, { userId, orgId, path: pagePath(orgId), form });
const raw = (orgId: number) => db.selectFrom("mpesa_settings").selectAll().where("organization_id", "=", orgId).executeTakeFirst();

async function world() {
  const { org, owner } = await makeOrg(`M-Pesa ${Math.random()}`);
  return { org, owner, orgId: org.id };
}

async function configured() {
  const w = await world();
  const res = await post(w.owner.id, w.orgId, FORM);
  expect(res.status).toBe(302);
  return w;
}

describe("saving the credentials", () => {
  it("stores the secret and passkey encrypted, makes a callback key, and never sends them to the page", async () => {
    const { owner, orgId } = await world();
    const saved = await post(owner.id, orgId, FORM);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(pagePath(orgId));
    expect(await toastOf(saved)).toMatchObject({ message: "M-Pesa settings saved." });

    const row = (await raw(orgId))!;
    expect(row).toMatchObject({
      environment: "sandbox",
      type: "paybill",
      consumer_key: KEY,
      shortcode: SANDBOX_SHORTCODE,
      party_b: SANDBOX_SHORTCODE,
    });
    expect(row.consumer_secret).not.toContain(SECRET);
    expect(row.passkey).not.toContain(PASSKEY);
    expect(row.consumer_secret).toMatch(/^v1\./);
    expect(decryptSecret(row.consumer_secret)).toBe(SECRET);
    expect(decryptSecret(row.passkey)).toBe(PASSKEY);
    expect(row.callback_key).toMatch(/^[\w-]{32}$/);

    const res = await page(owner.id, orgId);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const hidden of [SECRET, PASSKEY, row.consumer_secret, row.passkey]) expect(text).not.toContain(hidden);
    const data = JSON.parse(text);
    expect(data.settings).toEqual({
      environment: "sandbox",
      type: "paybill",
      consumerKey: KEY,
      consumerSecretSet: true,
      shortcode: SANDBOX_SHORTCODE,
      passkeySet: true,
      partyB: SANDBOX_SHORTCODE,
      initiatorName: "",
      securityCredentialSet: false,
      updatedAt: expect.any(Number),
    });
    expect(data.callbackUrl).toBe(`http://localhost/hotspot/mpesa/${row.callback_key}`);
    expect(data.canEdit).toBe(true);
  });

  it("keeps the stored secrets when the fields are left empty, and the callback key across saves", async () => {
    const { owner, orgId } = await configured();
    const before = (await raw(orgId))!;
    const res = await post(owner.id, orgId, { ...FORM, type: "till", party_b: "5123456", consumer_secret: "", passkey: "" });
    expect(res.status).toBe(302);
    const after = (await raw(orgId))!;
    expect(after).toMatchObject({ type: "till", party_b: "5123456", callback_key: before.callback_key });
    expect(decryptSecret(after.consumer_secret)).toBe(SECRET);
    expect(decryptSecret(after.passkey)).toBe(PASSKEY);

    await post(owner.id, orgId, { ...FORM, passkey: "a-new-passkey" });
    expect(decryptSecret((await raw(orgId))!.passkey)).toBe("a-new-passkey");
  });

  it("asks for both secrets on the first save and does not echo typed secrets when refusing", async () => {
    const { owner, orgId } = await world();
    const missing = await post(owner.id, orgId, { ...FORM, consumer_secret: "", passkey: "" });
    expect(missing.status).toBe(400);
    const missingText = await missing.text();
    expect(missingText).toContain(MPESA_MESSAGES.consumerSecretRequired);
    expect(missingText).toContain(MPESA_MESSAGES.passkeyRequired);
    expect(await raw(orgId)).toBeUndefined();

    const refused = await post(owner.id, orgId, { ...FORM, shortcode: "12ab", consumer_key: "" });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain(MPESA_MESSAGES.numberInvalid);
    expect(text).toContain(MPESA_MESSAGES.consumerKeyRequired);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PASSKEY);

    const till = await post(owner.id, orgId, { ...FORM, type: "till", party_b: "" });
    expect(till.status).toBe(400);
    expect(await till.text()).toContain(MPESA_MESSAGES.tillRequired);
    expect(await raw(orgId)).toBeUndefined();
  });

  it("removes the settings only once confirmed", async () => {
    const { owner, orgId } = await configured();
    const asked = await post(owner.id, orgId, { intent: "remove" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Are you sure you want to remove the M-Pesa settings?");
    expect(await raw(orgId)).toBeDefined();
    expect((await post(owner.id, orgId, { intent: "remove", confirmed: "yes" })).status).toBe(302);
    expect(await raw(orgId)).toBeUndefined();
  });
});

describe("the page as a browser without JavaScript gets it", () => {
  it("renders the form with write-only secret fields for the owner and a summary for others", async () => {
    const { owner, orgId } = await configured();
    const viewer = await makeMember(orgId, "r");
    const row = (await raw(orgId))!;
    const server = await startBuiltServer();
    try {
      const html = async (userId: number) => {
        const res = await fetch(`${server.origin}${pagePath(orgId)}`, { headers: { Cookie: await sessionCookie(userId, orgId) } });
        expect(res.status).toBe(200);
        return res.text();
      };
      const ownerHtml = await html(owner.id);
      expect(ownerHtml).toContain('name="consumer_secret"');
      expect(ownerHtml).toContain('name="passkey"');
      expect(ownerHtml).toContain("Set. Leave empty to keep it");
      expect(ownerHtml).toContain('value="test"');
      expect(ownerHtml).toContain(`>M-Pesa</a>`);
      const viewerHtml = await html(viewer.user.id);
      expect(viewerHtml).toContain("Only the organization&#x27;s administrator can change the M-Pesa settings.");
      expect(viewerHtml).not.toContain('name="consumer_secret"');
      for (const page of [ownerHtml, viewerHtml]) {
        for (const hidden of [SECRET, PASSKEY, row.consumer_secret, row.passkey]) expect(page).not.toContain(hidden);
      }
      expect(viewerHtml).not.toContain(row.callback_key);
    } finally {
      await server.close();
    }
  });
});

describe("who may see and change them", () => {
  it("shows view_settings holders what is set (no secrets, no callback address), lets only the owner change it, and 404s other organisations", async () => {
    const { owner, orgId } = await configured();
    const viewer = await makeMember(orgId, "r");
    const without = await makeMember(orgId, "custom", ["view_networks"]);
    const { owner: otherOwner } = await world();

    const viewerPage = await page(viewer.user.id, orgId);
    expect(viewerPage.status).toBe(200);
    const text = await viewerPage.text();
    const data = JSON.parse(text);
    expect(data).toMatchObject({
      canEdit: false,
      callbackUrl: null,
      settings: { consumerKey: KEY, consumerSecretSet: true, passkeySet: true },
    });
    const row = (await raw(orgId))!;
    for (const hidden of [SECRET, PASSKEY, row.consumer_secret, row.passkey, row.callback_key]) expect(text).not.toContain(hidden);

    const forms: Record<string, string>[] = [
      { ...FORM, consumer_key: "hijacked" },
      { intent: "test" },
      { intent: "remove", confirmed: "yes" },
    ];
    for (const form of forms) {
      expect((await post(viewer.user.id, orgId, form)).status).toBe(403);
      expect((await post(otherOwner.id, orgId, form)).status).toBe(404);
    }
    expect((await page(without.user.id, orgId)).status).toBe(403);
    expect((await page(otherOwner.id, orgId)).status).toBe(404);
    expect((await raw(orgId))!.consumer_key).toBe(KEY);

    const viewerCtx = await contextOf(viewer.user.id, orgId);
    await expect(saveMpesaSettings(viewerCtx, { ...FORM, environment: "sandbox", type: "paybill", party_b: null })).rejects.toMatchObject({
      status: 403,
    });
    await expect(testMpesaConnection(viewerCtx, { standIn: fake.url })).rejects.toMatchObject({ status: 403 });
    expect(await getMpesaSettings(await contextOf(owner.id, orgId))).not.toBeNull();
  });
});

describe("test connection", () => {
  it("fetches a token from the fake through the page and says so in plain words", async () => {
    const { owner, orgId } = await configured();
    expect(getEnv().DARAJA_URL).toBe(fake.url);
    const before = fake.tokenRequests.length;
    const res = await post(owner.id, orgId, { intent: "test" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ test: { ok: true, message: "Connected: M-Pesa accepted the consumer key and secret." } });
    expect(fake.tokenRequests.length - before).toBe(1);
    expect(fake.tokenRequests.at(-1)!.consumerKey).toBe(KEY);
  });

  it("reports refused credentials, an unreachable Daraja and missing settings", async () => {
    const { owner, orgId } = await configured();
    const ctx = await contextOf(owner.id, orgId);
    fake.credentials.set(KEY, "rotated-at-safaricom");
    const refused = await testMpesaConnection(ctx, { standIn: fake.url });
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/refused the consumer key and secret/);

    const gone = await startFakeDaraja();
    const goneUrl = gone.url;
    await gone.close();
    const unreachable = await testMpesaConnection(ctx, { standIn: goneUrl });
    expect(unreachable).toMatchObject({ ok: false, message: expect.stringMatching(/Could not reach M-Pesa/) });

    const { owner: newOwner, orgId: newOrg } = await world();
    expect(await testMpesaConnection(await contextOf(newOwner.id, newOrg), { standIn: fake.url })).toEqual({
      ok: false,
      message: "Save your M-Pesa settings first.",
    });
  });
});

describe("the shared OAuth token", () => {
  const purchase = { amount: 10, phone: "0708374149", accountReference: "PLAN1H", description: "Wi-Fi 1 hour", callbackUrl: CALLBACK };
  /** Two "instances": separate clients, each with its own database token store (and memory copy). */
  async function instances(orgId: number, count = 2, now?: () => number): Promise<DarajaClient[]> {
    return Promise.all(
      Array.from(
        { length: count },
        async () => (await loadDarajaClient(orgId, { standIn: fake.url, tokens: databaseTokenStore({ now }), now }))!,
      ),
    );
  }

  it("is fetched once for two concurrent requests and kept encrypted in the database", async () => {
    const { orgId } = await configured();
    const [a, b] = await instances(orgId);
    const before = fake.tokenRequests.length;
    const [ta, tb] = await Promise.all([a.accessToken(), b.accessToken()]);
    expect(ta).toBe(tb);
    expect(fake.tokenRequests.length - before).toBe(1);

    const rows = await db.selectFrom("daraja_tokens").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token).not.toContain(ta);
    expect(decryptSecret(rows[0].token!)).toBe(ta);
    expect(rows[0].key_hash).not.toContain(KEY);
    expect(Number(rows[0].expires_at)).toBeGreaterThan(Date.now() + 3500_000);
    expect(Number(rows[0].lease_until)).toBe(0);

    // Later requests, from either instance, reuse it.
    await Promise.all([a.stkPush(purchase), b.stkPush(purchase), a.stkPush(purchase)]);
    expect(fake.tokenRequests.length - before).toBe(1);
  });

  it("is renewed once, by one instance, when under 60 seconds are left", async () => {
    const { orgId } = await configured();
    let clock = Date.now();
    const clients = await instances(orgId, 4, () => clock);
    const first = await clients[0].accessToken();
    // Every instance has the token now, in memory too.
    expect(await Promise.all(clients.map((c) => c.accessToken()))).toEqual([first, first, first, first]);
    const { expires_at } = await db.selectFrom("daraja_tokens").select("expires_at").executeTakeFirstOrThrow();
    clock = Number(expires_at) - 30_000;
    const before = fake.tokenRequests.length;
    const tokens = await Promise.all(clients.map((c) => c.accessToken()));
    expect(fake.tokenRequests.length - before).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
  });

  it("is kept in memory by each instance while it is good: a push reads no table", async () => {
    const { orgId } = await configured();
    const [a, b] = await instances(orgId);
    const token = await a.accessToken();
    // The stored copy changes under a (as no instance would do): a keeps using its own until Daraja
    // refuses it, while b, reading the table for the first time, gets the stored one.
    await db
      .updateTable("daraja_tokens")
      .set({ token: encryptSecret("stored-elsewhere") })
      .execute();
    expect(await a.accessToken()).toBe(token);
    expect(await b.accessToken()).toBe("stored-elsewhere");
  });

  it("is replaced once when Daraja refuses it, however many requests noticed", async () => {
    const { orgId } = await configured();
    const [a, b] = await instances(orgId);
    await a.accessToken();
    // Someone else takes a token for the same key: ours is invalid now.
    await fetch(`${fake.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString("base64")}` },
    });
    const before = fake.tokenRequests.length;
    const pushes = await Promise.all([a.stkPush(purchase), b.stkPush(purchase)]);
    expect(pushes.every((p) => p.checkoutRequestId.startsWith("ws_CO_"))).toBe(true);
    expect(fake.tokenRequests.length - before).toBe(1);
  });

  it("lets the next instance try again after a failed fetch", async () => {
    const { orgId } = await configured();
    const [a, b] = await instances(orgId);
    fake.credentials.set(KEY, "rotated");
    await expect(a.accessToken()).rejects.toMatchObject({ kind: "auth" });
    const row = await db.selectFrom("daraja_tokens").select(["token", "lease_until"]).executeTakeFirstOrThrow();
    expect(row).toEqual({ token: null, lease_until: 0 });
    fake.credentials.set(KEY, SECRET);
    await expect(b.accessToken()).resolves.toEqual(expect.any(String));
  });
});
