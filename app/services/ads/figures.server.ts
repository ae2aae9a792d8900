// Ads figures (decision 0020): the hourly roll-up of the append-only
// ad_events into ad_hourly (a recurring, idempotent job), and the answers the ads dashboard, the
// analytics page and the home dashboard's campaign summary read: roll-up rows for the hours already
// rolled up, plus the same aggregate over the raw events of the hours after that (at most a couple
// of hours of rows), so figures are current to the request.
import { sql, type RawBuilder, type Transaction } from "kysely";
import type { DB } from "~/db/schema";
import { db } from "~/db/db.server";
import { lockedForUpdate } from "~/db/sql.server";
import type { AdFigures, AdHourPoint } from "~/lib/schemas/ads";
import { requirePermission, type OrgContext } from "../guard.server";

const HOUR_MS = 3_600_000;
/**
 * Hours re-rolled on every run, besides the new ones: a conversion (the guest authorizing after clicking
 * the banner) comes at most a connect token's life (30 minutes) after the impression, and an event may
 * commit a moment after its hour was rolled; two hours covers both with room.
 */
export const ROLLUP_LOOKBACK_MS = 2 * HOUR_MS;
export const ROLLUP_JOB = "ads.rollup";

const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * Per banner and hour: impressions, clicks and conversions of the events whose minute is in
 * [fromMinute, toMinute). A conversion is a (banner, connection) whose first click is this one and
 * whose connection was authorized at or after it (decision 0072): never more conversions than clicks.
 */
function aggregateSql(fromMinute: number, toMinute: number, organizationId: number | null): RawBuilder<unknown> {
  const org = organizationId === null ? sql`` : sql`and e.organization_id = ${organizationId}`;
  return sql`select e.organization_id as organization_id, e.campaign_id as campaign_id, e.banner_id as banner_id, (e.minute / 60) * 3600000 as hour,
  sum(case when e.kind = 'i' then 1 else 0 end) as impressions,
  sum(case when e.kind = 'c' then 1 else 0 end) as clicks,
  sum(case when e.kind = 'c' and c.authorized_at is not null and c.authorized_at >= e.created_at
    and not exists (select 1 from ad_events p where p.connection_id = e.connection_id and p.banner_id = e.banner_id and p.kind = 'c' and p.minute < e.minute)
    then 1 else 0 end) as conversions
from ad_events e left join connections c on c.id = e.connection_id
where e.minute >= ${fromMinute} and e.minute < ${toMinute} ${org}
group by e.organization_id, e.campaign_id, e.banner_id, (e.minute / 60)`;
}

async function saveState(trx: Transaction<DB>, rolledUntil: number): Promise<void> {
  await trx
    .insertInto("ad_rollup_state")
    .values({ id: 1, rolled_until: rolledUntil })
    .onConflict((oc) => oc.column("id").doUpdateSet({ rolled_until: rolledUntil }))
    .execute();
}

/**
 * Rolls the events up: recomputes every hour from (the last rolled hour − the lookback) up to the
 * current hour, which stays raw. Deleting and re-inserting whole hours from the events makes a run
 * idempotent: two runs, or a run after a crash, leave the same rows. Returns the hours recomputed.
 */
export async function rollUpAds(now = Date.now()): Promise<{ from: number; to: number; rows: number }> {
  return db.transaction().execute(async (trx) => {
    // PostgreSQL: runs in several instances wait for each other on the state row; SQLite has one writer.
    let read = trx.selectFrom("ad_rollup_state").select("rolled_until").where("id", "=", 1);
    read = lockedForUpdate(read);
    const state = await read.executeTakeFirst();
    const rolledUntil = Number(state?.rolled_until ?? 0);
    const to = hourStart(now);
    let from: number;
    if (rolledUntil > 0) from = Math.min(rolledUntil, to) - ROLLUP_LOOKBACK_MS;
    else {
      const first = await trx
        .selectFrom("ad_events")
        .select((eb) => eb.fn.min("minute").as("m"))
        .executeTakeFirst();
      if (first?.m === null || first?.m === undefined) {
        await saveState(trx, to);
        return { from: to, to, rows: 0 };
      }
      from = hourStart(Number(first.m) * 60_000);
    }
    if (from >= to) return { from, to, rows: 0 };
    await trx.deleteFrom("ad_hourly").where("hour", ">=", from).where("hour", "<", to).execute();
    const inserted =
      await sql`insert into ad_hourly (organization_id, campaign_id, banner_id, hour, impressions, clicks, conversions) ${aggregateSql(from / 60_000, to / 60_000, null)}`.execute(
        trx,
      );
    await saveState(trx, Math.max(rolledUntil, to));
    return { from, to, rows: Number(inserted.numAffectedRows ?? 0) };
  });
}

export async function runRollupJob(): Promise<void> {
  await rollUpAds();
}

interface FigureRow {
  campaign_id: number;
  banner_id: number;
  hour: number;
  impressions: number;
  clicks: number;
  conversions: number;
}

async function rolledUntil(): Promise<number> {
  const row = await db.selectFrom("ad_rollup_state").select("rolled_until").where("id", "=", 1).executeTakeFirst();
  return Number(row?.rolled_until ?? 0);
}

/**
 * The organisation's figures in [fromMs, toMs) grouped by `by`: from ad_hourly where rolled up, from
 * the raw events after that. Windows are whole hours (the date range's days).
 */
async function figureRows(orgId: number, fromMs: number, toMs: number, by: "banner" | "hour"): Promise<FigureRow[]> {
  const split = Math.min(Math.max(await rolledUntil(), fromMs), toMs);
  const keys = by === "banner" ? sql`campaign_id, banner_id` : sql`hour`;
  const rolled =
    split > fromMs
      ? sql<FigureRow>`select ${by === "banner" ? sql`campaign_id, banner_id, 0 as hour` : sql`0 as campaign_id, 0 as banner_id, hour`}, sum(impressions) as impressions, sum(clicks) as clicks, sum(conversions) as conversions
          from ad_hourly where organization_id = ${orgId} and hour >= ${fromMs} and hour < ${split} group by ${keys}`
          .execute(db)
          .then((r) => r.rows)
      : Promise.resolve([] as FigureRow[]);
  const live =
    toMs > split
      ? sql<FigureRow>`select ${by === "banner" ? sql`campaign_id, banner_id, 0 as hour` : sql`0 as campaign_id, 0 as banner_id, hour`}, sum(impressions) as impressions, sum(clicks) as clicks, sum(conversions) as conversions
          from (${aggregateSql(Math.floor(split / 60_000), Math.ceil(toMs / 60_000), orgId)}) raw group by ${keys}`
          .execute(db)
          .then((r) => r.rows)
      : Promise.resolve([] as FigureRow[]);
  const merged = new Map<string, FigureRow>();
  for (const r of [...(await rolled), ...(await live)]) {
    const key = by === "banner" ? `${r.banner_id}` : `${r.hour}`;
    const prev = merged.get(key);
    const row = {
      campaign_id: Number(r.campaign_id),
      banner_id: Number(r.banner_id),
      hour: Number(r.hour),
      impressions: Number(r.impressions) + (prev?.impressions ?? 0),
      clicks: Number(r.clicks) + (prev?.clicks ?? 0),
      conversions: Number(r.conversions) + (prev?.conversions ?? 0),
    };
    merged.set(key, row);
  }
  return [...merged.values()];
}

export interface BannerFigures extends AdFigures {
  bannerId: number;
  campaignId: number;
  description: string | null;
}

export interface CampaignFigures extends AdFigures {
  campaignId: number;
  name: string;
  clientName: string;
}

export interface AdsReport {
  totals: AdFigures;
  campaigns: CampaignFigures[];
  banners: BannerFigures[];
  hours: AdHourPoint[];
}

const zero = (): AdFigures => ({ impressions: 0, clicks: 0, conversions: 0 });

/**
 * Every hour of [fromMs, toMs) up to the current one with its figures (zeros where nothing happened): the
 * hourly chart. Hours still to come are left out, not drawn as zeros (as fillBuckets does for the analytics).
 */
export async function hourlyFigures(orgId: number, fromMs: number, toMs: number, now = Date.now()): Promise<AdHourPoint[]> {
  const rows = await figureRows(orgId, fromMs, toMs, "hour");
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const points: AdHourPoint[] = [];
  for (let h = hourStart(fromMs); h < Math.min(toMs, now); h += HOUR_MS) {
    const r = byHour.get(h);
    points.push({ hour: h, impressions: r?.impressions ?? 0, clicks: r?.clicks ?? 0, conversions: r?.conversions ?? 0 });
  }
  return points;
}

/** Totals, per campaign, per banner and per hour of the organisation's ads in [fromMs, toMs). */
export async function adsReport(ctx: OrgContext, window: { startMs: number; endMs: number }): Promise<AdsReport> {
  requirePermission(ctx, "view_ads", "edit_ads");
  const [rows, hours, campaigns, banners] = await Promise.all([
    figureRows(ctx.org.id, window.startMs, window.endMs, "banner"),
    hourlyFigures(ctx.org.id, window.startMs, window.endMs),
    db
      .selectFrom("ad_campaigns")
      .select(["id", "name", "client_name"])
      .where("organization_id", "=", ctx.org.id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1000)
      .execute(),
    db
      .selectFrom("ad_banners")
      .select(["id", "campaign_id", "description"])
      .where("organization_id", "=", ctx.org.id)
      .orderBy("id")
      .limit(5000)
      .execute(),
  ]);
  const byBanner = new Map(rows.map((r) => [r.banner_id, r]));
  const totals = zero();
  const campaignTotals = new Map<number, AdFigures>();
  for (const r of rows) {
    totals.impressions += r.impressions;
    totals.clicks += r.clicks;
    totals.conversions += r.conversions;
    const c = campaignTotals.get(r.campaign_id) ?? zero();
    c.impressions += r.impressions;
    c.clicks += r.clicks;
    c.conversions += r.conversions;
    campaignTotals.set(r.campaign_id, c);
  }
  return {
    totals,
    campaigns: campaigns.map((c) => ({
      campaignId: Number(c.id),
      name: c.name,
      clientName: c.client_name,
      ...(campaignTotals.get(Number(c.id)) ?? zero()),
    })),
    banners: banners.map((b) => {
      const r = byBanner.get(Number(b.id));
      return {
        bannerId: Number(b.id),
        campaignId: Number(b.campaign_id),
        description: b.description,
        impressions: r?.impressions ?? 0,
        clicks: r?.clicks ?? 0,
        conversions: r?.conversions ?? 0,
      };
    }),
    hours,
  };
}

/** The home dashboard's campaign summary: the hourly series and the totals, or not allowed without view_ads. */
export async function campaignSummary(ctx: OrgContext, window: { startMs: number; endMs: number }) {
  if (!ctx.permissions.has("view_ads") && !ctx.permissions.has("edit_ads")) return { allowed: false as const };
  const hours = await hourlyFigures(ctx.org.id, window.startMs, window.endMs);
  const totals = hours.reduce(
    (t, h) => ({ impressions: t.impressions + h.impressions, clicks: t.clicks + h.clicks, conversions: t.conversions + h.conversions }),
    zero(),
  );
  return { allowed: true as const, totals, hours };
}
