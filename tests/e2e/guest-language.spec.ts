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
    await page.getByLabel("Jina la mwisho").fill("Kamau");
    await page.getByRole("button", { name: "Unganisha" }).click();
    await expect(page.getByText("Jina la kwanza linahitajika.", { exact: true })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "sw");

    await page.getByLabel("Jina la kwanza").fill("Wanjiru");
    await page.getByLabel("Barua pepe").fill("wanjiru@example.co.ke");
    await page.getByLabel("Nambari ya simu").fill("0712 345 678");
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
