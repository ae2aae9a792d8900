// What an operator reads back from the console (issue console-2, items 6, 8, 9): charts that fit a
// phone, addresses that wrap between their parts, the brand's name in the make list, a member of
// one organisation landing in it, an empty SMS refused with a message, and after creating a
// network, the networks list. JavaScript on and off.
import { makeDashboardWorld } from "./dashboard-fixtures";
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";
import { makeVenue } from "./venues-fixtures";

const { db } = await import("~/db/db.server");
const { BROADCAST_MESSAGES } = await import("~/lib/schemas/broadcasts");

test.describe("at a phone's width", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the dashboard's charts fit the screen: nothing wider than the page, no sideways scroller", async ({ page, context }) => {
    const user = await makeUser();
    const org = await makeOrg(user.id);
    await makeDashboardWorld(org.id);
    await signIn(context, user.id);
    await page.goto(`/${org.id}`);
    const charts = page.locator("figure [role=img]");
    await expect(charts.first()).toBeVisible();
    expect(await charts.count()).toBeGreaterThan(0);
    const viewport = page.viewportSize()!.width;
    // Measured in the page in one go: with JavaScript the charts re-render as they hydrate, and a
    // handle taken before that can point at a replaced element.
    const outside = () =>
      page.evaluate(
        (width) =>
          [...document.querySelectorAll("figure [role=img]")]
            .map((chart) => chart.getBoundingClientRect())
            .filter((box) => box.width === 0 || box.left < 0 || box.right > width).length,
        viewport,
      );
    await expect.poll(outside).toBe(0);
    // The page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
  });
});

test("an administrator's e-mail address wraps between its parts, not inside a word", async ({ page, context }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await db
    .updateTable("users")
    .set({ email: `jane.wanjiru.kamau.${owner.id}@kahawa-corner-example.co.ke` })
    .where("id", "=", owner.id)
    .execute();
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/organization/administrators`);
  const cell = page.locator("td.long").filter({ hasText: "@kahawa-corner-example" }).first();
  await expect(cell).toBeVisible();
  // Break opportunities after "@" and before each ".".
  expect(await cell.locator("wbr").count()).toBeGreaterThanOrEqual(4);
  // Each part between break opportunities sits on one line: the address wrapped between parts.
  const linesPerPart = await cell.evaluate((td) =>
    [...td.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
  );
  expect(linesPerPart.length).toBeGreaterThanOrEqual(5);
  expect(linesPerPart.every((lines) => lines === 1)).toBe(true);
  // …and the address did wrap: the parts are on more than one line.
  expect(await cell.evaluate((td) => td.getClientRects()[0]!.height > parseFloat(getComputedStyle(td).lineHeight) * 1.5)).toBe(true);
});

test("the make list names the brand Ruckus and stores the spec's value", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const venue = await makeVenue(org.id, "Yaya Centre");
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/ap/create?venue_id=${venue.id}`);
  const make = page.getByLabel("Make");
  await expect(make.locator("option", { hasText: "Ruckus" })).toHaveAttribute("value", "Rukus");
  await expect(make.locator("option", { hasText: "Rukus" })).toHaveCount(0);
});

test("a member of one organisation lands in it, not on the chooser", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id, "Only Kahawa");
  await signIn(context, owner.id);
  await page.goto("/");
  await expect(page).toHaveURL(`/${org.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("an empty SMS is refused with a message", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const now = Date.now();
  const broadcast = await db
    .insertInto("broadcasts")
    .values({
      organization_id: org.id,
      title: "Weekend offer",
      description: null,
      sms: "Karibu",
      email_html: null,
      email_text: null,
      email_design: null,
      created_by_user_id: owner.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/broadcast/${broadcast.id}/sms`);
  await page.getByLabel("SMS text").fill("");
  await page.getByRole("button", { name: "Save SMS" }).click();
  await expect(page.getByText(BROADCAST_MESSAGES.smsRequired)).toBeVisible();
  const row = await db.selectFrom("broadcasts").select("sms").where("id", "=", broadcast.id).executeTakeFirstOrThrow();
  expect(row.sms).toBe("Karibu");
});
