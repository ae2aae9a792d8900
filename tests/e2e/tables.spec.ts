// The list tables at a laptop's and a phone's width: every row's buttons are on
// screen and can be clicked, and no table makes the page scroll sideways; with JavaScript and without.
import type { Page } from "@playwright/test";
import { makeDashboardWorld } from "./dashboard-fixtures";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";
import { addCustomers, addGroup, makeMarketingOrg } from "./marketing-fixtures";

const VIEWPORTS = [
  { width: 1366, height: 800 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const viewport of VIEWPORTS) {
  test(`at ${viewport.width} px every list's row buttons are on screen and no table scrolls sideways`, async ({ page, context }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const owner = await makeUser();
    const org = await makeOrg(owner.id, "Kahawa Corner Café");
    await makeMember(org.id, "r");
    const world = await makeDashboardWorld(org.id);
    await signIn(context, owner.id);
    const lists = [
      { path: `/${org.id}/connections`, button: "Close" },
      { path: `/${org.id}/venues/${world.savanna.id}/overview`, button: "Close" },
      { path: `/${org.id}/venues/${world.savanna.id}/connections`, button: "Close" },
      { path: `/${org.id}/venues/${world.savanna.id}/devices`, button: "Block" },
      { path: `/${org.id}/customers/${world.customer.id}/connections`, button: "Close" },
      { path: `/${org.id}/organization/administrators`, button: "Remove" },
      { path: `/${org.id}/reports/all_visitors`, button: null },
    ];
    for (const list of lists) {
      const tables = await openFittingList(page, list.path);
      if (!list.button) continue;
      const buttons = tables.getByRole("button", { name: list.button, exact: true });
      expect(await buttons.count(), `${list.path}: ${list.button} buttons`).toBeGreaterThan(0);
      for (const button of await buttons.all()) {
        await button.scrollIntoViewIfNeeded();
        const box = (await button.boundingBox())!;
        expect(box.x, `${list.path}: ${list.button} starts on screen`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${list.path}: ${list.button} ends on screen`).toBeLessThanOrEqual(viewport.width);
        // Visible, steady and the element a click at its centre would reach — without clicking.
        await button.click({ trial: true });
      }
    }
  });
}

/** Opens a page with a list table and checks that neither the page nor a table's frame is wider than the window. */
async function openFittingList(page: Page, path: string) {
  await page.goto(path);
  const tables = page.locator("main table.data-table");
  await expect(tables.first(), path).toBeVisible();
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    frames: [...document.querySelectorAll("main .data-table-frame")].map((f) => f.scrollWidth - f.clientWidth),
  }));
  expect(overflow.page, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  for (const extra of overflow.frames) expect(extra, `${path}: a table scrolls sideways`).toBeLessThanOrEqual(1);
  return tables;
}

for (const viewport of [VIEWPORTS[1]!, VIEWPORTS[2]!]) {
  test(`at ${viewport.width} px the other lists use the one table and fit the window`, async ({ page, context }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const { owner, orgId, ctx } = await makeMarketingOrg();
    await addCustomers(orgId, [{ first: "Wanjiru", last: "Kamau" }]);
    await addGroup(ctx, "Weekend regulars");
    const world = await makeDashboardWorld(orgId);
    await signIn(context, owner.id);
    const paths = [
      "venues",
      `venues/${world.savanna.id}/access-points`,
      "groups",
      "broadcasts",
      "service_plans",
      "bandwidth_policies",
      "vouchers",
      "subscriptions",
      "prepaid/mpesa-transactions",
      "surveys",
      "ads/campaigns",
      "splash_pages/assets",
      "organization/roles",
      "reports/overview",
      "reports/footfall",
    ];
    for (const path of paths) await openFittingList(page, `/${orgId}/${path}`);
    // Figures line up on the right on a laptop; a phone's card keeps them beside their label.
    await page.goto(`/${orgId}/venues`);
    const figure = page.locator('main table.data-table td[data-label="Connections"]').first();
    expect(await figure.evaluate((td) => getComputedStyle(td).textAlign)).toBe(viewport.width >= 768 ? "right" : "left");
    // A row of the group list keeps its Delete button on screen.
    const remove = page.locator("main table.data-table").getByRole("button", { name: /^Delete/ });
    await page.goto(`/${orgId}/groups`);
    await remove.first().scrollIntoViewIfNeeded();
    const box = (await remove.first().boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await openFittingList(page, "/organizations");
  });
}

test("a phone shows each connection as a card of labelled values", async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const world = await makeDashboardWorld(org.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/venues/${world.savanna.id}/connections`);
  const firstRow = page.locator("main table.data-table tbody tr").first();
  const cell = firstRow.locator('td[data-label="Customer"]');
  await expect(cell).toContainText("Amina Otieno");
  const label = await cell.evaluate((td) => getComputedStyle(td, "::before").content);
  expect(label).toBe('"Customer"');
  // The network's own tabs leave out the Network column: every row is of this network.
  await expect(page.locator('main table.data-table td[data-label="Network"]')).toHaveCount(0);
});
