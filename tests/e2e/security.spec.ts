import { expect, makeOrg, makeUser, signIn, test, uniqueEmail } from "./fixtures";
import { latestMailTo } from "./outbox";

const { issueToken } = await import("~/services/auth.server");

test("lists the user's API tokens and revokes one; the revoked token no longer works", async ({ page, context, request }) => {
  const user = await makeUser();
  const org = await makeOrg(user.id);
  const token = await issueToken(user.id, "api");
  const api = () => request.get("/account/api/v1/organizations", { headers: { Authorization: `Bearer ${token}` } });
  expect((await api()).status()).toBe(200);
  await signIn(context, user.id);
  await page.goto(`/${org.id}/profile/tokens`);
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Revoke" })).toHaveCount(1);
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("The API token has been revoked.")).toBeVisible();
  await expect(page.getByText("You have no API tokens.")).toBeVisible();
  expect((await api()).status()).toBe(401);
});

test("changing the account e-mail asks for the current password and waits for the new address's link", async ({ page, context }) => {
  const user = await makeUser("current-pass-1");
  const org = await makeOrg(user.id);
  await signIn(context, user.id);
  const newEmail = uniqueEmail("moved");
  await page.goto(`/${org.id}/profile`);
  await page.getByLabel("Email", { exact: true }).fill(newEmail);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Enter your current password to change your e-mail address.")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(newEmail);
  await page.getByLabel("Current password (to change the e-mail address)").fill("current-pass-1");
  await page.getByRole("button", { name: "Update" }).click();
  // No SMTP_URL here: the toast says honestly that the link is kept in the outbox folder.
  await expect(
    page.getByText(`The link to confirm ${newEmail} was not sent: no mail server is set (SMTP_URL), so it is kept in the outbox folder`),
  ).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(user.email); // the old address stays until the link is used
  const mail = await latestMailTo(newEmail);
  await page.goto(new URL(mail.link!).pathname);
  await page.getByLabel("Password").fill("current-pass-1");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/register/verify"));
  await page.goto(`/${org.id}/profile`);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(newEmail);
});
