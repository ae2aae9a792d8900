import {
  addRow,
  DASHLET_KEYS,
  DASHLETS,
  dashletsIn,
  emptyLayout,
  serializeLayout,
  setDashlet,
  type DashboardLayout,
} from "~/lib/dashboard-layout";
import { makeDashboardWorld, savedDashboard, saveDashboardText } from "./dashboard-fixtures";
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";

const today = () => new Date().toISOString().slice(0, 10);

test("shows the usage summary, server-drawn charts and the top lists, filtered by venue", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const { savanna, kilima } = await makeDashboardWorld(org.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);

  await expect(page.getByText("Footfall", { exact: true }).first()).toBeVisible();
  await expect(page.locator("dl[aria-label='Usage summary']")).toContainText("Connections4");
  await expect(page.locator("dl[aria-label='Usage summary']")).toContainText("Footfall5");
  await expect(page.locator("dl[aria-label='Usage summary']")).toContainText("Abandoned1");
  // Charts are SVG in the page itself (drawn on the server, so also without JavaScript).
  await expect(page.getByRole("img", { name: "Guests count" }).locator("svg")).toBeVisible();
  await expect(page.getByRole("img", { name: "Bandwidth usage" }).locator("svg")).toBeVisible();
  await expect(page.getByRole("img", { name: "Authorization modes by connections" }).locator("svg")).toBeVisible();
  const topNetworks = page.getByRole("region", { name: "Top networks" });
  await expect(topNetworks.getByRole("row").nth(1)).toContainText(savanna.name);
  await expect(topNetworks.getByRole("row").nth(2)).toContainText(kilima.name);
  await expect(page.getByRole("region", { name: "Who is online" })).toContainText("Online");

  // The data table beside a chart carries its figures.
  await page.getByRole("img", { name: "Authorization modes by connections" }).locator("xpath=../..").getByText("Data table").click();
  await expect(page.getByRole("table", { name: /Authorization modes by connections/ })).toContainText("SMS");

  // Venue multi-select: a GET form (works without JavaScript).
  await page.getByText("All networks").click();
  await page.getByLabel(kilima.name).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`venues=${kilima.id}`));
  await expect(page.locator("dl[aria-label='Usage summary']")).toContainText("Footfall2");
  await expect(page.getByRole("region", { name: "Top networks" }).getByRole("row")).toHaveCount(2);
});

test("edits the dashboard: add a row with a layout, pick a dashlet per cell, move it, remove a dashlet and the row", async ({
  page,
  context,
}) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);
  // The toggle lives in the menu and only on the home dashboard.
  await page.getByRole("switch", { name: "Edit Dashboard" }).click();
  await expect(page).toHaveURL(/edit=1/);
  // With JavaScript every change goes through a fetcher: the document is never reloaded.
  const enhanced = test.info().project.name === "enhanced";
  if (enhanced) await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
  const rowsBefore = (await savedDashboard(owner.id)).layout.content.length;

  const placeholder = page.getByRole("region", { name: "Add dashlet" });
  await placeholder.getByLabel("Half and half").check();
  await placeholder.getByRole("button", { name: "Add row" }).click();
  const pickers = page.getByLabel("Dashlet for this cell");
  await expect(pickers).toHaveCount(2);
  expect((await savedDashboard(owner.id)).layout.content).toHaveLength(rowsBefore + 1);

  await pickers.first().selectOption({ label: "Footfall" });
  await page.getByRole("button", { name: "Add dashlet" }).first().click();
  await expect(page.getByRole("region", { name: "Footfall" })).toBeVisible();
  await expect(pickers).toHaveCount(1);
  await pickers.first().selectOption({ label: "Dwell time" });
  await page.getByRole("button", { name: "Add dashlet" }).click();
  await expect(page.getByRole("region", { name: "Dwell time" })).toBeVisible();
  expect(dashletsIn((await savedDashboard(owner.id)).layout)).toEqual(expect.arrayContaining(["footfall", "dwell_time"]));

  // Move the new (last) row up: it swaps with its neighbour.
  const last = rowsBefore + 1;
  await page.getByRole("button", { name: `Move row ${last} up` }).click();
  await expect(page.locator("[data-row]").nth(last - 2)).toContainText("Dwell time");
  const moved = (await savedDashboard(owner.id)).layout.content;
  expect(dashletsIn({ content: [moved[last - 2]] })).toEqual(["footfall", "dwell_time"]);

  await page.getByRole("button", { name: "Remove Footfall" }).click();
  await expect(page.getByRole("region", { name: "Footfall" })).toHaveCount(0);
  expect(dashletsIn((await savedDashboard(owner.id)).layout)).not.toContain("footfall");

  await page.getByRole("button", { name: `Remove row ${last - 1}` }).click();
  await expect(page.getByRole("region", { name: "Dwell time" })).toHaveCount(0);
  expect((await savedDashboard(owner.id)).layout.content).toHaveLength(rowsBefore);
  if (enhanced) expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // Leaving edit mode hides the controls and the placeholder.
  await page.getByRole("switch", { name: "Edit Dashboard" }).click();
  await expect(page.getByRole("region", { name: "Add dashlet" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Remove/ })).toHaveCount(0);
});

test("says so when a change cannot be saved because the dashboard changed elsewhere", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}?edit=1`);
  await expect(page.getByRole("button", { name: "Remove row 1" })).toBeVisible();
  // Another tab empties the dashboard meanwhile.
  await saveDashboardText(owner.id, '{"content":[]}');
  await page.getByRole("button", { name: "Remove row 1" }).click();
  await expect(page.getByRole("alert")).toContainText("That part of the dashboard no longer exists.");
  expect((await savedDashboard(owner.id)).text).toBe('{"content":[]}');
});

test("opens edit mode on an emptied dashboard and hides the toggle away from home", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await saveDashboardText(owner.id, '{"content":[]}');
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);
  await expect(page.getByRole("region", { name: "Add dashlet" })).toBeVisible();
  await page.goto(`/${org.id}/top_networks`);
  await expect(page.getByRole("heading", { name: "Top networks" })).toBeVisible();
  await expect(page.getByRole("switch", { name: "Edit Dashboard" })).toHaveCount(0);
});

test("downloads the summary and the top lists as CSV, and says when there is nothing to export", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const { savanna } = await makeDashboardWorld(org.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);

  const [summary] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export Data" }).click()]);
  expect(summary.suggestedFilename()).toBe(`dashboard_summary_data_${today()}_to_${today()}.csv`);
  const [modes] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("region", { name: "Authorization modes" }).getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(modes.suggestedFilename()).toBe("auth_mode_summary.csv");

  await page.getByRole("region", { name: "Top networks" }).getByRole("link", { name: "See all" }).click();
  await expect(page).toHaveURL(new RegExp(`/${org.id}/top_networks\\?`));
  await expect(page.getByRole("heading", { name: "Top networks", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").nth(1)).toContainText(savanna.name);
  const [networks] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(networks.suggestedFilename()).toBe("top_networks.csv");
  const text = await (await networks.createReadStream()).toArray();
  expect(Buffer.concat(text).toString()).toContain(`1,${savanna.name},3,3`);

  const empty = await makeOrg(owner.id, "Empty Kiosk");
  await page.goto(`/${empty.id}/top_access_points`);
  await page.getByRole("link", { name: "Export CSV" }).click();
  await expect(page.getByText("No data available to export.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${empty.id}/top_access_points`));
});

test("renders every dashlet of the catalogue, in every cell width", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const { savanna } = await makeDashboardWorld(org.id);
  let layout: DashboardLayout = emptyLayout();
  const keys = [...DASHLET_KEYS];
  for (const rowLayout of [
    "four_quarters",
    "quarter_quarter_half",
    "third_two_thirds",
    "three_thirds",
    "quarter_three_quarters",
    "half_half",
    "full",
  ] as const) {
    const added = addRow(layout, rowLayout);
    if (!added.ok) throw new Error(added.error);
    layout = added.layout;
    for (const col of layout.content.at(-1)!.content) {
      const key = keys.shift();
      if (!key) break;
      const filled = setDashlet(layout, col.id, key);
      if (!filled.ok) throw new Error(filled.error);
      layout = filled.layout;
    }
  }
  expect(keys).toEqual([]);
  await saveDashboardText(owner.id, serializeLayout(layout));
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);
  for (const key of DASHLET_KEYS) await expect(page.getByRole("region", { name: DASHLETS[key] }).first()).toBeVisible();
  // Real figures now: an organisation without ads shows zeros.
  await expect(page.getByRole("region", { name: "Campaign summary" })).toContainText("Impression: 0");
  await expect(page.getByRole("region", { name: "Access point status" })).toContainText("2 online");
  const heatmap = page.getByRole("region", { name: "Indoor heatmap" });
  await expect(heatmap.getByRole("link", { name: savanna.name })).toBeVisible();
  await heatmap.getByRole("link", { name: savanna.name }).click();
  await expect(page).toHaveURL(/heatmap_venue=/);
  await expect(page.getByRole("img", { name: `Traffic by weekday and hour (UTC), ${savanna.name}` }).locator("svg")).toBeVisible();
});
