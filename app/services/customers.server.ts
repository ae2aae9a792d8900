// Customers, the Wi-Fi guests (docs/guide/connections-devices-customers.md#customers-list,
// #customer-profile, docs/guide/access-control.md#what-each-permission-shows): the list (also
// on venue and access point tabs: customers with a connection there), the profile with its
// counts, and the Account info update.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import { unindexed } from "~/db/sql.server";
import type { DB } from "~/db/schema";
import type { Outcome } from "~/lib/outcome";
import type { ListParams } from "~/lib/pagination";
import type { CustomerRow, RecordFilter, RecordPage } from "~/lib/records";
import { CUSTOMER_MESSAGES, type CustomerAccountInput } from "~/lib/schemas/customers";
import { recordSearch } from "./connections-search.server";
import { customerName } from "./connections.server";
import { cappedTotal, COUNT_CAP, NARROW_COUNT_CAP, olderThan } from "./list-count.server";
import { connectionScope, findDevice, scopedToPlace } from "./devices.server";
import { forbidden, notFound, type OrgContext } from "./guard.server";

/** The columns the customers table shows (also a customer group's members). */
export const CUSTOMER_COLUMNS = [
  "customers.id",
  "customers.identity",
  "customers.first_name",
  "customers.middle_name",
  "customers.last_name",
  "customers.phone_number",
  "customers.email_address",
  "customers.facebook",
  "customers.twitter",
  "customers.more_info",
] as const;

export type CustomerRecord = {
  id: number;
  identity: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  email_address: string | null;
  facebook: string | null;
  twitter: string | null;
  more_info: string | null;
};

export function toCustomerRow(c: CustomerRecord): CustomerRow {
  return {
    id: c.id,
    identity: c.identity,
    name: customerName(c),
    phoneNumber: c.phone_number,
    emailAddress: c.email_address,
    facebook: c.facebook,
    twitter: c.twitter,
    moreInfo: c.more_info,
  };
}

/**
 * The customers list's filters beyond a network or access point (docs/guide/api.md#queries):
 * the owner of a device, customers with an online connection (authorized,
 * not ended) or with an authorized one. As for connections, `false` does not filter.
 */
export interface CustomerFilter extends RecordFilter {
  deviceId?: number;
  online?: boolean;
  authorized?: boolean;
}

/** The connections that tie a customer to the filter: its place and window, authorized or online. */
function customerConnections(filter: CustomerFilter) {
  return (eb: ExpressionBuilder<DB, "connections">): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [connectionScope(filter)(eb)];
    if (filter.online || filter.authorized) and.push(eb("connections.authorized_at", "is not", null));
    if (filter.online) and.push(eb("connections.ended_at", "is", null));
    return eb.and(and);
  };
}

/** customers(venues, devices, accessPoints, online, authorized, limit, offset, search) with customersCount (capped), newest first. */
export async function listCustomers(
  ctx: OrgContext,
  filter: CustomerFilter,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<RecordPage<CustomerRow>> {
  // A device filter: the owner of the organisation's device (another organisation's is a 404).
  let ownerId: number | null | undefined;
  if (filter.deviceId !== undefined) {
    ownerId = (await findDevice(ctx, filter.deviceId)).customer_id;
    if (ownerId === null) return { rows: [], total: 0, capped: false };
  }
  const search = params.search ? await recordSearch("customers", ctx.org.id, params.search) : null;
  if (search?.kind === "none") return { rows: [], total: 0, capped: false };
  // Few matches, or the device's owner, are read by id (primary key), hence the organisation tested row by row.
  const byIds = search?.kind === "ids" || ownerId != null;
  const throughConnections = scopedToPlace(filter) || !!filter.online || !!filter.authorized;
  const where = (eb: ExpressionBuilder<DB, "customers">): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [
      byIds ? eb(unindexed("customers.organization_id"), "=", ctx.org.id) : eb("customers.organization_id", "=", ctx.org.id),
    ];
    if (ownerId != null) and.push(eb("customers.id", "=", ownerId));
    if (search) and.push(search.condition);
    if (filter.online && ownerId == null) {
      // The few online connections drive (the partial connections_online index), not the customers.
      and.push(
        eb(
          "customers.id",
          "in",
          eb
            .selectFrom("connections")
            .select("connections.customer_id")
            .where("connections.organization_id", "=", ctx.org.id)
            .where("connections.customer_id", "is not", null)
            .where(customerConnections(filter)),
        ),
      );
    } else if (throughConnections) {
      // Each customer's connections, newest first (connections_customer_created).
      and.push(
        eb.exists(
          eb
            .selectFrom("connections")
            .select(sql`1`.as("one"))
            .whereRef("connections.customer_id", "=", "customers.id")
            .where(customerConnections(filter)),
        ),
      );
    }
    return eb.and(and);
  };
  const rows = await db
    .selectFrom("customers")
    .select([...CUSTOMER_COLUMNS, "customers.created_at"])
    .where(where)
    .orderBy("customers.created_at", "desc")
    .orderBy("customers.id", "desc")
    .limit(params.pageSize)
    .offset(params.offset)
    .execute();
  const cap = search || throughConnections || ownerId != null ? NARROW_COUNT_CAP : COUNT_CAP;
  const counted = await cappedTotal(rows, params, cap, async (after, limit) => {
    let matching = db
      .selectFrom("customers")
      .select(sql<number>`1`.as("one"))
      .where(where);
    if (after) matching = matching.where(olderThan("customers", after));
    const row = await db
      .selectFrom(matching.limit(limit).as("matching"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  return { rows: rows.map(toCustomerRow), ...counted };
}

/** customer(id): the profile's identity, contact details and counts; another organisation's is a 404. */
export async function getCustomer(ctx: OrgContext, customerId: number | null) {
  if (customerId === null) notFound();
  const customer = await db
    .selectFrom("customers")
    .select(CUSTOMER_COLUMNS)
    .where("customers.id", "=", customerId)
    .where("customers.organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!customer) notFound();
  const [connections, devices] = await Promise.all([
    db
      .selectFrom("connections")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("customer_id", "=", customer.id)
      .where(unindexed("organization_id"), "=", ctx.org.id)
      .where("authorized_at", "is not", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("devices")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("customer_id", "=", customer.id)
      .where("organization_id", "=", ctx.org.id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    ...toCustomerRow(customer),
    firstName: customer.first_name,
    middleName: customer.middle_name,
    lastName: customer.last_name,
    connectionsCount: Number(connections.n),
    devicesCount: Number(devices.n),
  };
}

/**
 * The Account info form's Update (the old client's did nothing): needs edit_clients. The email
 * and phone number may not belong to another customer of the organisation (guests are matched by
 * them when they connect).
 */
export async function updateCustomer(ctx: OrgContext, customerId: number | null, input: CustomerAccountInput): Promise<Outcome> {
  if (!ctx.permissions.has("edit_clients")) forbidden(CUSTOMER_MESSAGES.notAllowed);
  const customer = await getCustomer(ctx, customerId);
  const contacts = [
    ...(input.email_address ? [sql<SqlBool>`${sql.ref("email_address")} = ${input.email_address}`] : []),
    ...(input.phone_number ? [sql<SqlBool>`${sql.ref("phone_number")} = ${input.phone_number}`] : []),
  ];
  if (contacts.length) {
    const taken = await db
      .selectFrom("customers")
      .select(["email_address", "phone_number"])
      .where("organization_id", "=", ctx.org.id)
      .where("id", "!=", customer.id)
      .where((eb) => eb.or(contacts))
      .limit(2)
      .execute();
    const fieldErrors: Record<string, string[]> = {};
    if (input.email_address && taken.some((c) => c.email_address === input.email_address))
      fieldErrors.email_address = [CUSTOMER_MESSAGES.emailTaken];
    if (input.phone_number && taken.some((c) => c.phone_number === input.phone_number))
      fieldErrors.phone_number = [CUSTOMER_MESSAGES.phoneTaken];
    if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  }
  await db
    .updateTable("customers")
    .set({
      first_name: input.first_name,
      middle_name: input.middle_name,
      last_name: input.last_name,
      email_address: input.email_address,
      phone_number: input.phone_number,
      updated_at: Date.now(),
    })
    .where("id", "=", customer.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return { ok: true };
}

/** The organisation's customers with these ids (others' and missing ids are left out), for the data API's batches. */
export async function customersByIds(ctx: OrgContext, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("customers")
    .select([...CUSTOMER_COLUMNS, "customers.created_at"])
    // The ids drive (primary key); with the organisation indexable SQLite walks its index instead.
    .where(unindexed("customers.organization_id"), "=", ctx.org.id)
    .where("customers.id", "in", [...ids])
    .execute();
  return rows.map((c) => ({
    ...toCustomerRow(c),
    firstName: c.first_name,
    middleName: c.middle_name,
    lastName: c.last_name,
    createdAt: Number(c.created_at),
  }));
}

/** The profile's two counts (authorized connections, devices) of several customers at once: two grouped queries. */
export async function customerCountsByIds(
  ctx: OrgContext,
  ids: readonly number[],
): Promise<Map<number, { connectionsCount: number; devicesCount: number }>> {
  const counts = new Map(ids.map((id) => [id, { connectionsCount: 0, devicesCount: 0 }]));
  if (ids.length === 0) return counts;
  const [connections, devices] = await Promise.all([
    db
      .selectFrom("connections")
      .select(["customer_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("customer_id", "in", [...ids])
      .where(unindexed("organization_id"), "=", ctx.org.id)
      .where("authorized_at", "is not", null)
      .groupBy("customer_id")
      .execute(),
    db
      .selectFrom("devices")
      .select(["customer_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("customer_id", "in", [...ids])
      .where(unindexed("organization_id"), "=", ctx.org.id)
      .groupBy("customer_id")
      .execute(),
  ]);
  for (const r of connections) counts.get(Number(r.customer_id))!.connectionsCount = Number(r.n);
  for (const r of devices) counts.get(Number(r.customer_id))!.devicesCount = Number(r.n);
  return counts;
}
