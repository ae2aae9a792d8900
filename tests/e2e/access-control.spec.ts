import path from "node:path";
import { E2E_ENV } from "../../playwright.config";
import { clickAndConfirm } from "./confirm";
import { expect, makeOrg, makeUser, signIn, test, uniqueEmail } from "./fixtures";
import { latestMailTo } from "./outbox";

test("adds a custom role with chosen permissions and removes it after confirming", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/organization/roles/new`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Role name field is required.")).toBeVisible();
  await page.getByLabel("Role name").fill("Front desk");
  await page.getByLabel("Role type").selectOption("custom");
  await page.getByLabel("Edit connections").check();
  await page.getByLabel("View clients").check();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { name: "Front desk" })).toBeVisible();
  await expect(page.getByLabel("Edit connections")).toBeChecked();
  await expect(page.getByLabel("Delete roles")).not.toBeChecked();

  await page.goto(`/${org.id}/organization/roles`);
  const row = page.getByRole("row").filter({ hasText: "Front desk" });
  await clickAndConfirm(page, row.getByRole("button", { name: /Remove|Delete/ }));
  await expect(page.getByRole("row").filter({ hasText: "Front desk" })).toHaveCount(0);
});

test("invites an administrator who accepts through the emailed link and gets the role's menu", async ({ page, context, browser }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id, "Invite Hotel");
  const invitee = await makeUser();
  await signIn(context, owner.id);

  await page.goto(`/${org.id}/organization/roles/new`);
  await page.getByLabel("Role name").fill("Viewer");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { name: "Viewer" })).toBeVisible();

  await page.goto(`/${org.id}/organization/invite`);
  // No SMTP_URL in the browser tests: the page says where invitations are kept.
  await expect(page.getByRole("note")).toContainText("No mail server is set up (SMTP_URL), so invitations are not e-mailed");
  await expect(page.getByRole("note")).toContainText(path.resolve(E2E_ENV.DATA_DIR, "outbox"));
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText("Email field is required.")).toBeVisible();
  await expect(page.getByText("Role field is required.")).toBeVisible();
  await page.getByLabel("Email").fill(invitee.email);
  await page.getByLabel("Role").selectOption({ label: "Viewer" });
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page).toHaveURL(`/${org.id}/organization/administrators`);
  await expect(page.getByRole("status").filter({ hasText: `The invitation to ${invitee.email} was not sent` })).toContainText(
    "kept in the outbox folder",
  );
  await expect(page.getByText(`Invitation sent to ${invitee.email}`)).toHaveCount(0);
  const mail = await latestMailTo(invitee.email);

  // Signed out, the link explains the invitation first and offers sign-in or sign-up coming back.
  const inviteeContext = await browser.newContext({ javaScriptEnabled: test.info().project.name !== "no-js" });
  const inviteePage = await inviteeContext.newPage();
  const link = new URL(mail.link!).pathname;
  await inviteePage.goto(link);
  await expect(inviteePage.getByRole("main")).toContainText("Wanjiku Kamau invited you to join Invite Hotel as Viewer.");
  await expect(inviteePage.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await expect(inviteePage.getByRole("link", { name: "Sign in to answer" })).toHaveAttribute(
    "href",
    `/login?redirectTo=${encodeURIComponent(link)}`,
  );
  await expect(inviteePage.getByRole("link", { name: "Create an account" })).toHaveAttribute(
    "href",
    `/register?redirectTo=${encodeURIComponent(link)}`,
  );
  await signIn(inviteeContext, invitee.id);
  await inviteePage.goto(link);
  await expect(inviteePage.getByText(/Invite Hotel/).first()).toBeVisible();
  await inviteePage.getByRole("button", { name: "Accept" }).click();
  await expect(inviteePage).toHaveURL(`/${org.id}`);
  const nav = inviteePage.getByRole("navigation");
  await expect(nav.getByRole("link", { name: "Networks" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "New Group" })).toHaveCount(0);
  await inviteeContext.close();

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: invitee.email })).toContainText("Accepted");
});

test("an invitee without an account is listed as pending registration", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/organization/roles/new`);
  await page.getByLabel("Role name").fill("Cashier");
  await page.getByRole("button", { name: "Create" }).click();
  // The role exists once its page shows; navigating earlier could cancel the creating request.
  await expect(page.getByRole("heading", { name: "Cashier" })).toBeVisible();
  await page.goto(`/${org.id}/organization/invite`);
  const email = uniqueEmail("newcomer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role").selectOption({ label: "Cashier" });
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Pending registration");
});
