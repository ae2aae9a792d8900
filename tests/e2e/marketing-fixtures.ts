// Browser-test data for marketing: an organisation with its owner and customers
// (names, e-mail addresses, phone numbers, marketing consent or not), a customer group and SMS settings
// written through the services (as the owner, so the same checks run as in the console), and the reads
// the tests check broadcasts with. SMS settings point at the fake Africa's Talking the browser tests
// start (playwright.config.ts) with its demo credentials. Every test makes its own organisation.
import crypto from "node:crypto";
import type { Insertable } from "kysely";
import type { CustomersTable } from "~/db/schema";
import { AFRICASTALKING_PORT } from "../../playwright.config";
import { DEMO_AT_CREDENTIALS, type FakeSms } from "../../scripts/fakes/africastalking";
import { makeOrg, makeUser, uniqueEmail } from "./fixtures";
import { contextOf } from "./prepaid-fixtures";

const { db } = await import("~/db/db.server");
const { buildCustomer } = await import("~/tools/factories.server");
const { EMPTY_FILTERS } = await import("~/lib/schemas/group-filters");
const { smsSettingsSchema } = await import("~/lib/schemas/sms-settings");
const { createGroup, updateGroupFilters } = await import("~/services/marketing/groups.server");
const { saveSmsSettings } = await import("~/services/marketing/sms/settings.server");

export const { UNSUBSCRIBE_MESSAGES } = await import("~/guest/unsubscribe-page");

export interface Customer {
  id: number;
  name: string;
  email: string;
  phone: string;
}

/** A Kenyan mobile number no other test uses (the fake keeps every test's messages). */
const uniqueMobile = () => `+2547${crypto.randomInt(10_000_000, 100_000_000)}`;

let counter = 0;

/** An organisation and its owner; `orgName` is what the unsubscribe page names. */
export async function makeMarketingOrg() {
  const owner = await makeUser();
  const orgName = `Soko Cafe ${process.pid}-${++counter}`;
  const org = await makeOrg(owner.id, orgName);
  return { owner, orgId: org.id, orgName, ctx: await contextOf(owner.id, org.id) };
}

/** Customers with an e-mail address and a phone number; `optedIn: false` leaves marketing consent unset. */
export async function addCustomers(orgId: number, people: { first: string; last: string; optedIn?: boolean }[]): Promise<Customer[]> {
  const now = Date.now();
  const rows: Insertable<CustomersTable>[] = people.map((p) =>
    buildCustomer(orgId, {
      first_name: p.first,
      last_name: p.last,
      email_address: uniqueEmail(p.first.toLowerCase()),
      phone_number: uniqueMobile(),
      terms_accepted_at: now,
      marketing_opt_in_at: p.optedIn === false ? null : now,
    }),
  );
  const inserted = await db
    .insertInto("customers")
    .values(rows)
    .returning(["id", "first_name", "last_name", "email_address", "phone_number"])
    .execute();
  return inserted.map((c) => ({
    id: Number(c.id),
    name: `${c.first_name} ${c.last_name}`,
    email: c.email_address!,
    phone: c.phone_number!,
  }));
}

type Ctx = Awaited<ReturnType<typeof contextOf>>;

/** A group holding every customer of the organisation (no filters). */
export async function addGroup(ctx: Ctx, name: string): Promise<number> {
  const id = await createGroup(ctx, { name, description: null });
  const errors = await updateGroupFilters(ctx, id, EMPTY_FILTERS);
  if (errors) throw new Error(`group filters not saved: ${JSON.stringify(errors)}`);
  return id;
}

/** SMS through the fake Africa's Talking (AFRICASTALKING_URL), with the credentials it accepts. */
export async function setUpSms(ctx: Ctx): Promise<void> {
  const settings = smsSettingsSchema.parse({ username: DEMO_AT_CREDENTIALS.username, api_key: DEMO_AT_CREDENTIALS.apiKey });
  const saved = await saveSmsSettings(ctx, settings);
  if (saved !== "saved") throw new Error(`SMS settings not saved: ${saved}`);
}

/** The ids of the broadcast's schedules, oldest first. */
export async function scheduleIdsOf(broadcastId: number): Promise<number[]> {
  const rows = await db.selectFrom("broadcast_schedules").select("id").where("broadcast_id", "=", broadcastId).orderBy("id").execute();
  return rows.map((r) => Number(r.id));
}

/** A schedule's deliveries: who got what on which channel. */
export async function deliveriesOf(scheduleId: number) {
  const rows = await db
    .selectFrom("broadcast_deliveries")
    .select(["customer_id", "channel", "status"])
    .where("schedule_id", "=", scheduleId)
    .orderBy("customer_id")
    .orderBy("channel")
    .execute();
  return rows.map((r) => ({ ...r, customer_id: Number(r.customer_id) }));
}

/** What the fake Africa's Talking sent to a number. */
export async function smsSentTo(phone: string): Promise<FakeSms[]> {
  const res = await fetch(`http://127.0.0.1:${AFRICASTALKING_PORT}/fake/messages?to=${encodeURIComponent(phone)}`);
  return ((await res.json()) as { messages: FakeSms[] }).messages;
}

/** The broadcast's stored e-mail: HTML, plain text and the designer's project (JSON text or null). */
export async function broadcastEmailOf(broadcastId: number) {
  return db
    .selectFrom("broadcasts")
    .select(["email_html", "email_text", "email_design"])
    .where("id", "=", broadcastId)
    .executeTakeFirstOrThrow();
}
