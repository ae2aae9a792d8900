// Browser-test data for ads: an organisation with a network whose guests
// click through (no sign-up form) and an access point, and reads of what was counted. Every test
// makes its own organisation: tests run in parallel.
import { makePortal, merakiEntry, randomMac, startFakeGateway, type FakeGateway, type PortalSetup } from "./portal-fixtures";

const { db } = await import("~/db/db.server");

export { merakiEntry, randomMac, startFakeGateway, type FakeGateway };

export async function makeAdsSetup(): Promise<PortalSetup> {
  return makePortal({ venue: { guest_signup: 0 } });
}

/** The organisation's ad events by kind ("i" impressions, "c" clicks). */
export async function adEventCounts(orgId: number): Promise<{ impressions: number; clicks: number }> {
  const rows = await db.selectFrom("ad_events").select("kind").where("organization_id", "=", orgId).execute();
  return { impressions: rows.filter((r) => r.kind === "i").length, clicks: rows.filter((r) => r.kind === "c").length };
}

export async function campaignPaused(orgId: number, name: string): Promise<number> {
  const row = await db
    .selectFrom("ad_campaigns")
    .select("paused")
    .where("organization_id", "=", orgId)
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return row.paused;
}
