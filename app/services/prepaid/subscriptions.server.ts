// Subscriptions: what a guest holds under a plan. Today the free plan is
// the one way in: a guest who signs up or clicks through at an organisation with a free plan takes
// it, once per device in the plan's period, and is online for the plan's time (capped by its
// validity). Statuses and the rules are decision 0017.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB, FreeEvery, GatewayMake, SubscriptionSource, SubscriptionStatus } from "~/db/schema";
import { containsText, inIds, unindexed, unindexedText } from "~/db/sql.server";
import type { ListParams } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { customerName } from "../connections.server";
import { matchingIds, SPARSE_LIMIT } from "../connections-search.server";
import { requirePermission, type OrgContext } from "../guard.server";
import { cappedTotal, COUNT_CAP, NARROW_COUNT_CAP, olderThan } from "../list-count.server";
import { revokeAtGateway } from "../portal/revoke.server";

const DAY_MS = 86_400_000;

export const FREE_PLAN_MESSAGES = {
  day: "This device has had today's free Wi-Fi. It is free again tomorrow.",
  week: "This device has had this week's free Wi-Fi. It is free again 7 days after it was last taken.",
  validity: "This device's free Wi-Fi is still running. Reconnect to the Wi-Fi to carry on with it.",
} as const;

export interface FreePlan {
  id: number;
  name: string;
  time_limit_minutes: number | null;
  usage_limit_bytes: number | null;
  validity_minutes: number;
  simultaneous_connections: number;
  free_every: FreeEvery | null;
  max_upload_kbps?: number | null;
  max_download_kbps?: number | null;
}

export type FreePlanOutcome = { ok: true; subscriptionId: number; seconds: number; limits: SessionLimits } | { ok: false; message: string };

/** When the device last took the free plan in a way that still counts against `every`. */
function since(every: FreeEvery, now: number): number {
  return every === "week" ? now - 7 * DAY_MS : now - (now % DAY_MS); // "day": since 00:00 UTC
}

/**
 * Gives the device (or, without one, the customer) the organisation's free plan, inside the
 * connect page's authorization transaction: refused when the device took it within its period.
 */
export async function takeFreePlan(
  trx: Kysely<DB>,
  plan: FreePlan,
  at: { organizationId: number; customerId: number | null; deviceId: number | null },
  now: number,
): Promise<FreePlanOutcome> {
  const every = plan.free_every ?? "day";
  let taken = trx
    .selectFrom("subscriptions")
    .select("id")
    .where("organization_id", "=", at.organizationId)
    .where("source", "=", "free")
    .limit(1);
  taken = at.deviceId !== null ? taken.where("device_id", "=", at.deviceId) : taken.where("customer_id", "=", at.customerId);
  taken =
    every === "validity"
      ? taken.where("expires_on", ">", now).where("status", "=", "Active")
      : taken.where("started_on", ">=", since(every, now));
  if (at.deviceId === null && at.customerId === null) taken = taken.where(sql<boolean>`1 = 0`);
  if (await taken.executeTakeFirst()) return { ok: false, message: FREE_PLAN_MESSAGES[every] };

  return { ok: true, ...(await startSubscription(trx, { ...plan, price_cents: 0 }, at, "free", now)) };
}

/** A plan as a subscription copies it when it starts. */
export interface PlanTerms {
  id: number;
  name: string;
  price_cents: number;
  time_limit_minutes: number | null;
  usage_limit_bytes: number | null;
  validity_minutes: number;
  simultaneous_connections: number;
  /** the plan's bandwidth policy (null or absent: no speed limit) */
  max_upload_kbps?: number | null;
  max_download_kbps?: number | null;
}

/** What the gateway is asked to enforce for a session under a subscription (gateways/types.ts). */
export interface SessionLimits {
  upKbps: number | null;
  downKbps: number | null;
  /** the data left in the subscription */
  bytes: number | null;
}

/**
 * Starts an Active subscription under the plan's terms (inside the authorization's transaction).
 * Answers its id and how long the session lasts: the plan's time limit, capped by its validity.
 */
export async function startSubscription(
  trx: Kysely<DB>,
  plan: PlanTerms,
  at: { organizationId: number; customerId: number | null; deviceId: number | null },
  source: SubscriptionSource,
  now: number,
): Promise<{ subscriptionId: number; seconds: number; limits: SessionLimits }> {
  const row = await trx
    .insertInto("subscriptions")
    .values({
      organization_id: at.organizationId,
      customer_id: at.customerId,
      device_id: at.deviceId,
      service_plan_id: plan.id,
      plan_name: plan.name,
      price_cents: plan.price_cents,
      source,
      status: "Active",
      started_on: now,
      expires_on: now + plan.validity_minutes * 60_000,
      time_limit_minutes: plan.time_limit_minutes,
      usage_limit_bytes: plan.usage_limit_bytes,
      simultaneous_connections: plan.simultaneous_connections,
      max_upload_kbps: plan.max_upload_kbps ?? null,
      max_download_kbps: plan.max_download_kbps ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return {
    subscriptionId: Number(row.id),
    seconds: Math.min(plan.time_limit_minutes ?? Infinity, plan.validity_minutes) * 60,
    limits: { upKbps: plan.max_upload_kbps ?? null, downKbps: plan.max_download_kbps ?? null, bytes: plan.usage_limit_bytes },
  };
}

export const HELD_MESSAGES = {
  none: "There is no plan running on this device. Choose a plan or use a voucher.",
  full: (n: number) =>
    `Your plan is already in use on ${n} device${n === 1 ? "" : "s"}, as many as it allows at once. Disconnect one of them, then try again.`,
  timeUsed: "Your plan's time is used up. Choose a plan or use a voucher.",
} as const;

export type UseOutcome =
  | {
      ok: true;
      subscriptionId: number;
      seconds: number;
      limits: SessionLimits;
      /** null: bought before the guest was known */ customerId: number | null;
    }
  | { ok: false; status: number; message: string };

/**
 * Puts a connection under a subscription the guest already holds (a paid plan on reconnect, or
 * the payment just made): refused when it is not Active, has expired, its time is used up, or as
 * many connections as the plan allows are online under it (other devices': a device that reconnects
 * keeps its place). The session lasts the time left,
 * capped by the validity; the time used is the sum of the subscription's sessions so far.
 */
export async function useSubscription(
  trx: Kysely<DB>,
  organizationId: number,
  subscriptionId: number,
  deviceId: number | null,
  now: number,
): Promise<UseOutcome> {
  const held = await trx
    .selectFrom("subscriptions as held")
    .select(heldSubscriptionColumns(sql<number>`${deviceId ?? -1}`, now))
    .where("held.id", "=", subscriptionId)
    .where("held.organization_id", "=", organizationId)
    .executeTakeFirst();
  return weighHeldSubscription(held, now);
}

/**
 * What useSubscription weighs, as selections over a subscription aliased `held`: the plan and, in
 * the same round trip, what its connections have used. The claim of an M-Pesa grant joins them to
 * its own query (connect.server.ts), so it does not spend a round trip of its own.
 * `deviceId`: the device connecting (-1 for none) — its own earlier session (it reconnected) does
 * not take a second place.
 */
export function heldSubscriptionColumns(deviceId: Expression<number>, now: number) {
  const usedBy = sql`from connections as used where used.subscription_id = held.id and used.authorized_at is not null`;
  return [
    sql<number | null>`held.id`.as("held_id"),
    sql<number | null>`held.customer_id`.as("held_customer_id"),
    sql<SubscriptionStatus | null>`held.status`.as("held_status"),
    sql<number | null>`held.expires_on`.as("held_expires_on"),
    sql<number | null>`held.time_limit_minutes`.as("held_time_limit_minutes"),
    sql<number | null>`held.usage_limit_bytes`.as("held_usage_limit_bytes"),
    sql<number | null>`held.used_bytes`.as("held_used_bytes"),
    sql<number | null>`held.simultaneous_connections`.as("held_simultaneous_connections"),
    sql<number | null>`held.max_upload_kbps`.as("held_max_upload_kbps"),
    sql<number | null>`held.max_download_kbps`.as("held_max_download_kbps"),
    sql<number>`(select coalesce(sum(case when used.ended_at is null and used.session_expires_at > ${now} and (used.device_id is null or used.device_id <> ${deviceId}) then 1 else 0 end), 0) ${usedBy})`.as(
      "held_online",
    ),
    sql<number>`(select coalesce(sum((case when coalesce(used.ended_at, ${now}) < used.session_expires_at then coalesce(used.ended_at, ${now}) else used.session_expires_at end) - used.authorized_at), 0) ${usedBy})`.as(
      "held_used_ms",
    ),
  ] as const;
}

/** The columns of heldSubscriptionColumns, as read (all null when no such subscription). */
export interface HeldSubscriptionRow {
  held_id: number | null;
  held_customer_id: number | null;
  held_status: SubscriptionStatus | null;
  held_expires_on: number | null;
  held_time_limit_minutes: number | null;
  held_usage_limit_bytes: number | null;
  held_used_bytes: number | null;
  held_simultaneous_connections: number | null;
  held_max_upload_kbps: number | null;
  held_max_download_kbps: number | null;
  held_online: number;
  held_used_ms: number;
}

/** useSubscription's rules over the subscription's row (undefined or a null id: none). */
export function weighHeldSubscription(held: HeldSubscriptionRow | undefined, now: number): UseOutcome {
  if (!held || held.held_id === null || held.held_status !== "Active" || Number(held.held_expires_on ?? 0) <= now)
    return { ok: false, status: 409, message: HELD_MESSAGES.none };
  const online = Number(held.held_online);
  if (online >= Number(held.held_simultaneous_connections)) return { ok: false, status: 409, message: HELD_MESSAGES.full(online) };
  const usedSeconds = Math.max(0, Math.floor(Number(held.held_used_ms) / 1000));
  const timeLeft = held.held_time_limit_minutes === null ? Infinity : held.held_time_limit_minutes * 60 - usedSeconds;
  if (timeLeft <= 0) return { ok: false, status: 409, message: HELD_MESSAGES.timeUsed };
  const seconds = Math.floor(Math.min(timeLeft, (Number(held.held_expires_on) - now) / 1000));
  const bytes =
    held.held_usage_limit_bytes === null ? null : Math.max(0, Number(held.held_usage_limit_bytes) - Number(held.held_used_bytes));
  return {
    ok: true,
    subscriptionId: Number(held.held_id),
    seconds,
    limits: { upKbps: held.held_max_upload_kbps, downKbps: held.held_max_download_kbps, bytes },
    customerId: held.held_customer_id === null ? null : Number(held.held_customer_id),
  };
}

/**
 * The Active, unexpired subscription a device holds (the newest), or one held by the customer
 * with this phone number: what a returning guest reconnects under.
 */
export async function heldSubscription(
  executor: Kysely<DB>,
  organizationId: number,
  by: { deviceId?: number | null; phone?: string | null; paidOnly?: boolean },
  now: number,
): Promise<{ id: number; planName: string; expiresOn: number } | null> {
  if ((by.deviceId ?? null) === null && !by.phone) return null;
  let query = executor
    .selectFrom("subscriptions")
    .select(["subscriptions.id", "subscriptions.plan_name", "subscriptions.expires_on"])
    .where("subscriptions.organization_id", "=", organizationId)
    .where("subscriptions.status", "=", "Active")
    .where("subscriptions.expires_on", ">", now)
    .orderBy("subscriptions.id", "desc")
    .limit(1);
  if (by.paidOnly) query = query.where("subscriptions.source", "<>", "free");
  query =
    by.deviceId != null
      ? query.where("subscriptions.device_id", "=", by.deviceId)
      : query
          .innerJoin("customers", "customers.id", "subscriptions.customer_id")
          .where("customers.organization_id", "=", organizationId)
          .where("customers.phone_number", "=", by.phone!);
  const row = await query.executeTakeFirst();
  return row ? { id: Number(row.id), planName: row.plan_name, expiresOn: Number(row.expires_on) } : null;
}

/** Why accounting ended a connection whose subscription ran out of data. */
export const DATA_LIMIT_CAUSE = "Data-Limit";

/**
 * After accounting moved connections' bytes (inside its transaction): the subscriptions of those
 * connections add up their connections' bytes; one that reached its data limit becomes Exhausted,
 * its open connections end now and their gateways are told (revokeAtGateway), as a closed
 * connection's are. Answers how many connections it ended.
 */
export async function enforceDataLimits(trx: Kysely<DB>, subscriptionIds: readonly number[], now: number): Promise<number> {
  if (subscriptionIds.length === 0) return 0;
  const ids = [...new Set(subscriptionIds)];
  await trx
    .updateTable("subscriptions")
    .set((eb) => ({
      used_bytes: eb
        .selectFrom("connections")
        .select(sql<number>`coalesce(sum(connections.upload + connections.download), 0)`.as("used"))
        .whereRef("connections.subscription_id", "=", "subscriptions.id"),
      updated_at: now,
    }))
    .where("id", "in", ids)
    .where("status", "=", "Active")
    .execute();
  const exhausted = await trx
    .updateTable("subscriptions")
    .set({ status: "Exhausted", updated_at: now })
    .where("id", "in", ids)
    .where("status", "=", "Active")
    .where("usage_limit_bytes", "is not", null)
    .where((eb) => eb("used_bytes", ">=", eb.ref("usage_limit_bytes")))
    .returning("id")
    .execute();
  if (exhausted.length === 0) return 0;
  const open = await trx
    .selectFrom("connections")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "connections.venue_id",
      "connections.gateway",
      "connections.gateway_context",
      "connections.session_expires_at",
      "devices.mac_address",
    ])
    .where(
      "connections.subscription_id",
      "in",
      exhausted.map((s) => Number(s.id)),
    )
    .where("connections.authorized_at", "is not", null)
    .where("connections.ended_at", "is", null)
    .execute();
  if (open.length === 0) return 0;
  await trx
    .updateTable("connections")
    .set({ ended_at: now, terminate_cause: DATA_LIMIT_CAUSE })
    .where(
      "id",
      "in",
      open.map((c) => c.id),
    )
    .where("ended_at", "is", null)
    .execute();
  for (const c of open) {
    await revokeAtGateway(
      trx,
      {
        id: Number(c.id),
        organizationId: c.organization_id,
        venueId: c.venue_id,
        gateway: c.gateway as GatewayMake | null,
        gatewayContext: c.gateway_context,
        clientMac: c.mac_address,
        sessionExpiresAt: c.session_expires_at === null ? null : Number(c.session_expires_at),
      },
      now,
    );
  }
  return open.length;
}

// ---------------------------------------------------------------------------------------------
// The subscriptions list (docs/guide/plans-and-prepaid.md#subscriptions, docs/guide/api.md#queries):
// newest first (created_at, id), searched by the guest's identity, name or phone number and by the
// plan's name, counted up to a cap like the other big lists (list-count.server.ts, decision 0006).

/** What a subscription reads as: its stored status, or Expired for an Active one past expires_on. */
export type SubscriptionDisplayStatus = SubscriptionStatus | "Expired";

export interface SubscriptionRow {
  id: number;
  /** null: a subscription held by a device whose guest is unknown. */
  customer: {
    id: number;
    /** Identity, name and phone number are null when the caller lacks view_clients (PERSONAL_DATA_PERMISSION). */
    identity: string | null;
    name: string | null;
    phone_number: string | null;
  } | null;
  /** The plan as it was when the subscription started; id is null once the plan was deleted. */
  servicePlan: { id: number | null; name: string; /** Kes */ price: number };
  started_on: number | null;
  expires_on: number | null;
  /** Bytes used so far. */
  usage: number;
  /** The plan's data limit in bytes, null when it has none. */
  usage_limit: number | null;
  status: SubscriptionDisplayStatus;
  source: SubscriptionSource;
  created_at: number;
}

export interface SubscriptionPage {
  rows: SubscriptionRow[];
  total: number;
  /** The count stopped at `total`: there are more. */
  capped: boolean;
}

/** Active past its expiry reads as Expired (decision 0017); expires_on is the first instant it no longer runs. */
export function subscriptionStatus(status: SubscriptionStatus, expiresOn: number | null, now: number): SubscriptionDisplayStatus {
  return status === "Active" && expiresOn !== null && expiresOn <= now ? "Expired" : status;
}

/** Up to this many matching customers are passed as a list; beyond it the match is a subquery. */
const DENSE_CUSTOMERS = 20_000;
/** An organisation's distinct plan names read at most (plans are few; renamed and deleted ones add a few more). */
const MAX_PLAN_NAMES = 1_000;

type Builder = ExpressionBuilder<DB, "subscriptions">;

/**
 * How a search term finds subscriptions:
 * - none: nothing matches;
 * - customers: a few customers match and no plan name does, so the customers' index drives;
 * - plan: one plan name matches and no customer does, so subscriptions_org_plan drives (newest
 *   first within the name, however rare the plan);
 * - scan: the organisation's index drives (newest first) and each row is tested, which fills a page
 *   quickly because such matches are frequent (several plans' names, a common first name).
 */
type SubscriptionSearch =
  | { kind: "none" }
  | { kind: "customers"; customerIds: number[] }
  | { kind: "plan"; name: string }
  | { kind: "scan"; condition: (eb: Builder) => Expression<SqlBool> };

/**
 * The organisation's distinct plan names that contain the term, skipping through subscriptions_org_plan
 * from one name to the next (one index lookup per name, on both engines).
 */
async function matchingPlanNames(orgId: number, term: string): Promise<string[]> {
  const result = await sql<{ name: string }>`
    with recursive names(name, n) as (
      select (select plan_name from subscriptions where organization_id = ${orgId} order by plan_name limit 1), 1
      union all
      select (select s.plan_name from subscriptions s where s.organization_id = ${orgId} and s.plan_name > names.name order by s.plan_name limit 1), n + 1
      from names where names.name is not null and n < ${MAX_PLAN_NAMES}
    )
    select name from names where name is not null and ${containsText(sql.ref("name"), term)}`.execute(db);
  return result.rows.map((r) => r.name);
}

async function subscriptionSearch(ctx: OrgContext, term: string): Promise<SubscriptionSearch> {
  const orgId = ctx.org.id;
  // Without view_clients a term finds plans only: matching guests' phone numbers would reveal them.
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const [planNames, customerIds] = await Promise.all([
    matchingPlanNames(orgId, term),
    personal
      ? sql<{ id: number }>`${matchingIds("customers", orgId, term)} limit ${DENSE_CUSTOMERS + 1}`
          .execute(db)
          .then((r) => [...new Set(r.rows.map((row) => Number(row.id)))])
      : Promise.resolve([] as number[]),
  ]);
  if (planNames.length === 0 && customerIds.length === 0) return { kind: "none" };
  if (planNames.length === 0 && customerIds.length <= SPARSE_LIMIT) return { kind: "customers", customerIds };
  if (planNames.length === 1 && customerIds.length === 0) return { kind: "plan", name: planNames[0] };
  return {
    kind: "scan",
    condition: (eb) => {
      const or: Expression<SqlBool>[] = [];
      if (planNames.length) or.push(eb(unindexedText("subscriptions.plan_name"), "in", planNames));
      if (customerIds.length > DENSE_CUSTOMERS) {
        or.push(sql<SqlBool>`${unindexed("subscriptions.customer_id")} in (${matchingIds("customers", orgId, term)})`);
      } else if (customerIds.length) {
        or.push(inIds("subscriptions.customer_id", customerIds, { indexed: false }));
      }
      return eb.or(or);
    },
  };
}

/** The WHERE of a page (and, with `after`, of the rows after the page's last one, for the count). */
function subscriptionConditions(orgId: number, search: SubscriptionSearch | null) {
  return (eb: Builder): Expression<SqlBool> => {
    if (search?.kind === "customers") {
      // The customers' index drives; the organisation is tested row by row.
      return eb.and([
        eb("subscriptions.customer_id", "in", search.customerIds),
        eb(unindexed("subscriptions.organization_id"), "=", orgId),
      ]);
    }
    const and: Expression<SqlBool>[] = [eb("subscriptions.organization_id", "=", orgId)];
    if (search?.kind === "plan") and.push(eb("subscriptions.plan_name", "=", search.name));
    if (search?.kind === "scan") and.push(search.condition(eb));
    return eb.and(and);
  };
}

/**
 * subscriptions(limit, offset, order 'created_at desc', search): view_subscriptions. Guests' identity,
 * name and phone number need view_clients too; without it they are null (the customer's id stays, so
 * the list can say "Guest #id") and the search looks at plan names only.
 */
export async function listSubscriptions(
  ctx: OrgContext,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
  now = Date.now(),
): Promise<SubscriptionPage> {
  requirePermission(ctx, "view_subscriptions");
  const orgId = ctx.org.id;
  const search = params.search ? await subscriptionSearch(ctx, params.search) : null;
  if (search?.kind === "none") return { rows: [], total: 0, capped: false };
  const where = subscriptionConditions(orgId, search);
  // Ids first (the index alone on SQLite), so a deep page does not join the rows it skips.
  const page = await db
    .selectFrom("subscriptions")
    .select(["subscriptions.id", "subscriptions.created_at"])
    .where(where)
    .orderBy("subscriptions.created_at", "desc")
    .orderBy("subscriptions.id", "desc")
    .limit(params.pageSize)
    .offset(params.offset)
    .execute();
  const counted = await cappedTotal(
    page.map((r) => ({ id: Number(r.id), created_at: Number(r.created_at) })),
    params,
    search ? NARROW_COUNT_CAP : COUNT_CAP,
    async (after, limit) => {
      let matching = db
        .selectFrom("subscriptions")
        .select(sql<number>`1`.as("one"))
        .where(where);
      if (after) matching = matching.where(olderThan("subscriptions", after));
      const row = await db
        .selectFrom(matching.limit(limit).as("matching"))
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  );
  const rows = await subscriptionDetails(
    ctx,
    page.map((r) => Number(r.id)),
    now,
  );
  return { rows, ...counted };
}

/** The organisation's subscriptions with these ids, with their customers, in the ids' order. */
async function subscriptionDetails(ctx: OrgContext, ids: number[], now: number): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const rows = await db
    .selectFrom("subscriptions")
    .leftJoin("customers", "customers.id", "subscriptions.customer_id")
    .select([
      "subscriptions.id",
      "subscriptions.customer_id",
      "subscriptions.service_plan_id",
      "subscriptions.plan_name",
      "subscriptions.price_cents",
      "subscriptions.source",
      "subscriptions.status",
      "subscriptions.started_on",
      "subscriptions.expires_on",
      "subscriptions.usage_limit_bytes",
      "subscriptions.used_bytes",
      "subscriptions.created_at",
      "customers.identity as customer_identity",
      "customers.first_name as customer_first_name",
      "customers.last_name as customer_last_name",
      "customers.phone_number as customer_phone",
    ])
    // The ids drive (primary key); the organisation is tested row by row.
    .where(unindexed("subscriptions.organization_id"), "=", ctx.org.id)
    .where(inIds("subscriptions.id", ids, { bigint: true }))
    .execute();
  const byId = new Map(
    rows.map((r): [number, SubscriptionRow] => {
      const expiresOn = r.expires_on === null ? null : Number(r.expires_on);
      const identity = r.customer_identity ?? "";
      return [
        Number(r.id),
        {
          id: Number(r.id),
          customer:
            r.customer_id === null
              ? null
              : {
                  id: Number(r.customer_id),
                  identity: personal ? identity : null,
                  name: personal ? customerName({ first_name: r.customer_first_name, last_name: r.customer_last_name, identity }) : null,
                  phone_number: personal ? r.customer_phone : null,
                },
          servicePlan: {
            id: r.service_plan_id === null ? null : Number(r.service_plan_id),
            name: r.plan_name,
            price: Number(r.price_cents) / 100,
          },
          started_on: r.started_on === null ? null : Number(r.started_on),
          expires_on: expiresOn,
          usage: Number(r.used_bytes),
          usage_limit: r.usage_limit_bytes === null ? null : Number(r.usage_limit_bytes),
          status: subscriptionStatus(r.status, expiresOn, now),
          source: r.source,
          created_at: Number(r.created_at),
        },
      ];
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
