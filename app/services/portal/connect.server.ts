// The connect page's logic: what a token's guest is offered, and authorizing
// the connection exactly once, then letting the guest through at the gateway.
import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type QueryCreator,
  type RawBuilder,
  type Updateable,
  type UpdateResult,
} from "kysely";
import { db } from "~/db/db.server";
import { commaJoined, databaseNowMs, keyedLookup, retryDeadlocks, writeTogether } from "~/db/sql.server";
import type { DB, FreeEvery, OAuthProviderName } from "~/db/schema";
import { CONSENT_WORDING_VERSION, signupFieldRule, signupNeeded, type SignupDetails, type SignupFields } from "~/lib/schemas/portal";
import type { OrgClock } from "~/lib/time-zone";
import { hashToken } from "../crypto.server";
import { publicOrigin } from "../email.server";
import { noteConnectionEvent } from "../connection-timeline.server";
import { GATEWAYS, GatewayError, gatewayFor, identifiesDevice } from "./gateways/index.server";
import {
  HELD_MESSAGES,
  heldSubscription,
  heldSubscriptionColumns,
  startSubscription,
  takeFreePlan,
  useSubscription,
  weighHeldSubscription,
  type HeldSubscriptionRow,
  type SessionLimits,
} from "../prepaid/subscriptions.server";
import { redeemVoucher } from "../prepaid/vouchers.server";
import { guestLimitMessage, limitVoucherAttempt } from "../rate-limit.server";
import { networkById } from "./network.server";
import type { GuestPlace } from "../splash/rules.server";

/** The makes whose entries carry the client MAC unsigned (decision 0087). */
const MAC_ONLY_MAKES = Object.values(GATEWAYS)
  .filter((adapter) => !adapter.identifiesDevice)
  .map((adapter) => adapter.make);

export const CONNECT_MESSAGES = {
  alreadyAuthorized: "Connection has already been authorized",
  reconnect: "Reconnect to WiFi for a new connection session",
  unknown: "This connection link is not valid.",
  expired: "This connection link has expired.",
  blocked: "This device has been blocked from this network. Ask the venue's staff for help.",
  gatewayFailed: "The network could not let you through just now. Please try again in a moment.",
} as const;

/** Authorization modes other than a social provider's name. */
export type AuthorizationMode = "SIGNUP" | "CLICK_THROUGH" | "VOUCHER" | "MPESA" | "SUBSCRIPTION" | OAuthProviderName;

export type GuestState = "form" | "authorized" | "expired" | "blocked";

export interface GuestView {
  state: GuestState;
  connectionId: number;
  organizationId: number;
  /** The connection's own customer (null: not known yet). */
  customerId: number | null;
  /**
   * The gateway vouches for the device (decision 0087). When it does not (an unsigned MAC), the
   * view carries none of the customer's details and no held plan: `customer` is empty, `held` null.
   */
  deviceProved: boolean;
  authorizedAt: number | null;
  network: {
    id: number;
    name: string;
    termsUrl: string | null;
    privacyUrl: string | null;
    guestSignup: boolean;
    organizationName: string;
    /** The network's default language for its guest pages (en, sw; decision 0079). */
    language: string;
  };
  /** The organisation's clock: times on guest pages are shown on it (decision 0023). */
  clock: OrgClock;
  customer: {
    firstName: string | null;
    middleName: string | null;
    lastName: string | null;
    emailAddress: string | null;
    phoneNumber: string | null;
  };
  /** The record lacks a field the network requires (or, requiring none, has none it asks). */
  needsSignup: boolean;
  /** Which sign-up fields the network asks and requires. */
  signupFields: SignupFields;
  /** The privacy notice version of the customer's latest acceptance of the terms (null: never). */
  acceptedNotice: string | null;
  providers: OAuthProviderName[];
  /** Where the guest is, for the splash page display rules (splash/rules.server.ts). */
  place: GuestPlace;
  /** What the organisation's free plan gives, shown above the Connect button (null: no free plan). */
  freePlan: { timeLimitMinutes: number | null; usageLimitBytes: number | null; validityMinutes: number; every: FreeEvery | null } | null;
  /** The organisation sells vouchers: the page shows a voucher box. */
  vouchers: boolean;
  /** The plan this device holds and may reconnect under (Active, unexpired), if any. */
  held: { planName: string; expiresOn: number } | null;
  /** Paid plans the guest can buy with M-Pesa (empty when the organisation has not set M-Pesa up). */
  plansForSale: PlanForSale[];
}

export interface PlanForSale {
  id: number;
  name: string;
  /** whole shillings */
  price: number;
  timeLimitMinutes: number | null;
  usageLimitBytes: number | null;
  validityMinutes: number;
}

const viewQuery = () =>
  db
    .selectFrom("connections")
    .innerJoin("venues", "venues.id", "connections.venue_id")
    .innerJoin("organizations", "organizations.id", "connections.organization_id")
    .leftJoin("customers", "customers.id", "connections.customer_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    // The newest Active, unexpired subscription the device holds (the clock is the database's: the
    // statement's one parameter is the token).
    .leftJoin("subscriptions as held", (join) =>
      join.on(
        "held.id",
        "=",
        sql<number>`(select max(s.id) from subscriptions s where s.device_id = connections.device_id and s.organization_id = connections.organization_id and s.status = 'Active' and s.expires_on > ${databaseNowMs()})`,
      ),
    )
    // The plan this very connection started (a voucher or payment whose grant the gateway refused).
    .leftJoin("subscriptions as own_held", (join) =>
      join
        .onRef("own_held.id", "=", "connections.subscription_id")
        .on("own_held.status", "=", sql.lit("Active"))
        .on("own_held.expires_on", ">", databaseNowMs()),
    )
    // A literal, not a parameter: the statement is prepared once with the token as its only parameter.
    .leftJoin("service_plans as free_plan", (join) =>
      join.onRef("free_plan.organization_id", "=", "connections.organization_id").on("free_plan.free_internet", "=", sql.lit(1)),
    )
    .select([
      "free_plan.id as free_plan_id",
      "free_plan.time_limit_minutes as free_plan_time_limit_minutes",
      "free_plan.usage_limit_bytes as free_plan_usage_limit_bytes",
      "free_plan.validity_minutes as free_plan_validity_minutes",
      "free_plan.free_every as free_plan_free_every",
      "connections.id",
      "connections.token",
      "connections.organization_id",
      "connections.customer_id",
      "connections.gateway",
      "connections.authorized_at",
      "connections.token_expires_at",
      "venues.id as venue_id",
      "venues.name as venue_name",
      "venues.terms_url",
      "venues.privacy_url",
      "venues.guest_signup",
      "venues.splash_page_id",
      "venues.signup_phone",
      "venues.signup_email",
      "venues.signup_names",
      "connections.access_point_id",
      "connections.device_id",
      "organizations.name as organization_name",
      "organizations.time_zone",
      "organizations.utc_offset_ms",
      "venues.guest_language",
      "customers.first_name",
      "customers.middle_name",
      "customers.last_name",
      "customers.email_address",
      "customers.phone_number",
      "devices.blocked_at",
      // The notice version the customer last accepted the terms under (customer_consents_customer).
      sql<
        string | null
      >`(select c.wording_version from customer_consents c where c.customer_id = connections.customer_id and c.kind = 'terms' and c.granted = 1 order by c.created_at desc, c.id desc limit 1)`.as(
        "accepted_notice",
      ),
      // Whether any display rule names the access point: without one, the splash rules need no query.
      sql<number>`(select count(*) from (select 1 from splash_display_setting_access_points where splash_display_setting_access_points.access_point_id = connections.access_point_id limit 1) r)`.as(
        "display_rules",
      ),
      sql<number>`(select count(*) from (select 1 from voucher_groups where voucher_groups.organization_id = connections.organization_id limit 1) v)`.as(
        "voucher_groups",
      ),
      sql<number>`(select count(*) from mpesa_settings where mpesa_settings.organization_id = connections.organization_id)`.as("mpesa"),
      "held.plan_name as held_plan_name",
      "own_held.plan_name as own_held_plan_name",
      "own_held.expires_on as own_held_expires_on",
      "held.expires_on as held_expires_on",
      // One round trip: the organisation's configured social providers, comma separated.
      sql<
        string | null
      >`(select ${commaJoined("provider")} from oauth_providers where oauth_providers.organization_id = connections.organization_id)`.as(
        "providers",
      ),
    ]);

/** Tokens are 32 URL-safe characters; anything else is not looked up. */
export function plausibleToken(token: string | null | undefined): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(token);
}

type ViewRow = NonNullable<Awaited<ReturnType<ReturnType<typeof viewQuery>["executeTakeFirst"]>>>;

/**
 * The view's row. Its SQL is the same for every token: built and compiled once, then run as a
 * prepared statement (bench/portal.bench.ts: building, compiling and planning cost more than the
 * indexed lookup itself), gathered per turn of the event loop where that saves round trips.
 */
const viewRow = keyedLookup<ViewRow>(
  "guest_connect_view",
  (condition) => viewQuery().where(condition),
  "connections.token",
  (row) => row.token!,
);

/**
 * What the token's guest is offered. `plans: false` leaves plansForSale empty (one query fewer) for
 * the callers that never show the connect form: the waiting page, the online page, the APIs.
 */
export async function loadGuestView(
  token: string | null | undefined,
  { plans = true }: { plans?: boolean } = {},
  now = Date.now(),
): Promise<GuestView | null> {
  if (!plausibleToken(token)) return null;
  const row = await viewRow(hashToken(token));
  if (!row) return null;
  const authorizedAt = row.authorized_at === null ? null : Number(row.authorized_at);
  const state: GuestState =
    authorizedAt !== null
      ? "authorized"
      : row.blocked_at !== null
        ? "blocked"
        : Number(row.token_expires_at ?? 0) <= now
          ? "expired"
          : "form";
  const guestSignup = Number(row.guest_signup) === 1;
  // An unsigned MAC names a device anyone can claim: nothing of its customer is shown or offered.
  const deviceProved = identifiesDevice(row.gateway);
  const known = deviceProved
    ? row
    : { first_name: null, middle_name: null, last_name: null, email_address: null, phone_number: null, accepted_notice: null };
  return {
    state,
    connectionId: Number(row.id),
    organizationId: row.organization_id,
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    deviceProved,
    authorizedAt,
    network: {
      id: row.venue_id,
      name: row.venue_name,
      termsUrl: row.terms_url,
      privacyUrl: row.privacy_url,
      guestSignup,
      organizationName: row.organization_name,
      language: row.guest_language,
    },
    clock: { timeZone: row.time_zone, offsetMs: Number(row.utc_offset_ms) },
    customer: {
      firstName: known.first_name ?? null,
      middleName: known.middle_name ?? null,
      lastName: known.last_name ?? null,
      emailAddress: known.email_address ?? null,
      phoneNumber: known.phone_number ?? null,
    },
    needsSignup:
      guestSignup &&
      signupNeeded(signupFieldsOf(row), {
        first_name: known.first_name,
        last_name: known.last_name,
        email_address: known.email_address,
        phone_number: known.phone_number,
      }),
    signupFields: signupFieldsOf(row),
    acceptedNotice: known.accepted_notice ?? null,
    providers: (row.providers ? row.providers.split(",") : []).sort() as OAuthProviderName[],
    freePlan:
      row.free_plan_id === null
        ? null
        : {
            timeLimitMinutes: row.free_plan_time_limit_minutes,
            usageLimitBytes: row.free_plan_usage_limit_bytes === null ? null : Number(row.free_plan_usage_limit_bytes),
            validityMinutes: Number(row.free_plan_validity_minutes),
            every: row.free_plan_free_every,
          },
    vouchers: Number(row.voucher_groups) > 0,
    held: deviceProved
      ? row.held_plan_name === null
        ? null
        : { planName: row.held_plan_name, expiresOn: Number(row.held_expires_on) }
      : row.own_held_plan_name === null
        ? null
        : { planName: row.own_held_plan_name, expiresOn: Number(row.own_held_expires_on) },
    plansForSale: plans && Number(row.mpesa) > 0 && state === "form" ? await plansForSale(row.organization_id) : [],
    place: {
      organizationId: row.organization_id,
      hasRules: Number(row.display_rules) > 0,
      accessPointId: row.access_point_id,
      deviceId: row.device_id === null ? null : Number(row.device_id),
      networkPageId: row.splash_page_id,
    },
  };
}

const signupFieldsOf = (row: { signup_phone: unknown; signup_email: unknown; signup_names: unknown }): SignupFields => ({
  phone: signupFieldRule(row.signup_phone),
  email: signupFieldRule(row.signup_email),
  names: signupFieldRule(row.signup_names),
});

/** The organisation's paid plans, cheapest first (M-Pesa takes whole shillings: a price is rounded up). */
export async function plansForSale(organizationId: number): Promise<PlanForSale[]> {
  const rows = await db
    .selectFrom("service_plans")
    .select(["id", "name", "price_cents", "time_limit_minutes", "usage_limit_bytes", "validity_minutes"])
    .where("organization_id", "=", organizationId)
    .where("free_internet", "=", 0)
    .where("price_cents", ">=", 100)
    .orderBy("price_cents")
    .orderBy("id")
    .limit(20)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    price: Math.ceil(Number(r.price_cents) / 100),
    timeLimitMinutes: r.time_limit_minutes,
    usageLimitBytes: r.usage_limit_bytes === null ? null : Number(r.usage_limit_bytes),
    validityMinutes: Number(r.validity_minutes),
  }));
}

export type AuthorizeOutcome =
  | { ok: true; redirect: string }
  | { ok: false; status: number; message: string; reconnect?: boolean; /** status 429: when to try again */ retryAfterMs?: number };

export interface AuthorizeRequest {
  token: string;
  mode: AuthorizationMode;
  /** Sign-up or social details to keep on the customer (null fields are left as they are). */
  details?: Partial<SignupDetails> & { facebook?: string | null; twitter?: string | null };
  /** The guest accepted the terms and privacy notice / opted in to marketing (sign-up form). */
  consent?: { terms: boolean; marketing: boolean };
  /** The privacy notice version shown to the guest (privacy.server.ts), recorded with the consent. */
  noticeVersion?: string;
  /** mode VOUCHER: the code typed in the voucher box (its plan replaces the free plan). */
  voucherCode?: string | null;
  /**
   * mode MPESA: the subscription the guest's payment made Active. mode SUBSCRIPTION: the plan a
   * returning guest proved their phone for (without it, the plan the device holds).
   */
  subscriptionId?: number;
  /**
   * The sign-up's phone number is proved (a code to it answered, or an M-Pesa payment from it): the
   * guest becomes the customer who proved it before, and the device follows. Without proof the
   * details stay on the connection's own customer (decision 0086).
   */
  proved?: boolean;
  /** The language the guest chose on the page: the "You are online" page that follows keeps it. */
  lang?: string | null;
  // Without `consent` (Connect button, social sign-in) the page said "By connecting you accept the
  // terms…": the terms are recorded as accepted, marketing is not asked.
}

class Refusal extends Error {
  constructor(readonly outcome: Extract<AuthorizeOutcome, { ok: false }>) {
    super(outcome.message);
  }
}

const refuse = (status: number, message: string, reconnect = false): never => {
  throw new Refusal({ ok: false, status, message, reconnect });
};

/**
 * Authorizes the token's connection exactly once (a double submit or a race gets the
 * already-authorized answer), keeps the guest's details and consent on the customer (a guest whose
 * phone or e-mail the organisation knows becomes that customer), then asks the gateway to let the
 * guest through. When the gateway refuses, the authorization is undone so the guest can try again.
 */
export async function authorizeGuest(request: AuthorizeRequest, now = Date.now()): Promise<AuthorizeOutcome> {
  if (!plausibleToken(request.token)) return { ok: false, status: 404, message: CONNECT_MESSAGES.unknown, reconnect: true };
  if (request.mode === "VOUCHER") {
    const limited = await voucherAttemptLimited(request.token, now);
    if (limited) return limited;
  }
  let claimed: Awaited<ReturnType<typeof claim>>;
  try {
    claimed = await retryDeadlocks(() => db.transaction().execute((trx) => claim(trx, request, now)));
  } catch (error) {
    if (error instanceof Refusal) return error.outcome;
    throw error;
  }
  const network = await claimed.network;
  const adapter = claimed.gateway ? gatewayFor(claimed.gateway) : null;
  const lang = request.lang === "en" || request.lang === "sw" ? `&lang=${request.lang}` : "";
  const successUrl = claimed.successUrl ?? `${publicOrigin()}/connect/online?token=${encodeURIComponent(request.token)}${lang}`;
  if (!adapter || !network) return { ok: true, redirect: successUrl };
  try {
    const redirect = await adapter.grant({
      network,
      connectionId: claimed.id,
      token: request.token,
      clientMac: claimed.clientMac,
      apMac: claimed.apMac,
      context: claimed.context,
      successUrl,
      seconds: claimed.seconds,
      limits: claimed.limits ?? undefined,
    });
    await noteConnectionEvent({
      organizationId: claimed.organizationId,
      connectionId: claimed.id,
      kind: "grant",
      detail: { gateway: adapter.make, sent: { seconds: claimed.seconds, limits: claimed.limits ?? null }, answer: "accepted" },
    });
    return { ok: true, redirect };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await noteConnectionEvent({
      organizationId: claimed.organizationId,
      connectionId: claimed.id,
      kind: "grant_failed",
      detail: { gateway: adapter.make, sent: { seconds: claimed.seconds, limits: claimed.limits ?? null }, answer: error.message },
    });
    console.error(
      JSON.stringify({
        at: new Date().toISOString(),
        event: "gateway_grant_failed",
        gateway: adapter.make,
        connection: claimed.id,
        error: error.message,
      }),
    );
    await db.transaction().execute(async (trx) => {
      const undone = await trx
        .updateTable("connections")
        // A plan other than the free one stays named on the connection: its token is what lets this
        // guest continue it where the gateway does not vouch for the device (decision 0087).
        .set({
          authorized_at: null,
          authorization_mode: null,
          session_expires_at: null,
          subscription_id: claimed.freeTaken ? null : claimed.subscriptionId,
        })
        .where("id", "=", claimed.id)
        .where("authorized_at", "=", now)
        .executeTakeFirst();
      // The free plan was not used: the guest may take it again. Any other subscription stays: a
      // voucher's code is spent, so its plan waits on the device ("Continue with my plan").
      if (Number(undone.numUpdatedRows) === 1 && claimed.subscriptionId !== null && claimed.freeTaken) {
        await trx.deleteFrom("subscriptions").where("id", "=", claimed.subscriptionId).execute();
      }
    });
    return { ok: false, status: 502, message: CONNECT_MESSAGES.gatewayFailed };
  }
}

/**
 * Counts a voucher code typed on the token's connection against it and its device (outside the
 * authorization's transaction, whose refusal would take the count back). A throttled attempt is
 * refused before the code is looked at (decision 0078).
 */
async function voucherAttemptLimited(token: string, now: number): Promise<Extract<AuthorizeOutcome, { ok: false }> | null> {
  const connection = await db
    .selectFrom("connections")
    .select(["id", "device_id"])
    .where("token", "=", hashToken(token))
    .executeTakeFirst();
  if (!connection) return null; // the claim answers an unknown token
  const limited = await limitVoucherAttempt(
    Number(connection.id),
    connection.device_id === null ? null : Number(connection.device_id),
    now,
  );
  return limited ? { ok: false, status: 429, message: guestLimitMessage(limited), retryAfterMs: limited.retryAfterMs } : null;
}

type Trx = Parameters<Parameters<ReturnType<typeof db.transaction>["execute"]>[0]>[0];

async function claim(trx: Trx, request: AuthorizeRequest, now: number) {
  const row = await trx
    .selectFrom("connections")
    .innerJoin("venues", "venues.id", "connections.venue_id")
    .leftJoin("access_points", "access_points.id", "connections.access_point_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .leftJoin("customers as own", "own.id", "connections.customer_id")
    // The organisation's free plan, if it has one (at most one: service_plans_one_free).
    .leftJoin("service_plans as free_plan", (join) =>
      join.onRef("free_plan.organization_id", "=", "connections.organization_id").on("free_plan.free_internet", "=", sql.lit(1)),
    )
    .leftJoin("bandwidth_policies as free_policy", "free_policy.id", "free_plan.bandwidth_policy_id")
    .select([
      "free_policy.max_upload_kbps as free_max_upload_kbps",
      "free_policy.max_download_kbps as free_max_download_kbps",
      "free_plan.id as free_plan_id",
      "free_plan.name as free_plan_name",
      "free_plan.time_limit_minutes as free_plan_time_limit_minutes",
      "free_plan.usage_limit_bytes as free_plan_usage_limit_bytes",
      "free_plan.validity_minutes as free_plan_validity_minutes",
      "free_plan.simultaneous_connections as free_plan_simultaneous_connections",
      "free_plan.free_every as free_plan_free_every",
      "connections.id",
      "connections.organization_id",
      "connections.venue_id",
      "connections.customer_id",
      "connections.device_id",
      "connections.authorized_at",
      "connections.token_expires_at",
      "connections.subscription_id",
      "connections.gateway",
      "connections.gateway_context",
      "connections.access_point_mac",
      "venues.success_url as venue_success_url",
      "venues.session_minutes",
      "access_points.success_url as ap_success_url",
      "devices.mac_address",
      "devices.blocked_at",
      // The connection's customer has details of anyone's (not a placeholder a new device got).
      sql<number>`case when own.first_name is null and own.last_name is null and own.email_address is null and own.phone_number is null then 0 else 1 end`.as(
        "own_has_details",
      ),
      // The customer who proved the sign-up's phone before (keepDetails), read here rather than in
      // a round trip of its own; only a proved sign-up is joined to it.
      (eb) => provedOwner(eb, request.proved ? request.details?.phone_number : null).as("known_by_phone"),
    ])
    // An M-Pesa grant names its subscription: what useSubscription would read comes with the rest.
    .$if(request.mode === "MPESA" && request.subscriptionId !== undefined, (qb) =>
      qb
        .leftJoin("subscriptions as held", (join) =>
          join.on("held.id", "=", request.subscriptionId!).onRef("held.organization_id", "=", "connections.organization_id"),
        )
        .select(
          // A device keeps its place on its plan only where the gateway vouches for it.
          heldSubscriptionColumns(
            sql<number>`case when connections.gateway in (${sql.join(MAC_ONLY_MAKES.map((m) => sql.lit(m)))}) then -1 else coalesce(connections.device_id, -1) end`,
            now,
          ),
        ),
    )
    .where("connections.token", "=", hashToken(request.token))
    .executeTakeFirst();
  if (!row) return refuse(404, CONNECT_MESSAGES.unknown, true);
  if (row.authorized_at !== null) return refuse(409, CONNECT_MESSAGES.alreadyAuthorized, true);
  if (row.blocked_at !== null) return refuse(403, CONNECT_MESSAGES.blocked);
  if (Number(row.token_expires_at ?? 0) <= now) return refuse(410, CONNECT_MESSAGES.expired, true);
  const orgId = row.organization_id;
  const deviceProved = identifiesDevice(row.gateway);
  const context = JSON.parse(row.gateway_context ?? "{}") as Record<string, string>;
  // The grant's network (its gateway credentials), read beside the rest of the transaction on
  // another connection rather than after it: one round trip fewer before the guest's redirect.
  const network = row.gateway ? networkById(Number(context.network_id ?? row.venue_id)) : Promise.resolve(null);
  network.catch(() => {}); // awaited (and its error thrown) once the transaction commits; unread when it refuses

  // Details typed behind an unsigned MAC never land on that MAC's customer (unless proved, or it is
  // still the empty record a new device got): they make a record of their own.
  const ownIsAnyones = !deviceProved && !request.proved && Number(row.own_has_details) === 1;
  let customerId = request.details && ownIsAnyones ? null : row.customer_id;
  let detailsToKeep: CustomerChange | null = null;
  if (request.details) {
    ({ customerId, change: detailsToKeep } = await keepDetails(
      trx,
      { orgId, customerId, deviceId: row.device_id, knownId: row.known_by_phone === null ? null : Number(row.known_by_phone) },
      request,
      now,
    ));
  }

  // Written with the connection's authorization, at the end (one statement on PostgreSQL).
  const consent =
    customerId === null
      ? null
      : consentWrites(
          { orgId, customerId, connectionId: Number(row.id), venueId: row.venue_id },
          request.consent,
          now,
          detailsToKeep,
          request.noticeVersion,
        );

  // With a free plan the guest is online under it (once per device in its period), for its time;
  // without one, for the network's session length.
  let seconds = Number(row.session_minutes) * 60;
  let subscriptionId: number | null = null;
  let limits: SessionLimits | null = null;
  let freeTaken = false;
  const deviceId = row.device_id === null ? null : Number(row.device_id);
  if (request.mode === "MPESA" || request.mode === "SUBSCRIPTION") {
    // A paid plan (the payment just made, or a plan held on this device) — never the free plan.
    // Behind an unsigned MAC the device holds nothing: only the plan this connection itself started.
    const heldHere = row.subscription_id === null ? null : Number(row.subscription_id);
    const held =
      request.subscriptionId ??
      (request.mode === "MPESA" ? null : deviceProved ? ((await heldSubscription(trx, orgId, { deviceId }, now))?.id ?? null) : heldHere);
    if (held === null) return refuse(409, HELD_MESSAGES.none);
    const used =
      request.mode === "MPESA"
        ? weighHeldSubscription(row as HeldSubscriptionRow, now)
        : await useSubscription(trx, orgId, held, deviceProved ? deviceId : null, now);
    if (!used.ok) return refuse(used.status, used.message);
    ({ subscriptionId, seconds, limits } = used);
    // A plan bought before the guest was known belongs to the customer the payment's phone made.
    if (customerId !== null && used.customerId === null)
      await trx
        .updateTable("subscriptions")
        .set({ customer_id: customerId })
        .where("id", "=", held)
        .where("customer_id", "is", null)
        .execute();
  } else if (request.mode === "VOUCHER") {
    const redeemed = await redeemVoucher(trx, orgId, request.voucherCode, now);
    if (!redeemed.ok) return refuse(redeemed.status, redeemed.message);
    ({ subscriptionId, seconds, limits } = await startSubscription(
      trx,
      redeemed.plan,
      { organizationId: orgId, customerId, deviceId },
      "voucher",
      now,
    ));
  } else if (row.free_plan_id !== null) {
    const free = await takeFreePlan(
      trx,
      {
        id: row.free_plan_id,
        name: row.free_plan_name!,
        time_limit_minutes: row.free_plan_time_limit_minutes,
        usage_limit_bytes: row.free_plan_usage_limit_bytes === null ? null : Number(row.free_plan_usage_limit_bytes),
        validity_minutes: Number(row.free_plan_validity_minutes),
        simultaneous_connections: Number(row.free_plan_simultaneous_connections),
        free_every: row.free_plan_free_every,
        max_upload_kbps: row.free_max_upload_kbps,
        max_download_kbps: row.free_max_download_kbps,
      },
      { organizationId: orgId, customerId, deviceId },
      now,
    );
    if (!free.ok) return refuse(409, free.message);
    ({ seconds, subscriptionId, limits } = free);
    freeTaken = true;
  }
  const authorized = await authorizeConnection(
    trx,
    Number(row.id),
    {
      authorized_at: now,
      authorization_mode: request.mode,
      customer_id: customerId,
      session_expires_at: now + seconds * 1000,
      subscription_id: subscriptionId,
    },
    consent,
  );
  // A racing request authorized it first (PostgreSQL re-checks the condition after the row lock);
  // the refusal rolls the transaction back, the consent and the customer's change with it.
  if (!authorized) return refuse(409, CONNECT_MESSAGES.alreadyAuthorized, true);

  return {
    id: Number(row.id),
    organizationId: row.organization_id,
    subscriptionId,
    freeTaken,
    limits,
    network,
    gateway: row.gateway,
    context,
    clientMac: row.mac_address ?? "",
    apMac: row.access_point_mac,
    seconds,
    successUrl: row.ap_success_url ?? row.venue_success_url ?? context.continue_url ?? null,
  };
}

/** The first customer of the connection's organisation who proved owning this phone number (none without one). */
function provedOwner(eb: ExpressionBuilder<DB, "connections">, phone: string | null | undefined) {
  if (!phone) return sql<number | null>`null`;
  return eb
    .selectFrom("customers as known")
    .select("known.id")
    .whereRef("known.organization_id", "=", "connections.organization_id")
    .where("known.phone_number", "=", phone)
    .where("known.phone_proved_at", "is not", null)
    .orderBy("known.id")
    .limit(1);
}

/**
 * Keeps sign-up or social details on the guest's customer. A proved phone number another customer
 * proved before (`knownId`) makes the guest that customer (the device follows), so a guest is one
 * customer however many devices. An unproved phone or any e-mail address never joins or changes
 * another customer: the details stay on the connection's own record (created when it has none).
 * Returns the customer the connection belongs to and the change to make to it, which
 * authorizeConnection writes together with the consent.
 */
async function keepDetails(
  trx: Trx,
  at: { orgId: number; customerId: number | null; deviceId: number | null; knownId: number | null },
  request: AuthorizeRequest,
  now: number,
): Promise<{ customerId: number; change: CustomerChange }> {
  const { orgId, deviceId, knownId } = at;
  let { customerId } = at;
  const details = request.details!;
  if (knownId !== null && knownId !== customerId) {
    customerId = knownId;
    if (deviceId !== null)
      await trx.updateTable("devices").set({ customer_id: customerId, updated_at: now }).where("id", "=", deviceId).execute();
  }
  if (customerId === null) {
    const created = await trx
      .insertInto("customers")
      .values({
        organization_id: orgId,
        identity: details.phone_number ?? details.email_address ?? "guest",
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    customerId = created.id;
  }
  const update: CustomerChange = { updated_at: now };
  for (const field of ["first_name", "middle_name", "last_name", "email_address", "phone_number", "facebook", "twitter"] as const) {
    const value = details[field];
    if (value) update[field] = value;
  }
  // A proved number is marked so; a number typed without proof keeps an earlier proof only if it is that same number.
  if (details.phone_number)
    update.phone_proved_at = request.proved
      ? now
      : sql<number>`case when phone_number = ${details.phone_number} then phone_proved_at else null end`;
  // The identity a placeholder got from its MAC address becomes the guest's phone or e-mail.
  const identity = details.phone_number ?? details.email_address;
  if (identity) update.identity = identity;
  if (request.consent?.marketing) update.marketing_opt_in_at = now;
  if (request.consent?.terms ?? true) update.terms_accepted_at = sql<number>`coalesce(terms_accepted_at, ${now})`;
  return { customerId, change: update };
}

/** Columns of a customer to set (keepDetails). */
type CustomerChange = Record<string, string | number | RawBuilder<number>>;

/** The consent rows and the customer's change that go with a connection's authorization. */
interface ConsentWrites {
  customerId: number;
  orgId: number;
  rows: Insertable<DB["customer_consents"]>[];
  /** the columns to set on the customer; `onlyIfUnset`: only where terms_accepted_at is null */
  change: CustomerChange;
  onlyIfUnset: boolean;
}

/**
 * The consent record (Kenya Data Protection Act 2019): what the guest accepted, when, under which
 * wording; with the sign-up's details to keep on the customer, when there are any.
 */
function consentWrites(
  at: { orgId: number; customerId: number; connectionId: number; venueId: number | null },
  consent: AuthorizeRequest["consent"],
  now: number,
  /** the sign-up's details to keep on the customer (keepDetails), written with the consent */
  details: CustomerChange | null,
  /** the privacy notice version the guest was shown; the wording's version without one */
  version = CONSENT_WORDING_VERSION,
): ConsentWrites {
  const given = consent ?? { terms: true, marketing: null };
  const rows = (["terms", "marketing"] as const)
    .filter((kind) => given[kind] !== null)
    .map((kind) => ({
      organization_id: at.orgId,
      customer_id: at.customerId,
      connection_id: at.connectionId,
      venue_id: at.venueId,
      kind,
      granted: given[kind] ? (1 as const) : (0 as const),
      wording_version: version,
      created_at: now,
    }));
  if (details) return { customerId: at.customerId, orgId: at.orgId, rows, change: details, onlyIfUnset: false };
  return { customerId: at.customerId, orgId: at.orgId, rows, change: given.terms ? { terms_accepted_at: now } : {}, onlyIfUnset: true };
}

/**
 * Authorizes the connection (only if it is not yet: false when a racing request did first), with
 * the consent and the customer's change. On PostgreSQL that is one statement, a data-modifying WITH:
 * one round trip while the connection's roll-up triggers hold their rows (the tables written beside
 * it have no triggers that would read each other's change).
 */
async function authorizeConnection(
  trx: Trx,
  connectionId: number,
  set: Updateable<DB["connections"]>,
  consent: ConsentWrites | null,
): Promise<boolean> {
  const authorize = (qc: QueryCreator<DB>) =>
    qc.updateTable("connections").set(set).where("id", "=", connectionId).where("authorized_at", "is", null);
  const updated = (done: UpdateResult) => Number(done.numUpdatedRows) === 1;
  if (!consent) return updated(await authorize(trx).executeTakeFirst());
  const keep = (qc: QueryCreator<DB>) => {
    const q = qc
      .updateTable("customers")
      .set(consent.change)
      .where("id", "=", consent.customerId)
      .where("organization_id", "=", consent.orgId);
    return consent.onlyIfUnset ? q.where("terms_accepted_at", "is", null) : q;
  };
  const changesCustomer = Object.keys(consent.change).length > 0;
  return writeTogether({
    together: async () => {
      // The CTEs add names the statement does not read: each creator stands for a plain one.
      let creator: QueryCreator<DB> = trx;
      if (consent.rows.length > 0)
        creator = creator.with("consented", (qc) =>
          qc.insertInto("customer_consents").values(consent.rows).returning("id"),
        ) as unknown as QueryCreator<DB>;
      if (changesCustomer)
        creator = creator.with("kept", (qc) => keep(qc as unknown as QueryCreator<DB>).returning("id")) as unknown as QueryCreator<DB>;
      return updated(await authorize(creator).executeTakeFirst());
    },
    apart: async () => {
      if (consent.rows.length > 0) await trx.insertInto("customer_consents").values(consent.rows).execute();
      if (changesCustomer) await keep(trx).execute();
      return updated(await authorize(trx).executeTakeFirst());
    },
  });
}
