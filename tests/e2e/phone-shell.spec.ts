// The console's shell on a phone: the menu folds behind a button that works
// without JavaScript, and the header keeps a usable search; on a laptop the menu is simply there.
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";

test.describe("at a phone's width", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("shows the page first, opens the menu with its button and follows a link", async ({ page, context }) => {
    const user = await makeUser();
    const org = await makeOrg(user.id, "Kahawa Corner Café");
    await signIn(context, user.id);
    await page.goto(`/${org.id}`);
    const menu = page.getByRole("navigation", { name: "Main" });
    await expect(menu).toBeHidden();
    // The page's own heading is on the first screen, not below thirty links.
    const heading = page.getByRole("heading", { level: 1 }).first();
    await expect(heading).toBeInViewport();

    const search = page.getByRole("searchbox", { name: "Search customers" });
    await expect(search).toBeVisible();
    expect((await search.boundingBox())!.width).toBeGreaterThan(300);
    await expect(page.getByRole("banner")).toContainText("Kahawa Corner Café");

    await page.getByText("Menu", { exact: true }).click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Connections" }).click();
    await expect(page).toHaveURL(`/${org.id}/connections`);
    await expect(page).toHaveTitle("Connections | Mlango");
    // With JavaScript the menu folds again after the link; without, the new page starts folded.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  });
});

test("at a laptop's width the menu is open and there is no menu button", async ({ page, context }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  const user = await makeUser();
  const org = await makeOrg(user.id);
  await signIn(context, user.id);
  await page.goto(`/${org.id}`);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Networks" })).toBeVisible();
  await expect(page.getByText("Menu", { exact: true })).toBeHidden();
});
