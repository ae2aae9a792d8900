// Factories shared by the demo loader, the benchmarks and the test fixtures.
import type { Insertable, Kysely } from "kysely";
import { ALL_PERMISSIONS, type Permission } from "~/lib/permissions";
import { normalizePhone } from "~/lib/phone";
import { hashPassword, newPortalKey } from "~/services/crypto.server";
import { db as defaultDb } from "~/db/db.server";
import type { AccessPointsTable, CustomersTable, DB, DevicesTable, NewConnection, RoleType, VenuesTable } from "~/db/schema";

let userCounter = 0;
const hashCache = new Map<string, Promise<string>>();

/** scrypt is slow on purpose; factories reuse one hash per distinct password. */
function cachedHash(password: string) {
  if (!hashCache.has(password)) hashCache.set(password, hashPassword(password));
  return hashCache.get(password)!;
}

export interface UserSeed {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  password?: string;
  /** false: an account whose address was never confirmed. */
  verified?: boolean;
}

export async function insertUser(seed: UserSeed = {}, db: Kysely<DB> = defaultDb) {
  // Unique within the process; each test worker has a database of its own.
  const n = ++userCounter;
  const now = Date.now();
  const phone = normalizePhone(seed.phone_number ?? `07${String(n).padStart(8, "0")}`);
  return db
    .insertInto("users")
    .values({
      first_name: seed.first_name ?? "Test",
      middle_name: null,
      last_name: seed.last_name ?? `User${n}`,
      email: (seed.email ?? `user${n}@example.com`).toLowerCase(),
      phone_number: phone!,
      password_hash: await cachedHash(seed.password ?? "password123"),
      dashboard: null,
      email_verified_at: seed.verified === false ? null : now,
      created_at: now,
      updated_at: now,
    })
    .returning(["id", "first_name", "middle_name", "last_name", "email", "phone_number"])
    .executeTakeFirstOrThrow();
}

/** A role of the organisation, with chosen permissions when custom. */
export async function insertRole(
  organizationId: number,
  roleType: RoleType,
  permissions: readonly Permission[] = [],
  name = `Role ${roleType}`,
  db: Kysely<DB> = defaultDb,
) {
  const now = Date.now();
  const role = await db
    .insertInto("roles")
    .values({ organization_id: organizationId, name, description: null, role_type: roleType, created_at: now, updated_at: now })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  const wanted = permissions.filter((p) => ALL_PERMISSIONS.includes(p));
  if (roleType === "custom" && wanted.length) {
    const rows = await db.selectFrom("permissions").select("id").where("identifier", "in", wanted).execute();
    await db
      .insertInto("role_permissions")
      .values(rows.map((r) => ({ role_id: role.id, permission_id: r.id })))
      .execute();
  }
  return role;
}

/** An accepted member of the organisation holding the given role. */
export async function insertMembership(
  organizationId: number,
  userId: number,
  roleId: number | null,
  status: "Pending" | "Accepted" | "Declined" = "Accepted",
  db: Kysely<DB> = defaultDb,
) {
  const now = Date.now();
  // A membership starts as an invitation to the user's address.
  const invited = await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  return db
    .insertInto("administrators")
    .values({
      organization_id: organizationId,
      user_id: userId,
      role_id: roleId,
      invited_email_address: invited?.email ?? null,
      status,
      is_owner: 0,
      invite_token_hash: null,
      invited_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

// Row builders: complete rows with plain defaults, for bulk loading (demo, benchmarks) and
// for tests that insert a few rows. Callers pass what matters to them and get every column,
// always in the same order.

let rowCounter = 0;

/** A locally administered MAC address made from n (lower case, colon separated). */
function macFor(n: number): string {
  const bytes = [0x02, 0, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  return bytes.map((b) => b.toString(16).padStart(2, "0")).join(":");
}

export function buildVenue(organizationId: number, fields: Partial<Insertable<VenuesTable>> = {}): Insertable<VenuesTable> {
  const now = Date.now();
  return {
    organization_id: organizationId,
    name: `Venue ${++rowCounter}`,
    portal_key: newPortalKey(),
    address: "1 Moi Avenue, Nairobi",
    email: null,
    phone_number: null,
    custom_splash_url: null,
    success_url: null,
    more_info: null,
    layout_image: null,
    layout_polygon: null,
    map_zoom: null,
    lat: null,
    lng: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

export function buildAccessPoint(
  organizationId: number,
  venueId: number,
  fields: Partial<Insertable<AccessPointsTable>> = {},
): Insertable<AccessPointsTable> {
  const now = Date.now();
  const n = ++rowCounter;
  const row: Insertable<AccessPointsTable> = {
    organization_id: organizationId,
    venue_id: venueId,
    name: `Access point ${n}`,
    make: "Mlango",
    mac_address: macFor(n),
    serial_number: `MLG-${n}`,
    custom_splash_url: null,
    success_url: null,
    description: null,
    lat: null,
    lng: null,
    layout_x: null,
    layout_y: null,
    last_seen_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
  row.mac_address = row.mac_address.toLowerCase();
  return row;
}

/** Phone numbers are stored in E.164; an impossible number is a bug in the caller. */
export function buildCustomer(organizationId: number, fields: Partial<Insertable<CustomersTable>> = {}): Insertable<CustomersTable> {
  const now = Date.now();
  const n = ++rowCounter;
  const row: Insertable<CustomersTable> = {
    organization_id: organizationId,
    identity: "",
    first_name: null,
    middle_name: null,
    last_name: null,
    phone_number: `+2547${String(n).padStart(8, "0")}`,
    email_address: null,
    twitter: null,
    facebook: null,
    more_info: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
  if (row.phone_number) {
    const phone = normalizePhone(row.phone_number);
    if (!phone) throw new Error(`buildCustomer: "${row.phone_number}" is not a phone number`);
    row.phone_number = phone;
  }
  if (row.email_address) row.email_address = row.email_address.toLowerCase();
  row.identity ||= row.phone_number ?? row.email_address ?? `guest-${n}`;
  return row;
}

export function buildDevice(organizationId: number, fields: Partial<Insertable<DevicesTable>> = {}): Insertable<DevicesTable> {
  const now = Date.now();
  const row: Insertable<DevicesTable> = {
    organization_id: organizationId,
    customer_id: null,
    name: null,
    mac_address: macFor(++rowCounter),
    os: "Android",
    os_version: "14",
    brand: "Samsung",
    browser: "Chrome",
    is_mobile: 1,
    blocked_at: null,
    last_seen_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
  row.mac_address = row.mac_address.toLowerCase();
  return row;
}

/**
 * A portal visit; by default never authorized. Bulk loads call this millions of times, so
 * it fills each column directly instead of spreading objects.
 */
export function buildConnection(organizationId: number, fields: Partial<NewConnection> = {}): NewConnection {
  return {
    organization_id: organizationId,
    venue_id: fields.venue_id ?? null,
    access_point_id: fields.access_point_id ?? null,
    access_point_mac: fields.access_point_mac ?? null,
    customer_id: fields.customer_id ?? null,
    device_id: fields.device_id ?? null,
    ssid: fields.ssid ?? null,
    authorization_mode: fields.authorization_mode ?? null,
    token: fields.token ?? null,
    created_at: fields.created_at ?? Date.now(),
    authorized_at: fields.authorized_at ?? null,
    ended_at: fields.ended_at ?? null,
    upload: fields.upload ?? 0,
    download: fields.download ?? 0,
  };
}
