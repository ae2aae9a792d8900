// "Paid without the prompt" end to end (decision 0088), with JavaScript (enhanced) and without (no-js):
// a guest types a made-up M-Pesa code (the fake Daraja's Transaction Status does not know it: the
// waiting page, refreshed by its header, comes back to the connect page saying so), then the code of
// a Paybill payment whose C2B confirmation Mlango received, and goes online under the plan its amount
// pays; a second device typing the same code is told it was used. The C2B confirmation is POSTed to
// Mlango as Daraja sends it (the browser tests' organisations share the fake's one short code, so
// its C2B Simulate could not tell them apart). The guest's browser asks no other host.
import type { Page } from "@playwright/test";
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
import { addPlan, contextOf, setUpMpesa } from "./prepaid-fixtures";

const { db } = await import("~/db/db.server");
const { RECEIPT_MESSAGES } = await import("~/services/prepaid/receipt-claims.server");

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

let seq = 0;
const code = (prefix: string) => `${prefix}${String(process.pid % 10_000).padStart(4, "0")}${String(++seq).padStart(4, "0")}`.slice(0, 10);

async function arrive(page: Page, entry: string): Promise<string> {
  await page.goto(entry);
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  return new URL(page.url()).searchParams.get("token")!;
}

async function typeReceipt(page: Page, receipt: string) {
  await page.getByLabel("M-Pesa code").fill(receipt);
  await page.getByRole("button", { name: "Check my payment" }).click();
}

test("a Paybill payment's M-Pesa code gives its plan once; a made-up code is refused", async ({ page, browser, gateway }) => {
  const setup = await makePortal({ venue: { guest_signup: 0 } });
  const ctx = await contextOf(setup.owner.id, setup.orgId);
  await addPlan(ctx, { name: "Day Pass", price: "50", plan_kind: "Unlimited", validity: "1", validity_units: "Days" });
  await setUpMpesa(ctx);
  const { callback_key } = await db
    .selectFrom("mpesa_settings")
    .select("callback_key")
    .where("organization_id", "=", setup.orgId)
    .executeTakeFirstOrThrow();

  const token = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await expect(page.getByText("Paid already?")).toBeVisible();

  // A made-up code: M-Pesa is asked, the page waits, then says it does not know it.
  const madeUp = code("ZX");
  await typeReceipt(page, madeUp);
  await expect(page.getByRole("heading", { name: "Checking your payment" })).toBeVisible();
  await expect(page.getByText(`We are asking M-Pesa about ${madeUp}.`)).toBeVisible();
  await expect(page.getByText(RECEIPT_MESSAGES.unknown)).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/connect\/mpesa\/receipt\/wait\?/);

  // The guest paid the Paybill from the M-Pesa menu; Daraja confirms it to Mlango.
  const receipt = code("PB");
  const confirmed = await fetch(`${ORIGIN}/hotspot/mpesa/${callback_key}/c2b/confirmation`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      TransactionType: "Pay Bill",
      TransID: receipt,
      TransTime: "20261203101010",
      TransAmount: "50.00",
      BusinessShortCode: "174379",
      BillRefNumber: "WIFI",
      MSISDN: "254700000777",
      FirstName: "Achieng",
    }),
  });
  expect(confirmed.status).toBe(200);
  await typeReceipt(page, receipt.toLowerCase());
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  expect(gateway.grants).toHaveLength(1);
  expect(await connectionByToken(token)).toMatchObject({ authorization_mode: "MPESA" });

  // Another device with the same code: already used.
  const other = await browser.newContext();
  await other.route(
    (url) => url.origin !== ORIGIN,
    (route) => route.abort("blockedbyclient"),
  );
  const second = await other.newPage();
  await arrive(second, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await typeReceipt(second, receipt);
  await expect(second.getByText(RECEIPT_MESSAGES.used)).toBeVisible();
  await expect(second.getByLabel("M-Pesa code")).toHaveValue(receipt);
  expect(gateway.grants).toHaveLength(1);
  await other.close();
});
