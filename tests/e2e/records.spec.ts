import fs from "node:fs";
import { clickAndConfirm } from "./confirm";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";
import { makeRecords } from "./records-fixtures";

test("closes an online connection and the list reloads with the answer", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const records = await makeRecords(org.id, 2);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/connections`);
  await expect(page.getByRole("heading", { name: "Authorized connections" })).toBeVisible();
  const rows = page.getByRole("row").filter({ hasText: "Achieng" });
  await expect(rows).toHaveCount(2);
  const online = rows.filter({ hasText: "Online" });
  await expect(online).toHaveCount(1);
  await expect(rows.first().getByRole("cell").nth(1)).toHaveText("20-11-2026 09:01");
  // Closing asks first, with JavaScript (confirm()) and without (the server's question page).
  expect(await clickAndConfirm(page, online.getByRole("button", { name: "Close" }))).toMatch(
    /^Are you sure you want to close the connection of Achieng Odhiambo\d+\?$/,
  );
  await expect(page.getByRole("status").filter({ hasText: "Connection closed successfully." })).toBeVisible();
  await expect(page).toHaveURL(`/${org.id}/connections`);
  await expect(rows.filter({ hasText: "Online" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Close" })).toHaveCount(0);

  // Holders of view_clients only see no Close button.
  const viewer = await makeMember(org.id, "custom", ["view_clients"]);
  const again = await makeRecords(org.id, 1);
  await signIn(context, viewer.id);
  await page.goto(`/${org.id}/connections?status=online`);
  await expect(page.getByRole("heading", { name: "Online connections" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: again.venue.name })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Close" })).toHaveCount(0);
  expect(records.connections).toHaveLength(2);
});

test("blocks a device after confirming, and unblocks it", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const records = await makeRecords(org.id, 1);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/customers/${records.customer.id}/devices`);
  const row = page.getByRole("row").filter({ hasText: records.device.mac_address });
  await expect(row).toContainText("Online");
  const question = await clickAndConfirm(page, row.getByRole("button", { name: "Block" }));
  expect(question).toBe(`Are you sure you want to block device ${records.device.name}?`);
  await expect(page.getByRole("status").filter({ hasText: "Device blocked successfully!" })).toBeVisible();
  await expect(page).toHaveURL(`/${org.id}/customers/${records.customer.id}/devices`);
  await expect(row).toContainText("Blocked");
  await row.getByRole("button", { name: "Unblock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Device unblocked successfully!" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Block" })).toBeVisible();
});

test("downloads connections.csv with the header and the rows on screen, newest first", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const records = await makeRecords(org.id, 3);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/connections`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("connections.csv");
  const lines = fs
    .readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\n");
  expect(lines[0]).toBe(
    "#,Connected At (UTC),Customer,Phone Number,Device,Device MAC,Network,Access Point,Access Point MAC,Auth Mode,Duration (seconds),Upload (bytes),Download (bytes),Consumption (bytes),Status",
  );
  expect(lines).toHaveLength(4);
  expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
    "1,20-11-2026 09:02",
    "2,20-11-2026 09:01",
    "3,20-11-2026 09:00",
  ]);
  expect(lines[1]).toContain(`,${records.venue.name},`);
  expect(lines[1].endsWith(",Online")).toBe(true);
  expect(lines[3].endsWith(",Offline")).toBe(true);
});

test("updates a customer's account info, with messages for invalid input; read-only without edit_clients", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const records = await makeRecords(org.id, 1);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/customers/${records.customer.id}/account`);
  await page.getByLabel("First name").fill("Wanjiru");
  await page.getByLabel("Email address").fill("not-an-email");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await page.getByLabel("Email address").fill("Wanjiru@Example.com");
  await page.getByLabel("Phone number").fill("0799 555 111");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Customer account information updated." })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue("wanjiru@example.com");
  await expect(page.getByLabel("Phone number")).toHaveValue("+254799555111");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Wanjiru Odhiambo/);

  const viewer = await makeMember(org.id, "r");
  await signIn(context, viewer.id);
  await page.goto(`/${org.id}/customers/${records.customer.id}/account`);
  await expect(page.getByLabel("First name")).toHaveValue("Wanjiru");
  await expect(page.getByLabel("First name")).toHaveAttribute("readonly", "");
  await expect(page.getByRole("button", { name: "Update" })).toHaveCount(0);
});
