// Bandwidth policies, service plans and the free plan in the console,
// with JavaScript (enhanced) and without (no-js).
import { clickAndConfirm } from "./confirm";
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";

test("creates a policy, a plan that uses it, refuses to delete the policy in use, then deletes both", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);

  await page.goto(`/${org.id}`);
  await page.getByRole("navigation").getByRole("link", { name: "Bandwidth Policies" }).click();
  await expect(page).toHaveURL(`/${org.id}/bandwidth_policies`);
  await page.getByRole("link", { name: "New policy" }).click();
  await expect(page.getByLabel("Max upload", { exact: true })).toHaveValue("1");
  await expect(page.getByLabel("Max download unit")).toHaveValue("Mbps");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Name field is required.")).toBeVisible();
  await page.getByLabel("Name").fill("Lobby");
  await page.getByLabel("Max download", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Bandwidth policy created.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Lobby" })).toContainText("5 Mbps");

  await page.goto(`/${org.id}/service_plans`);
  await page.getByRole("link", { name: "New plan" }).click();
  const enhanced = test.info().project.name === "enhanced";
  // With JavaScript the limit fields hide while the plan is Unlimited; without it they always show.
  if (enhanced) await expect(page.getByLabel("Time limit", { exact: true })).toBeHidden();
  else await expect(page.getByLabel("Time limit", { exact: true })).toBeVisible();
  await page.getByLabel("Plan name").fill("Hour Pass");
  await page.getByLabel("Bandwidth policy").selectOption({ label: "Lobby" });
  await page.getByRole("radio", { name: "Limited", exact: true }).check();
  await expect(page.getByLabel("Time limit", { exact: true })).toBeVisible();
  await page.getByLabel("Time limit", { exact: true }).fill("60");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Service plan price can not be less than Ksh 1")).toBeVisible();
  await page.getByLabel("Price in Kes").fill("20");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Service plan created.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Hour Pass" });
  await expect(row).toContainText("Lobby");
  await expect(row).toContainText("60 minutes");

  await page.goto(`/${org.id}/bandwidth_policies`);
  await page.getByRole("link", { name: "Lobby" }).click();
  expect(await clickAndConfirm(page, page.getByRole("button", { name: "Delete" }))).toBe(
    "Are you sure you want to delete the bandwidth policy Lobby?",
  );
  await expect(page.getByText("Bandwidth policy Lobby is used by the plan Hour Pass. Give it another policy first.")).toBeVisible();

  await page.goto(`/${org.id}/service_plans`);
  await page.getByRole("link", { name: "Hour Pass" }).click();
  expect(await clickAndConfirm(page, page.getByRole("button", { name: "Delete" }))).toBe(
    "Are you sure you want to delete the service plan Hour Pass?",
  );
  await expect(page).toHaveURL(`/${org.id}/service_plans`);
  await expect(page.getByText("Service plan Hour Pass deleted.")).toBeVisible();
});

test("the menu's Free plan leads to creating it, then shows it", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}`);
  await page.getByRole("navigation").getByRole("link", { name: "Free plan" }).click();
  await expect(page).toHaveURL(`/${org.id}/service_plans/new/free`);
  await expect(page.getByLabel("Price in Kes")).toHaveCount(0);
  await page.getByLabel("Plan name").fill("Free 30");
  await page.getByLabel("How often a device may take it").selectOption({ label: "Once a week" });
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(`/${org.id}/free_plan/free`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Free plan: Free 30");
  await expect(page.getByText("Once a week").first()).toBeVisible();
});
