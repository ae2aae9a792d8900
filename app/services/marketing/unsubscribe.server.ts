// Unsubscribe links: a token in each broadcast mail names one customer
// of one organisation and works with no sign-in. It is encrypted and authenticated with the server's
// SECRETS_KEY (encryptSecret: AES-256-GCM, a fresh IV per mail), so it cannot be guessed from ids or
// forged; a token that does not decrypt to our own payload names no one.
import { db } from "~/db/db.server";
import { publicOrigin } from "../email.server";
import { decryptSecret, encryptSecret } from "../secrets.server";

const PURPOSE = "unsubscribe";
/** encryptSecret's `v1.{iv}.{tag}.{ciphertext}`; the payload is short, so the token is too. */
const TOKEN_SHAPE = /^v1\.[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{1,80}$/;

export interface UnsubscribeTarget {
  organizationId: number;
  organizationName: string;
  customerId: number;
  optedOut: boolean;
}

export function unsubscribeToken(organizationId: number, customerId: number): string {
  return encryptSecret(`${PURPOSE}.${organizationId}.${customerId}`);
}

export function unsubscribeUrl(organizationId: number, customerId: number): string {
  return `${publicOrigin()}/unsubscribe/${unsubscribeToken(organizationId, customerId)}`;
}

function readToken(token: string): { organizationId: number; customerId: number } | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  let plain: string;
  try {
    plain = decryptSecret(token);
  } catch {
    return null;
  }
  const match = /^unsubscribe\.(\d{1,10})\.(\d{1,10})$/.exec(plain);
  return match ? { organizationId: Number(match[1]), customerId: Number(match[2]) } : null;
}

/** Who a token names, if it is genuine and the customer still exists; null otherwise. */
export async function unsubscribeTarget(token: string): Promise<UnsubscribeTarget | null> {
  const ids = readToken(token);
  if (!ids) return null;
  const row = await db
    .selectFrom("customers")
    .innerJoin("organizations", "organizations.id", "customers.organization_id")
    .select(["organizations.name", "customers.marketing_opt_in_at"])
    .where("customers.id", "=", ids.customerId)
    .where("customers.organization_id", "=", ids.organizationId)
    .executeTakeFirst();
  if (!row) return null;
  return { ...ids, organizationName: row.name, optedOut: row.marketing_opt_in_at === null };
}
