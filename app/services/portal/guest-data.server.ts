// A guest's own data (issue 35 items 4 and 5, decision 0080): what the organisation holds about the
// phone number the guest proved, withdrawing marketing consent, asking for deletion, and the
// anonymisation that both deletion and the organisation's retention period end in. Anonymising
// clears names, contacts and device identifiers but keeps the rows that make the operator's figures
// (connections, usage, roll-ups, consents as proof), so counts and charts do not change.
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { optOut } from "../marketing/consent.server";
import { enqueue } from "../jobs/queue.server";

const DAY_MS = 86_400_000;
export const ERASE_JOB = "privacy.erase";
export const ANONYMISE_EXPIRED_JOB = "privacy.anonymise-expired";
/** Customers anonymised per statement batch. */
const BATCH = 200;

export interface HeldRecord {
  customerId: number;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  emailAddress: string | null;
  phoneNumber: string | null;
  marketing: boolean;
  termsAcceptedAt: number | null;
  devices: { macAddress: string; description: string | null; lastSeenAt: number | null }[];
  visits: number;
  lastVisitAt: number | null;
  bytes: number;
}

/** The organisation's customers with this phone number (E.164), not anonymised. */
async function customersWithPhone(organizationId: number, phone: string): Promise<number[]> {
  const rows = await db
    .selectFrom("customers")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("phone_number", "=", phone)
    .where("anonymised_at", "is", null)
    .orderBy("id")
    .limit(20)
    .execute();
  return rows.map((r) => r.id);
}

/** The organisation's fixed offset from UTC, for the times on the guest's page. */
export async function organizationOffset(organizationId: number): Promise<number> {
  const row = await db.selectFrom("organizations").select("utc_offset_ms").where("id", "=", organizationId).executeTakeFirst();
  return Number(row?.utc_offset_ms ?? 0);
}

/** What the organisation holds about the guest with this proved phone number. */
export async function heldRecords(organizationId: number, phone: string): Promise<HeldRecord[]> {
  const ids = await customersWithPhone(organizationId, phone);
  if (!ids.length) return [];
  const [customers, devices, visits] = await Promise.all([
    db
      .selectFrom("customers")
      .select(["id", "first_name", "middle_name", "last_name", "email_address", "phone_number", "marketing_opt_in_at", "terms_accepted_at"])
      .where("organization_id", "=", organizationId)
      .where("id", "in", ids)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("devices")
      .select(["customer_id", "mac_address", "brand", "os", "browser", "last_seen_at"])
      .where("organization_id", "=", organizationId)
      .where("customer_id", "in", ids)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("connections")
      .select((eb) => [
        "customer_id",
        eb.fn.countAll<number>().as("visits"),
        eb.fn.max("created_at").as("last_visit"),
        eb.fn.sum<number>(sql`upload + download`).as("bytes"),
      ])
      .where("organization_id", "=", organizationId)
      .where("customer_id", "in", ids)
      .groupBy("customer_id")
      .execute(),
  ]);
  return customers.map((c) => {
    const v = visits.find((x) => x.customer_id === c.id);
    return {
      customerId: c.id,
      firstName: c.first_name,
      middleName: c.middle_name,
      lastName: c.last_name,
      emailAddress: c.email_address,
      phoneNumber: c.phone_number,
      marketing: c.marketing_opt_in_at !== null,
      termsAcceptedAt: c.terms_accepted_at === null ? null : Number(c.terms_accepted_at),
      devices: devices
        .filter((d) => d.customer_id === c.id)
        .map((d) => ({
          macAddress: d.mac_address,
          description: [d.brand, d.os, d.browser].filter(Boolean).join(", ") || null,
          lastSeenAt: d.last_seen_at === null ? null : Number(d.last_seen_at),
        })),
      visits: Number(v?.visits ?? 0),
      lastVisitAt: v?.last_visit == null ? null : Number(v.last_visit),
      bytes: Number(v?.bytes ?? 0),
    };
  });
}

/** Withdraws marketing consent for every customer of the organisation with this proved phone. */
export async function withdrawMarketing(organizationId: number, phone: string, now = Date.now()): Promise<number> {
  const ids = await customersWithPhone(organizationId, phone);
  for (const id of ids) await optOut(organizationId, id, "guest-data-page", now);
  return ids.length;
}

/** Records the guest's request for deletion and queues the job that anonymises (ERASE_JOB). */
export async function requestErasure(organizationId: number, phone: string, now = Date.now()): Promise<number> {
  const ids = await customersWithPhone(organizationId, phone);
  if (!ids.length) return 0;
  await db
    .updateTable("customers")
    .set({ erasure_requested_at: now, marketing_opt_in_at: null })
    .where("organization_id", "=", organizationId)
    .where("id", "in", ids)
    .execute();
  await enqueue(ERASE_JOB, { organizationId, customerIds: ids }, { dedupeKey: `erase:${organizationId}:${ids.join(",")}` });
  return ids.length;
}

/**
 * Anonymises these customers of the organisation: names, contacts, social handles and notes
 * cleared, devices' MAC addresses and user-agent details replaced, addresses of broadcast deliveries
 * and connection IPs cleared. Idempotent: an anonymised customer is left as it is. Returns how
 * many it anonymised now.
 */
export async function anonymiseCustomers(organizationId: number, customerIds: number[], now = Date.now()): Promise<number> {
  if (!customerIds.length) return 0;
  return db.transaction().execute(async (trx) => {
    const todo = (
      await trx
        .selectFrom("customers")
        .select("id")
        .where("organization_id", "=", organizationId)
        .where("id", "in", customerIds)
        .where("anonymised_at", "is", null)
        .execute()
    ).map((r) => r.id);
    if (!todo.length) return 0;
    await trx
      .updateTable("customers")
      .set({
        identity: sql<string>`${"anonymised-"} || cast(id as text)`,
        first_name: null,
        middle_name: null,
        last_name: null,
        phone_number: null,
        email_address: null,
        twitter: null,
        facebook: null,
        more_info: null,
        marketing_opt_in_at: null,
        anonymised_at: now,
        updated_at: now,
      })
      .where("organization_id", "=", organizationId)
      .where("id", "in", todo)
      .execute();
    await trx
      .updateTable("devices")
      .set({
        mac_address: sql<string>`${"anonymised-"} || cast(id as text)`,
        name: null,
        os: null,
        os_version: null,
        brand: null,
        browser: null,
        updated_at: now,
      })
      .where("organization_id", "=", organizationId)
      .where("customer_id", "in", todo)
      .execute();
    await trx
      .updateTable("connections")
      .set({ client_ip: null })
      .where("organization_id", "=", organizationId)
      .where("customer_id", "in", todo)
      .where("client_ip", "is not", null)
      .execute();
    await trx
      .updateTable("broadcast_deliveries")
      .set({ address: "", updated_at: now })
      .where("organization_id", "=", organizationId)
      .where("customer_id", "in", todo)
      .execute();
    return todo.length;
  });
}

/** ERASE_JOB: the guest's deletion request. */
export async function runEraseJob(payload: { organizationId: number; customerIds: number[] }): Promise<void> {
  await anonymiseCustomers(payload.organizationId, payload.customerIds);
}

/**
 * ANONYMISE_EXPIRED_JOB (daily): every customer whose last visit (or, without one, whose record)
 * is older than the organisation's retention period is anonymised, in batches. Idempotent.
 */
export async function anonymiseExpired(now = Date.now()): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db
      .selectFrom("customers")
      .innerJoin("organizations", "organizations.id", "customers.organization_id")
      .select(["customers.id", "customers.organization_id"])
      .where("customers.anonymised_at", "is", null)
      .where(sql<boolean>`customers.created_at < ${now} - organizations.retention_days * cast(${DAY_MS} as bigint)`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("connections")
              .select("connections.id")
              .whereRef("connections.customer_id", "=", "customers.id")
              .where(sql<boolean>`connections.created_at >= ${now} - organizations.retention_days * cast(${DAY_MS} as bigint)`),
          ),
        ),
      )
      .orderBy("customers.id")
      .limit(BATCH)
      .execute();
    if (!rows.length) return total;
    const byOrg = new Map<number, number[]>();
    for (const r of rows) byOrg.set(r.organization_id, [...(byOrg.get(r.organization_id) ?? []), r.id]);
    let done = 0;
    for (const [org, ids] of byOrg) done += await anonymiseCustomers(org, ids, now);
    total += done;
    if (done === 0 || rows.length < BATCH) return total;
  }
}
