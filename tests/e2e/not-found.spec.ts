import { expect, test } from "./fixtures";

test("an unknown path shows the not-found page with a way home", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops. The page you were looking for doesn't exist.")).toBeVisible();
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("the health check answers when the database does", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.text()).toBe("ok");
});

test("the console has an icon, and /favicon.ico leads to it instead of a 404", async ({ page, request }) => {
  await page.goto("/login");
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain("<svg");
});

test("pages carry the security headers", async ({ request }) => {
  const response = await request.get("/no/such/page");
  const headers = response.headers();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
});

test("an oversized request body is refused with a clear message, not a crash", async ({ request }) => {
  const response = await request.post("/login", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: `login_id=${"a".repeat(12 * 1024 * 1024)}&password=x`,
  });
  expect(response.status()).toBe(413);
  expect(await response.text()).toBe("The request is too large.");
});
