// Prepaid internet end to end, with JavaScript (enhanced) and
// without (no-js): vouchers generated and printed in the console and redeemed on the connect page;
// the free plan, taken once and refused again within its period; and buying a plan with M-Pesa
// against the fake Daraja (playwright.config.ts starts it; the phone decides the outcome,
// DARAJA_TEST_PHONES), with the waiting page carried by its Refresh header, then the transaction and
// the subscription in the console. Guests arrive through a Meraki hand-off; the grant goes to a
// small local gateway per test (portal-fixtures.ts), and the guest's browser asks no other host.
import type { Browser, Locator, Page } from "@playwright/test";
import { DARAJA_TEST_PHONES } from "../../playwright.config";
import { expect, E2E_PORT, GUEST, signIn, test as base } from "./fixtures";
import {
  connectionByToken,
  type FakeGateway,
  makePortal,
  merakiEntry,
  merakiGrantUrl,
  mlangoEntry,
  mlangoGrantUrl,
  randomMac,
  startFakeGateway,
} from "./portal-fixtures";
import {
  addPlan,
  contextOf,
  FREE_PLAN_MESSAGES,
  makeCheckDue,
  priceText,
  purchaseOf,
  setUpMpesa,
  STK_RESULT_MESSAGES,
  VOUCHER_RESULT_MESSAGES,
} from "./prepaid-fixtures";

const ORIGIN = `http://localhost:${E2E_PORT}`;

const test = base.extend<{ gateway: FakeGateway }>({
  gateway: [
    async ({ context }, use) => {
      const gateway = await startFakeGateway();
      const local = new Set([ORIGIN, gateway.origin]);
      const strays: string[] = [];
      context.on("request", (request) => {
        const url = new URL(request.url());
        if (!local.has(url.origin)) strays.push(url.href);
      });
      // What the browser declined to do for a guest page (a CSP or sandbox refusal), in its own words.
      const refusals: string[] = [];
      context.on("console", (message) => {
        if (/^Refused to /.test(message.text())) refusals.push(message.text());
      });
      await context.route(
        (url) => !local.has(url.origin),
        (route) => route.abort("blockedbyclient"),
      );
      await use(gateway);
      await gateway.close();
      expect(strays, "the guest's browser asked for no other host").toEqual([]);
      expect(refusals, "the guest's browser refused nothing a guest page asked for").toEqual([]);
    },
    { auto: true },
  ],
});

/** A Meraki access point hands the guest's browser over: the connect page opens with a token. */
async function arrive(page: Page, entry: string): Promise<string> {
  await page.goto(entry);
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Get connected to WiFi" })).toBeVisible();
  return new URL(page.url()).searchParams.get("token")!;
}

/** The browser reached the gateway's grant endpoint, once: the request it made there. */
async function granted(page: Page, gateway: FakeGateway): Promise<URL> {
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
  expect(gateway.grants).toHaveLength(1);
  return gateway.grants[0]!;
}

/** The organisation's owner in a browser of their own (the guest's browser keeps no cookie). */
async function consoleAs(browser: Browser, userId: number): Promise<Page> {
  const context = await browser.newContext();
  await signIn(context, userId);
  return context.newPage();
}

/**
 * With JavaScript, waits until React has hydrated the form: text typed into a server-rendered field
 * before that can be lost. Without JavaScript there is nothing to wait for. After a link click, wait
 * for the new URL first: a click before the list page hydrated is a full page load, and the list's
 * own form would pass this check while the new page was still on its way.
 */
async function hydrated(form: Locator) {
  if (test.info().project.name !== "enhanced") return;
  await expect.poll(() => form.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactFiber")))).toBe(true);
}

/** A date a year from now (YYYY-MM-DD), for a voucher group's validity. */
const nextYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

test("vouchers: a policy and a plan in the console, codes generated and printed, one redeemed for the plan's time, then refused as used", async ({
  page,
  browser,
  gateway,
}) => {
  test.setTimeout(90_000);
  const setup = await makePortal();
  const owner = await consoleAs(browser, setup.owner.id);

  await owner.goto(`/${setup.orgId}/bandwidth_policies`);
  await owner.getByRole("link", { name: "New policy" }).click();
  await expect(owner).toHaveURL(/\/bandwidth_policies\/new$/);
  await hydrated(owner.locator("main form").first());
  await owner.getByLabel("Name").fill("Till");
  await owner.getByLabel("Max download", { exact: true }).fill("5");
  await owner.getByRole("button", { name: "Create" }).click();
  await expect(owner.getByText("Bandwidth policy created.")).toBeVisible();

  await owner.goto(`/${setup.orgId}/service_plans`);
  await owner.getByRole("link", { name: "New plan" }).click();
  await expect(owner).toHaveURL(/\/service_plans\/new$/);
  await hydrated(owner.locator("main form").first());
  await owner.getByLabel("Plan name").fill("Half hour");
  await owner.getByLabel("Bandwidth policy").selectOption({ label: "Till" });
  await owner.getByRole("radio", { name: "Limited", exact: true }).check();
  await owner.getByLabel("Time limit", { exact: true }).fill("30");
  await owner.getByLabel("Price in Kes").fill("20");
  await owner.getByRole("button", { name: "Create" }).click();
  await expect(owner.getByText("Service plan created.")).toBeVisible();

  await owner.goto(`/${setup.orgId}/vouchers/generate`);
  await hydrated(owner.locator("main form").first());
  await owner.getByLabel("Name").fill("Till batch");
  await owner.getByLabel("Value (Kes)").fill("20");
  await owner.getByLabel("Valid till").fill(nextYear());
  await owner.getByLabel("Service plan").selectOption({ label: `Half hour (${priceText(2000)})` });
  await owner.getByLabel("Number of codes").fill("3");
  await owner.getByRole("button", { name: "Generate" }).click();
  await expect(owner.getByText(VOUCHER_RESULT_MESSAGES.generated(3))).toBeVisible();
  await expect(owner).toHaveURL(new RegExp(`/${setup.orgId}/vouchers/\\d+$`));
  const groupId = new URL(owner.url()).pathname.split("/").at(-1)!;

  await owner.getByRole("link", { name: "Print codes" }).click();
  await expect(owner).toHaveURL(`/${setup.orgId}/vouchers/${groupId}/print`);
  await expect(owner.getByRole("heading", { level: 1 })).toHaveText("Till batch: 3 codes to print");
  const sheet = owner.getByRole("list", { name: "Voucher codes" });
  await expect(sheet.getByRole("listitem")).toHaveCount(3);
  await expect(sheet.getByRole("listitem").first()).toContainText("Half hour");
  const codes = await owner.locator("[data-code]").allTextContents();
  expect(codes).toHaveLength(3);
  for (const code of codes) expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{5}-[A-HJ-KM-NP-Z2-9]{5}$/);
  const code = codes[0]!;

  // A guest types the code as people do (lower case, no dash) and is let through for the plan's 30 minutes.
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await page.getByLabel("Voucher code").fill(code.toLowerCase().replace("-", ""));
  await page.getByRole("button", { name: "Use voucher" }).click();
  const grant = await granted(page, gateway);
  expect(grant.searchParams.get("duration")).toBe(String(30 * 60));
  expect(await connectionByToken(token)).toMatchObject({ authorization_mode: "VOUCHER" });

  // Another device with the same code: told it is used, not let through.
  await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await page.getByLabel("Voucher code").fill(code);
  const refused = page.waitForResponse((r) => r.url() === `${ORIGIN}/connect` && r.request().method() === "POST");
  await page.getByRole("button", { name: "Use voucher" }).click();
  expect((await refused).status()).toBe(409);
  await expect(page.getByText(VOUCHER_RESULT_MESSAGES.used, { exact: true })).toBeVisible();
  await expect(page.getByLabel("Voucher code")).toHaveValue(code);
  expect(gateway.grants).toHaveLength(1);

  // The sheet leaves the used code out; the subscription it gave is in the console.
  await owner.reload();
  await expect(owner.getByRole("heading", { level: 1 })).toHaveText("Till batch: 2 codes to print");
  await expect(owner.getByText(/1 code that is used up is left out\./)).toBeVisible();
  await expect(owner.locator("[data-code]")).not.toContainText([code]);
  await owner.goto(`/${setup.orgId}/subscriptions`);
  await expect(owner.getByRole("row").filter({ hasText: "Half hour" })).toContainText("Active");
  await owner.context().close();
});

test(
  "free plan: a device takes it with Connect, and the same device is refused it again the same day",
  GUEST,
  async ({ page, gateway }) => {
    const setup = await makePortal({ venue: { guest_signup: 0 } });
    const ctx = await contextOf(setup.owner.id, setup.orgId);
    await addPlan(
      ctx,
      {
        name: "Free 30",
        plan_kind: "Limited",
        limit_type: "Time",
        time_limit: "30",
        time_limit_unit: "Mins",
        validity: "1",
        validity_units: "Days",
        free_every: "day",
      },
      true,
    );
    const clientMac = randomMac();
    // Mlango's signed entry: the device is known when it comes back (on an unsigned MAC it holds nothing: decision 0087).
    const entry = () => mlangoEntry(setup.venue.portalKey, gateway, setup.gatewaySecret, { apMac: setup.ap.mac, clientMac });

    const first = await arrive(page, entry());
    await expect(page.getByText("Free Wi-Fi: 30 minutes, once a day.", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(page).toHaveURL((url) => url.href.startsWith(mlangoGrantUrl(gateway)));
    await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
    const grant = gateway.grants[0]!;
    expect(grant.searchParams.get("duration")).toBe(String(30 * 60));
    expect(await connectionByToken(first)).toMatchObject({ authorization_mode: "CLICK_THROUGH" });

    // Back on the connect page (a new hand-off, same MAC): the free plan still runs on this device, so
    // the page offers it as "my plan" beside Connect; Connect asks for the free plan again and is refused.
    await arrive(page, entry());
    await expect(page.getByText(/^You have Free 30 on this device until (\d\d? [A-Z][a-z]{2} )?\d\d:\d\d UTC\.$/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with my plan" })).toBeVisible();
    const refused = page.waitForResponse((r) => r.url() === `${ORIGIN}/connect` && r.request().method() === "POST");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    expect((await refused).status()).toBe(409);
    await expect(page.getByText(FREE_PLAN_MESSAGES.day, { exact: true })).toBeVisible();
    expect(gateway.grants).toHaveLength(1);
  },
);

// ---- M-Pesa ----

/** Two plans for sale (Kes 20 for an hour, Kes 50 for a day) and M-Pesa against the fake Daraja. */
async function mpesaPortal() {
  const setup = await makePortal({ venue: { guest_signup: 0 } });
  const ctx = await contextOf(setup.owner.id, setup.orgId);
  await addPlan(ctx, {
    name: "Hour Pass",
    price: "20",
    plan_kind: "Limited",
    limit_type: "Time",
    time_limit: "60",
    time_limit_unit: "Mins",
    validity: "1",
    validity_units: "Days",
  });
  await addPlan(ctx, { name: "Day Pass", price: "50", plan_kind: "Unlimited", validity: "1", validity_units: "Days" });
  await setUpMpesa(ctx);
  return setup;
}

/** 2547XXXXXXXX as a guest types it: 07XX XXX XXX. */
const localPhone = (daraja: string) => `0${daraja.slice(3, 6)} ${daraja.slice(6, 9)} ${daraja.slice(9)}`;

/**
 * On the connect page: picks the Hour Pass, types the phone, presses Pay with M-Pesa, and lands on
 * the waiting page, which reloads itself (a Refresh header: no JavaScript needed). Answers the payment.
 */
async function payForHourPass(page: Page, token: string, phone: string): Promise<number> {
  const buy = page.getByRole("group", { name: "Buy a plan with M-Pesa" });
  await expect(buy.getByRole("radio")).toHaveCount(2);
  await expect(buy.getByRole("radio", { name: /Hour Pass — Kes 20/ })).not.toBeChecked();
  await expect(buy.getByRole("radio", { name: /Day Pass — Kes 50/ })).toBeVisible();
  await buy.getByRole("radio", { name: /Hour Pass/ }).check();
  await page.getByLabel("M-Pesa phone number").fill(localPhone(phone));
  await page.getByRole("button", { name: "Pay with M-Pesa" }).click();

  await expect(page).toHaveURL(new RegExp(`/connect/mpesa/wait\\?token=${token}&payment=\\d+$`));
  const paymentId = Number(new URL(page.url()).searchParams.get("payment"));
  await expect(page.getByRole("heading", { level: 1, name: "Check your phone" })).toBeVisible();
  await expect(page.getByText(`Enter your M-Pesa PIN on 0${phone.slice(3)} to pay Kes 20 for Hour Pass.`)).toBeVisible();
  return paymentId;
}

test("M-Pesa success: the waiting page turns into the grant by itself, and the console shows the subscription and the transaction", async ({
  page,
  browser,
  gateway,
}) => {
  const setup = await mpesaPortal();
  const phone = DARAJA_TEST_PHONES.success;
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  const paymentId = await payForHourPass(page, token, phone);

  // No click: the page reloads until the callback has made the plan Active, then goes to the grant.
  const grant = await granted(page, gateway);
  expect(grant.searchParams.get("duration")).toBe(String(60 * 60));
  expect(await connectionByToken(token)).toMatchObject({ authorization_mode: "MPESA", phone_number: `+${phone}` });
  const purchase = await purchaseOf(paymentId);
  expect(purchase).toMatchObject({
    status: 1,
    result_code: 0,
    amount: 20,
    phone_number: phone,
    subscription_status: "Active",
    plan_name: "Hour Pass",
  });
  expect(purchase.transaction_id).toMatch(/^[A-Z0-9]{10}$/);

  const owner = await consoleAs(browser, setup.owner.id);
  await owner.goto(`/${setup.orgId}/subscriptions`);
  const subscription = owner.getByRole("row").filter({ hasText: "Hour Pass" });
  await expect(subscription).toHaveCount(1);
  await expect(subscription).toContainText("Hour Pass @ Kes 20");
  await expect(subscription).toContainText(`+${phone}`);
  await expect(subscription).toContainText("Active");

  await owner.goto(`/${setup.orgId}/prepaid/mpesa-transactions`);
  await expect(owner.getByRole("heading", { level: 1, name: "M-Pesa Transactions" })).toBeVisible();
  const transaction = owner.getByRole("row").filter({ hasText: purchase.transaction_id! });
  await expect(transaction).toHaveCount(1);
  await expect(transaction).toContainText(phone);
  await expect(transaction).toContainText("Kes 20");
  await expect(transaction).toContainText("174379");
  await expect(transaction).toContainText("Completed");
  await owner.context().close();
});

test(
  "M-Pesa cancelled on the phone: the waiting page says so in plain words, no grant, and Try again leads back",
  GUEST,
  async ({ page, gateway }) => {
    const setup = await mpesaPortal();
    const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    const paymentId = await payForHourPass(page, token, DARAJA_TEST_PHONES.cancelled);

    await expect(page.getByRole("heading", { level: 1, name: "Payment not completed" })).toBeVisible();
    await expect(page.getByText(STK_RESULT_MESSAGES[1032]!, { exact: true })).toBeVisible();
    expect(await purchaseOf(paymentId)).toMatchObject({
      status: 2,
      result_code: 1032,
      transaction_id: null,
      subscription_status: "Cancelled",
    });
    expect(gateway.grants).toHaveLength(0);

    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page).toHaveURL(`/connect?token=${token}`);
    await expect(page.getByRole("heading", { level: 1, name: "Get connected to WiFi" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pay with M-Pesa" })).toBeVisible();
    expect(gateway.grants).toHaveLength(0);
  },
);

test(
  "M-Pesa with no answer from the phone: the waiting page asks Daraja itself and says the request expired",
  GUEST,
  async ({ page, gateway }) => {
    const setup = await mpesaPortal();
    const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    const paymentId = await payForHourPass(page, token, DARAJA_TEST_PHONES.timeout);

    // No callback comes. The page queries Daraja once the purchase is QUERY_AFTER_MS (15 s) old; the
    // check is made due now instead, again until the fake has the result (each early query is
    // answered "being processed" and puts the next check 15 s off).
    await expect(async () => {
      await makeCheckDue(paymentId);
      await expect(page.getByRole("heading", { level: 1, name: "Payment not completed" })).toBeVisible({ timeout: 4_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText(STK_RESULT_MESSAGES[1019]!, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", `/connect?token=${token}`);
    expect(await purchaseOf(paymentId)).toMatchObject({ status: 2, result_code: 1019, subscription_status: "Cancelled" });
    expect(gateway.grants).toHaveLength(0);
  },
);
