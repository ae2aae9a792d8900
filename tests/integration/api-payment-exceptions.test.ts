// Payment exceptions over REST (/account/api/v1/payment_exceptions…) and GraphQL, on SQLite and
// PostgreSQL, through the service the console page uses (decision 0077): the list with the page's
// filter and the API's paging, each owner action (grant, a refund through the fake Daraja's Reversal
// API whose result comes back to the server, dismiss), refusals for a member without the permission
// or who is not the owner, and another organisation's exception out of reach (404).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage } from "~/lib/permissions";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { PAYMENT_EXCEPTION_MESSAGES } from "~/lib/schemas/payment-exceptions";
import { servicePlanSchema } from "~/lib/schemas/plans";
import * as actionRoute from "~/routes/account+/api.v1.payment_exceptions.$id.$action";
import * as listRoute from "~/routes/account+/api.v1.payment_exceptions";
import { issueToken } from "~/services/auth.server";
import { recordPaymentException } from "~/services/prepaid/payment-exceptions.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { DEMO_MPESA_FORM, SANDBOX_SHORTCODE, type FakeDaraja } from "../../scripts/fakes/daraja";
import { BASE, makeMember, makeOrg, run } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import { firstError, gql, gqlData, type Caller } from "../fixtures/graphql";
import type { TestServer } from "../fixtures/http-server";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let fake: FakeDaraja;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => ({ server, fake, close: stop } = await startServerWithFakeDaraja()));
afterAll(() => stop?.());

type Route = { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: ActionFunctionArgs) => Promise<Response> };
type Json = Record<string, any>;

function call(route: Route, path: string, options: { token: string; org: number; method?: string; params?: Record<string, string> }) {
  const method = options.method ?? "GET";
  const headers = new Headers({ Authorization: `Bearer ${options.token}`, "X-Organization-Id": String(options.org) });
  const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method, headers });
  const args = { request, params: options.params ?? {}, context: {} };
  return run(() => (method === "GET" ? route.loader(args) : route.action(args)));
}

const list = (token: string, org: number, query = "") => call(listRoute, `payment_exceptions${query}`, { token, org });
const act = (token: string, org: number, id: number | string, action: string) =>
  call(actionRoute, `payment_exceptions/${id}/${action}`, { token, org, method: "POST", params: { id: String(id), action } });

let receiptSeq = 0;
const receipt = () => `RVAPI${String(process.pid % 1000).padStart(3, "0")}${String(++receiptSeq).padStart(2, "0")}`;

/** An organisation paid through the fake Daraja with three open exceptions: one to grant, one to refund, one to dismiss. */
async function world() {
  const { org, owner } = await makeOrg(`Exceptions ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const plan = await createPlan(ctx, servicePlanSchema(false).parse({ name: "Two hours", price: "50" }));
  if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
  expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
  const now = Date.now();
  const subscription = await db
    .insertInto("subscriptions")
    .values({
      organization_id: org.id,
      service_plan_id: plan.id,
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
  const grantReceipt = receipt();
  const refundReceipt = receipt();
  // Paid for real at M-Pesa (the fake knows the receipt), so the Reversal succeeds.
  fake.payments.set(refundReceipt, { amount: 50, phone: "254700000007", shortCode: SANDBOX_SHORTCODE, reversed: false });
  const record = (kind: "late" | "unknown_purchase" | "unconfirmed", fields: object, at: number) =>
    recordPaymentException({ organizationId: org.id, kind, dedupe: `${kind}-${at}`, detail: `A ${kind} payment.`, ...fields }, at);
  await record("late", { receipt: grantReceipt, phone: "254700000006", amount: 50, subscriptionId: Number(subscription.id) }, now - 3000);
  await record("unknown_purchase", { receipt: refundReceipt, phone: "254700000007", amount: 50 }, now - 2000);
  await record("unconfirmed", { phone: "254700000008", expectedAmount: 50 }, now - 1000);
  const rows = await db.selectFrom("payment_exceptions").select(["id", "kind"]).where("organization_id", "=", org.id).execute();
  const idOf = (kind: string) => Number(rows.find((r) => r.kind === kind)!.id);
  return {
    org,
    owner,
    token: await issueToken(owner.id, "api"),
    subscriptionId: Number(subscription.id),
    grantReceipt,
    grantId: idOf("late"),
    refundId: idOf("unknown_purchase"),
    dismissId: idOf("unconfirmed"),
  };
}

const memberToken = async (orgId: number, permissions: Parameters<typeof makeMember>[2]) =>
  issueToken((await makeMember(orgId, "custom", permissions)).user.id, "api");

describe("payment exceptions over REST", () => {
  it("lists with the page's filter and paging, and the owner grants, refunds and dismisses", async () => {
    const w = await world();
    const first = await list(w.token, w.org.id);
    expect(first.status).toBe(200);
    const body = (await first.json()) as Json;
    expect(body.data.meta).toEqual({ page: 1, per_page: 10, total: 3, open: 3 });
    expect(body.data.payment_exceptions.map((e: Json) => e.kind)).toEqual(["unconfirmed", "unknown_purchase", "late"]);
    expect(body.data.payment_exceptions[2]).toMatchObject({
      id: w.grantId,
      organization_id: w.org.id,
      kind: "late",
      kind_text: "Paid after the guest stopped waiting",
      status: "open",
      status_text: "Open",
      receipt: w.grantReceipt,
      phone_number: "254700000006",
      amount: 50,
      plan_name: "Two hours",
      subscription_id: w.subscriptionId,
      can_grant: true,
      can_refund: true,
    });
    expect(body.data.payment_exceptions[2].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const paged = (await (await list(w.token, w.org.id, "?per_page=5&page=2")).json()) as Json;
    expect(paged.data).toMatchObject({ payment_exceptions: [], meta: { page: 2, per_page: 5, total: 3 } });
    const wrongFilter = await list(w.token, w.org.id, "?show=closed");
    expect(wrongFilter.status).toBe(422);
    expect(await wrongFilter.json()).toEqual({ errors: { show: [PAYMENT_EXCEPTION_MESSAGES.show] } });

    // Grant: the Cancelled purchase becomes Active; once.
    const granted = await act(w.token, w.org.id, w.grantId, "grant");
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({
      data: { message: PAYMENT_EXCEPTION_MESSAGES.granted, payment_exception: { id: w.grantId, status: "granted", can_grant: false } },
    });
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", w.subscriptionId).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");
    const again = await act(w.token, w.org.id, w.grantId, "grant");
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: { message: PAYMENT_EXCEPTION_MESSAGES.notOpen } });
    // No purchase behind it: nothing to grant.
    expect((await act(w.token, w.org.id, w.refundId, "grant")).status).toBe(409);

    // Refund: Daraja's Reversal accepted now, its result comes back to the server's ResultURL.
    const refunded = await act(w.token, w.org.id, w.refundId, "refund");
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toMatchObject({
      data: { message: PAYMENT_EXCEPTION_MESSAGES.refundRequested, payment_exception: { status: "refunding" } },
    });
    expect((await act(w.token, w.org.id, w.refundId, "refund")).status).toBe(409);
    await fake.idle();
    const reversals = fake.asyncRequests.filter(
      (r) => r.kind === "reversal" && r.body.TransactionID === body.data.payment_exceptions[1].receipt,
    );
    expect(reversals).toHaveLength(1);
    const stored = await db.selectFrom("payment_exceptions").select("status").where("id", "=", w.refundId).executeTakeFirstOrThrow();
    expect(stored.status).toBe("refunded");

    const dismissed = await act(w.token, w.org.id, w.dismissId, "dismiss");
    expect(dismissed.status).toBe(200);
    expect(await dismissed.json()).toMatchObject({
      data: { message: PAYMENT_EXCEPTION_MESSAGES.dismissed, payment_exception: { status: "dismissed" } },
    });

    expect(((await (await list(w.token, w.org.id)).json()) as Json).data.meta).toMatchObject({ total: 0, open: 0 });
    const all = (await (await list(w.token, w.org.id, "?show=all")).json()) as Json;
    expect(all.data.payment_exceptions.map((e: Json) => e.status)).toEqual(["dismissed", "refunded", "granted"]);
    // Not an action, or a malformed id: not found.
    expect((await act(w.token, w.org.id, w.dismissId, "delete")).status).toBe(404);
    expect((await act(w.token, w.org.id, "abc", "dismiss")).status).toBe(404);
  });

  it("refuses members without the permission, leaves actions to the owner, and hides phones without view_clients", async () => {
    const w = await world();
    const requestsBefore = fake.asyncRequests.length;
    const outsider = await memberToken(w.org.id, ["view_networks"]);
    const refused = await list(outsider, w.org.id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { message: refusalMessage("view_subscriptions") } });
    expect((await act(outsider, w.org.id, w.grantId, "grant")).status).toBe(403);

    const viewer = await memberToken(w.org.id, ["view_subscriptions"]);
    const seen = (await (await list(viewer, w.org.id)).json()) as Json;
    expect(seen.data.payment_exceptions).toHaveLength(3);
    expect(seen.data.payment_exceptions.every((e: Json) => e.phone_number === null)).toBe(true);
    for (const [id, action] of [
      [w.grantId, "grant"],
      [w.refundId, "refund"],
      [w.dismissId, "dismiss"],
    ] as const) {
      const res = await act(viewer, w.org.id, id, action);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { message: "Only the organization's administrator can do that." } });
    }
    const untouched = await db.selectFrom("payment_exceptions").select("status").where("organization_id", "=", w.org.id).execute();
    expect(untouched.map((r) => r.status)).toEqual(["open", "open", "open"]);
    expect(fake.asyncRequests.length).toBe(requestsBefore);
  });

  it("does not reach another organisation's exception", async () => {
    const w = await world();
    const other = await world();
    // Through the caller's own organisation: not found, and nothing changes.
    for (const action of ["grant", "refund", "dismiss"]) {
      const res = await act(other.token, other.org.id, w.grantId, action);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { message: PAYMENT_EXCEPTION_MESSAGES.notFound } });
    }
    // Naming the other organisation: the caller is no member of it.
    expect((await act(other.token, w.org.id, w.grantId, "grant")).status).toBe(404);
    expect((await list(other.token, w.org.id)).status).toBe(404);
    const theirs = (await (await list(other.token, other.org.id)).json()) as Json;
    expect(theirs.data.payment_exceptions.map((e: Json) => e.id)).not.toContain(w.grantId);
    const still = await db.selectFrom("payment_exceptions").select("status").where("id", "=", w.grantId).executeTakeFirstOrThrow();
    expect(still.status).toBe("open");
  });
});

const FIELDS = `id kind kind_text status status_text receipt phone_number amount expected_amount plan_name connection_id subscription_id detail reversal_result can_grant can_refund created_at`;
const MUTATE = (name: string) => `mutation Act($id: ID!) { ${name}(id: $id) { code message recordId success } }`;

describe("payment exceptions over GraphQL", () => {
  it("lists, counts, and runs the owner's actions", async () => {
    const w = await world();
    const caller: Caller = { token: w.token, org: w.org.id };
    const data = await gqlData(
      server,
      caller,
      `{ paymentExceptions { ${FIELDS} } paymentExceptionsCount all: paymentExceptionsCount(show: "all") }`,
    );
    expect(data.paymentExceptionsCount).toBe(3);
    expect(data.all).toBe(3);
    expect(data.paymentExceptions.map((e: Json) => e.kind)).toEqual(["unconfirmed", "unknown_purchase", "late"]);
    expect(data.paymentExceptions[2]).toMatchObject({
      id: String(w.grantId),
      kind_text: "Paid after the guest stopped waiting",
      status: "open",
      receipt: w.grantReceipt,
      phone_number: "254700000006",
      amount: 50,
      plan_name: "Two hours",
      subscription_id: String(w.subscriptionId),
      can_grant: true,
    });
    const paged = await gqlData(server, caller, `{ paymentExceptions(limit: 1, offset: 1) { kind } }`);
    expect(paged.paymentExceptions).toEqual([{ kind: "unknown_purchase" }]);
    expect(firstError(await gql(server, caller, `{ paymentExceptions(show: "closed") { id } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: PAYMENT_EXCEPTION_MESSAGES.show,
    });

    const grant = await gqlData(server, caller, MUTATE("grantPaymentException"), { id: String(w.grantId) });
    expect(grant.grantPaymentException).toEqual({
      code: 200,
      message: PAYMENT_EXCEPTION_MESSAGES.granted,
      recordId: String(w.grantId),
      success: true,
    });
    const twice = await gqlData(server, caller, MUTATE("grantPaymentException"), { id: String(w.grantId) });
    expect(twice.grantPaymentException).toMatchObject({ code: 409, message: PAYMENT_EXCEPTION_MESSAGES.notOpen, success: false });
    const sub = await db.selectFrom("subscriptions").select("status").where("id", "=", w.subscriptionId).executeTakeFirstOrThrow();
    expect(sub.status).toBe("Active");

    const refund = await gqlData(server, caller, MUTATE("refundPaymentException"), { id: String(w.refundId) });
    expect(refund.refundPaymentException).toMatchObject({ code: 200, message: PAYMENT_EXCEPTION_MESSAGES.refundRequested });
    await fake.idle();
    const after = await gqlData(server, caller, `{ paymentExceptions(show: "all") { id status } }`);
    expect(after.paymentExceptions.find((e: Json) => e.id === String(w.refundId)).status).toBe("refunded");

    const dismiss = await gqlData(server, caller, MUTATE("dismissPaymentException"), { id: String(w.dismissId) });
    expect(dismiss.dismissPaymentException).toMatchObject({ code: 200, message: PAYMENT_EXCEPTION_MESSAGES.dismissed });
    expect((await gqlData(server, caller, `{ paymentExceptionsCount }`)).paymentExceptionsCount).toBe(0);
  });

  it("refuses without the permission or ownership, and does not reach another organisation's exception", async () => {
    const w = await world();
    const outsider: Caller = { token: await memberToken(w.org.id, ["view_networks"]), org: w.org.id };
    expect(firstError(await gql(server, outsider, `{ paymentExceptions { id } }`))).toEqual({
      code: "FORBIDDEN",
      message: refusalMessage("view_subscriptions"),
    });
    expect(firstError(await gql(server, outsider, `{ paymentExceptionsCount }`)).code).toBe("FORBIDDEN");
    const viewer: Caller = { token: await memberToken(w.org.id, ["view_subscriptions"]), org: w.org.id };
    expect((await gqlData(server, viewer, `{ paymentExceptions { phone_number } }`)).paymentExceptions).toEqual([
      { phone_number: null },
      { phone_number: null },
      { phone_number: null },
    ]);
    for (const name of ["grantPaymentException", "refundPaymentException", "dismissPaymentException"]) {
      const answer = await gqlData(server, viewer, MUTATE(name), { id: String(w.grantId) });
      expect(answer[name]).toMatchObject({ code: 403, success: false });
    }

    const other = await world();
    const stranger: Caller = { token: other.token, org: other.org.id };
    for (const name of ["grantPaymentException", "refundPaymentException", "dismissPaymentException"]) {
      const answer = await gqlData(server, stranger, MUTATE(name), { id: String(w.refundId) });
      expect(answer[name]).toMatchObject({ code: 404, message: PAYMENT_EXCEPTION_MESSAGES.notFound, success: false });
    }
    expect(firstError(await gql(server, { token: other.token, org: w.org.id }, `{ paymentExceptions { id } }`)).code).toBe("NOT_FOUND");
    const statuses = await db.selectFrom("payment_exceptions").select("status").where("organization_id", "=", w.org.id).execute();
    expect(statuses.map((r) => r.status)).toEqual(["open", "open", "open"]);
  });
});
