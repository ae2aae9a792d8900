// The demo's ads, made through the ads services as an operator would: a
// running campaign on every network with a banner (a small PNG drawn here), and its figures: an
// impression on each of the last week's portal visits (at most 3,000), a click on every 25th, then
// the hourly roll-up (conversions follow from the visits that were authorized).
import { deflateSync } from "node:zlib";
import { db } from "~/db/db.server";
import { bannerSchema, campaignSchemaAt } from "~/lib/schemas/ads";
import { toDateTimeInputAt } from "~/lib/time";
import { createBanner, createCampaign } from "~/services/ads/campaigns.server";
import { rollUpAds } from "~/services/ads/figures.server";
import { minuteOf } from "~/services/ads/serving.server";
import type { OrgContext } from "~/services/guard.server";

const DAY = 86_400_000;
const MAX_IMPRESSIONS = 3_000;

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 320 × 50 banner: a green band with a lighter stripe (RGB, no text). */
export function demoBannerPng(width = 320, height = 50): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const stripe = y > 18 && y < 32 && x > 16 && x < width - 16;
      row.set(stripe ? [0xd9, 0xf9, 0x9d] : [0x16, 0xa3, 0x4a], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export async function createDemoAds(ctx: OrgContext, now: number): Promise<number> {
  const campaignId = await createCampaign(
    ctx,
    campaignSchemaAt(ctx.org.clock.offsetMs).parse({
      campaignname: "Home Fibre launch",
      clientname: "Safaricom",
      revenue: "25000",
      activate_time: toDateTimeInputAt(now - 30 * DAY, ctx.org.clock.offsetMs),
    }),
    now,
  );
  const banner = await createBanner(
    ctx,
    bannerSchema.parse({
      campaign_id: String(campaignId),
      description: "Home Fibre: fast internet at home",
      click_url: "https://www.safaricom.co.ke/",
      active: "on",
    }),
    { bytes: demoBannerPng(), extension: "png" },
    now,
  );
  if (!banner.ok) throw new Error(banner.message);
  const visits = await db
    .selectFrom("connections")
    .select(["id", "created_at"])
    .where("organization_id", "=", ctx.org.id)
    .where("created_at", ">=", now - 7 * DAY)
    .where("created_at", "<", now)
    .orderBy("created_at", "desc")
    .limit(MAX_IMPRESSIONS)
    .execute();
  const events = visits.flatMap((v, i) => {
    const at = Number(v.created_at);
    const base = { organization_id: ctx.org.id, campaign_id: campaignId, banner_id: banner.id, connection_id: Number(v.id) };
    const impression = { ...base, kind: "i" as const, minute: minuteOf(at), created_at: at };
    return i % 25 === 0
      ? [impression, { ...base, kind: "c" as const, minute: minuteOf(at + 20_000), created_at: at + 20_000 }]
      : [impression];
  });
  for (let i = 0; i < events.length; i += 500) {
    await db
      .insertInto("ad_events")
      .values(events.slice(i, i + 500))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await rollUpAds(now);
  return visits.length;
}
