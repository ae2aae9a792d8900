import fs from "node:fs";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";

// The visitor story of the integration tests (tests/fixtures/reports.ts), written into the server's database.
const { daysAgo, seedVisitorStory } = await import("../fixtures/reports");

const ddmmyyyy = (iso: string) => iso.split("-").reverse().join("/");

async function reportOrg() {
  const owner = await makeUser();
  const org = await makeOrg(owner.id, "Reports Cafe");
  await seedVisitorStory(org.id);
  return { owner, org };
}

test("opens every report from its tab for the last three days", async ({ page, context }) => {
  const { org } = await reportOrg();
  // Report figures need membership only; the visitor lists (names and contacts) need view_clients.
  const member = await makeMember(org.id, "custom", ["view_clients"]);
  await signIn(context, member.id);
  await page.goto(`/${org.id}/reports/overview?start=${daysAgo(2)}&end=${daysAgo(0)}`);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByTestId("report-period")).toHaveText(`${ddmmyyyy(daysAgo(2))} – ${ddmmyyyy(daysAgo(0))}`);
  await expect(page.getByTestId("figure-Footfall")).toContainText("6");
  await expect(page.getByTestId("figure-Footfall")).toContainText("Daily average 2");
  await expect(page.getByTestId("figure-Dwell time")).toContainText("01:40:10");
  await expect(page.getByRole("row").filter({ hasText: "voucher" })).toBeVisible();

  const tabs = page.getByRole("navigation", { name: "Reports" });
  await tabs.getByRole("link", { name: "First Timers" }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/new_visitors\\?start=${daysAgo(2)}&end=${daysAgo(0)}$`));
  await expect(page.getByTestId("visitors-total")).toHaveText("2");
  await expect(page.getByRole("row").nth(1)).toContainText("Eve Test");
  await expect(page.getByRole("row").nth(2)).toContainText("Bob Test");

  await tabs.getByRole("link", { name: "Repeat Customers" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("1");
  await expect(page.getByRole("row").nth(1)).toContainText("Alice Test");

  await tabs.getByRole("link", { name: "Unique Visitors" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("3");

  await tabs.getByRole("link", { name: "All Visitors" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("4");
  await expect(page.getByRole("row").filter({ hasText: "Carol Test" })).toBeVisible();

  await tabs.getByRole("link", { name: "Footfall" }).click();
  await expect(page.getByTestId("footfall-total")).toHaveText("6");
  await expect(page.locator("svg").first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: ddmmyyyy(daysAgo(1)) })).toContainText("3");
});

test("changes the date range, filters by venue and searches", async ({ page, context }) => {
  const { owner, org } = await reportOrg();
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/reports/new_visitors`);
  // Default: today only, where Eve is the one new visitor.
  await expect(page.getByTestId("report-period")).toHaveText(`${ddmmyyyy(daysAgo(0))} – ${ddmmyyyy(daysAgo(0))}`);
  await expect(page.getByTestId("visitors-total")).toHaveText("1");

  const range = page.getByRole("form", { name: "Date range" });
  await range.getByLabel("From").fill(daysAgo(10));
  await range.getByLabel("To").fill(daysAgo(10));
  await range.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("report-period")).toHaveText(`${ddmmyyyy(daysAgo(10))} – ${ddmmyyyy(daysAgo(10))}`);
  // Ten days ago Alice came for the first time.
  await expect(page.getByTestId("visitors-total")).toHaveText("1");
  await expect(page.getByRole("row").nth(1)).toContainText("Alice Test");

  await range.getByLabel("From").fill(daysAgo(2));
  await range.getByLabel("To").fill(daysAgo(0));
  await range.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("2");
  await page.getByLabel("Venue", { exact: true }).selectOption({ label: "Java House" });
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/venue_id=\d+/);
  await expect(page.getByTestId("visitors-total")).toHaveText("1");
  await expect(page.getByRole("row").nth(1)).toContainText("Bob Test");

  await page.getByLabel("Venue", { exact: true }).selectOption({ label: "All venues" });
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("2");
  await page.getByPlaceholder("Search by name, phone or email").fill("eve@");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("visitors-total")).toHaveText("1");
  await expect(page.getByRole("row").nth(1)).toContainText("Eve Test");
});

test("subscribes to a report at an hour and unsubscribes", async ({ page, context }) => {
  const { owner, org } = await reportOrg();
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/reports/repeat_visitors`);
  await page.getByText("Subscribe", { exact: true }).first().click(); // opens the bell
  const hour = page.getByLabel("Send at (UTC)");
  await expect(hour).toHaveValue("18");
  await expect(hour.locator("option")).toHaveCount(24);
  await hour.selectOption({ label: "06:00 Hours" });
  await page.getByRole("form", { name: "Report subscription" }).getByRole("button", { name: "Subscribe" }).click();
  // No SMTP_URL in the browser tests: the toast says the reports stay in the outbox folder.
  await expect(page.getByRole("status")).toHaveText(
    /^You will receive the Repeat Customers report by email every day at 06:00 Hours \(UTC\)\. No mail server is set \(SMTP_URL\), so until one is, each report is kept in the outbox folder .+ instead\.$/,
  );
  await expect(page.getByText("Subscribed · 06:00 Hours")).toBeVisible();

  // The subscription belongs to this report only.
  await page.goto(`/${org.id}/reports/overview`);
  await expect(page.getByText("Subscribed · 06:00 Hours")).toHaveCount(0);

  await page.goto(`/${org.id}/reports/repeat_visitors`);
  await page.getByText("Subscribed · 06:00 Hours").click();
  await page.getByRole("form", { name: "Report subscription" }).getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("status")).toHaveText("You will no longer receive the Repeat Customers report by email.");
  await expect(page.getByText("Subscribed · 06:00 Hours")).toHaveCount(0);
});

test("exports a visitor list as CSV", async ({ page, context }) => {
  const { owner, org } = await reportOrg();
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/reports/all_visitors?start=${daysAgo(2)}&end=${daysAgo(0)}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("all_visitors.csv");
  const csv = fs
    .readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\n");
  expect(csv[0]).toBe("#,Name,Identity,Phone Number,Email,Facebook,Twitter,More Info,Devices,Connections");
  expect(csv.slice(1).map((line) => line.split(",")[1])).toEqual(["Eve Test", "Carol Test", "Bob Test", "Alice Test"]);
});

test("shows a member without view_clients the visitor totals but no names, search or export", async ({ page, context }) => {
  const { org } = await reportOrg();
  const member = await makeMember(org.id, "custom", ["view_networks"]);
  await signIn(context, member.id);
  await page.goto(`/${org.id}/reports/unique_visitors?start=${daysAgo(2)}&end=${daysAgo(0)}`);
  await expect(page.getByTestId("visitors-total")).toHaveText("3");
  await expect(page.getByText("View clients permission")).toBeVisible();
  await expect(page.getByText("Alice Test")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
  const csv = await page.request.get(`/${org.id}/reports/unique_visitors.csv?start=${daysAgo(2)}&end=${daysAgo(0)}`);
  expect(csv.status()).toBe(403);
});
