// An organisation's SMS provider settings (Africa's Talking) on SQLite
// and PostgreSQL: the API key encrypted at rest and never in the page, a callback key made once and
// kept, owner only (view_settings sees what is set), clear messages for bad input, removal only once
// confirmed, and smsSenderFor for the dispatch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { SMS_SETTINGS_MESSAGES } from "~/lib/schemas/sms-settings";
import * as smsPage from "~/routes/$orgId+/organization+/sms";
import { getSmsSettings, saveSmsSettings, smsCallbackUrls, smsSenderFor } from "~/services/marketing/sms/settings.server";
import { decryptSecret, encryptSecret } from "~/services/secrets.server";
import { createFakeAfricasTalking, type FakeAfricasTalking } from "../../scripts/fakes/africastalking";
import { makeMember, makeOrg, sessionCookie } from "../fixtures";
import { startBuiltServer } from "../fixtures/http-server";
import { callRoute, contextOf, toastOf } from "../fixtures/records";

const USERNAME = "acme-cafe";
const API_KEY = "atsk_0f3a91c2b7de44a8a1c9e5d7f2b6c3a1";
const FORM = { intent: "save", username: USERNAME, api_key: API_KEY, sender_id: "ACME", messages_per_second: "25" };

let fake: FakeAfricasTalking;

beforeAll(async () => {
  fake = await createFakeAfricasTalking({ credentials: { [USERNAME]: API_KEY }, deliveryDelayMs: 0 });
});
afterAll(async () => {
  await fake?.close();
});

const pagePath = (orgId: number) => `/${orgId}/organization/sms`;
const page = (userId: number, orgId: number) => callRoute(smsPage.loader as never, { userId, orgId, path: pagePath(orgId) });
const post = (userId: number, orgId: number, form: Record<string, string>) =>
  callRoute(smsPage.action as never, { userId, orgId, path: pagePath(orgId), form });
const raw = (orgId: number) => db.selectFrom("sms_settings").selectAll().where("organization_id", "=", orgId).executeTakeFirst();

async function world() {
  const { org, owner } = await makeOrg(`SMS ${Math.random()}`);
  return { owner, orgId: org.id };
}

async function configured() {
  const w = await world();
  const res = await post(w.owner.id, w.orgId, FORM);
  expect(res.status).toBe(302);
  return w;
}

describe("saving the settings", () => {
  it("stores the API key encrypted, makes a callback key, and sends the page only whether the key is set", async () => {
    const { owner, orgId } = await world();
    const saved = await post(owner.id, orgId, FORM);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(pagePath(orgId));
    expect(await toastOf(saved)).toMatchObject({ message: "SMS settings saved." });

    const row = (await raw(orgId))!;
    expect(row).toMatchObject({ provider: "africastalking", username: USERNAME, sender_id: "ACME", messages_per_second: 25 });
    expect(row.api_key).not.toContain(API_KEY);
    expect(row.api_key).toMatch(/^v1\./);
    expect(decryptSecret(row.api_key)).toBe(API_KEY);
    expect(row.callback_key).toMatch(/^[\w-]{32}$/);

    const res = await page(owner.id, orgId);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const hidden of [API_KEY, row.api_key]) expect(text).not.toContain(hidden);
    const data = JSON.parse(text);
    expect(data.settings).toEqual({
      provider: "africastalking",
      username: USERNAME,
      apiKeySet: true,
      senderId: "ACME",
      messagesPerSecond: 25,
      updatedAt: expect.any(Number),
    });
    expect(data.callbackUrls).toEqual({
      delivery: `http://localhost/marketing/sms/${row.callback_key}/delivery`,
      inbound: `http://localhost/marketing/sms/${row.callback_key}/inbound`,
    });
    expect(data.callbackUrls).toEqual(smsCallbackUrls(row.callback_key));
    expect(data.canEdit).toBe(true);
  });

  it("keeps the stored key when the field is left empty and the callback key across saves; defaults the rate to 10", async () => {
    const { owner, orgId } = await configured();
    const before = (await raw(orgId))!;
    const res = await post(owner.id, orgId, { intent: "save", username: "sandbox", api_key: "", sender_id: "", messages_per_second: "" });
    expect(res.status).toBe(302);
    const after = (await raw(orgId))!;
    expect(after).toMatchObject({
      username: "sandbox",
      sender_id: null,
      messages_per_second: 10,
      callback_key: before.callback_key,
      api_key: before.api_key,
    });

    await post(owner.id, orgId, { ...FORM, api_key: "a-new-key" });
    expect(decryptSecret((await raw(orgId))!.api_key)).toBe("a-new-key");
    expect((await raw(orgId))!.callback_key).toBe(before.callback_key);
  });

  it("asks for the key on the first save, explains each bad field, and never echoes a typed key", async () => {
    const { owner, orgId } = await world();
    const missing = await post(owner.id, orgId, { ...FORM, api_key: "" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain(SMS_SETTINGS_MESSAGES.apiKeyRequired);
    expect(await raw(orgId)).toBeUndefined();

    const cases: Array<[Record<string, string>, string]> = [
      [{ username: "" }, SMS_SETTINGS_MESSAGES.usernameRequired],
      [{ username: "acme cafe; drop" }, SMS_SETTINGS_MESSAGES.usernameInvalid],
      [{ username: "a".repeat(101) }, SMS_SETTINGS_MESSAGES.tooLong],
      [{ api_key: "has spaces in it" }, SMS_SETTINGS_MESSAGES.apiKeyInvalid],
      [{ api_key: "k".repeat(201) }, SMS_SETTINGS_MESSAGES.tooLong],
      [{ sender_id: "TWELVE_CHARS" }, SMS_SETTINGS_MESSAGES.senderIdInvalid],
      [{ sender_id: "<script>" }, SMS_SETTINGS_MESSAGES.senderIdInvalid],
      [{ messages_per_second: "0" }, SMS_SETTINGS_MESSAGES.rateInvalid],
      [{ messages_per_second: "101" }, SMS_SETTINGS_MESSAGES.rateInvalid],
      [{ messages_per_second: "2.5" }, SMS_SETTINGS_MESSAGES.rateInvalid],
      [{ messages_per_second: "ten" }, SMS_SETTINGS_MESSAGES.rateInvalid],
      [{ messages_per_second: "99999999999999999999" }, SMS_SETTINGS_MESSAGES.rateInvalid],
    ];
    for (const [change, message] of cases) {
      const refused = await post(owner.id, orgId, { ...FORM, ...change });
      expect(refused.status, JSON.stringify(change)).toBe(400);
      const text = await refused.text();
      expect(JSON.parse(text).result.error).toEqual(expect.objectContaining({ [Object.keys(change)[0]]: [message] }));
      expect(text).not.toContain(API_KEY);
    }
    expect(await raw(orgId)).toBeUndefined();

    const nul = await post(owner.id, orgId, { ...FORM, username: "acme\0" });
    expect(nul.status).toBe(400);
    expect((await post(owner.id, orgId, { intent: "launch" })).status).toBe(400);
    expect(await raw(orgId)).toBeUndefined();
  });

  it("removes the settings only once confirmed; a later save makes new callback URLs", async () => {
    const { owner, orgId } = await configured();
    const key = (await raw(orgId))!.callback_key;
    const asked = await post(owner.id, orgId, { intent: "remove" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Are you sure you want to remove the SMS settings?");
    expect(await raw(orgId)).toBeDefined();
    const removed = await post(owner.id, orgId, { intent: "remove", confirmed: "yes" });
    expect(removed.status).toBe(302);
    expect(await toastOf(removed)).toMatchObject({ message: "SMS settings removed." });
    expect(await raw(orgId)).toBeUndefined();
    expect(await smsSenderFor(orgId)).toBeNull();

    await post(owner.id, orgId, FORM);
    expect((await raw(orgId))!.callback_key).not.toBe(key);
  });
});

describe("who may see and change them", () => {
  it("shows view_settings holders what is set (no key, no callback URLs), lets only the owner change it, and 404s other organisations", async () => {
    const { owner, orgId } = await configured();
    const viewer = await makeMember(orgId, "r");
    const without = await makeMember(orgId, "custom", ["view_networks"]);
    const { owner: otherOwner } = await world();
    const row = (await raw(orgId))!;

    const viewerPage = await page(viewer.user.id, orgId);
    expect(viewerPage.status).toBe(200);
    const text = await viewerPage.text();
    expect(JSON.parse(text)).toMatchObject({ canEdit: false, callbackUrls: null, settings: { username: USERNAME, apiKeySet: true } });
    for (const hidden of [API_KEY, row.api_key, row.callback_key]) expect(text).not.toContain(hidden);

    const forms: Record<string, string>[] = [
      { ...FORM, username: "hijacked" },
      { intent: "remove", confirmed: "yes" },
    ];
    for (const form of forms) {
      expect((await post(viewer.user.id, orgId, form)).status).toBe(403);
      expect((await post(otherOwner.id, orgId, form)).status).toBe(404);
    }
    expect((await page(without.user.id, orgId)).status).toBe(403);
    expect((await page(otherOwner.id, orgId)).status).toBe(404);
    expect((await raw(orgId))!.username).toBe(USERNAME);

    const viewerCtx = await contextOf(viewer.user.id, orgId);
    await expect(
      saveSmsSettings(viewerCtx, { username: "x", api_key: "y", sender_id: null, messages_per_second: 1 }),
    ).rejects.toMatchObject({ status: 403 });
    expect(await getSmsSettings(await contextOf(owner.id, orgId))).not.toBeNull();
  });
});

describe("the page as a browser without JavaScript gets it", () => {
  it("renders the form with a write-only key field and the callback URLs for the owner, a summary for others, and never the key", async () => {
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
      expect(ownerHtml).toContain('name="api_key"');
      expect(ownerHtml).toContain('type="password"');
      expect(ownerHtml).toContain("Set. Leave empty to keep it");
      expect(ownerHtml).toContain(`/marketing/sms/${row.callback_key}/delivery`);
      expect(ownerHtml).toContain(`/marketing/sms/${row.callback_key}/inbound`);
      expect(ownerHtml).toContain(">SMS</a>");
      const viewerHtml = await html(viewer.user.id);
      expect(viewerHtml).toContain("Only the organization&#x27;s administrator can change the SMS settings.");
      expect(viewerHtml).not.toContain('name="api_key"');
      expect(viewerHtml).not.toContain(row.callback_key);
      for (const body of [ownerHtml, viewerHtml]) for (const hidden of [API_KEY, row.api_key]) expect(body).not.toContain(hidden);
    } finally {
      await server.close();
    }
  });
});

describe("the sender for the dispatch", () => {
  it("sends with the saved username, key, sender ID and rate, through AFRICASTALKING_URL", async () => {
    const { orgId } = await configured();
    const saved = getEnv().AFRICASTALKING_URL;
    getEnv().AFRICASTALKING_URL = fake.url;
    try {
      const sender = (await smsSenderFor(orgId))!;
      expect(sender).toMatchObject({ from: "ACME", messagesPerSecond: 25 });
      const [result] = await sender.provider.send({ to: ["+254712000001"], text: "Karibu", from: sender.from });
      expect(result.status).toBe("sent");
      expect(fake.requests.at(-1)!.form).toMatchObject({ username: USERNAME, from: "ACME" });
    } finally {
      getEnv().AFRICASTALKING_URL = saved;
    }
  });

  it("answers null without settings, and says to enter the key again when it cannot be read", async () => {
    const { orgId } = await world();
    expect(await smsSenderFor(orgId)).toBeNull();
    const { orgId: broken } = await configured();
    // As if stored under another SECRETS_KEY: a well-formed ciphertext whose tag fails.
    const [v, iv, , body] = encryptSecret(API_KEY).split(".");
    await db
      .updateTable("sms_settings")
      .set({ api_key: [v, iv, "A".repeat(22), body].join(".") })
      .where("organization_id", "=", broken)
      .execute();
    await expect(smsSenderFor(broken)).rejects.toThrow("The saved Africa's Talking API key cannot be read");
  });
});
