// Issue 17 item 6: Close asks first and can be cancelled (with and without JavaScript); the network,
// access point and customer Connections tabs export their own connections.
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";
import { makeRecords } from "./records-fixtures";

test("Close can be cancelled, and the connection stays online", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const records = await makeRecords(org.id, 2);
  await signIn(context, owner.id);
  const tab = `/${org.id}/customers/${records.customer.id}/connections`;
  await page.goto(tab);
  const online = page.getByRole("row").filter({ hasText: "Online" });
  await expect(online).toHaveCount(1);
  if (test.info().project.name === "no-js") {
    await online.getByRole("button", { name: "Close" }).click();
    const prompt = page.getByRole("alertdialog");
    await expect(prompt).toContainText("Are you sure you want to close the connection of Achieng");
    await prompt.getByRole("link", { name: "Cancel" }).click();
  } else {
    const asked = new Promise<string>((resolve) => {
      page.once("dialog", async (dialog) => {
        resolve(dialog.message());
        await dialog.dismiss();
      });
    });
    await online.getByRole("button", { name: "Close" }).click();
    expect(await asked).toMatch(/^Are you sure you want to close the connection of Achieng/);
  }
  await expect(page).toHaveURL(tab);
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: "Online" })).toHaveCount(1);
});

test("the network, access point and customer Connections tabs export their own connections", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const mine = await makeRecords(org.id, 2);
  const other = await makeRecords(org.id, 1); // another network, access point and customer: not in the exports
  await signIn(context, owner.id);
  for (const [tab, param] of [
    [`/${org.id}/venues/${mine.venue.id}/connections?start=2026-11-20&end=2026-11-20`, `venue_id=${mine.venue.id}`],
    [`/${org.id}/ap/${mine.ap.id}/connections`, `access_point_mac=${encodeURIComponent(mine.ap.mac_address)}`],
    [`/${org.id}/customers/${mine.customer.id}/connections`, `customer_id=${mine.customer.id}`],
  ] as const) {
    await page.goto(tab);
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect(link).toBeVisible();
    const href = (await link.getAttribute("href"))!;
    expect(href).toContain(`/${org.id}/connections.csv?`);
    expect(href).toContain(param);
    const csv = await page.request.get(href);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines).toHaveLength(3); // the header and this tab's two connections
    expect(lines.slice(1).every((line) => line.includes(mine.device.mac_address))).toBe(true);
    expect(lines.join("\n")).not.toContain(other.device.mac_address);
  }
});
