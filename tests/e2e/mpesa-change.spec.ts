// The guest changes their mind on the M-Pesa waiting page (issue 34, item 5), with JavaScript
// (enhanced) and without (no-js): "Use another number" after a mistyped number sends a new prompt
// to the right one and the plan is granted once paid; "Cancel this payment" goes back to the connect
// page. The mistyped number's prompt is never answered (DARAJA_SILENT_PHONES at the fake Daraja).
import type { Page } from "@playwright/test";
import { DARAJA_SILENT_PHONES } from "../../playwright.config";
import { expect, E2E_PORT, test as base } from "./fixtures";
import {
  connectionByToken,
  type FakeGateway,
  makePortal,
  merakiEntry,
  merakiGrantUrl,
  randomMac,
  startFakeGateway,
} from "./portal-fixtures";
import { addPlan, contextOf, purchaseOf, setUpMpesa } from "./prepaid-fixtures";

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
      await context.route(
        (url) => !local.has(url.origin),
        (route) => route.abort("blockedbyclient"),
      );
      await use(gateway);
      await gateway.close();
      expect(strays, "the guest's browser asked for no other host").toEqual([]);
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
  });
  await setUpMpesa(ctx);
  return setup;
}

async function arrive(page: Page, entry: string): Promise<string> {
  await page.goto(entry);
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  return new URL(page.url()).searchParams.get("token")!;
}

/** A number no other test pays from (any number but the fake's special ones pays, 2 s after the push). */
const freshPhone = () => `07${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
const local = (daraja: string) => `0${daraja.slice(3)}`;

async function payHourPass(page: Page, token: string, phone: string): Promise<number> {
  await page
    .getByRole("group", { name: "Buy a plan with M-Pesa" })
    .getByRole("radio", { name: /Hour Pass/ })
    .check();
  await page.getByLabel("M-Pesa phone number").fill(phone);
  await page.getByRole("button", { name: "Pay with M-Pesa" }).click();
  await expect(page).toHaveURL(new RegExp(`/connect/mpesa/wait\\?token=${token}&payment=\\d+$`));
  await expect(page.getByRole("heading", { level: 1, name: "Check your phone" })).toBeVisible();
  return Number(new URL(page.url()).searchParams.get("payment"));
}

test("a mistyped number: Use another number sends a new prompt to the right one, and the plan is granted once paid", async ({
  page,
  gateway,
}, testInfo) => {
  const setup = await portal();
  const mistyped = DARAJA_SILENT_PHONES[testInfo.project.name as keyof typeof DARAJA_SILENT_PHONES][0];
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  const first = await payHourPass(page, token, local(mistyped));
  await expect(page.getByText(`Enter your M-Pesa PIN on ${local(mistyped)} to pay Kes 20 for Hour Pass.`)).toBeVisible();

  await page.getByRole("button", { name: "Use another number" }).click();
  await expect(page).toHaveURL(`/connect/mpesa/change?token=${token}&payment=${first}`);
  await expect(page.getByRole("heading", { level: 1, name: "Pay with another number" })).toBeVisible();
  await expect(page.getByText("Type the Safaricom number to send the M-Pesa prompt for Hour Pass (Kes 20) to.")).toBeVisible();
  const field = page.getByLabel("M-Pesa phone number");
  await expect(field).toHaveValue(local(mistyped));
  const right = freshPhone();
  await field.fill(right);
  await page.getByRole("button", { name: "Pay Kes 20" }).click();

  await expect(page).toHaveURL(new RegExp(`/connect/mpesa/wait\\?token=${token}&payment=\\d+$`));
  const second = Number(new URL(page.url()).searchParams.get("payment"));
  expect(second).not.toBe(first);
  await expect(page.getByText(`Enter your M-Pesa PIN on ${right} to pay Kes 20 for Hour Pass.`)).toBeVisible();

  // No click: the page reloads (its Refresh header) until the payment arrives, then goes to the grant.
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)), { timeout: 30_000 });
  expect(gateway.grants).toHaveLength(1);
  expect(await connectionByToken(token)).toMatchObject({ authorization_mode: "MPESA" });
  expect(await purchaseOf(second)).toMatchObject({ status: 1, subscription_status: "Active" });
  // The mistyped number's purchase is still open to Daraja (status pending), not granted.
  expect(await purchaseOf(first)).toMatchObject({ status: 0, subscription_status: "Pending" });
});

test("Cancel this payment goes back to the connect page, where Pay starts afresh", async ({ page, gateway }, testInfo) => {
  const setup = await portal();
  const silent = DARAJA_SILENT_PHONES[testInfo.project.name as keyof typeof DARAJA_SILENT_PHONES][1];
  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  const first = await payHourPass(page, token, local(silent));

  await page.getByRole("button", { name: "Cancel this payment" }).click();
  await expect(page).toHaveURL(`/connect?token=${token}`);
  await expect(page.getByRole("button", { name: "Pay with M-Pesa" })).toBeVisible();
  // Before the change, Pay went back to the old purchase's waiting page for up to 3 minutes.
  const again = await payHourPass(page, token, freshPhone());
  expect(again).not.toBe(first);
  expect(gateway.grants).toHaveLength(0);
});
