// A guest who already paid for a plan with this phone (on another device) reconnects under it
// instead of paying again (POST /connect/mpesa).
import { db } from "~/db/db.server";
import { heldSubscription } from "./subscriptions.server";

export function paidPlanOfPhone(organizationId: number, phone: string) {
  return heldSubscription(db, organizationId, { phone, paidOnly: true }, Date.now());
}
