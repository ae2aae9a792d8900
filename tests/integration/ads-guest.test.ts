// Ads on the guest path over real HTTP against the built server, on SQLite and PostgreSQL:
// a campaign and a banner made through the console (the upload through the request
// boundary), the connect page — built-in and inside a published splash page — shows the banner as a
// plain image link, the image is served from /assets/ads/…, a click goes through /ads/click/{id}
// (counted, then to the stored URL only), signing up after seeing the banner is a conversion,
// pausing stops serving, bad click links are 404s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { adsReport } from "~/services/ads/figures.server";
import { makeOrg, sessionCookie } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, postForm } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";
import { createPage, publishPage, saveCode, setPageType } from "~/services/splash/pages.server";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.close();
});

const GIF = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([64, 0, 20, 0, 0, 0, 0]), Buffer.from([0x3b])]);
const SIGNUP = {
  mode: "SIGNUP",
  first_name: "Amina",
  last_name: "Otieno",
  email_address: "amina@example.com",
  phone_number: "0712 345 678",
};

/**
 * An organisation with a network and a campaign with one banner, made through the console over HTTP
 * (the built server's own process then forgets the banners it cached for networks: ids start again
 * in every test on PostgreSQL). The upload also goes through the request boundary's upload limit.
 */
async function world() {
  const { org, owner } = await makeOrg(`Ads guest ${Math.random()}`);
  const network = await makeNetwork(org.id);
  const ctx = await contextOf(owner.id, org.id);
  const cookie = await sessionCookie(owner.id);
  const created = await fetch(`${server.origin}/${org.id}/ads/create`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ campaignname: "Fibre", clientname: "Safaricom", activate_time: "2026-01-01T00:00" }).toString(),
  });
  expect(created.status).toBe(302);
  const campaignId = Number(/\/ads\/banners\/(\d+)$/.exec(created.headers.get("location")!)![1]);
  const form = new FormData();
  form.set("campaign_id", String(campaignId));
  form.set("click_url", "https://advertiser.example/fibre?from=wifi");
  form.set("description", "Fibre at home");
  form.set("active", "on");
  form.set("file", new Blob([new Uint8Array(GIF)], { type: "image/gif" }), "fibre.gif");
  const uploaded = await fetch(`${server.origin}/${org.id}/ads/banners/${campaignId}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie },
    body: form,
  });
  expect(uploaded.status).toBe(302);
  const banner = await db.selectFrom("ad_banners").select("id").where("campaign_id", "=", campaignId).executeTakeFirstOrThrow();
  return { org, owner, ctx, ...network, campaignId, bannerId: Number(banner.id) };
}

async function newGuest(portalKey: string, apMac: string): Promise<string> {
  const entry = await enter(server.origin, `/hotspot/meraki/${portalKey}?${merakiQuery(apMac)}`);
  expect(entry.status).toBe(302);
  return entry.token!;
}

describe("banners on the guest connect page", () => {
  it("shows the banner as a plain link, serves its image, counts the view, the click and the conversion, and stops when paused", async () => {
    const w = await world();
    const token = await newGuest(w.venue.portal_key, w.ap.mac_address);
    const page = await fetch(`${server.origin}/connect?token=${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const link =
      /<a href="(\/ads\/click\/(\d+)\?token=[^"]+)"[^>]*><img src="(\/assets\/ads\/[^"]+)" width="64" height="20" alt="Fibre at home"/.exec(
        html,
      );
    expect(link, html).not.toBeNull();
    expect(Number(link![2])).toBe(w.bannerId);
    expect(html).not.toContain("<script");

    const image = await fetch(`${server.origin}${link![3]}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/gif");
    expect(Buffer.from(await image.arrayBuffer()).equals(GIF)).toBe(true);
    expect((await fetch(`${server.origin}/assets/ads/${w.org.id}/nope-0000000000000000.gif`)).status).toBe(404);

    // Reloads within the minute count once.
    await fetch(`${server.origin}/connect?token=${token}`);
    // The click: counted, then the stored URL, whatever the query says.
    const click = await fetch(`${server.origin}${link![1].replace(/&amp;/g, "&")}&url=https://evil.example/`, { redirect: "manual" });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://advertiser.example/fibre?from=wifi");
    expect(click.headers.get("referrer-policy")).toBe("no-referrer");

    const signup = await postForm(server.origin, "/connect", { token, ...SIGNUP });
    expect(signup.status).toBe(303);
    const window = { startMs: Date.UTC(2026, 0, 1), endMs: Date.now() + 86_400_000 };
    expect((await adsReport(w.ctx, window)).totals).toEqual({ impressions: 1, clicks: 1, conversions: 1 });

    // Paused in the console (this server's process forgets its cached banners at once).
    const pause = await fetch(`${server.origin}/${w.org.id}/ads/campaigns`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: await sessionCookie(w.owner.id), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "pause", id: String(w.campaignId) }).toString(),
    });
    expect(pause.status).toBe(302);
    expect((await db.selectFrom("ad_campaigns").select("paused").where("id", "=", w.campaignId).executeTakeFirstOrThrow()).paused).toBe(1);
    const later = await newGuest(w.venue.portal_key, w.ap.mac_address);
    const pausedPage = await (await fetch(`${server.origin}/connect?token=${later}`)).text();
    expect(pausedPage).toContain("Get connected to WiFi");
    expect(pausedPage).not.toContain("/ads/click/");
  });

  it("shows the banner inside the network's published splash page too", async () => {
    const w = await world();
    const { id } = await createPage(w.ctx, { name: "Cafe", css_template: "bootstrap4.css", description: null });
    await setPageType(w.ctx, id, 2);
    await saveCode(w.ctx, id, { html: "<h1>Karibu Cafe</h1>{{ connect_form }}" });
    expect((await publishPage(w.ctx, id)).ok).toBe(true);
    await db.updateTable("venues").set({ splash_page_id: id }).where("id", "=", w.venue.id).execute();
    const token = await newGuest(w.venue.portal_key, w.ap.mac_address);
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain("<h1>Karibu Cafe</h1>");
    expect(page).toMatch(new RegExp(`<a href="/ads/click/${w.bannerId}\\?token=`));
  });

  it("answers unknown or malformed click links with a 404 page and counts nothing", async () => {
    const w = await world();
    for (const path of ["/ads/click/abc", "/ads/click/0", `/ads/click/${w.bannerId + 1000}`, "/ads/click/99999999999"]) {
      const res = await fetch(`${server.origin}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("location")).toBeNull();
    }
    // A click without a token still sends the guest on, and counts nothing.
    const res = await fetch(`${server.origin}/ads/click/${w.bannerId}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(await db.selectFrom("ad_events").select("id").where("banner_id", "=", w.bannerId).execute()).toEqual([]);
  });
});
