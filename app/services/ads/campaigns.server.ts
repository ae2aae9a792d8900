// Ad campaigns and banners: create, list, pause/activate, the targeted
// networks (none = every network of the organisation), banner images in the asset store, and the
// campaigns.csv export. Every function takes the guard's context first and filters by its
// organisation; view_ads to read, edit_ads to change.
import imageSize from "image-size";
import { db } from "~/db/db.server";
import { containsText } from "~/db/sql.server";
import { imageContentType, SPLASH_IMAGE_TYPES } from "~/lib/image-type";
import { csvHeader, csvLine, plainText } from "~/lib/csv-line";
import {
  ADS_MESSAGES,
  campaignStatusCode,
  campaignStatusOf,
  MAX_BANNER_BYTES,
  type BannerInput,
  type CampaignInput,
  type CampaignStatus,
} from "~/lib/schemas/ads";
import { formatDateTime, withZone } from "~/lib/time";
import { notFound, requirePermission, type OrgContext } from "../guard.server";
import { assetStore, newAssetKey, readImageUpload } from "../storage.server";
import { forgetCandidates } from "./candidates-cache.server";

export interface CampaignRow {
  id: number;
  name: string;
  clientName: string;
  revenueCents: number;
  activateAt: number;
  expireAt: number | null;
  /** The spec's pause flag, "1" or "0". */
  pause: "1" | "0";
  /** The spec's status, "0" (within its times) or "1". */
  status: "0" | "1";
  derivedStatus: CampaignStatus;
  /** Every network of the organisation (venueIds is then empty). */
  allNetworks: boolean;
  venueIds: number[];
  banners: number;
  createdAt: number;
}

const CAMPAIGN_COLUMNS = [
  "id",
  "name",
  "client_name",
  "revenue_cents",
  "activate_at",
  "expire_at",
  "paused",
  "all_networks",
  "created_at",
] as const;

type CampaignDbRow = {
  id: number;
  name: string;
  client_name: string;
  revenue_cents: number | string;
  activate_at: number | string;
  expire_at: number | string | null;
  paused: number;
  all_networks: number;
  created_at: number | string;
};

function toCampaign(r: CampaignDbRow, venueIds: number[], banners: number, now: number): CampaignRow {
  const activateAt = Number(r.activate_at);
  const expireAt = r.expire_at === null ? null : Number(r.expire_at);
  const pause = r.paused ? "1" : "0";
  const status = campaignStatusCode({ activateAt, expireAt }, now);
  return {
    id: Number(r.id),
    name: r.name,
    clientName: r.client_name,
    revenueCents: Number(r.revenue_cents),
    activateAt,
    expireAt,
    pause,
    status,
    derivedStatus: campaignStatusOf(pause, status),
    allNetworks: Number(r.all_networks) === 1,
    venueIds,
    banners,
    createdAt: Number(r.created_at),
  };
}

/** Checks that every id is a network of the organisation (else the form's message, as a 422). */
async function checkVenues(ctx: OrgContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.selectFrom("venues").select("id").where("organization_id", "=", ctx.org.id).where("id", "in", ids).execute();
  if (found.length !== ids.length)
    throw new Response(JSON.stringify({ message: ADS_MESSAGES.foreignVenue }), {
      status: 422,
      headers: { "Content-Type": "application/json" },
    });
}

/** Whether every id is one of the organisation's networks (the create action answers with the field's error). */
export async function venuesBelong(ctx: OrgContext, ids: number[]): Promise<boolean> {
  try {
    await checkVenues(ctx, ids);
    return true;
  } catch {
    return false;
  }
}

export async function createCampaign(ctx: OrgContext, input: CampaignInput, now = Date.now()): Promise<number> {
  requirePermission(ctx, "edit_ads");
  await checkVenues(ctx, input.venue_ids);
  return db
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto("ad_campaigns")
        .values({
          organization_id: ctx.org.id,
          name: input.campaignname,
          client_name: input.clientname,
          revenue_cents: input.revenue,
          activate_at: input.activate_time,
          expire_at: input.expire_time,
          paused: input.pause,
          all_networks: input.venue_ids.length ? 0 : 1,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      if (input.venue_ids.length)
        await trx
          .insertInto("ad_campaign_networks")
          .values(input.venue_ids.map((venue_id) => ({ campaign_id: id, venue_id })))
          .execute();
      return id;
    })
    .finally(forgetCandidates);
}

async function campaignExtras(ids: number[]): Promise<{ venues: Map<number, number[]>; banners: Map<number, number> }> {
  const venues = new Map<number, number[]>();
  const banners = new Map<number, number>();
  if (ids.length === 0) return { venues, banners };
  const [nets, counts] = await Promise.all([
    db.selectFrom("ad_campaign_networks").select(["campaign_id", "venue_id"]).where("campaign_id", "in", ids).execute(),
    db
      .selectFrom("ad_banners")
      .select(["campaign_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("campaign_id", "in", ids)
      .groupBy("campaign_id")
      .execute(),
  ]);
  for (const n of nets) venues.set(Number(n.campaign_id), [...(venues.get(Number(n.campaign_id)) ?? []), Number(n.venue_id)]);
  for (const c of counts) banners.set(Number(c.campaign_id), Number(c.n));
  return { venues, banners };
}

/** A page of the organisation's campaigns, newest first, searched by name or client. */
export async function listCampaigns(
  ctx: OrgContext,
  params: { offset: number; pageSize: number; search?: string | null },
  now = Date.now(),
) {
  requirePermission(ctx, "view_ads", "edit_ads");
  let query = db.selectFrom("ad_campaigns").where("organization_id", "=", ctx.org.id);
  if (params.search)
    query = query.where((eb) => eb.or([containsText("name", params.search!), containsText("client_name", params.search!)]));
  const [rows, total] = await Promise.all([
    query
      .select([...CAMPAIGN_COLUMNS])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const extras = await campaignExtras(rows.map((r) => Number(r.id)));
  return {
    rows: rows.map((r) => toCampaign(r, extras.venues.get(Number(r.id)) ?? [], extras.banners.get(Number(r.id)) ?? 0, now)),
    total: Number(total.n),
  };
}

/** Every campaign's id and name (the banner form's choice, the analytics tables). */
export async function campaignOptions(ctx: OrgContext): Promise<{ id: number; name: string }[]> {
  requirePermission(ctx, "view_ads", "edit_ads");
  const rows = await db
    .selectFrom("ad_campaigns")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name")
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export async function getCampaign(ctx: OrgContext, campaignId: number | null, now = Date.now()): Promise<CampaignRow> {
  requirePermission(ctx, "view_ads", "edit_ads");
  if (campaignId === null) notFound(ADS_MESSAGES.campaignNotFound);
  const row = await db
    .selectFrom("ad_campaigns")
    .select([...CAMPAIGN_COLUMNS])
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", campaignId)
    .executeTakeFirst();
  if (!row) notFound(ADS_MESSAGES.campaignNotFound);
  const extras = await campaignExtras([campaignId]);
  return toCampaign(row, extras.venues.get(campaignId) ?? [], extras.banners.get(campaignId) ?? 0, now);
}

/** Pause (1) or activate (0) a campaign: the spec's button, which really changes it here. */
export async function setCampaignPaused(ctx: OrgContext, campaignId: number | null, paused: boolean, now = Date.now()): Promise<void> {
  requirePermission(ctx, "edit_ads");
  if (campaignId === null) notFound(ADS_MESSAGES.campaignNotFound);
  const result = await db
    .updateTable("ad_campaigns")
    .set({ paused: paused ? 1 : 0, updated_at: now })
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", campaignId)
    .executeTakeFirst();
  forgetCandidates();
  if (Number(result.numUpdatedRows) === 0) notFound(ADS_MESSAGES.campaignNotFound);
}

/** campaigns.csv: every campaign of the organisation, newest first; null when there is none ("No data to export."). */
export async function campaignsCsv(ctx: OrgContext, now = Date.now()): Promise<string | null> {
  requirePermission(ctx, "view_ads", "edit_ads");
  const { offsetMs } = ctx.org.clock;
  const header = csvHeader([
    "#",
    "Campaign ID",
    "Campaign Name",
    "Client Name",
    "Revenue (Ksh)",
    withZone("Activate Time", offsetMs),
    withZone("Expire Time", offsetMs),
    "Pause",
    "Status",
  ]);
  const lines: string[] = [];
  let before: { created_at: number; id: number } | null = null;
  // Keyset batches: an organisation's campaigns are few, but the export never loads a table at once.
  for (;;) {
    let q = db
      .selectFrom("ad_campaigns")
      .select([...CAMPAIGN_COLUMNS])
      .where("organization_id", "=", ctx.org.id);
    if (before) {
      const b = before;
      q = q.where((eb) => eb.or([eb("created_at", "<", b.created_at), eb.and([eb("created_at", "=", b.created_at), eb("id", "<", b.id)])]));
    }
    const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(500).execute();
    for (const r of rows) {
      const c = toCampaign(r, [], 0, now);
      lines.push(
        csvLine([
          lines.length + 1,
          c.id,
          plainText(c.name),
          plainText(c.clientName),
          (c.revenueCents / 100).toFixed(2),
          formatDateTime(c.activateAt, offsetMs),
          c.expireAt === null ? "" : formatDateTime(c.expireAt, offsetMs),
          c.pause,
          c.derivedStatus,
        ]),
      );
    }
    if (rows.length < 500) break;
    const last = rows[rows.length - 1]!;
    before = { created_at: Number(last.created_at), id: Number(last.id) };
  }
  return lines.length ? header + lines.join("") : null;
}

// ---------------------------------------------------------------------------------------------
// Banners

export interface BannerRow {
  id: number;
  campaignId: number;
  campaignName: string;
  description: string | null;
  width: number;
  height: number;
  active: boolean;
  clickUrl: string;
  imagePath: string;
  createdAt: number;
}

/** Where browsers fetch a banner image: served by the guest router (app/guest/ads.ts). */
export const bannerImagePath = (key: string) => `/assets/${key}`;

/** The organisation's banners, of one campaign or all, newest first. */
export async function listBanners(ctx: OrgContext, campaignId: number | null, params: { offset: number; pageSize: number }) {
  requirePermission(ctx, "view_ads", "edit_ads");
  let query = db
    .selectFrom("ad_banners")
    .innerJoin("ad_campaigns", "ad_campaigns.id", "ad_banners.campaign_id")
    .where("ad_banners.organization_id", "=", ctx.org.id);
  if (campaignId !== null) query = query.where("ad_banners.campaign_id", "=", campaignId);
  const [rows, total] = await Promise.all([
    query
      .select([
        "ad_banners.id",
        "ad_banners.campaign_id",
        "ad_campaigns.name as campaign_name",
        "ad_banners.description",
        "ad_banners.width",
        "ad_banners.height",
        "ad_banners.active",
        "ad_banners.click_url",
        "ad_banners.asset_key",
        "ad_banners.created_at",
      ])
      .orderBy("ad_banners.created_at", "desc")
      .orderBy("ad_banners.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    rows: rows.map((r): BannerRow => ({
      id: Number(r.id),
      campaignId: Number(r.campaign_id),
      campaignName: r.campaign_name,
      description: r.description,
      width: Number(r.width),
      height: Number(r.height),
      active: Number(r.active) === 1,
      clickUrl: r.click_url,
      imagePath: bannerImagePath(r.asset_key),
      createdAt: Number(r.created_at),
    })),
  };
}

/** Reads a multipart banner upload (field `file`); the type is decided by the bytes. */
export function readBannerUpload(request: Request) {
  return readImageUpload(request, "file", { maxBytes: MAX_BANNER_BYTES, accept: SPLASH_IMAGE_TYPES, wrongType: ADS_MESSAGES.wrongType });
}

export type BannerOutcome = { ok: true; id: number } | { ok: false; field: "file" | "campaign_id"; message: string };

/** Stores the image and the banner of the organisation's campaign; width and height come from the image. */
export async function createBanner(
  ctx: OrgContext,
  input: BannerInput,
  image: { bytes: Uint8Array; extension: string },
  now = Date.now(),
): Promise<BannerOutcome> {
  requirePermission(ctx, "edit_ads");
  const campaign = await db
    .selectFrom("ad_campaigns")
    .select("id")
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", input.campaign_id)
    .executeTakeFirst();
  if (!campaign) return { ok: false, field: "campaign_id", message: ADS_MESSAGES.campaignNotFound };
  let size: { width?: number; height?: number };
  try {
    size = imageSize(Buffer.from(image.bytes));
  } catch {
    return { ok: false, field: "file", message: ADS_MESSAGES.unreadable };
  }
  if (!size.width || !size.height) return { ok: false, field: "file", message: ADS_MESSAGES.unreadable };
  const key = newAssetKey(`ads/${ctx.org.id}`, "banner", image.extension);
  if (!imageContentType(key)) return { ok: false, field: "file", message: ADS_MESSAGES.wrongType };
  await assetStore().put(key, image.bytes);
  const row = await db
    .insertInto("ad_banners")
    .values({
      organization_id: ctx.org.id,
      campaign_id: input.campaign_id,
      asset_key: key,
      description: input.description,
      width: size.width,
      height: size.height,
      size: image.bytes.byteLength,
      active: input.active,
      click_url: input.click_url,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  forgetCandidates();
  return { ok: true, id: Number(row.id) };
}

export async function setBannerActive(ctx: OrgContext, bannerId: number | null, active: boolean, now = Date.now()): Promise<void> {
  requirePermission(ctx, "edit_ads");
  if (bannerId === null) notFound(ADS_MESSAGES.bannerNotFound);
  const result = await db
    .updateTable("ad_banners")
    .set({ active: active ? 1 : 0, updated_at: now })
    .where("organization_id", "=", ctx.org.id)
    .where("id", "=", bannerId)
    .executeTakeFirst();
  forgetCandidates();
  if (Number(result.numUpdatedRows) === 0) notFound(ADS_MESSAGES.bannerNotFound);
}

/** A banner image for /assets/ads/…: only keys recorded as banners. */
export async function bannerAsset(key: string) {
  if (!key.startsWith("ads/") || key.length > 200) return null;
  const row = await db.selectFrom("ad_banners").select("asset_key").where("asset_key", "=", key).executeTakeFirst();
  return row ? assetStore().get(row.asset_key) : null;
}
