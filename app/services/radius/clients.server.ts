// A network's RADIUS gateways (NAS clients): registered in the console with their own secret
// (encrypted at rest, shown once), and looked up by FreeRADIUS through POST /radius/client.
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import { RADIUS_CLIENT_MESSAGES, type RadiusClientInput } from "~/lib/schemas/radius-clients";
import { randomToken } from "../crypto.server";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { encryptSecret, readSecret } from "../secrets.server";

/** FreeRADIUS's name for a NAS: what the rest module sends back as ?nas= (%{client:shortname}). */
export const nasShortname = (id: number) => `nas-${id}`;

export function nasIdOf(shortname: unknown): number | null {
  const match = typeof shortname === "string" ? /^nas-([1-9][0-9]{0,9})$/.exec(shortname) : null;
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id <= 2 ** 31 - 1 ? id : null;
}

/** A RADIUS shared secret: 24 URL-safe characters (RADIUS hides PAP passwords with it: long and random). */
const newSecret = () => randomToken(18);

async function ownVenue(ctx: OrgContext, venueId: number) {
  const venue = await db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!venue) notFound();
  return venue;
}

export async function listRadiusClients(ctx: OrgContext, venueId: number) {
  requirePermission(ctx, "view_networks");
  await ownVenue(ctx, venueId);
  const clients = await db
    .selectFrom("radius_clients")
    .select(["id", "name", "make", "ip_address", "coa_port", "created_at", "updated_at"])
    .where("organization_id", "=", ctx.org.id)
    .where("venue_id", "=", venueId)
    .orderBy("name")
    .execute();
  const messages = await db
    .selectFrom("radius_messages")
    .innerJoin("radius_clients", "radius_clients.id", "radius_messages.radius_client_id")
    .select([
      "radius_messages.id",
      "radius_messages.connection_id",
      "radius_messages.kind",
      "radius_messages.outcome",
      "radius_messages.detail",
      "radius_messages.created_at",
      "radius_clients.name as client_name",
    ])
    .where("radius_clients.organization_id", "=", ctx.org.id)
    .where("radius_clients.venue_id", "=", venueId)
    .orderBy("radius_messages.id", "desc")
    .limit(20)
    .execute();
  return {
    clients: clients.map((c) => ({
      ...c,
      coa_port: Number(c.coa_port),
      created_at: Number(c.created_at),
      updated_at: Number(c.updated_at),
    })),
    messages: messages.map((m) => ({ ...m, id: Number(m.id), connection_id: Number(m.connection_id), created_at: Number(m.created_at) })),
  };
}

export type RadiusClientOutcome = { ok: true; id: number; secret: string } | { ok: false; errors: Record<string, string[]> };

export async function addRadiusClient(
  ctx: OrgContext,
  venueId: number,
  input: RadiusClientInput,
  now = Date.now(),
): Promise<RadiusClientOutcome> {
  requirePermission(ctx, "edit_networks");
  await ownVenue(ctx, venueId);
  const secret = newSecret();
  try {
    const row = await db
      .insertInto("radius_clients")
      .values({
        organization_id: ctx.org.id,
        venue_id: venueId,
        name: input.name,
        make: input.make,
        ip_address: input.ip_address,
        coa_port: input.coa_port,
        secret: encryptSecret(secret),
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id: row.id, secret };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { ip_address: [RADIUS_CLIENT_MESSAGES.addressTaken] } };
    throw error;
  }
}

/** A new secret for the NAS, shown once (FreeRADIUS picks it up when its cached client expires). */
export async function rotateRadiusSecret(ctx: OrgContext, venueId: number, id: number, now = Date.now()): Promise<string> {
  requirePermission(ctx, "edit_networks");
  const secret = newSecret();
  const result = await db
    .updateTable("radius_clients")
    .set({ secret: encryptSecret(secret), updated_at: now })
    .where("id", "=", id)
    .where("venue_id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) notFound();
  return secret;
}

export async function removeRadiusClient(ctx: OrgContext, venueId: number, id: number): Promise<void> {
  requirePermission(ctx, "edit_networks");
  const result = await db
    .deleteFrom("radius_clients")
    .where("id", "=", id)
    .where("venue_id", "=", venueId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) notFound();
  nasCache.delete(id);
}

/** FreeRADIUS's dynamic client lookup: the NAS at this source address, with its secret. */
export async function radiusClientByAddress(address: string): Promise<{ id: number; secret: string } | null> {
  if (address.length > 45) return null;
  const row = await db
    .selectFrom("radius_clients")
    .select(["id", "secret"])
    .where("ip_address", "=", address.toLowerCase())
    .executeTakeFirst();
  return row ? { id: row.id, secret: readSecret(row.secret)! } : null;
}

export interface Nas {
  id: number;
  organizationId: number;
  venueId: number;
  /** The network's guest language (en, sw): Reply-Messages to its guests are in it (decision 0079). */
  language: string;
}

/**
 * Every RADIUS request names its NAS; it is read from the database at most every NAS_CACHE_MS per
 * process (FreeRADIUS caches its clients for a minute too, so a removed NAS goes quiet within that).
 */
const NAS_CACHE_MS = 30_000;
const nasCache = new Map<number, { nas: Nas | null; until: number }>();

export async function nasById(id: number, now = Date.now()): Promise<Nas | null> {
  const cached = nasCache.get(id);
  if (cached && cached.until > now) return cached.nas;
  const row = await db
    .selectFrom("radius_clients")
    .innerJoin("venues", "venues.id", "radius_clients.venue_id")
    .select(["radius_clients.id", "radius_clients.organization_id", "radius_clients.venue_id", "venues.guest_language"])
    .where("radius_clients.id", "=", id)
    .executeTakeFirst();
  const nas = row ? { id: row.id, organizationId: row.organization_id, venueId: row.venue_id, language: row.guest_language } : null;
  if (nasCache.size > 10_000) nasCache.clear();
  nasCache.set(id, { nas, until: now + NAS_CACHE_MS });
  return nas;
}

/** Tests remove NASes and expect the next request to know at once. */
export function forgetNasCache(): void {
  nasCache.clear();
}
