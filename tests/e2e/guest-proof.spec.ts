// A plan belongs to whoever proved they paid (issue 34 item 1, decision 0086), with JavaScript
// (enhanced) and without (no-js): a guest paid for a plan; another device typing that number gets
// no plan but a code sent to the buyer's phone (read here from the fake Africa's Talking); a wrong
// code is refused, the right one lets that device join the plan.
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

async function portal() {
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
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right, or it has expired.");
  expect((await connectionByToken(second)).authorized_at).toBeNull();

  await page.getByLabel("Code from the text message").fill(code!);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  expect((await connectionByToken(second)).subscription_id).toBe(plan);
  expect(gateway.grants).toHaveLength(2);
});
