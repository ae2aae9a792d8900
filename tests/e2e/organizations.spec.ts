import { clickAndConfirm } from "./confirm";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";

test("creates an organisation, edits its details and deletes it after confirming", async ({ page, context }) => {
  const user = await makeUser();
  await signIn(context, user.id);
  await page.goto("/organizations/create");
  await page.getByRole("button", { name: /Create/ }).click();
  await expect(page.getByText("Name field is required.")).toBeVisible();
  await page.getByLabel("Name").fill("Sarit Centre Wi-Fi");
  await page.getByLabel("Address").fill("Westlands, Nairobi");
  await page.getByRole("button", { name: /Create/ }).click();
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/\d+$/);
  await expect(page.getByRole("banner")).toContainText("Sarit Centre Wi-Fi");
  const orgId = new URL(page.url()).pathname.slice(1);

  await page.goto(`/${orgId}/organization/details`);
  await page.getByLabel("Name").fill("Sarit Centre Guest Wi-Fi");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByRole("banner")).toContainText("Sarit Centre Guest Wi-Fi");

  const question = await clickAndConfirm(page, page.getByRole("button", { name: "Delete organization" }));
  expect(question).toBe("Are you sure you want to delete Sarit Centre Guest Wi-Fi?");
  await expect(page).toHaveURL("/organizations");
  const response = await page.goto(`/${orgId}`);
  expect(response?.status()).toBe(404);
});

test("a read-only member sees the details without Update and is refused the invite page", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id, "Read Only Cafe");
  const member = await makeMember(org.id, "r");
  await signIn(context, member.id);
  await page.goto(`/${org.id}/organization/details`);
  await expect(page.getByLabel("Name")).toHaveValue("Read Only Cafe");
  await expect(page.getByRole("button", { name: "Update" })).toHaveCount(0);
  const response = await page.goto(`/${org.id}/organization/invite`);
  expect(response?.status()).toBe(403);
});

test("switches organisation from the avatar menu, which marks the current one", async ({ page, context }) => {
  const user = await makeUser();
  const first = await makeOrg(user.id, "First Mall");
  const second = await makeOrg(user.id, "Second Hotel");
  await signIn(context, user.id);
  await page.goto(`/${first.id}`);
  await page.getByLabel("Account menu").click();
  const menu = page.locator("details[open]");
  await expect(menu.getByText("Current")).toBeVisible();
  await menu.getByRole("link", { name: "Second Hotel" }).click();
  await expect(page).toHaveURL(`/${second.id}`);
  await expect(page.getByRole("banner")).toContainText("Second Hotel");
});

test("the last areas the menu lists open their own pages inside the shell, and an unknown path is a 404", async ({ page, context }) => {
  const user = await makeUser();
  const org = await makeOrg(user.id);
  await signIn(context, user.id);
  await page.goto(`/${org.id}`);
  await page.getByRole("navigation").getByRole("link", { name: "Survey List" }).click();
  await expect(page).toHaveURL(`/${org.id}/surveys`);
  await expect(page.getByRole("heading", { name: "Surveys", level: 1 })).toBeVisible();
  const response = await page.goto(`/${org.id}/nonsense`);
  expect(response?.status()).toBe(404);
});

test.describe("an organization's time zone", () => {
  test.use({ timezoneId: "America/Lima" }); // UTC−05:00 all year

  test("a new organization takes the browser's zone with JavaScript, Africa/Nairobi without; the owner can change it", async ({
    page,
    context,
  }, info) => {
    const user = await makeUser();
    await signIn(context, user.id);
    await page.goto("/organizations/create");
    const expected =
      info.project.name === "no-js"
        ? { zone: "Africa/Nairobi", label: "Africa/Nairobi (UTC+03:00)" }
        : { zone: "America/Lima", label: "America/Lima (UTC−05:00)" };
    await expect(page.getByLabel("Time zone")).toHaveValue(expected.zone);
    await page.getByLabel("Name").fill("Zone Cafe");
    await page.getByRole("button", { name: /Create/ }).click();
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/\d+$/);
    const orgId = new URL(page.url()).pathname.slice(1);
    await expect(page.getByText(`Days and hours in ${expected.label}.`)).toBeVisible();

    await page.goto(`/${orgId}/organization/details`);
    await expect(page.getByText(`Times in ${expected.label}`)).toBeVisible();
    await page.getByLabel("Time zone").selectOption("Asia/Kolkata");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(page.getByText("Times in Asia/Kolkata (UTC+05:30)")).toBeVisible();
    await expect(page.getByLabel("Time zone")).toHaveValue("Asia/Kolkata");
  });
});
