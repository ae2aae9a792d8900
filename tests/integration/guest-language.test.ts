// Guest pages in Kiswahili and English (issue 35 item 6, decision 0079) and looking like the venue's
// everywhere (item 7), over HTTP against the built server, on SQLite and PostgreSQL: the language
// from Accept-Language, the page's switch (?lang=) carried through a sign-up's POST and redirect,
// the network's default language, the organisation's clock on the online page, unique field ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { DEMO_MPESA_FORM } from "../../scripts/fakes/daraja";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, postForm } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.close();
});

const SIGNUP = {
  mode: "SIGNUP",
  first_name: "Wanjiru",
  last_name: "Kamau",
  email_address: "wanjiru@example.co.ke",
  phone_number: "0712 345 678",
};

/** A guest at a new network; the access point names no page to continue to, so the online page follows. */
async function guest(venue: Record<string, unknown> = {}) {
  const { org, owner } = await makeOrg(`Lugha ${Math.random()}`);
  const network = await makeNetwork(org.id, venue);
  const query = merakiQuery(network.ap.mac_address, undefined, { user_continue_url: "" });
  const entry = await enter(server.origin, `/hotspot/meraki/${network.venue.portal_key}?${query}`);
  return { org, owner, ...network, token: entry.token! };
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${path}`, { headers, redirect: "manual" });
const ids = (page: string) => [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);

describe("the guest's language", () => {
  it('answers Accept-Language: sw-KE with a Kiswahili page, lang="sw", and a link to English', async () => {
    const { token } = await guest();
    const res = await get(`/connect?token=${token}`, { "Accept-Language": "sw-KE,sw;q=0.9,en;q=0.8" });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toMatch(/^<!doctype html><html lang="sw">/);
    expect(page).toContain("<h1>Unganishwa na Wi-Fi</h1>");
    expect(page).toContain('<button type="submit">Unganisha</button>');
    expect(page).toContain("Jina la kwanza");
    expect(page).not.toContain("First name");
    expect(page).toContain(`<a href="/connect?token=${token}&amp;lang=en" hrefLang="en" lang="en">English</a>`);
    expect(Buffer.byteLength(page)).toBeLessThan(15 * 1024);
  });

  it("keeps English for other browsers, word for word, and ?lang=en overrides a Kiswahili browser", async () => {
    const { token } = await guest();
    const english = await (await get(`/connect?token=${token}`, { "Accept-Language": "en-US,en;q=0.9" })).text();
    expect(english).toMatch(/^<!doctype html><html lang="en">/);
    expect(english).toContain("<h1>Get connected to WiFi</h1>");
    expect(english).toContain(`href="/connect?token=${token}&amp;lang=sw" hrefLang="sw" lang="sw">Kiswahili</a>`);
    const chosen = await (await get(`/connect?token=${token}&lang=en`, { "Accept-Language": "sw-KE" })).text();
    expect(chosen).toMatch(/^<!doctype html><html lang="en">/);
    expect(chosen).toContain('<button type="submit">Connect</button>');
    // The choice travels with the forms.
    expect(chosen).toContain('<input type="hidden" name="lang" value="en"/>');
    // Anything else is no choice: the browser's language stands.
    expect(await (await get(`/connect?token=${token}&lang=fr`, { "Accept-Language": "sw" })).text()).toMatch(/<html lang="sw">/);
  });

  it("carries the switch through a sign-up: the refused form, the redirect and the online page", async () => {
    const { token } = await guest();
    const refused = await postForm(server.origin, "/connect", { token, lang: "sw", ...SIGNUP, first_name: "" });
    expect(refused.status).toBe(422);
    const form = await refused.text();
    expect(form).toMatch(/<html lang="sw">/);
    expect(form).toContain('<p class="err" id="first_name-error">Jina la kwanza linahitajika.</p>');
    expect(form).toContain('<input type="hidden" name="lang" value="sw"/>');

    const done = await postForm(server.origin, "/connect", { token, lang: "sw", ...SIGNUP });
    expect(done.status).toBe(303);
    const location = decodeURIComponent(done.headers.get("location")!);
    expect(location).toContain(`/connect/online?token=${token}&lang=sw`);
    const online = await (await get(`/connect/online?token=${token}&lang=sw`)).text();
    expect(online).toMatch(/<html lang="sw">/);
    expect(online).toContain("<h1>Umeunganishwa</h1>");
    expect(online).toContain("Sasa unaweza kutumia intaneti.");

    // The link a second time: the guest is online, and the page says so (not a red dead end), in Kiswahili.
    const again = await get(`/connect?token=${token}&lang=sw`);
    expect(again.status).toBe(409);
    const page = await again.text();
    expect(page).toContain('<div class="alert ok" role="status"><p>Muunganisho huu tayari umeidhinishwa</p>');
    expect(page).toContain("<h1>Umeunganishwa</h1>");
    expect(page).toMatch(/Kipindi chako kinadumu hadi \d\d:\d\d UTC\./);
    // English keeps the spec's sentence.
    const english = await (await get(`/connect?token=${token}`)).text();
    expect(english).toContain("Connection has already been authorized");
    expect(english).toContain("<h1>You are online</h1>");
  });

  it("uses the network's default language when the browser names neither, and the setting is kept on the network", async () => {
    const { token, venue } = await guest({ guest_language: "sw" });
    expect(await (await get(`/connect?token=${token}`)).text()).toMatch(/<html lang="sw">/);
    expect(await (await get(`/connect?token=${token}`, { "Accept-Language": "fr-FR" })).text()).toContain("Unganisha");
    // The guest's browser asking for English still gets English; the switch still wins over both.
    expect(await (await get(`/connect?token=${token}`, { "Accept-Language": "en-GB" })).text()).toMatch(/<html lang="en">/);
    const row = await db.selectFrom("venues").select("guest_language").where("id", "=", venue.id).executeTakeFirstOrThrow();
    expect(row.guest_language).toBe("sw");
  });

  it("answers entry errors in the browser's language", async () => {
    const res = await get(`/hotspot/meraki/NoSuchPortalKey0000000000?${merakiQuery("00:18:0a:00:00:01")}`, { "Accept-Language": "sw-KE" });
    expect(res.status).toBe(404);
    const page = await res.text();
    expect(page).toMatch(/<html lang="sw">/);
    expect(page).toContain("Hatukuweza kukuunganisha");
    expect(page).toContain("Mtandao huu wa Wi-Fi haujawekwa kwenye Mlango.");
  });
});

describe("guest pages of the venue", () => {
  it("show the online page of a Nairobi organisation on its clock, with no UTC", async () => {
    const { org, token } = await guest();
    await db
      .updateTable("organizations")
      .set({ time_zone: "Africa/Nairobi", utc_offset_ms: 3 * 3_600_000 })
      .where("id", "=", org.id)
      .execute();
    expect((await postForm(server.origin, "/connect", { token, ...SIGNUP })).status).toBe(303);
    const { session_expires_at } = await db
      .selectFrom("connections")
      .select("session_expires_at")
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    const local = new Date(Number(session_expires_at) + 3 * 3_600_000).toISOString().slice(11, 16);
    const page = await (await get(`/connect/online?token=${token}`)).text();
    expect(page).toContain("<h1>You are online</h1>");
    expect(page).toContain(`until ${local}`);
    expect(page).not.toContain("UTC");
  });

  it("give every field of the connect page its own id, the M-Pesa phone apart from the sign-up's", async () => {
    const { org, owner, token } = await guest();
    const ctx = await contextOf(owner.id, org.id);
    const plan = await createPlan(
      ctx,
      servicePlanSchema(false).parse({
        name: "Two hours",
        price: "50",
        plan_kind: "Limited",
        limit_type: "Time",
        time_limit: "2",
        time_limit_unit: "Hrs",
        validity: "1",
        validity_units: "Days",
      }),
    );
    expect(plan.ok).toBe(true);
    expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
    const page = await (await get(`/connect?token=${token}`)).text();
    expect(page).toContain('id="phone_number"');
    expect(page).toContain('<label for="mpesa_phone_number">M-Pesa phone number</label><input id="mpesa_phone_number" name="phone_number"');
    const all = ids(page);
    expect(all.length).toBeGreaterThan(4);
    expect(new Set(all).size).toBe(all.length);
    // A refused purchase puts its error under the M-Pesa field only.
    const refused = await postForm(server.origin, "/connect/mpesa", { token, plan_id: String(plan.ok ? plan.id : 0), phone_number: "12" });
    expect(refused.status).toBe(422);
    const form = await refused.text();
    expect(form).toContain('id="mpesa_phone_number-error"');
    expect(form).not.toContain('id="phone_number-error"');
    expect(new Set(ids(form)).size).toBe(ids(form).length);
  });
});

describe("the privacy pages and a throttled guest in Kiswahili", () => {
  it("give the notice in the guest's language under the same version as the English notice", async () => {
    const { token } = await guest();
    const english = await (await get(`/connect/privacy?token=${token}`)).text();
    const swahili = await (await get(`/connect/privacy?token=${token}`, { "Accept-Language": "sw-KE" })).text();
    expect(swahili).toMatch(/^<!doctype html><html lang="sw">/);
    expect(swahili).toContain("<h1>Ilani ya faragha</h1>");
    expect(swahili).toContain("Haki zako");
    expect(swahili).not.toContain("Who is responsible");
    const version = /Version ([0-9a-f]{16})/.exec(english)![1];
    expect(swahili).toContain(`Toleo ${version}`);
    // The connect page posts the same version whatever its language, so a consent given in Kiswahili is the English one's.
    const form = await (await get(`/connect?token=${token}&lang=sw`)).text();
    expect(form).toContain(`name="notice_version" value="${version}"`);
    expect(form).toContain(`/connect/privacy?token=${token}&amp;lang=sw`);
  });

  it("carry the chosen language through the data-access page's forms", async () => {
    const { token } = await guest();
    const page = await (await get(`/connect/my-data?token=${token}&lang=sw`)).text();
    expect(page).toMatch(/<html lang="sw">/);
    expect(page).toContain("<h1>Data yako</h1>");
    expect(page).toContain("Nitumie nambari ya siri");
    expect(page).toContain('<input type="hidden" name="lang" value="sw"/>');
  });

  it("tell a guest who guessed voucher codes too often when to try again, in Kiswahili", async () => {
    const { token } = await guest();
    let last: Response | null = null;
    for (let i = 0; i < 6; i++)
      last = await postForm(server.origin, "/connect", { token, lang: "sw", mode: "VOUCHER", voucher_code: `WRONG${i}` });
    expect(last!.status).toBe(429);
    const page = await last!.text();
    expect(page).toMatch(/<html lang="sw">/);
    expect(page).toContain("<h1>Majaribio mengi mno</h1>");
    expect(page).toMatch(/Nambari nyingi mno za vocha zimejaribiwa kwenye kifaa hiki\. Tafadhali jaribu tena baada ya dakika \d+\./);
    expect(page).toContain(`href="/connect?token=${token}&amp;lang=sw"`);
  });
});
