// Ads (docs/guide/ads.md#routes, #campaigns, #banners, #dashboard-and-analytics) on
// SQLite and PostgreSQL, through the routes' loaders and actions and the services: the campaign
// rules, the derived statuses and a Pause that changes the campaign, campaigns.csv, banner uploads
// (type by content, size from the image, http(s) click URLs only), serving and rotation, counting
// with the once-a-minute dedupe, the idempotent hourly roll-up and conversions, the dashboard,
// analytics and dashlet figures, other organisations' ids and permissions.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { ADS_MESSAGES, campaignStatusOf, clickThroughRate } from "~/lib/schemas/ads";
import * as bannersRoute from "~/routes/$orgId+/ads+/banners.($campaignId)";
import * as campaignsRoute from "~/routes/$orgId+/ads+/campaigns";
import * as csvRoute from "~/routes/$orgId+/ads+/campaigns[.csv]";
import * as createRoute from "~/routes/$orgId+/ads+/create";
import * as dashboardRoute from "~/routes/$orgId+/ads+/_index";
import * as analyticsRoute from "~/routes/$orgId+/ads+/analytics";
import { adsReport, campaignSummary, hourlyFigures, rollUpAds } from "~/services/ads/figures.server";
import { bannerForGuest, candidateBanners, logAdEvent, pickBanner, recordClick, settleAdWrites } from "~/services/ads/serving.server";
import { forgetCandidates } from "~/services/ads/candidates-cache.server";
import { hashToken } from "~/services/crypto.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { PNG, useTemporaryAssetStore } from "../fixtures/layout";
import { contextOf, insertConnection, insertVenue, toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<unknown>;

let store: ReturnType<typeof useTemporaryAssetStore>;
beforeAll(() => {
  store = useTemporaryAssetStore();
});
afterAll(() => store.cleanup());
// Ids start again in every test (PostgreSQL restarts identities): no banners cached from the last one.
beforeEach(() => forgetCandidates());

const HOUR = 3_600_000;
/** A 32 × 16 GIF (header and logical screen descriptor: enough for the type and the size). */
const GIF = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([32, 0, 16, 0, 0, 0, 0]), Buffer.from([0x3b])]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

function as(userId: number, orgId: number) {
  const call = async (fn: Fn, path: string, params: Record<string, string>, form?: Record<string, string | string[]>) => {
    const request = makeRequest(`/${orgId}/${path}`, { form, cookie: await sessionCookie(userId) });
    return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
  };
  return {
    get: (fn: Fn, path: string, params: Record<string, string> = {}) => call(fn, path, params),
    post: (fn: Fn, path: string, form: Record<string, string | string[]>, params: Record<string, string> = {}) =>
      call(fn, path, params, form),
    upload: async (
      campaignParam: string | undefined,
      fields: Record<string, string>,
      file: { bytes: Buffer; name: string; type: string } | null,
    ) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      if (file) body.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
      const path = `/${orgId}/ads/banners${campaignParam ? `/${campaignParam}` : ""}`;
      const request = new Request(`http://localhost${path}`, { method: "POST", body, headers: { Cookie: await sessionCookie(userId) } });
      return run(() =>
        bannersRoute.action({
          request,
          params: { orgId: String(orgId), ...(campaignParam ? { campaignId: campaignParam } : {}) },
          context: {},
        }),
      );
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);

async function world() {
  const { org, owner } = await makeOrg(`Ads ${Math.random()}`);
  const venue = await insertVenue(org.id, { name: "Java House" });
  const other = await insertVenue(org.id, { name: "Artcaffe" });
  return { orgId: org.id, owner, venue, other, me: as(owner.id, org.id) };
}

const campaignForm = (fields: Record<string, string | string[]> = {}) => ({
  campaignname: "Safaricom Home",
  clientname: "Safaricom",
  revenue: "1500.50",
  activate_time: iso(Date.now() - HOUR),
  expire_time: "",
  ...fields,
});

async function createdCampaign(me: ReturnType<typeof as>, fields: Record<string, string | string[]> = {}): Promise<number> {
  const res = await me.post(createRoute.action, "ads/create", campaignForm(fields));
  expect(res.status).toBe(302);
  return Number(/ads\/banners\/(\d+)$/.exec(res.headers.get("Location")!)![1]);
}

async function uploadedBanner(
  me: ReturnType<typeof as>,
  campaignId: number,
  fields: Record<string, string> = {},
  file = { bytes: GIF, name: "b.gif", type: "image/gif" },
): Promise<number> {
  const res = await me.upload(
    String(campaignId),
    { campaign_id: String(campaignId), click_url: "https://advertiser.example/offer", description: "Home fibre", active: "on", ...fields },
    file,
  );
  expect(res.status).toBe(302);
  const row = await db
    .selectFrom("ad_banners")
    .select("id")
    .where("campaign_id", "=", campaignId)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A guest's connection on a network, with its connect token. */
async function guest(orgId: number, venueId: number, fields: { authorized_at?: number | null; created_at?: number } = {}) {
  const token = `tok${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`.slice(0, 32).padEnd(32, "x");
  const c = await insertConnection(orgId, { venue_id: venueId, token: hashToken(token), ...fields });
  return { id: c.id, token, view: { organizationId: orgId, connectionId: c.id, network: { id: venueId } } as never };
}

const events = (bannerId: number) => db.selectFrom("ad_events").selectAll().where("banner_id", "=", bannerId).orderBy("id").execute();

describe("campaigns", () => {
  it("creates a campaign with its networks and revenue in cents; refuses missing names, bad revenue, reversed times and other organisations' networks", async () => {
    const { orgId, me, venue } = await world();
    const foreign = await world();
    const missing = await me.post(createRoute.action, "ads/create", campaignForm({ campaignname: " ", clientname: "" }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Json).error).toMatchObject({
      campaignname: [ADS_MESSAGES.nameRequired],
      clientname: [ADS_MESSAGES.clientRequired],
    });
    const revenue = await me.post(createRoute.action, "ads/create", campaignForm({ revenue: "12.345" }));
    expect(((await revenue.json()) as Json).error.revenue).toEqual([ADS_MESSAGES.revenueInvalid]);
    const reversed = await me.post(
      createRoute.action,
      "ads/create",
      campaignForm({ activate_time: "2026-12-01T10:00", expire_time: "2026-12-01T09:00" }),
    );
    expect(((await reversed.json()) as Json).error.expire_time).toEqual([ADS_MESSAGES.expireOrder]);
    const badTime = await me.post(createRoute.action, "ads/create", campaignForm({ activate_time: "tomorrow" }));
    expect(((await badTime.json()) as Json).error.activate_time).toEqual([ADS_MESSAGES.timeInvalid]);
    const stolen = await me.post(
      createRoute.action,
      "ads/create",
      campaignForm({ venue_ids: [String(venue.id), String(foreign.venue.id)] }),
    );
    expect(stolen.status).toBe(422);
    expect(((await stolen.json()) as Json).error.venue_ids).toEqual([ADS_MESSAGES.foreignVenue]);
    expect(await db.selectFrom("ad_campaigns").select("id").where("organization_id", "=", orgId).execute()).toEqual([]);

    const res = await me.post(
      createRoute.action,
      "ads/create",
      campaignForm({ venue_ids: [String(venue.id)], activate_time: "2026-11-01T08:30", expire_time: "2027-01-01T00:00" }),
    );
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({ type: "success", message: ADS_MESSAGES.created });
    const id = Number(/ads\/banners\/(\d+)$/.exec(res.headers.get("Location")!)![1]);
    const row = await db.selectFrom("ad_campaigns").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect({
      ...row,
      revenue_cents: Number(row.revenue_cents),
      activate_at: Number(row.activate_at),
      expire_at: Number(row.expire_at),
    }).toMatchObject({
      organization_id: orgId,
      name: "Safaricom Home",
      client_name: "Safaricom",
      revenue_cents: 150050,
      activate_at: Date.UTC(2026, 10, 1, 8, 30),
      expire_at: Date.UTC(2027, 0, 1),
      paused: 0,
    });
    expect(await db.selectFrom("ad_campaign_networks").select("venue_id").where("campaign_id", "=", id).execute()).toEqual([
      { venue_id: venue.id },
    ]);
  });

  it("derives the spec's status (pause 1 Paused, else status 0 Active, else Inactive) and Pause/Activate changes the campaign on the server", async () => {
    expect([campaignStatusOf("1", "0"), campaignStatusOf("0", "0"), campaignStatusOf("0", "1"), campaignStatusOf("1", "1")]).toEqual([
      "Paused",
      "Active",
      "Inactive",
      "Paused",
    ]);
    const { me } = await world();
    const running = await createdCampaign(me, { campaignname: "Running" });
    const future = await createdCampaign(me, { campaignname: "Future", activate_time: iso(Date.now() + 48 * HOUR) });
    const expired = await createdCampaign(me, {
      campaignname: "Expired",
      activate_time: iso(Date.now() - 48 * HOUR),
      expire_time: iso(Date.now() - 24 * HOUR),
    });
    const paused = await createdCampaign(me, { campaignname: "Paused", pause: "on" });
    const statuses = async () =>
      Object.fromEntries(
        (((await (await me.get(campaignsRoute.loader, "ads/campaigns")).json()) as Json).rows as Json[]).map((r) => [
          r.name,
          [r.pause, r.status, r.derivedStatus],
        ]),
      );
    expect(await statuses()).toEqual({
      Running: ["0", "0", "Active"],
      Future: ["0", "1", "Inactive"],
      Expired: ["0", "1", "Inactive"],
      Paused: ["1", "0", "Paused"],
    });

    const pause = await me.post(campaignsRoute.action, "ads/campaigns", { intent: "pause", id: String(running) });
    expect(pause.status).toBe(302);
    expect(await toastOf(pause)).toEqual({ type: "success", message: ADS_MESSAGES.paused });
    await me.post(campaignsRoute.action, "ads/campaigns", { intent: "activate", id: String(paused) });
    expect(await statuses()).toEqual({
      Running: ["1", "0", "Paused"],
      Future: ["0", "1", "Inactive"],
      Expired: ["0", "1", "Inactive"],
      Paused: ["0", "0", "Active"],
    });
    expect((await me.post(campaignsRoute.action, "ads/campaigns", { intent: "explode", id: String(paused) })).status).toBe(400);
    void future;
    void expired;
  });

  it("exports campaigns.csv with the derived status, and says 'No data to export.' when there is none", async () => {
    const { me } = await world();
    const empty = await me.get(csvRoute.loader, "ads/campaigns.csv");
    expect(empty.status).toBe(404);
    expect(await empty.text()).toBe("No data to export.");
    await createdCampaign(me, { campaignname: '=HYPERLINK("x")', activate_time: "2026-11-01T08:30" });
    const res = await me.get(csvRoute.loader, "ads/campaigns.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="campaigns.csv"');
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe("#,Campaign ID,Campaign Name,Client Name,Revenue (Ksh),Activate Time (UTC),Expire Time (UTC),Pause,Status");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("'=HYPERLINK"); // not run as a formula
    expect(lines[1]).toMatch(/,Safaricom,1500\.50,01-11-2026 08:30,,0,Active$/);
  });
});

describe("banners", () => {
  it("stores an upload in the asset store with the width and height read from the image, and lists it with a full-size preview", async () => {
    const { orgId, me } = await world();
    const campaign = await createdCampaign(me);
    const id = await uploadedBanner(me, campaign);
    const gifRow = await db.selectFrom("ad_banners").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(gifRow).toMatchObject({
      organization_id: orgId,
      width: 32,
      height: 16,
      active: 1,
      click_url: "https://advertiser.example/offer",
      description: "Home fibre",
    });
    expect(gifRow.asset_key).toMatch(new RegExp(`^ads/${orgId}/banner-[0-9a-f]{16}\\.gif$`));
    expect(store.files().some((f) => f.endsWith(gifRow.asset_key.split("/").pop()!))).toBe(true);
    const png = await uploadedBanner(me, campaign, { active: "" }, { bytes: PNG, name: "x.jpg", type: "image/jpeg" });
    const pngRow = await db.selectFrom("ad_banners").selectAll().where("id", "=", png).executeTakeFirstOrThrow();
    expect(pngRow).toMatchObject({ width: 1, height: 1, active: 0 });
    expect(pngRow.asset_key.endsWith(".png")).toBe(true); // by content, not by name

    const page = (await (await me.get(bannersRoute.loader, `ads/banners/${campaign}`, { campaignId: String(campaign) })).json()) as Json;
    expect(page.campaign).toMatchObject({ id: campaign, name: "Safaricom Home", derivedStatus: "Active" });
    expect(page.page.rows.map((r: Json) => [r.id, r.width, r.height, r.active, r.imagePath])).toEqual([
      [png, 1, 1, false, `/assets/${pngRow.asset_key}`],
      [id, 32, 16, true, `/assets/${gifRow.asset_key}`],
    ]);
    const all = (await (await me.get(bannersRoute.loader, "ads/banners")).json()) as Json;
    expect(all.campaign).toBeNull();
    expect(all.page.total).toBe(2);

    const off = await me.post(
      bannersRoute.action,
      `ads/banners/${campaign}`,
      { intent: "deactivate", id: String(id) },
      { campaignId: String(campaign) },
    );
    expect(await toastOf(off)).toEqual({ type: "success", message: ADS_MESSAGES.bannerDeactivated });
    expect((await db.selectFrom("ad_banners").select("active").where("id", "=", id).executeTakeFirstOrThrow()).active).toBe(0);
  });

  it("refuses SVG and other non-images, non-http(s) click URLs and another organisation's campaign, and stores nothing", async () => {
    const { me } = await world();
    const foreign = await world();
    const campaign = await createdCampaign(me);
    const foreignCampaign = await createdCampaign(foreign.me);
    const fields = { campaign_id: String(campaign), click_url: "https://advertiser.example", active: "on" };
    const svg = await me.upload(String(campaign), fields, { bytes: SVG, name: "logo.png", type: "image/png" });
    expect(svg.status).toBe(422);
    expect(((await svg.json()) as Json).error[""]).toEqual([ADS_MESSAGES.wrongType]);
    const text = await me.upload(String(campaign), fields, { bytes: Buffer.from("hello"), name: "a.gif", type: "image/gif" });
    expect(text.status).toBe(422);
    const none = await me.upload(String(campaign), fields, null);
    expect(none.status).toBe(422);
    for (const url of ["javascript:alert(1)", "data:text/html,hi", "ftp://files.example/x", "//evil.example", "not a url", ""]) {
      const res = await me.upload(String(campaign), { ...fields, click_url: url }, { bytes: GIF, name: "b.gif", type: "image/gif" });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as Json).error.click_url, url).toEqual([url ? ADS_MESSAGES.urlInvalid : ADS_MESSAGES.urlRequired]);
    }
    const stolen = await me.upload(
      undefined,
      { ...fields, campaign_id: String(foreignCampaign) },
      { bytes: GIF, name: "b.gif", type: "image/gif" },
    );
    expect(stolen.status).toBe(422);
    expect(((await stolen.json()) as Json).error.campaign_id).toEqual([ADS_MESSAGES.campaignNotFound]);
    expect(await db.selectFrom("ad_banners").select("id").execute()).toEqual([]);
  });
});

describe("serving and counting", () => {
  it("serves active banners of running campaigns that target the network (none = every network), in turn by connection", async () => {
    const { orgId, me, venue, other } = await world();
    const everywhere = await createdCampaign(me, { campaignname: "Everywhere" });
    const onlyOther = await createdCampaign(me, { campaignname: "Only Artcaffe", venue_ids: [String(other.id)] });
    const paused = await createdCampaign(me, { campaignname: "Paused", pause: "on" });
    const future = await createdCampaign(me, { campaignname: "Future", activate_time: iso(Date.now() + 48 * HOUR) });
    const a = await uploadedBanner(me, everywhere);
    const b = await uploadedBanner(me, everywhere);
    await uploadedBanner(me, everywhere, { active: "" });
    const c = await uploadedBanner(me, onlyOther);
    await uploadedBanner(me, paused);
    await uploadedBanner(me, future);
    expect((await candidateBanners(orgId, venue.id)).map((x) => x.id)).toEqual([a, b]);
    expect((await candidateBanners(orgId, other.id)).map((x) => x.id)).toEqual([a, b, c]);
    const foreign = await world();
    expect(await candidateBanners(foreign.orgId, foreign.venue.id)).toEqual([]);
    // Rotation: successive connections walk through the banners, each equally often.
    const picks = [10, 11, 12, 13].map((id) => pickBanner([a, b], id));
    expect(picks).toEqual([a, b, a, b]);

    const g = await guest(orgId, venue.id);
    const banner = await bannerForGuest(g.view, g.token);
    const served = pickBanner([a, b], g.id)!;
    expect(banner).toMatchObject({
      id: served,
      href: `/ads/click/${served}?token=${g.token}`,
      width: 32,
      height: 16,
      description: "Home fibre",
    });
    expect(banner?.src).toMatch(/^\/assets\/ads\/\d+\/banner-[0-9a-f]{16}\.gif$/);
    await settleAdWrites();
    expect((await events(served)).map((e) => [e.kind, Number(e.connection_id) === g.id])).toEqual([["i", true]]);
    // Pausing stops serving at once.
    await me.post(campaignsRoute.action, "ads/campaigns", { intent: "pause", id: String(everywhere) });
    expect(await bannerForGuest(g.view, g.token)).toBeNull();
    // Deleting the only network a campaign targets does not widen it to every network.
    await db.deleteFrom("venues").where("id", "=", other.id).execute();
    expect((await candidateBanners(orgId, venue.id)).map((x) => x.id)).toEqual([]);
    const listed = (await (await me.get(campaignsRoute.loader, "ads/campaigns")).json()) as Json;
    expect(listed.rows.find((r: Json) => r.id === onlyOther)).toMatchObject({ allNetworks: false, venueIds: [] });
    expect(listed.rows.find((r: Json) => r.id === everywhere)).toMatchObject({ allNetworks: true, venueIds: [] });
  });

  it("counts an impression and a click once a minute per connection and banner; the click goes to the stored URL only", async () => {
    const { orgId, me, venue } = await world();
    const campaign = await createdCampaign(me, { activate_time: "2026-11-01T00:00" });
    const banner = await uploadedBanner(me, campaign, { click_url: "http://advertiser.example/landing?x=1" });
    const g = await guest(orgId, venue.id);
    const t0 = Date.UTC(2026, 10, 25, 10, 0, 5);
    for (let i = 0; i < 5; i++) await bannerForGuest(g.view, g.token, t0 + i * 1000); // reloads within the minute
    await bannerForGuest(g.view, g.token, t0 + 60_000); // the next minute
    await settleAdWrites(); // impressions are written while the page goes out
    expect((await events(banner)).map((e) => [e.kind, Number(e.minute)])).toEqual([
      ["i", Math.floor(t0 / 60_000)],
      ["i", Math.floor(t0 / 60_000) + 1],
    ]);
    expect(await recordClick(banner, g.token, t0 + 2000)).toBe("http://advertiser.example/landing?x=1");
    expect(await recordClick(banner, g.token, t0 + 3000)).toBe("http://advertiser.example/landing?x=1");
    // No or another organisation's token: the guest still goes on, nothing is counted.
    expect(await recordClick(banner, null)).toBe("http://advertiser.example/landing?x=1");
    const foreign = await world();
    const stranger = await guest(foreign.orgId, foreign.venue.id);
    expect(await recordClick(banner, stranger.token)).toBe("http://advertiser.example/landing?x=1");
    expect(await recordClick(banner + 1000, g.token)).toBeNull();
    expect((await events(banner)).filter((e) => e.kind === "c")).toHaveLength(1);
  });

  it("rolls events up per hour idempotently, counts a conversion when the guest authorized after clicking the banner, and answers the same before and after", async () => {
    const { orgId, owner, me, venue } = await world();
    const campaign = await createdCampaign(me, { activate_time: "2026-11-01T00:00" });
    const banner = await uploadedBanner(me, campaign);
    const ref = { id: banner, campaignId: campaign, organizationId: orgId };
    const h10 = Date.UTC(2026, 10, 20, 10);
    // Guest 1: sees at 10:05 and 11:10, clicks at 11:11, authorizes at 11:15 → one conversion, in 11:00 (the click's hour).
    const g1 = await guest(orgId, venue.id, { authorized_at: h10 + HOUR + 15 * 60_000 });
    await logAdEvent(ref, g1.id, "i", h10 + 5 * 60_000);
    await logAdEvent(ref, g1.id, "i", h10 + HOUR + 10 * 60_000);
    await logAdEvent(ref, g1.id, "c", h10 + HOUR + 11 * 60_000);
    // Guest 2: sees at 10:30, never authorizes. Guest 3: sees at 11:50 and authorizes at 11:55 without a click: no
    // conversion (a guest who only saw the banner would make conversions outnumber clicks).
    const g2 = await guest(orgId, venue.id);
    await logAdEvent(ref, g2.id, "i", h10 + 30 * 60_000);
    const g3 = await guest(orgId, venue.id, { authorized_at: h10 + HOUR + 55 * 60_000 });
    await logAdEvent(ref, g3.id, "i", h10 + HOUR + 50 * 60_000);

    const ctx = await contextOf(owner.id, orgId);
    const window = { startMs: Date.UTC(2026, 10, 20), endMs: Date.UTC(2026, 10, 21) };
    const live = await adsReport(ctx, window); // nothing rolled up yet: all from the raw events
    expect(live.totals).toEqual({ impressions: 4, clicks: 1, conversions: 1 });
    const hours = (r: typeof live) =>
      r.hours.filter((h) => h.impressions || h.clicks || h.conversions).map((h) => [h.hour, h.impressions, h.clicks, h.conversions]);
    expect(hours(live)).toEqual([
      [h10, 2, 0, 0],
      [h10 + HOUR, 2, 1, 1],
    ]);

    const first = await rollUpAds(h10 + 3 * HOUR + 60_000);
    expect(first).toMatchObject({ from: h10, to: h10 + 3 * HOUR, rows: 2 });
    const rolled = async () =>
      (await db.selectFrom("ad_hourly").selectAll().where("banner_id", "=", banner).orderBy("hour").execute()).map((r) => [
        Number(r.hour),
        Number(r.impressions),
        Number(r.clicks),
        Number(r.conversions),
      ]);
    const after = await rolled();
    expect(after).toEqual([
      [h10, 2, 0, 0],
      [h10 + HOUR, 2, 1, 1],
    ]);
    await rollUpAds(h10 + 3 * HOUR + 120_000); // again: the same rows
    await rollUpAds(h10 + 3 * HOUR + 180_000);
    expect(await rolled()).toEqual(after);
    const fromRollup = await adsReport(ctx, window);
    expect(fromRollup.totals).toEqual(live.totals);
    expect(hours(fromRollup)).toEqual(hours(live));
    expect(fromRollup.campaigns.find((c) => c.campaignId === campaign)).toMatchObject({ impressions: 4, clicks: 1, conversions: 1 });
    expect(fromRollup.banners).toEqual([
      { bannerId: banner, campaignId: campaign, description: "Home fibre", impressions: 4, clicks: 1, conversions: 1 },
    ]);

    // Guest 4 sees the banner at 12:50 and clicks it at 12:52, the hour is rolled up at 13:01 without a
    // conversion; the guest authorizes at 13:03 and the next run (the lookback re-rolls 12:00) counts it.
    const g4 = await guest(orgId, venue.id);
    await logAdEvent(ref, g4.id, "i", h10 + 2 * HOUR + 50 * 60_000);
    await logAdEvent(ref, g4.id, "c", h10 + 2 * HOUR + 52 * 60_000);
    await rollUpAds(h10 + 3 * HOUR + 60_000);
    expect((await adsReport(ctx, window)).totals).toEqual({ impressions: 5, clicks: 2, conversions: 1 });
    await db
      .updateTable("connections")
      .set({ authorized_at: h10 + 3 * HOUR + 3 * 60_000 })
      .where("id", "=", g4.id)
      .execute();
    await rollUpAds(h10 + 3 * HOUR + 240_000);
    expect((await adsReport(ctx, window)).totals).toEqual({ impressions: 5, clicks: 2, conversions: 2 });
    expect(await rolled()).toEqual([...after, [h10 + 2 * HOUR, 1, 1, 1]]);
    // An event in the current hour is not rolled up yet but is counted from the raw rows.
    await logAdEvent(ref, g2.id, "i", h10 + 3 * HOUR + 300_000);
    expect((await hourlyFigures(orgId, window.startMs, window.endMs)).find((h) => h.hour === h10 + 3 * HOUR)).toMatchObject({
      impressions: 1,
      conversions: 0,
    });
    // Hours still to come are not drawn: at 13:30 the day's chart ends with the 13:00 hour.
    const today = await hourlyFigures(orgId, window.startMs, window.endMs, h10 + 3 * HOUR + 30 * 60_000);
    expect(today).toHaveLength(14);
    expect(today.at(-1)).toMatchObject({ hour: h10 + 3 * HOUR, impressions: 1 });
    expect(clickThroughRate(1, 4)).toBe("25.00");
    expect(clickThroughRate(2, 3)).toBe("66.67");
    expect(clickThroughRate(0, 0)).toBe("0.00");
  });
});

describe("pages, organisations and permissions", () => {
  it("shows impressions, clicks, conversions and CTR on the dashboard, analytics and the home dashboard's campaign summary", async () => {
    const { orgId, owner, me, venue } = await world();
    const campaign = await createdCampaign(me);
    const banner = await uploadedBanner(me, campaign);
    const g = await guest(orgId, venue.id, { authorized_at: Date.now() + 1000 });
    await logAdEvent({ id: banner, campaignId: campaign, organizationId: orgId }, g.id, "i");
    await logAdEvent({ id: banner, campaignId: campaign, organizationId: orgId }, g.id, "c");
    const dash = (await (await me.get(dashboardRoute.loader, "ads")).json()) as Json;
    expect(dash.totals).toEqual({ impressions: 1, clicks: 1, conversions: 1 });
    // Today's hours up to the current one (a UTC organisation), not the hours still to come.
    expect(dash.hours).toHaveLength(new Date().getUTCHours() + 1);
    expect(dash.campaigns).toEqual([expect.objectContaining({ campaignId: campaign, impressions: 1, clicks: 1, conversions: 1 })]);
    const analytics = (await (await me.get(analyticsRoute.loader, "ads/analytics")).json()) as Json;
    expect(analytics.banners).toEqual([
      expect.objectContaining({ bannerId: banner, campaignName: "Safaricom Home", impressions: 1, clicks: 1, conversions: 1 }),
    ]);
    const ctx = await contextOf(owner.id, orgId);
    const today = {
      startMs: Math.floor(Date.now() / 86_400_000) * 86_400_000,
      endMs: Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000,
    };
    const summary = await campaignSummary(ctx, today);
    expect(summary).toMatchObject({ allowed: true, totals: { impressions: 1, clicks: 1, conversions: 1 } });
    const stranger = await makeMember(orgId, "custom", ["view_networks"]);
    expect(await campaignSummary(await contextOf(stranger.user.id, orgId), today)).toEqual({ allowed: false });
  });

  it("answers another organisation's or a malformed campaign or banner id with a 404", async () => {
    const { me } = await world();
    const foreign = await world();
    const theirs = await createdCampaign(foreign.me);
    const theirBanner = await uploadedBanner(foreign.me, theirs);
    for (const id of [String(theirs), "abc", "0", "99999999999"]) {
      expect((await me.get(bannersRoute.loader, `ads/banners/${id}`, { campaignId: id })).status, id).toBe(404);
    }
    expect((await me.post(campaignsRoute.action, "ads/campaigns", { intent: "pause", id: String(theirs) })).status).toBe(404);
    expect((await me.post(campaignsRoute.action, "ads/campaigns", { intent: "pause", id: "x" })).status).toBe(404);
    expect((await me.post(bannersRoute.action, "ads/banners", { intent: "deactivate", id: String(theirBanner) })).status).toBe(404);
    expect((await db.selectFrom("ad_campaigns").select("paused").where("id", "=", theirs).executeTakeFirstOrThrow()).paused).toBe(0);
    expect((await db.selectFrom("ad_banners").select("active").where("id", "=", theirBanner).executeTakeFirstOrThrow()).active).toBe(1);
  });

  it("lets view_ads look but not change, and refuses members without the ads permissions", async () => {
    const { orgId, me } = await world();
    const campaign = await createdCampaign(me);
    const banner = await uploadedBanner(me, campaign);
    const viewer = await makeMember(orgId, "custom", ["view_ads"]);
    const v = as(viewer.user.id, orgId);
    expect((await v.get(campaignsRoute.loader, "ads/campaigns")).status).toBe(200);
    expect(((await (await v.get(campaignsRoute.loader, "ads/campaigns")).json()) as Json).canEdit).toBe(false);
    expect((await v.get(dashboardRoute.loader, "ads")).status).toBe(200);
    expect((await v.get(csvRoute.loader, "ads/campaigns.csv")).status).toBe(200);
    expect((await v.get(createRoute.loader, "ads/create")).status).toBe(403);
    expect((await v.post(createRoute.action, "ads/create", campaignForm())).status).toBe(403);
    expect((await v.post(campaignsRoute.action, "ads/campaigns", { intent: "pause", id: String(campaign) })).status).toBe(403);
    expect((await v.post(bannersRoute.action, "ads/banners", { intent: "deactivate", id: String(banner) })).status).toBe(403);
    expect(
      (
        await v.upload(
          String(campaign),
          { campaign_id: String(campaign), click_url: "https://a.example" },
          { bytes: GIF, name: "b.gif", type: "image/gif" },
        )
      ).status,
    ).toBe(403);
    const nobody = as((await makeMember(orgId, "custom", ["view_networks"])).user.id, orgId);
    for (const [fn, path] of [
      [dashboardRoute.loader, "ads"],
      [analyticsRoute.loader, "ads/analytics"],
      [campaignsRoute.loader, "ads/campaigns"],
      [csvRoute.loader, "ads/campaigns.csv"],
      [bannersRoute.loader, "ads/banners"],
    ] as const) {
      expect((await nobody.get(fn as Fn, path)).status, path).toBe(403);
    }
    // A user of no organisation: 404, never the organisation's data.
    const outsider = as((await makeUser()).id, orgId);
    expect((await outsider.get(dashboardRoute.loader, "ads")).status).toBe(404);
    expect((await db.selectFrom("ad_campaigns").select("paused").where("id", "=", campaign).executeTakeFirstOrThrow()).paused).toBe(0);
  });
});
