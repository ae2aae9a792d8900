// The gateway simulator's buyers (scripts/simulator/guest.ts, `npm run simulate -- --buyers N`), over
// HTTP against the built server and the fake Daraja, on SQLite and PostgreSQL: a buyer reads the
// connect page's M-Pesa form, pays for the cheapest plan, follows the waiting page's Refresh header
// and is granted the plan's time (longer than the network's session, which the grant check allows
// for a plan); a cancelled payment fails with the page's own words; a page that sells nothing says so.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { STK_RESULT_MESSAGES } from "~/services/prepaid/daraja.server";
import { saveMpesaSettings } from "~/services/prepaid/mpesa-settings.server";
import { createPlan } from "~/services/prepaid/plans.server";
import { DEMO_MPESA_FORM, type FakeDaraja } from "../../scripts/fakes/daraja";
import { playGuest, randomDevice, type GuestPlan } from "../../scripts/simulator/guest";
import { HttpClient } from "../../scripts/simulator/http";
import { meraki, type SimNetwork } from "../../scripts/simulator/makes";
import { makeOrg } from "../fixtures";
import { startServerWithFakeDaraja } from "../fixtures/daraja";
import { makeNetwork } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let fake: FakeDaraja;
let client: HttpClient;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const running = await startServerWithFakeDaraja();
  ({ fake, close: stop } = running);
  client = new HttpClient(running.server.origin, 4);
});
afterAll(async () => {
  client?.close();
  await stop?.();
});
beforeEach(async () => {
  await fake.idle();
  fake.outcomeFor = null;
});

let phoneSeq = 0;
const nextPhone = () => `07${String(10_000_000 + ((process.pid * 7_919 + ++phoneSeq * 104_729) % 89_999_999)).padStart(8, "0")}`;

/** A Meraki network with a 15-minute session; with `sells`, M-Pesa and two plans of two hours and one day. */
async function world(sells: boolean) {
  const { org, owner } = await makeOrg(`Simulator ${Math.random()}`);
  const { venue, ap, secret } = await makeNetwork(org.id, { guest_signup: 0, session_minutes: 15 });
  const plans: Record<string, number> = {};
  if (sells) {
    const ctx = await contextOf(owner.id, org.id);
    for (const [name, price, time_limit, time_limit_unit] of [
      ["Day pass", "80", "1", "Days"],
      ["Two hours", "30", "2", "Hrs"],
    ]) {
      const created = await createPlan(
        ctx,
        servicePlanSchema(false).parse({
          name,
          price,
          plan_kind: "Limited",
          limit_type: "Time",
          time_limit,
          time_limit_unit,
          validity: "1",
          validity_units: "Days",
        }),
      );
      if (!created.ok) throw new Error(JSON.stringify(created.errors));
      plans[name!] = created.id;
    }
    expect(await saveMpesaSettings(ctx, mpesaSettingsSchema.parse(DEMO_MPESA_FORM))).toBe("saved");
  }
  const network: SimNetwork = {
    entryPath: `/hotspot/meraki/${venue.portal_key}`,
    accessPoints: [{ mac: ap.mac_address, successUrl: null }],
    successUrl: null,
    gatewaySecret: secret,
    faskey: "",
    sessionMinutes: 15,
  };
  return { orgId: org.id, network, plans };
}

const buyer = (phone = nextPhone()): GuestPlan => ({
  device: randomDevice(1),
  person: { firstName: "Amina", lastName: "Otieno", email: `amina.${phone}@example.com`, phone, marketing: false },
  expect: "MPESA",
});

describe("the simulator's buyers", () => {
  it("pay for the cheapest plan, follow the waiting page to the grant and get the plan's two hours, not the network's 15 minutes", async () => {
    const w = await world(true);
    const guest = buyer();
    const result = await playGuest(client, meraki, w.network, guest);

    expect(result.message).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(Object.keys(result.steps)).toEqual(["entry", "connect page", "STK push", "payment → grant"]);
    const push = fake.stkRequests.find((r) => r.phone === `254${guest.person.phone.slice(1)}`)!;
    expect(push.amount).toBe(30);
    const subscription = await db
      .selectFrom("subscriptions")
      .select(["status", "service_plan_id"])
      .where("organization_id", "=", w.orgId)
      .executeTakeFirstOrThrow();
    expect(subscription).toEqual({ status: "Active", service_plan_id: w.plans["Two hours"] });
  });

  it("report a payment cancelled on the phone in the waiting page's words, at the payment step", async () => {
    const w = await world(true);
    const guest = buyer();
    fake.outcomeFor = ({ phone }) => (phone === `254${guest.person.phone.slice(1)}` ? "cancelled" : "success");
    const result = await playGuest(client, meraki, w.network, guest);

    expect(result.ok).toBe(false);
    expect(result.failedStep).toBe("payment → grant");
    expect(result.message).toContain(STK_RESULT_MESSAGES[1032]);
    const connection = await db
      .selectFrom("connections")
      .select("authorized_at")
      .where("organization_id", "=", w.orgId)
      .executeTakeFirstOrThrow();
    expect(connection.authorized_at).toBeNull();
  });

  it("say so when the connect page sells no plan", async () => {
    const w = await world(false);
    const result = await playGuest(client, meraki, w.network, buyer());
    expect(result).toMatchObject({ ok: false, failedStep: "connect page", message: expect.stringContaining("sells no plan") });
  });
});
