// The console's Payment Exceptions page (decision 0077), with JavaScript (enhanced) and without
// (no-js): the owner sees the M-Pesa payments that need a person with their labels, grants the plan
// of one, refunds another through the fake Daraja's Reversal API (confirmed first; the fake does not
// know the receipt, so M-Pesa's result comes back later as a failed refund, R000002), marks a third
// resolved, and the open list ends empty. With JavaScript the page must hydrate without an error (a
// label imported from a .server module is empty in the browser bundle and broke it).
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";
import { clickAndConfirm } from "./confirm";
import { addPlan, contextOf, setUpMpesa } from "./prepaid-fixtures";

const { db } = await import("~/db/db.server");
const { recordPaymentException } = await import("~/services/prepaid/payment-exceptions.server");

let seq = 0;
const receipt = () => `RVE${String(process.pid % 10_000).padStart(4, "0")}${String(++seq).padStart(3, "0")}`;

async function organisationWithExceptions() {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const ctx = await contextOf(owner.id, org.id);
  await setUpMpesa(ctx);
  const planId = await addPlan(ctx, { name: "Two hours", price: "50" });
  const now = Date.now();
  const subscription = await db
    .insertInto("subscriptions")
    .values({
      organization_id: org.id,
      service_plan_id: planId,
      customer_id: null,
      device_id: null,
      plan_name: "Two hours",
      price_cents: 5000,
      source: "mpesa",
      status: "Cancelled",
      started_on: null,
      expires_on: null,
      time_limit_minutes: null,
      usage_limit_bytes: null,
      simultaneous_connections: 1,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const late = receipt();
  const unknown = receipt();
  const base = { organizationId: org.id, amount: 50 };
  await recordPaymentException(
    {
      ...base,
      kind: "late",
      dedupe: late,
      receipt: late,
      phone: "254700000106",
      subscriptionId: Number(subscription.id),
      detail: "Paid at 200 s.",
    },
    now - 3000,
  );
  await recordPaymentException(
    { ...base, kind: "unknown_purchase", dedupe: unknown, receipt: unknown, phone: "254700000107", detail: "No purchase has it." },
    now - 2000,
  );
  await recordPaymentException(
    { organizationId: org.id, kind: "unconfirmed", dedupe: `u-${late}`, phone: "254700000108", expectedAmount: 50, detail: "No answer." },
    now - 1000,
  );
  return { owner, org, late, unknown, subscriptionId: Number(subscription.id) };
}

test("payment exceptions: the owner grants one, refunds one (M-Pesa refuses it later) and resolves one", async ({ page, context }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const w = await organisationWithExceptions();
  await signIn(context, w.owner.id);
  await page.goto(`/${w.org.id}/prepaid/payment-exceptions`);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Exceptions" })).toBeVisible();
  await expect(page.getByText("Open (3)")).toBeVisible();
  const row = (text: string) => page.getByRole("row").filter({ hasText: text });
  await expect(row(w.late)).toContainText("Paid after the guest stopped waiting");
  await expect(row(w.late)).toContainText("Two hours");
  await expect(row(w.unknown)).toContainText("Payment for an unknown purchase");
  await expect(row("M-Pesa never confirmed")).toContainText("Open");

  await row(w.late).getByRole("button", { name: "Grant plan" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Plan granted." })).toBeVisible();
  await expect(page.getByText("Open (2)")).toBeVisible();
  await expect(row(w.late)).toHaveCount(0);
  const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", w.subscriptionId).executeTakeFirstOrThrow();
  expect(sub.status).toBe("Active");

  const question = await clickAndConfirm(page, row(w.unknown).getByRole("button", { name: "Refund" }));
  expect(question).toBe("Refund this payment to the guest's M-Pesa? The money goes back to the phone that paid.");
  await expect(page.getByRole("status").filter({ hasText: "Refund requested: M-Pesa will confirm it shortly." })).toBeVisible();

  await row("M-Pesa never confirmed").getByRole("button", { name: "Mark resolved" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked as resolved." })).toBeVisible();

  // M-Pesa's answer to the refund arrives at the ResultURL: the fake knows no such receipt (R000002).
  await page.getByRole("navigation", { name: "Which exceptions" }).getByRole("link", { name: "All", exact: true }).click();
  await expect(page).toHaveURL(/show=all/);
  await expect
    .poll(
      async () => {
        await page.reload();
        return row(w.unknown).textContent();
      },
      { timeout: 20_000 },
    )
    .toContain("Refund failed");
  await expect(row(w.unknown)).toContainText("R000002");
  await expect(row(w.late)).toContainText("Plan granted");
  await expect(row("M-Pesa never confirmed")).toContainText("Resolved");
  // A failed refund is open to the owner again: retry it or mark it resolved.
  await expect(row(w.unknown).getByRole("button", { name: "Mark resolved" })).toBeVisible();
  await expect(page.getByText("Open (0)")).toBeVisible();
  expect(errors, "the page ran without a browser error").toEqual([]);
});
