import { expect, makeOrg, makeUser, signIn, test, uniqueEmail, uniquePhone } from "./fixtures";
import { latestMailTo } from "./outbox";

test("signs in through the login form and reaches the chooser and the organisation's shell", async ({ page }) => {
  const user = await makeUser("correct horse");
  const org = await makeOrg(user.id, "Java House Westlands");
  // A second organisation, so the chooser is shown (a member of one goes straight into it).
  await makeOrg(user.id, "Java House Karen");
  await page.goto("/login");
  await page.getByLabel("Email or phone number").fill(user.email.toUpperCase());
  await page.getByLabel("Password").fill("correct horse");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/");
  await page.getByRole("link", { name: /Java House Westlands/ }).click();
  await expect(page).toHaveURL(`/${org.id}`);
  await expect(page.getByRole("banner")).toContainText("Java House Westlands");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Networks" })).toBeVisible();
  await page.getByRole("link", { name: "Log out" }).click();
  await expect(page).toHaveURL("/login");
  await page.goto(`/${org.id}`);
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
});

test("signs in with a phone number typed the local way", async ({ page }) => {
  const user = await makeUser("phone-login-1");
  await page.goto("/login");
  await page.getByLabel("Email or phone number").fill(user.phone_number.replace("+254", "0"));
  await page.getByLabel("Password").fill("phone-login-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/");
});

test("shows the spec's messages for an empty login form and for wrong credentials", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or phone number field is required.")).toBeVisible();
  await expect(page.getByText("Password field is required.")).toBeVisible();
  const user = await makeUser("right-password");
  await page.getByLabel("Email or phone number").fill(user.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("Oops...");
  await expect(page.getByLabel("Email or phone number")).toHaveValue(user.email);
});

test("returns to the wanted page after signing in", async ({ page }) => {
  const user = await makeUser("back-to-roles");
  const org = await makeOrg(user.id);
  await page.goto(`/${org.id}/organization/roles`);
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await page.getByLabel("Email or phone number").fill(user.email);
  await page.getByLabel("Password").fill("back-to-roles");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`/${org.id}/organization/roles`);
});

test("sends a signed-in user away from the guest-only pages", async ({ page, context }) => {
  const user = await makeUser();
  await signIn(context, user.id);
  for (const path of ["/login", "/register", "/password/forgot", "/password/reset/some-token"]) {
    await page.goto(path);
    await expect(page).toHaveURL("/");
  }
});

test("signs up, confirms the address through the mailed link with the password, and lands on the chooser", async ({ page }) => {
  const email = uniqueEmail("signup");
  await page.goto("/register");
  await page.getByRole("button", { name: "Sign up" }).click();
  for (const message of [
    "First name field is required.",
    "Last name field is required.",
    "Email field is required.",
    "Phone number field is required.",
    "Password field is required.",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel("First name").fill("Achieng");
  await page.getByLabel("Last name").fill("Otieno");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill(uniquePhone());
  await page.getByLabel("Password").fill("a-good-password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("status")).toHaveText(`We have sent a link to ${email}. Open it to finish signing up.`);
  const mail = await latestMailTo(email);
  expect(mail.link).toMatch(/\/register\/verify\//);
  await page.goto(new URL(mail.link!).pathname);
  await expect(page.getByRole("heading", { name: "Confirm your e-mail address" })).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await page.getByLabel("Password").fill("a-good-password");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText(/create/i).first()).toBeVisible();
});

test("resets a forgotten password through the emailed link", async ({ page }) => {
  const user = await makeUser("old-password-1");
  await page.goto("/password/forgot");
  await page.getByLabel("Email or phone number").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status").or(page.getByText(/sent a password reset link/))).toBeVisible();
  const mail = await latestMailTo(user.email);
  expect(mail.link).toMatch(/\/password\/reset\//);
  await page.goto(new URL(mail.link!).pathname);
  await page.getByLabel("Email or phone number").fill(user.email);
  await page.getByLabel("New password", { exact: true }).fill("new-password-2");
  await page.getByLabel("Confirm new password").fill("new-password-2");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("You will be redirected to login in 3 seconds.")).toBeVisible();
  await expect(page).toHaveURL("/login", { timeout: 10_000 });
  await page.getByLabel("Email or phone number").fill(user.email);
  await page.getByLabel("Password").fill("new-password-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/");
});
