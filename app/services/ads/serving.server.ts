// Serving banners on the guest's connect page (decision 0020). The page asks
// `bannerForGuest(view)`: the active banners of the organisation's running campaigns (not paused,
// within their times) that target the guest's network (or every network: all_networks),
// one chosen by rotation, its impression logged, and a plain image link that works without
// JavaScript. The page waits at most for one prepared SELECT (run beside the splash page lookup,
// and kept for a few seconds per network: candidates-cache.server.ts); the impression's
// INSERT … ON CONFLICT DO NOTHING is written while the page goes out.
import { sql, type CompiledQuery } from "kysely";
import { db, executePrepared } from "~/db/db.server";
import { writeWithoutFlush } from "~/db/sql.server";
import type { GuestBanner } from "~/lib/ads";
import { hashToken } from "../crypto.server";
import type { GuestView } from "../portal/connect.server";
import { bannerImagePath } from "./campaigns.server";
import { cachedCandidates } from "./candidates-cache.server";

export interface ServedBanner {
  id: number;
  campaignId: number;
  organizationId: number;
  assetKey: string;
  description: string | null;
  width: number;
  height: number;
}

type CandidateRow = { id: number; campaign_id: number; asset_key: string; description: string | null; width: number; height: number };

// Parameters: organisation, network, now, now. The same SQL every time: prepared once.
const candidatesQuery = () =>
  db
    .selectFrom("ad_banners")
    .innerJoin("ad_campaigns", "ad_campaigns.id", "ad_banners.campaign_id")
    .select([
      "ad_banners.id",
      "ad_banners.campaign_id",
      "ad_banners.asset_key",
      "ad_banners.description",
      "ad_banners.width",
      "ad_banners.height",
    ])
    .where("ad_campaigns.organization_id", "=", 0)
    .where("ad_banners.active", "=", sql.lit(1))
    .where("ad_campaigns.paused", "=", sql.lit(0))
    .where((eb) =>
      eb.or([
        eb("ad_campaigns.all_networks", "=", sql.lit(1)),
        eb.exists(
          eb
            .selectFrom("ad_campaign_networks as n")
            .select(sql.lit(1).as("x"))
            .whereRef("n.campaign_id", "=", "ad_campaigns.id")
            .where("n.venue_id", "=", 0),
        ),
      ]),
    )
    .where("ad_campaigns.activate_at", "<=", 0)
    .where((eb) => eb.or([eb("ad_campaigns.expire_at", "is", null), eb("ad_campaigns.expire_at", ">", 0)]))
    .orderBy("ad_banners.id");

let compiledCandidates: CompiledQuery | undefined;

/** The banners a guest of this network may be shown now, in a stable order. */
export async function candidateBanners(organizationId: number, venueId: number, now = Date.now()): Promise<ServedBanner[]> {
  compiledCandidates ??= candidatesQuery().compile();
  const rows = await executePrepared<CandidateRow>("ads_candidates", compiledCandidates, [organizationId, venueId, now, now]);
  return rows.map((r) => ({
    id: Number(r.id),
    campaignId: Number(r.campaign_id),
    organizationId,
    assetKey: r.asset_key,
    description: r.description,
    width: Number(r.width),
    height: Number(r.height),
  }));
}

/**
 * Rotation: every banner has the same weight. A connection always gets the same banner (its id
 * modulo the number of candidates), so reloads show one banner and count once a minute, and
 * successive guests walk through the banners in turn.
 */
export function pickBanner<T>(candidates: readonly T[], connectionId: number): T | null {
  if (candidates.length === 0) return null;
  return candidates[connectionId % candidates.length]!;
}

export const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/**
 * Logs one impression or click of a banner on a connection. The unique index on (connection,
 * banner, kind, minute) keeps one row a minute: reloads, double clicks and bots on the same
 * connection within the minute count once.
 */
export async function logAdEvent(
  banner: { id: number; campaignId: number; organizationId: number },
  connectionId: number,
  kind: "i" | "c",
  now = Date.now(),
): Promise<void> {
  const insert = (executor: typeof db) =>
    executor
      .insertInto("ad_events")
      .values({
        organization_id: banner.organizationId,
        campaign_id: banner.campaignId,
        banner_id: banner.id,
        connection_id: connectionId,
        kind,
        minute: minuteOf(now),
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  // A crash may lose the last fraction of a second of counts, never corrupt them: a count is not
  // worth an fsync per guest.
  await writeWithoutFlush(insert);
}

const pendingWrites = new Set<Promise<void>>();

/** Writes an impression after the page has gone out: the guest never waits for it. */
function logInBackground(banner: ServedBanner, connectionId: number, now: number): void {
  const write = logAdEvent(banner, connectionId, "i", now)
    .catch((error: unknown) => {
      console.error(
        JSON.stringify({
          at: new Date().toISOString(),
          event: "ad_impression_failed",
          organization: banner.organizationId,
          error: String(error),
        }),
      );
    })
    .finally(() => pendingWrites.delete(write));
  pendingWrites.add(write);
}

/** Waits for the impressions still being written (tests, benchmarks, shutting down). */
export async function settleAdWrites(): Promise<void> {
  while (pendingWrites.size) await Promise.all([...pendingWrites]);
}

/** The link a guest clicks: through Mlango's redirect, which counts it (app/guest/ads.ts). */
export const clickPath = (bannerId: number, token: string) => `/ads/click/${bannerId}?token=${encodeURIComponent(token)}`;

/** What the connect page shows of a banner (the page itself is app/components/guest/ad-banner.tsx). */
function guestBanner(banner: ServedBanner, token: string): GuestBanner {
  const { id, width, height, description } = banner;
  return { id, href: clickPath(id, token), src: bannerImagePath(banner.assetKey), width, height, description };
}

/**
 * The banner for a guest's connect page, with its impression logged; null when none applies. A failure
 * here must not cost the guest the page: it is logged and the page goes out without a banner.
 */
export async function bannerForGuest(
  view: Pick<GuestView, "organizationId" | "connectionId" | "network">,
  token: string,
  now = Date.now(),
): Promise<GuestBanner | null> {
  try {
    const candidates = await cachedCandidates(`${view.organizationId}:${view.network.id}`, now, () =>
      candidateBanners(view.organizationId, view.network.id, now),
    );
    const banner = pickBanner(candidates, view.connectionId);
    if (!banner) return null;
    logInBackground(banner, view.connectionId, now);
    return guestBanner(banner, token);
  } catch (error) {
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "ad_serving_failed", organization: view.organizationId, error: String(error) }),
    );
    return null;
  }
}

/**
 * A click: the banner (any organisation's: the id is in a public link) and, when the token names a
 * connection of the banner's organisation, the click logged. Returns the stored click-through URL
 * (never one from the request), or null for an unknown banner.
 */
export async function recordClick(bannerId: number, token: string | null, now = Date.now()): Promise<string | null> {
  const banner = await db
    .selectFrom("ad_banners")
    .select(["id", "campaign_id", "organization_id", "click_url"])
    .where("id", "=", bannerId)
    .executeTakeFirst();
  if (!banner) return null;
  if (token && /^[A-Za-z0-9_-]{16,128}$/.test(token)) {
    const connection = await db
      .selectFrom("connections")
      .select(["id", "organization_id"])
      .where("token", "=", hashToken(token))
      .executeTakeFirst();
    if (connection && Number(connection.organization_id) === Number(banner.organization_id)) {
      await logAdEvent(
        { id: Number(banner.id), campaignId: Number(banner.campaign_id), organizationId: Number(banner.organization_id) },
        Number(connection.id),
        "c",
        now,
      );
    }
  }
  return banner.click_url;
}
