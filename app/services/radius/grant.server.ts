// The connection a RADIUS make's grant page (GET /hotspot/{make}/{portalKey}/login) posts the
// credentials of: found by its token within the network's organisation.
import { db } from "~/db/db.server";
import { hashToken } from "../crypto.server";

export function connectionForLogin(token: string, organizationId: number) {
  return db
    .selectFrom("connections")
    .select(["id", "token", "gateway", "gateway_context", "venue_id", "authorized_at", "ended_at"])
    .where("token", "=", hashToken(token))
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}
