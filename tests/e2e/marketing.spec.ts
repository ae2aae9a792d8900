// Marketing end to end, with JavaScript (enhanced) and without
// (no-js): a customer group made in the console with two profile rules (a third added and removed on
// the way: conform's list intents post the form without JavaScript) and its customers; a broadcast
// written as HTML, text and SMS, scheduled now for a group and sent (mail to the e2e server's outbox,
// SMS to the fake Africa's Talking, which sends no delivery reports here: playwright.config.ts), the
// mail opened and its unsubscribe link followed, and the next schedule skipping that customer; with
// JavaScript, the e-mail made in the visual designer (GrapesJS's newsletter preset, all from this host).
import type { Page } from "@playwright/test";
import { E2E_PORT, expect, signIn, test } from "./fixtures";
import {
  addCustomers,
  addGroup,
  broadcastEmailOf,
  deliveriesOf,
  makeMarketingOrg,
  scheduleIdsOf,
  setUpSms,
  smsSentTo,
  UNSUBSCRIBE_MESSAGES,
} from "./marketing-fixtures";
import { latestMailTo } from "./outbox";
import { writeTinyPng } from "./splash-fixtures";

const { SMS_STOP_LINE } = await import("~/lib/schemas/broadcasts");

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

  await page
    .getByLabel("HTML body")
    .fill("<html><body><h1>Chai Tuesday</h1><p>Two cups for <strong>one</strong>, 4-6pm.</p></body></html>");
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
  expect((await smsSentTo(amina.phone)).map((m) => m.text)).toEqual([`${sms}\n${SMS_STOP_LINE}`]);

  // The mail as it arrived, opened in the browser; its unsubscribe link works without signing in.
  const mail = (await latestMailTo(amina.email)) as Awaited<ReturnType<typeof latestMailTo>> & {
    html: string;
    headers: Record<string, string>;
  };
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

test("the e-mail made in the visual designer is saved as inlined HTML with its project, loading nothing from another host", async ({
  page,
  context,
}) => {
  test.skip(test.info().project.name === "no-js", "the designer needs JavaScript; the textareas are the no-JavaScript path");
  // GrapesJS loads, two drags in steps and an upload: about 13 s alone, past 30 s beside another worker.
  const strays: string[] = [];
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "localhost" && url.protocol !== "data:" && url.protocol !== "blob:") strays.push(url.href);
  });
  const { owner, orgId } = await makeMarketingOrg();
  await signIn(context, owner.id);
  await page.goto(`/${orgId}/broadcasts/create`);
  await page.getByLabel("Title").fill("Mandazi Monday");
  await page.getByRole("button", { name: "Create and write the e-mail" }).click();
  await expect(page).toHaveURL(new RegExp(`/${orgId}/broadcast/\\d+/email$`));
  const broadcastId = Number(/\/broadcast\/(\d+)\//.exec(page.url())![1]);

  await page.getByRole("button", { name: "Visual designer" }).click();
  await expect(page.getByLabel("HTML body")).toBeHidden();
  const save = page.getByRole("button", { name: "Save e-mail" });
  await expect(save).toBeEnabled();
  // GrapesJS drags with the browser's drag and drop, which Playwright's dragTo does not start: the mouse, in steps.
  await page.getByLabel("E-mail designer").evaluate((el) => el.scrollIntoView({ block: "start" }));
  const block = page.locator(".gjs-block").filter({ has: page.getByText("Text", { exact: true }) });
  await block.scrollIntoViewIfNeeded();
  const from = (await block.boundingBox())!;
  const frame = (await page.locator(".gjs-frame").boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(frame.x + frame.width / 2, frame.y + 40, { steps: 15 });
  await page.mouse.up();
  const canvas = page.frameLocator(".gjs-frame");
  await canvas.getByText("Insert your text here").dblclick();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Mandazi and chai, 50 bob all Monday.");
  await canvas.locator("body").click({ position: { x: 5, y: 5 } });
  // An image under the text: the block opens the asset manager, which uploads to Mlango's image store.
  await page.getByTitle("Blocks", { exact: true }).click();
  const image = page.locator(".gjs-block").filter({ has: page.getByText("Image", { exact: true }) });
  await image.scrollIntoViewIfNeeded();
  const imageFrom = (await image.boundingBox())!;
  const text = (await page.locator(".gjs-frame").boundingBox())!;
  await page.mouse.move(imageFrom.x + imageFrom.width / 2, imageFrom.y + imageFrom.height / 2);
  await page.mouse.down();
  await page.mouse.move(text.x + text.width / 2, text.y + 120, { steps: 15 });
  await page.mouse.up();
  await page.locator(".gjs-am-file-uploader input[type=file]").setInputFiles(await writeTinyPng("mandazi.png"));
  await page.locator(".gjs-am-asset-image").first().dblclick();
  await expect(canvas.locator("img[src*='/assets/splash/']")).toHaveCount(1);
  await page.getByLabel("Plain-text body").fill("Mandazi and chai, 50 bob all Monday.");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "E-mail saved." })).toBeVisible();

  const stored = await broadcastEmailOf(broadcastId);
  expect(stored.email_html).toContain("Mandazi and chai, 50 bob all Monday.");
  expect(stored.email_html).toMatch(/style="[^"]*padding:\s*10px/); // the text block's style, inlined
  expect(stored.email_html).not.toContain("<style");
  expect(stored.email_text).toBe("Mandazi and chai, 50 bob all Monday.");
  expect(JSON.parse(stored.email_design!)).toHaveProperty("pages");
  // Mail programs fetch images from PUBLIC_URL: the address is absolute.
  expect(stored.email_html).toMatch(
    new RegExp(`<img [^>]*src="http://localhost:${E2E_PORT}/assets/splash/${orgId}/mandazi-[0-9a-f]+\\.png"`),
  );
  // Opened again, the designer starts from the saved project.
  await page.reload();
  await page.getByRole("button", { name: "Visual designer" }).click();
  await expect(page.frameLocator(".gjs-frame").getByText("Mandazi and chai, 50 bob all Monday.")).toBeVisible();
  expect(strays, "the browser asked for no other host").toEqual([]);
});
