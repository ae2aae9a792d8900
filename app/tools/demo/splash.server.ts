// The demo's splash pages, made through the splash services as an operator would: the café and
// hotel templates published as the pages of the cafés and the hotels, a display rule greeting
// first-time guests at the resorts with the hotel's page, and the mall template left as an unpublished
// draft. Each page goes to networks of its own kind: a hotel guest never gets the café's page.
import { ALL_PERMISSIONS } from "~/lib/permissions";
import type { OrgContext } from "~/services/guard.server";
import { copyTemplate, createPage, publishPage } from "~/services/splash/pages.server";
import { addDisplaySetting } from "~/services/splash/rules.server";
import { db } from "~/db/db.server";
import type { VenueKind } from "./catalogue.server";

/** Answers the owner's context it used, for the demo's other operator-made parts. */
export async function createDemoSplashPages(
  organization: OrgContext["org"],
  ownerId: number,
  venues: readonly { id: number; kind: VenueKind }[],
): Promise<OrgContext> {
  const owner = await db
    .selectFrom("users")
    .select(["id", "first_name", "middle_name", "last_name", "email", "phone_number"])
    .where("id", "=", ownerId)
    .executeTakeFirstOrThrow();
  const ctx: OrgContext = {
    user: owner,
    org: organization,
    permissions: new Set(ALL_PERMISSIONS),
    isOwner: true,
    roleName: "Administrator",
  };
  const page = async (templateId: string, name: string, description: string, publish: boolean) => {
    const { id } = await createPage(ctx, { name, css_template: "tailwind.css", description });
    await copyTemplate(ctx, id, templateId);
    if (publish) await publishPage(ctx, id);
    return id;
  };
  const cafe = await page("cafe", "Café welcome", "Warm welcome for the cafés.", true);
  const hotel = await page("hotel", "Hotel lobby", "For hotel guests.", true);
  await page("mall", "Mall weekend offer", "Draft for the mall's weekend promotion.", false);
  const ofKind = (...kinds: VenueKind[]) => venues.filter((v) => kinds.includes(v.kind)).map((v) => v.id);
  const cafes = ofKind("cafe");
  const hotels = ofKind("hotel");
  if (cafes.length) await db.updateTable("venues").set({ splash_page_id: cafe }).where("id", "in", cafes).execute();
  if (hotels.length) await db.updateTable("venues").set({ splash_page_id: hotel }).where("id", "in", hotels).execute();
  const resorts = ofKind("resort");
  const aps = resorts.length ? await db.selectFrom("access_points").select("id").where("venue_id", "in", resorts).execute() : [];
  if (aps.length) {
    await addDisplaySetting(ctx, hotel, {
      access_points: aps.map((a) => a.id),
      factor: "On",
      factor_count: 1,
      factor_type: "Session",
      start_date: null,
      end_date: null,
    });
  }
  return ctx;
}
