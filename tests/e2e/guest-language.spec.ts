// The guest pages' language switch in the browser, with JavaScript on and off (issue 35 item 6,
// decision 0079): a phone set to Kiswahili gets Kiswahili, the switch is a plain link that needs no
// script or cookie, and the choice travels through the sign-up's POST, the grant and the online page.
import { expect, test } from "./fixtures";
import { makePortal, merakiEntry, randomMac, startFakeGateway } from "./portal-fixtures";

test.use({ locale: "sw-KE" });

test("a Kiswahili phone gets Kiswahili, switches to English and back, and keeps the choice to the online page", async ({
  page,
  context,
}) => {
  const gateway = await startFakeGateway();
  try {
    const setup = await makePortal();
    // The access point names no page to continue to: the grant comes back to Mlango's online page.
    await page.goto(merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac(), continueUrl: "" }));
    await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "sw");
    await expect(page.getByRole("heading", { level: 1, name: "Unganishwa na Wi-Fi" })).toBeVisible();

    await page.getByRole("link", { name: "English" }).click();
    await expect(page).toHaveURL(/&lang=en$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Get connected to WiFi" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Connect" })).toBeVisible();

    await page.getByRole("link", { name: "Kiswahili" }).click();
    await expect(page).toHaveURL(/&lang=sw$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "sw");

    // A refused sign-up answers in the chosen language, and the form still carries it.
    await page.getByLabel("Jina la mwisho", { exact: true }).fill("Kamau");
    await page.getByRole("button", { name: "Unganisha" }).click();
    await expect(page.getByText("Jina la kwanza linahitajika.", { exact: true })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "sw");

    await page.getByLabel("Jina la kwanza", { exact: true }).fill("Wanjiru");
    await page.getByLabel("Barua pepe", { exact: true }).fill("wanjiru@example.co.ke");
    await page.getByLabel("Nambari ya simu", { exact: true }).fill("0712 345 678");
    await page.getByRole("button", { name: "Unganisha" }).click();
    await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
    const continueUrl = new URL(gateway.grants[0]!.searchParams.get("continue_url")!);
    expect(continueUrl.pathname).toBe("/connect/online");
    expect(continueUrl.searchParams.get("lang")).toBe("sw");

    await page.goto(continueUrl.pathname + continueUrl.search);
    await expect(page.getByRole("heading", { level: 1, name: "Umeunganishwa" })).toBeVisible();
    await expect(page.getByText("Sasa unaweza kutumia intaneti.")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "sw");
    expect(await context.cookies(), "the guest path sets no cookie").toEqual([]);
  } finally {
    await gateway.close();
  }
});

const { contextOf } = await import("../fixtures/records");
const { copyTemplate, createPage, publishPage } = await import("~/services/splash/pages.server");
const { db } = await import("~/db/db.server");

/** A network whose own page is a starter template, published as it comes. */
async function brandedPortal(template: string, guestSignup: 0 | 1) {
  const setup = await makePortal({ venue: { guest_signup: guestSignup } });
  const ctx = await contextOf(setup.owner.id, setup.orgId);
  const created = await createPage(ctx, { name: `${template} page`, description: "", css_template: "tailwind.css" });
  await copyTemplate(ctx, created.id, template);
  await publishPage(ctx, created.id);
  await db.updateTable("venues").set({ splash_page_id: created.id }).where("id", "=", setup.venue.id).execute();
  return setup;
}

for (const template of ["cafe", "hotel", "mall"]) {
  test(`the ${template} template shows the form's first action without scrolling on a 390×844 phone, and keeps its frame once online`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const gateway = await startFakeGateway();
    try {
      const returning = await brandedPortal(template, 0);
      await page.goto(
        merakiEntry(returning.venue.portalKey, gateway, { apMac: returning.ap.mac, clientMac: randomMac(), continueUrl: "" }),
      );
      const connect = page.getByRole("button", { name: "Unganisha" });
      await expect(connect).toBeInViewport();
      const box = (await connect.boundingBox())!;
      expect(box.y + box.height, "Connect sits above the fold").toBeLessThanOrEqual(844);
      await connect.click();
      await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
      const online = new URL(gateway.grants[0]!.searchParams.get("continue_url")!);
      await page.goto(online.pathname + online.search);
      // The online page is inside the same operator page: its h1 is the venue's, the card's heading an h2.
      await expect(page.getByRole("heading", { level: 2, name: "Umeunganishwa" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);

      const signup = await brandedPortal(template, 1);
      await page.goto(merakiEntry(signup.venue.portalKey, gateway, { apMac: signup.ap.mac, clientMac: randomMac(), continueUrl: "" }));
      await expect(page.getByLabel("Jina la kwanza", { exact: true })).toBeInViewport();
    } finally {
      await gateway.close();
    }
  });
}
