// Ads end to end, with JavaScript (enhanced) and without (no-js):
// a campaign created for a network and a banner uploaded in the console; a guest arriving through a
// gateway sees the banner on the connect page; clicking it counts a click and lands on the
// advertiser's URL (this server's /healthz: no other host is reachable); the guest then connects
// (the conversion); the ads dashboard and analytics show the impression, click and conversion; and
// pausing the campaign stops serving.
import { expect, E2E_PORT, signIn, test } from "./fixtures";
import { adEventCounts, campaignPaused, makeAdsSetup, merakiEntry, randomMac, startFakeGateway } from "./ads-fixtures";
import { writeTinyPng } from "./splash-fixtures";

const ORIGIN = `http://localhost:${E2E_PORT}`;
const ADVERTISER = `${ORIGIN}/healthz?campaign=fibre`;

test("a campaign's banner is served to guests, counted, shown in the figures and stops when paused", async ({ page, context }) => {
  // A long walk through the console and the guest path, on two busy cores.
  test.setTimeout(90_000);
  const setup = await makeAdsSetup();
  const gateway = await startFakeGateway();
  const name = `Home Fibre ${Date.now()}`;
  try {
    await signIn(context, setup.owner.id);
    await page.goto(`/${setup.orgId}`);
    await page.getByRole("navigation").getByRole("link", { name: "Create Campaign" }).click();
    await expect(page).toHaveURL(new RegExp(`/${setup.orgId}/ads/create$`));
    // The required names are checked (by the browser's form or the server, with the same words).
    await page.getByLabel("Campaign name").fill(name);
    await page.getByLabel("Client name").fill("Safaricom");
    await page.getByLabel("Revenue (Ksh)").fill("12.3456");
    await page.getByRole("checkbox", { name: setup.venue.name }).check();
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect(page.getByText("Enter the revenue in Ksh, such as 1500 or 1500.50.")).toBeVisible();
    await page.getByLabel("Revenue (Ksh)").fill("2500.00");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect(page).toHaveURL(new RegExp(`/${setup.orgId}/ads/banners/\\d+$`));
    await expect(page.getByRole("status").filter({ hasText: "Campaign created." })).toBeVisible();

    const png = await writeTinyPng("ad-banner.png");
    await page.getByLabel(/^Image/).setInputFiles(png);
    await page.getByLabel("Description").fill("Fibre at home");
    await page.getByLabel("Click-through URL").fill(ADVERTISER);
    await page.getByRole("button", { name: "Upload banner" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Banner uploaded." })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: "Fibre at home" });
    await expect(row).toContainText("8 × 6");
    await expect(row).toContainText(ADVERTISER);

    // A guest arrives: the connect page shows the banner as an image link.
    await page.goto(merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    await expect(page).toHaveURL(/\/connect\?token=/);
    const token = new URL(page.url()).searchParams.get("token")!;
    const banner = page.getByRole("link", { name: "Fibre at home" });
    await expect(banner).toBeVisible();
    expect(await banner.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    await banner.click();
    await expect(page).toHaveURL(ADVERTISER);
    expect(await adEventCounts(setup.orgId)).toEqual({ impressions: 1, clicks: 1 });

    // The guest connects (the conversion): the page's own form, posted as the browser would.
    const connect = await page.request.post("/connect", { form: { token, mode: "CLICK_THROUGH" }, maxRedirects: 0 });
    expect(connect.status()).toBe(303);

    await page.goto(`/${setup.orgId}/ads`);
    await expect(page.getByRole("heading", { name: "Ads Dashboard" })).toBeVisible();
    await expect(page.locator('[data-figure="Impressions"] dd')).toHaveText("1");
    await expect(page.locator('[data-figure="Clicks"] dd')).toHaveText("1");
    await expect(page.locator('[data-figure="Conversions"] dd')).toHaveText("1");
    await expect(page.locator('[data-figure="CTR"] dd')).toHaveText("100.00%");
    await expect(page.getByRole("img", { name: "Impressions, clicks and conversions per hour (UTC)" })).toBeVisible();

    await page.getByRole("link", { name: "Analytics", exact: true }).first().click();
    await expect(page.getByRole("heading", { name: "Ads Analytics" })).toBeVisible();
    const bannerRow = page.getByRole("table").filter({ hasText: "Per banner" }).getByRole("row").filter({ hasText: "Fibre at home" });
    await expect(bannerRow.locator('[data-col="impressions"]')).toHaveText("1");
    await expect(bannerRow.locator('[data-col="clicks"]')).toHaveText("1");
    await expect(bannerRow.locator('[data-col="conversions"]')).toHaveText("1");
    await expect(bannerRow.locator('[data-col="ctr"]')).toHaveText("100.00");

    // Pausing stops serving.
    await page.goto(`/${setup.orgId}/ads/campaigns`);
    const campaignRow = page.getByRole("row").filter({ hasText: name });
    await expect(campaignRow).toContainText("Active");
    await campaignRow.getByRole("button", { name: `Pause ${name}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Campaign paused." })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Paused");
    expect(await campaignPaused(setup.orgId, name)).toBe(1);
    await page.goto(merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    await expect(page.getByRole("button", { name: "Connect" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Fibre at home" })).toHaveCount(0);

    // campaigns.csv downloads with the paused campaign.
    await page.goto(`/${setup.orgId}/ads/campaigns`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("campaigns.csv");
  } finally {
    await gateway.close();
  }
});
