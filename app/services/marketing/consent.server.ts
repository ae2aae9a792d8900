// Who may receive broadcasts, and opting out of them: an unsubscribe link, a
// one-click List-Unsubscribe POST or an SMS "STOP" reply. Opting out clears the opt-in (only a new,
// explicit opt-in on the connect page sets it again), dates it, and is recorded as a consent row.
import type { Kysely } from "kysely";
import { db as defaultDb } from "~/db/db.server";
import type { DB } from "~/db/schema";

export type OptOutVia = "email-unsubscribe" | "sms-stop" | "guest-data-page";

/** Opts one customer of the organisation out of marketing; answers false when there is no such customer. */
export async function optOut(
  organizationId: number,
  customerId: number,
  via: OptOutVia,
  now = Date.now(),
  database: Kysely<DB> = defaultDb,
): Promise<boolean> {
  return database.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("customers")
      .set({ marketing_opt_in_at: null, marketing_opted_out_at: now, updated_at: now })
      .where("id", "=", customerId)
      .where("organization_id", "=", organizationId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await trx
      .insertInto("customer_consents")
      .values({
        organization_id: organizationId,
        customer_id: customerId,
        connection_id: null,
        venue_id: null,
        kind: "marketing",
        granted: 0,
        wording_version: via,
        created_at: now,
      })
      .execute();
    return true;
  });
}
