// The console an operator trusts at a glance (issue 37, items 1–3), with JavaScript (enhanced) and
// without (no-js): a Nairobi organisation's broadcast scheduled at 09:00 is sent at 09:00 Nairobi time
// and listed with its zone; "starts with 071" finds the customers stored as +25471…; a report's
// Filter keeps the dates typed; Connections' Filter keeps the page size; a range after today says so.
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";
import { addCustomers, addGroup, makeMarketingOrg } from "./marketing-fixtures";
import { contextOf } from "./prepaid-fixtures";

const { db } = await import("~/db/db.server");
const { createOrganization } = await import("~/services/organizations.server");
const { daysAgo, seedVisitorStory } = await import("../fixtures/reports");

const HOUR = 3_600_000;
const ddmmyyyy = (iso: string) => iso.split("-").reverse().join("-");

test("a Nairobi organisation schedules a broadcast on its own clock and lists it with the zone", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await createOrganization(owner.id, { name: `Nairobi Cafe ${Date.now()}`, time_zone: "Africa/Nairobi" });
  const ctx = await contextOf(owner.id, org.id);
  await addCustomers(org.id, [{ first: "Amina", last: "Hassan" }]);
  await addGroup(ctx, "Everyone");
  const now = Date.now();
  const broadcast = await db
    .insertInto("broadcasts")
    .values({
      organization_id: org.id,
      title: "Chai Tuesday",
      description: null,
      sms: "Two cups for one",
      email_html: "<p>Two cups for one</p>",
      email_text: null,
      email_design: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Tomorrow in Nairobi, 09:00 there: 06:00 UTC.
  const tomorrow = new Date(now + 3 * HOUR + 24 * HOUR).toISOString().slice(0, 10);

  await signIn(context, owner.id);
  await page.goto(`/${org.id}/broadcast/${broadcast.id}/schedules`);
  await expect(page.getByText(/^Times are UTC\+03:00: it is now /)).toBeVisible();
  await page.getByRole("checkbox", { name: "Everyone" }).check();
  await page.getByRole("radio", { name: "At" }).check();
  await page.getByLabel("Dispatch at (UTC+03:00)").fill(`${tomorrow}T09:00`);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `The broadcast is scheduled for ${tomorrow} 09:00 (UTC+03:00).` })).toBeVisible();
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Created at (UTC+03:00)" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Dispatch at (UTC+03:00)" })).toBeVisible();
  await expect(table.getByRole("cell", { name: `${ddmmyyyy(tomorrow)} 09:00` })).toBeVisible();
  const stored = await db
    .selectFrom("broadcast_schedules")
    .select("dispatch_at")
    .where("broadcast_id", "=", Number(broadcast.id))
    .executeTakeFirstOrThrow();
  expect(Number(stored.dispatch_at)).toBe(Date.parse(`${tomorrow}T06:00:00Z`));
});

test('a group filter "phone number starts with 071" finds the customers stored as +25471…', async ({ page, context }) => {
  const { owner, orgId } = await makeMarketingOrg();
  const [amina] = await addCustomers(orgId, [{ first: "Amina", last: "Hassan" }]);
  await db.updateTable("customers").set({ phone_number: "+254715468803" }).where("id", "=", amina.id).execute();
  await signIn(context, owner.id);
  await page.goto(`/${orgId}/groups/new`);
  await page.getByLabel("Name", { exact: true }).fill("Safaricom 071");
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(new RegExp(`/${orgId}/groups/\\d+/filters$`));
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByLabel("Rule 1: field").selectOption({ label: "Phone number" });
  await page.getByLabel("Rule 1: comparison").selectOption({ label: "starts with" });
  await page.getByLabel("Rule 1: value").fill("071");
  await page.getByRole("button", { name: "Save filters" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Group filters saved." })).toBeVisible();
  await expect(page.getByRole("table").getByRole("link", { name: "Amina Hassan" })).toBeVisible();
});

test("a report's Filter keeps the dates typed, and a range after today is refused with a message", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id, "Reports Cafe");
  await seedVisitorStory(org.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/reports/new_visitors`);
  const range = page.getByRole("form", { name: "Date range" });
  await range.getByLabel("From").fill(daysAgo(2));
  await page.getByLabel("Venue", { exact: true }).selectOption({ label: "Java House" });
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`start=${daysAgo(2)}.*venue_id=\\d+|venue_id=\\d+.*start=${daysAgo(2)}`));
  await expect(range.getByLabel("From")).toHaveValue(daysAgo(2));
  await expect(page.getByLabel("Venue", { exact: true })).toHaveValue(/\d+/);

  await page.goto(`/${org.id}/reports/overview?start=2099-01-01&end=2099-01-02`);
  const today = daysAgo(0).split("-").reverse().join("/");
  await expect(page.getByRole("alert")).toHaveText(`There is no data after today (${today}): choose dates up to today.`);
  await expect(page.getByTestId("report-period")).toHaveText(`${today} – ${today}`);
});

test("Connections' Filter keeps the records per page, and the page size keeps the status", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/connections`);
  await page.getByLabel("Records per page").selectOption("25");
  await page.getByLabel("Status").selectOption({ label: "Online" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=online/);
  await expect(page).toHaveURL(/per_page=25/);
  await expect(page.getByRole("heading", { name: "Online connections" })).toBeVisible();
  await expect(page.getByLabel("Records per page")).toHaveValue("25");
  await page.getByLabel("Records per page").selectOption("50");
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/per_page=50/);
  await expect(page).toHaveURL(/status=online/);
});
