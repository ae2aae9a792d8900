// Marketing end to end (issue [marketing], "Done means"), with JavaScript (enhanced) and without
// (no-js): a customer group made in the console with two profile rules (a third added and removed on
// the way: conform's list intents post the form without JavaScript) and its customers; a broadcast
// written as HTML, text and SMS, scheduled now for a group and sent (mail to the e2e server's outbox,
// SMS to the fake Africa's Talking, which sends no delivery reports here: playwright.config.ts), the
// mail opened and its unsubscribe link followed, and the next schedule skipping that customer.
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { addCustomers, addGroup, deliveriesOf, makeMarketingOrg, scheduleIdsOf, setUpSms, smsSentTo, UNSUBSCRIBE_MESSAGES } from "./marketing-fixtures";
import { latestMailTo } from "./outbox";

test("a group with two profile rules, one added and removed on the way, lists the customers who match", async ({ page, context }) => {
  const { owner, orgId } = await makeMarketingOrg();
  const [achieng, baraka, chebet, daudi] = await addCustomers(orgId, [
    { first: "Achieng", last: "Odhiambo" },
    { first: "Baraka", last: "Otieno" },
    { first: "Chebet", last: "Kiprono" },
    { first: "Daudi", last: "Mwangi" },
  ]);
  await signIn(context, owner.id);
  await page.goto(`/${orgId}`);
  await page.getByRole("navigation").getByRole("link", { name: "New Group" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Weekend regulars");
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(new RegExp(`/${orgId}/groups/\\d+/filters$`));
  await expect(page.getByRole("status").filter({ hasText: "Customer group created." })).toBeVisible();

  const addRule = page.getByRole("button", { name: "Add rule" });
  await addRule.click();
  await page.getByLabel("Rule 1: value").fill("Achieng");
  await addRule.click();
  // A rule that, kept, would leave Achieng out: (first name Achieng AND e-mail contains "nobody") OR …
  await page.getByLabel("Rule 2: field").selectOption({ label: "Email address" });
  await page.getByLabel("Rule 2: comparison").selectOption({ label: "contains" });
  await page.getByLabel("Rule 2: value").fill("nobody");
  await addRule.click();
  await page.getByLabel("Rule 3: joined with").selectOption("OR");
  await page.getByLabel("Rule 3: field").selectOption({ label: "Last name" });
  await page.getByLabel("Rule 3: value").fill("Otieno");
  await page.getByRole("button", { name: "Remove rule 2" }).click();

  // The third rule moved up, with what was typed in it; the first kept its value.
  await expect(page.getByLabel("Rule 3: value")).toHaveCount(0);
  await expect(page.getByLabel("Rule 1: value")).toHaveValue("Achieng");
  await expect(page.getByLabel("Rule 2: joined with")).toHaveValue("OR");
  await expect(page.getByLabel("Rule 2: field")).toHaveValue("lastName");
  await expect(page.getByLabel("Rule 2: value")).toHaveValue("Otieno");
  await page.getByRole("button", { name: "Save filters" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Group filters saved." })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${orgId}/groups/\\d+$`));
  const table = page.getByRole("table");
  for (const c of [achieng, baraka]) await expect(table.getByRole("link", { name: c.name })).toBeVisible();
  for (const c of [chebet, daudi]) await expect(table.getByText(c.name)).toHaveCount(0);
});

/** The Schedules section: the group, now (the form's defaults: both channels, now). */
async function scheduleNow(page: Page, groupName: string) {
  await page.getByRole("navigation", { name: "Broadcast" }).getByRole("link", { name: "Schedules" }).click();
  await page.getByRole("checkbox", { name: groupName }).check();
  await expect(page.getByRole("radio", { name: "E-mail and SMS (BOTH)" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Now" })).toBeChecked();
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "The broadcast is being sent now." })).toBeVisible();
}

test("a broadcast written as HTML, text and SMS is sent to a group now; a customer who unsubscribes through the mail's link is skipped next time", async ({
  page,
  context,
}) => {
  const { owner, orgId, orgName, ctx } = await makeMarketingOrg();
  await setUpSms(ctx);
  const [amina, brian, wairimu] = await addCustomers(orgId, [
    { first: "Amina", last: "Hassan" },
    { first: "Brian", last: "Kiptoo" },
    { first: "Wairimu", last: "Njeri", optedIn: false },
  ]);
  const groupName = "Everyone at the cafe";
  await addGroup(ctx, groupName);
  const title = `Chai Tuesday ${Date.now()}`;
  const sms = "Chai Tuesday: two cups for one at Soko Cafe, 4-6pm.";

  await signIn(context, owner.id);
  await page.goto(`/${orgId}`);
  await page.getByRole("navigation").getByRole("link", { name: "New Message" }).click();
  await expect(page).toHaveURL(`/${orgId}/broadcasts/create`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Tuesday offer for regulars");
  await page.getByRole("button", { name: "Create and write the e-mail" }).click();
  await expect(page).toHaveURL(new RegExp(`/${orgId}/broadcast/\\d+/email$`));
  const broadcastId = Number(/\/broadcast\/(\d+)\//.exec(page.url())![1]);

  await page.getByLabel("HTML body").fill('<html><body><h1>Chai Tuesday</h1><p>Two cups for <strong>one</strong>, 4-6pm.</p></body></html>');
  await page.getByLabel("Plain-text body").fill("Chai Tuesday\n\nTwo cups for one, 4-6pm.");
  await page.getByRole("button", { name: "Save e-mail" }).click();
  await expect(page.getByRole("status").filter({ hasText: "E-mail saved." })).toBeVisible();

  await page.getByRole("navigation", { name: "Broadcast" }).getByRole("link", { name: "SMS" }).click();
  await page.getByLabel("SMS text").fill(sms);
  await page.getByRole("button", { name: "Save SMS" }).click();
  await expect(page.getByRole("status").filter({ hasText: "SMS saved." })).toBeVisible();

  await scheduleNow(page, groupName);

  // Messages: each consenting customer's e-mail and SMS turn to Sent (reloading, as the page does not poll).
  await page.getByRole("navigation", { name: "Broadcast" }).getByRole("link", { name: "Messages" }).click();
  await expect(page).toHaveURL(`/${orgId}/broadcast/${broadcastId}`);
  const rows = page.getByRole("table").getByRole("row");
  await expect(async () => {
    await page.reload();
    for (const address of [amina.email, amina.phone, brian.email, brian.phone]) {
      expect(await rows.filter({ hasText: address }).getByRole("cell", { name: "Sent", exact: true }).count(), address).toBe(1);
    }
  }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
  await expect(rows.filter({ hasText: wairimu.name })).toHaveCount(0);
  expect((await smsSentTo(amina.phone)).map((m) => m.text)).toEqual([sms]);

  // The mail as it arrived, opened in the browser; its unsubscribe link works without signing in.
  const mail = (await latestMailTo(amina.email)) as Awaited<ReturnType<typeof latestMailTo>> & { html: string; headers: Record<string, string> };
  expect(mail.subject).toBe(title);
  expect(mail.text).toContain("Two cups for one, 4-6pm.");
  expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  const guest = await context.browser()!.newPage({ javaScriptEnabled: test.info().project.name !== "no-js" });
  await guest.setContent(mail.html);
  await expect(guest.getByRole("heading", { name: "Chai Tuesday" })).toBeVisible();
  await guest.getByRole("link", { name: "Unsubscribe" }).click();
  await expect(guest.getByRole("heading", { name: UNSUBSCRIBE_MESSAGES.question(orgName) })).toBeVisible();
  expect(mail.headers["List-Unsubscribe"]).toBe(`<${guest.url()}>`);
  await guest.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(guest.getByRole("status")).toHaveText(UNSUBSCRIBE_MESSAGES.done(orgName));
  await guest.close();

  // The next schedule's recipients, written when it starts, leave Amina out. (Not waited for: their
  // sending, the first schedule's story again, may wait for the dispatch's next 10-second slice.)
  await scheduleNow(page, groupName);
  const [first, second] = await scheduleIdsOf(broadcastId);
  const recipients = async (scheduleId: number) => (await deliveriesOf(scheduleId)).map((d) => [d.customer_id, d.channel, d.status]);
  expect(await recipients(first!)).toEqual([
    [amina.id, "EMAIL", "sent"],
    [amina.id, "SMS", "sent"],
    [brian.id, "EMAIL", "sent"],
    [brian.id, "SMS", "sent"],
  ]);
  await expect(async () => {
    const made = (await recipients(second!)).map(([customer, channel]) => [customer, channel]);
    expect(made).toEqual([
      [brian.id, "EMAIL"],
      [brian.id, "SMS"],
    ]);
  }).toPass({ timeout: 10_000, intervals: [250, 500] });
});
