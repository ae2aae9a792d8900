// Factories shared by the demo loader, the benchmarks and the test fixtures.
import type { Kysely } from "kysely";
import { ALL_PERMISSIONS, type Permission } from "~/lib/permissions";
import { normalizePhone } from "~/lib/phone";
import { hashPassword } from "~/services/crypto.server";
import { db as defaultDb } from "./db.server";
import type { DB, RoleType } from "./schema";

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
    await db.insertInto("role_permissions").values(rows.map((r) => ({ role_id: role.id, permission_id: r.id }))).execute();
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
  return db
    .insertInto("administrators")
    .values({
      organization_id: organizationId,
      user_id: userId,
      role_id: roleId,
      invited_email_address: null,
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
