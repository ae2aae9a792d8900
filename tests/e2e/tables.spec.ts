// The list tables at a laptop's and a phone's width (issue [polish] item 1): every row's buttons are on
// screen and can be clicked, and no table makes the page scroll sideways; with JavaScript and without.
import { makeDashboardWorld } from "./dashboard-fixtures";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";

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
      await page.goto(list.path);
      const tables = page.locator("main table.data-table");
      await expect(tables.first(), list.path).toBeVisible();
      // Neither the page nor any table's frame is wider than the window.
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        frames: [...document.querySelectorAll("main .data-table-frame")].map((f) => f.scrollWidth - f.clientWidth),
      }));
      expect(overflow.page, `${list.path}: the page scrolls sideways`).toBeLessThanOrEqual(0);
      for (const extra of overflow.frames) expect(extra, `${list.path}: a table scrolls sideways`).toBeLessThanOrEqual(1);
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
