// A plan belongs to whoever proved they paid (issue 34 item 1, decision 0086), with JavaScript
// (enhanced) and without (no-js): a guest paid for a plan; another device typing that number gets
// no plan but a code sent to the buyer's phone (read here from the fake Africa's Talking); a wrong
// code is refused, the right one lets that device join the plan. A returning guest on a new MAC
// proves their phone in one step ("Welcome back"), and a guest sees their own data after a code.
import type { Page } from "@playwright/test";
import { expect, E2E_PORT, test as base } from "./fixtures";
import { setUpSms, smsSentTo } from "./marketing-fixtures";
import {
  connectionByToken,
  type FakeGateway,
  makePortal,
  merakiEntry,
  merakiGrantUrl,
  randomMac,
  startFakeGateway,
} from "./portal-fixtures";
import { addPlan, contextOf, setUpMpesa } from "./prepaid-fixtures";

const ORIGIN = `http://localhost:${E2E_PORT}`;

const test = base.extend<{ gateway: FakeGateway }>({
  gateway: [
    async ({ context }, use) => {
      const gateway = await startFakeGateway();
      const local = new Set([ORIGIN, gateway.origin]);
      await context.route(
        (url) => !local.has(url.origin),
        (route) => route.abort("blockedbyclient"),
      );
      await use(gateway);
      await gateway.close();
    },
    { auto: true },
  ],
});

async function portal(signup = false) {
  const setup = await makePortal({ venue: signup ? { guest_signup: 1, signup_email: "optional" } : { guest_signup: 0 } });
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
    simultaneous_connections: "2",
  });
  await setUpMpesa(ctx);
  await setUpSms(ctx);
  return setup;
}

async function arrive(page: Page, entry: string): Promise<string> {
  await page.goto(entry);
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  return new URL(page.url()).searchParams.get("token")!;
}

async function pay(page: Page, phone: string) {
  await page
    .getByRole("group", { name: "Buy a plan with M-Pesa" })
    .getByRole("radio", { name: /Hour Pass/ })
    .check();
  await page.getByLabel("M-Pesa phone number").fill(phone);
  await page.getByRole("button", { name: "Pay with M-Pesa" }).click();
}

const freshPhone = () => `07${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
const e164 = (phone: string) => `+254${phone.slice(1)}`;

test("another device typing the buyer's number proves it with the code sent to that phone", async ({ page, gateway }) => {
  const setup = await portal();
  const phone = freshPhone();
  const buyer = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await pay(page, phone);
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)), { timeout: 30_000 });
  const plan = (await connectionByToken(buyer)).subscription_id;

  // A second device, the same number: no plan, no prompt — a code to the buyer's phone.
  const second = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await pay(page, phone);
  await expect(page.getByRole("heading", { level: 1, name: "This number already has a plan" })).toBeVisible();
  await expect(page.getByText(`This number already has a plan: we sent a code to ${phone.slice(0, 2)}…${phone.slice(-2)}.`)).toBeVisible();
  const texts = await smsSentTo(e164(phone));
  const code = /Your code is (\d{6})/.exec(texts.at(-1)?.text ?? "")?.[1];
  expect(code).toMatch(/^\d{6}$/);

  await page.getByLabel("Code from the text message").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right, or it has expired.");
  expect((await connectionByToken(second)).authorized_at).toBeNull();

  await page.getByLabel("Code from the text message").fill(code!);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  expect((await connectionByToken(second)).subscription_id).toBe(plan);
  expect(gateway.grants).toHaveLength(2);
});

/** The code in the newest text message to this number, as the guest reads it on their phone. */
async function codeSentTo(phone: string): Promise<string> {
  const texts = await smsSentTo(e164(phone));
  const code = /Your code is (\d{6})/.exec(texts.at(-1)?.text ?? "")?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

test("a returning guest on a new MAC: Welcome back, the code, and their plan again", async ({ page, gateway }) => {
  const setup = await portal(true);
  const phone = freshPhone();
  const first = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await pay(page, phone); // paying proves the phone
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)), { timeout: 30_000 });
  const plan = (await connectionByToken(first)).subscription_id;

  // The phone randomised its MAC: a new device to the network, until the phone is proved.
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await page.getByLabel("First name").fill("Juma");
  await page.getByLabel("Last name").fill("Hamisi");
  await page.getByLabel("Phone number", { exact: true }).fill(phone);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
  await expect(page.getByText(`Welcome back — enter the code sent to ${phone.slice(0, 2)}…${phone.slice(-2)}.`)).toBeVisible();
  await page.getByLabel("Code from the text message").fill(await codeSentTo(phone));
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  const joined = await connectionByToken(token);
  expect(joined.subscription_id).toBe(plan);
  expect(joined.customer_id).toBe((await connectionByToken(first)).customer_id);
  expect(joined.first_name).toBe("Juma");
});

test("a guest sees their own data after proving their phone, and stops marketing", async ({ page, gateway }) => {
  const setup = await portal(true);
  const phone = freshPhone();
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await page.getByLabel("First name").fill("Wanjiru");
  await page.getByLabel("Last name").fill("Kamau");
  await page.getByLabel("Phone number", { exact: true }).fill(phone);
  await page.getByRole("checkbox", { name: /news|offers/i }).check();
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));

  await page.goto(`/connect/my-data?token=${token}`);
  await expect(page.getByRole("heading", { level: 1, name: "Your data" })).toBeVisible();
  await page.getByLabel("Phone number").fill(phone);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await page.getByLabel("Code from the SMS").fill("000000" === (await codeSentTo(phone)) ? "111111" : "000000");
  await page.getByRole("button", { name: "Show my data" }).click();
  await expect(page.getByText("That code is not right or has expired. Ask for a new one.")).toBeVisible();
  await page.getByLabel("Code from the SMS").fill(await codeSentTo(phone));
  await page.getByRole("button", { name: "Show my data" }).click();
  await expect(page.getByText("Wanjiru Kamau")).toBeVisible();
  await expect(page.getByText("You receive news and offers.")).toBeVisible();
  await page.getByRole("button", { name: "Stop news and offers" }).click();
  await expect(page.getByText("Done: you will not receive news and offers any more.")).toBeVisible();
  expect((await connectionByToken(token)).marketing_opt_in_at).toBeNull();
});
