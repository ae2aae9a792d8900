// Display rules (docs/guide/splash-pages.md#presentation; the Presentation tab) and the choice
// of the page a guest sees (the semantics are decision 0016's and tests/integration/
// splash-rules.test.ts's table):
//   1. rules of published pages for the guest's access point whose dates include today (UTC);
//   2. of those, the ones whose factor holds for the guest's device: the connection being shown is
//      the device's session number S (its authorized connections in the organisation, plus one) and
//      falls on its day number D (distinct UTC days it connected on, today included);
//      "On N Sessions" holds when S = N, "After N Sessions" when S > N; likewise Days with D;
//   3. the most specific wins: On before After, then the larger N, then the newest rule;
//   4. no rule holds: the network's own page (if published), else the built-in page.
import { sql } from "kysely";
import { db } from "~/db/db.server";
import type { DisplayFactor, DisplayFactorType } from "~/db/schema";
import { ruleText, SPLASH_MESSAGES, type DisplaySettingInput } from "~/lib/schemas/splash";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import type { SplashFrame } from "./render.server";

const DAY_MS = 86_400_000;

export interface DisplayRule {
  id: number;
  factor: DisplayFactor;
  factor_count: number;
  factor_type: DisplayFactorType;
  created_at: number;
}

/** Whether a rule's factor holds for a device at session number S on day number D. */
export function factorHolds(rule: Pick<DisplayRule, "factor" | "factor_count" | "factor_type">, session: number, day: number): boolean {
  const n = rule.factor_type === "Session" ? session : day;
  return rule.factor === "On" ? n === rule.factor_count : n > rule.factor_count;
}

/** The rule that decides among those whose factor holds (step 3), or undefined. */
export function mostSpecific<R extends DisplayRule>(rules: readonly R[], session: number, day: number): R | undefined {
  return rules
    .filter((r) => factorHolds(r, session, day))
    .sort(
      (a, b) =>
        (a.factor === b.factor ? 0 : a.factor === "On" ? -1 : 1) ||
        b.factor_count - a.factor_count ||
        b.created_at - a.created_at ||
        b.id - a.id,
    )[0];
}

/** The device's session and day numbers for the connection being shown (step 2). */
export async function deviceNumbers(
  organizationId: number,
  deviceId: number | null,
  now: number,
): Promise<{ session: number; day: number }> {
  if (deviceId === null) return { session: 1, day: 1 };
  const today = Math.floor(now / DAY_MS);
  const row = await db
    .selectFrom("connections")
    .select([
      (eb) => eb.fn.countAll<number>().as("sessions"),
      // A literal divisor: integer division on both engines (a bound number may arrive as a real).
      sql<number>`count(distinct (created_at / ${sql.lit(DAY_MS)}))`.as("days"),
      sql<number>`sum(case when created_at >= ${today * DAY_MS} then 1 else 0 end)`.as("today"),
    ])
    .where("device_id", "=", deviceId)
    .where("organization_id", "=", organizationId)
    .where("authorized_at", "is not", null)
    .executeTakeFirstOrThrow();
  const days = Number(row.days);
  return { session: Number(row.sessions) + 1, day: Number(row.today ?? 0) > 0 ? days : days + 1 };
}

export interface GuestPlace {
  organizationId: number;
  /** Some display rule names the access point (read with the guest's view; false skips the rules query). */
  hasRules?: boolean;
  accessPointId: number | null;
  deviceId: number | null;
  /** The network's own page (venues.splash_page_id). */
  networkPageId: number | null;
}

/**
 * The published page a guest sees at this place and moment, as a frame for the form, or null (the
 * built-in page). The candidate rules come with their pages' snapshots, so a guest whose access
 * point has rules costs at most two queries (rules, then the device's numbers) and one without
 * costs one or two (rules, then the network's page).
 */
export async function frameForGuest(place: GuestPlace, now = Date.now()): Promise<SplashFrame | null> {
  if (place.accessPointId !== null && place.hasRules !== false) {
    const today = new Date(now).toISOString().slice(0, 10);
    const rules = await db
      .selectFrom("splash_display_setting_access_points as link")
      .innerJoin("splash_display_settings as rule", "rule.id", "link.display_setting_id")
      .innerJoin("splash_pages as page", "page.id", "rule.splash_page_id")
      .select([
        "rule.id",
        "rule.factor",
        "rule.factor_count",
        "rule.factor_type",
        "rule.created_at",
        "page.published_before",
        "page.published_after",
      ])
      .where("link.access_point_id", "=", place.accessPointId)
      .where("rule.organization_id", "=", place.organizationId)
      .where("page.published_revision", "is not", null)
      .where((eb) => eb.or([eb("rule.start_date", "is", null), eb("rule.start_date", "<=", today)]))
      .where((eb) => eb.or([eb("rule.end_date", "is", null), eb("rule.end_date", ">=", today)]))
      .execute();
    if (rules.length > 0) {
      const { session, day } = await deviceNumbers(place.organizationId, place.deviceId, now);
      const chosen = mostSpecific(
        rules.map((r) => ({ ...r, created_at: Number(r.created_at) })),
        session,
        day,
      );
      if (chosen) return frameOf(chosen);
    }
  }
  if (place.networkPageId === null) return null;
  const page = await db
    .selectFrom("splash_pages")
    .select(["published_before", "published_after"])
    .where("id", "=", place.networkPageId)
    .where("organization_id", "=", place.organizationId)
    .executeTakeFirst();
  return page ? frameOf(page) : null;
}

const frameOf = (page: { published_before: string | null; published_after: string | null }): SplashFrame | null =>
  page.published_before !== null && page.published_after !== null ? { before: page.published_before, after: page.published_after } : null;

// ---------------------------------------------------------------------------------------------
// The Presentation tab and splash_pages/display_settings

async function ownPage(ctx: OrgContext, pageId: number | null): Promise<number> {
  if (pageId === null) notFound("Splash page not found.");
  const page = await db
    .selectFrom("splash_pages")
    .select("id")
    .where("id", "=", pageId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return page?.id ?? notFound("Splash page not found.");
}

/** GET splash_pages/display_settings/{pageId}: the page's rules with their access points, newest first. */
export async function listDisplaySettings(ctx: OrgContext, pageId: number | null) {
  requirePermission(ctx, "view_splash_pages", "edit_splash_pages", "change_splash_pages_presentation");
  const id = await ownPage(ctx, pageId);
  const rules = await db
    .selectFrom("splash_display_settings")
    .select(["id", "splash_page_id", "start_date", "end_date", "factor", "factor_count", "factor_type", "created_at"])
    .where("splash_page_id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const links = rules.length
    ? await db
        .selectFrom("splash_display_setting_access_points as link")
        .innerJoin("access_points", "access_points.id", "link.access_point_id")
        .select(["link.display_setting_id", "access_points.id", "access_points.name"])
        .where(
          "link.display_setting_id",
          "in",
          rules.map((r) => r.id),
        )
        .orderBy("access_points.name")
        .execute()
    : [];
  return rules.map((r) => ({
    ...r,
    created_at: Number(r.created_at),
    rule: ruleText(r),
    access_points: links.filter((l) => l.display_setting_id === r.id).map((l) => ({ id: l.id, name: l.name })),
  }));
}
export type DisplaySetting = Awaited<ReturnType<typeof listDisplaySettings>>[number];

/** POST splash_pages/display_settings: a rule for the page's access points (all of this organisation). */
export async function addDisplaySetting(ctx: OrgContext, pageId: number | null, input: DisplaySettingInput) {
  requirePermission(ctx, "change_splash_pages_presentation");
  const id = await ownPage(ctx, pageId);
  const found = await db
    .selectFrom("access_points")
    .select("id")
    .where("organization_id", "=", ctx.org.id)
    .where("id", "in", input.access_points)
    .execute();
  if (found.length !== input.access_points.length)
    return { ok: false as const, errors: { access_points: [SPLASH_MESSAGES.unknownAccessPoint] } };
  const setting = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("splash_display_settings")
      .values({
        organization_id: ctx.org.id,
        splash_page_id: id,
        start_date: input.start_date,
        end_date: input.end_date,
        factor: input.factor,
        factor_count: input.factor_count,
        factor_type: input.factor_type,
        created_at: Date.now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("splash_display_setting_access_points")
      .values(input.access_points.map((access_point_id) => ({ display_setting_id: Number(row.id), access_point_id })))
      .execute();
    return Number(row.id);
  });
  return { ok: true as const, id: setting };
}

/** Removes a rule of the page. */
export async function removeDisplaySetting(ctx: OrgContext, pageId: number | null, settingId: number | null) {
  requirePermission(ctx, "change_splash_pages_presentation");
  const id = await ownPage(ctx, pageId);
  if (settingId === null) notFound("Display rule not found.");
  const result = await db
    .deleteFrom("splash_display_settings")
    .where("id", "=", settingId)
    .where("splash_page_id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) notFound("Display rule not found.");
}

/** The organisation's access points for the rule form's multi-select. */
export async function accessPointChoices(ctx: OrgContext) {
  return db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .select(["access_points.id", "access_points.name", "venues.name as venue_name"])
    .where("access_points.organization_id", "=", ctx.org.id)
    .orderBy("venues.name")
    .orderBy("access_points.name")
    .limit(1000)
    .execute();
}
