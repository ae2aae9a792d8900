import { z } from "zod";
import { parseDateTimeAt } from "~/lib/time";
import { optionalText, requiredText, VENUE_MESSAGES } from "./venues";

// Ads (docs/guide/ads.md#routes, #campaigns, #banners, #dashboard-and-analytics).
// Mlango serves the banners itself (decision 0020): the spec's external ad server, with credentials
// fixed in the client, is not reproduced. Shared by the pages and the tests; nothing here touches
// the database.

export const ADS_MESSAGES = {
  nameRequired: "Campaign name is required.",
  clientRequired: "Client name is required.",
  revenueInvalid: "Enter the revenue in Ksh, such as 1500 or 1500.50.",
  activateRequired: "Choose when the campaign starts.",
  timeInvalid: "Enter a date and time like 2026-11-25T14:30.",
  expireOrder: "The expiry time must be after the activation time.",
  foreignVenue: "Choose networks of this organization.",
  created: "Campaign created.",
  paused: "Campaign paused.",
  activated: "Campaign activated.",
  campaignNotFound: "Campaign not found.",
  bannerNotFound: "Banner not found.",
  campaignRequired: "Choose the campaign the banner belongs to.",
  bannerUploaded: "Banner uploaded.",
  bannerActivated: "Banner activated.",
  bannerDeactivated: "Banner deactivated.",
  urlInvalid: VENUE_MESSAGES.urlInvalid,
  urlRequired: "Enter the address guests go to when they click the banner.",
  wrongType: "The banner must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).",
  tooLarge: "The file is too large: a banner can be at most 2 MB.",
  unreadable: "The image could not be read: its width and height are unknown.",
  /** The campaign export with no rows (docs/guide/ads.md#dashboard-and-analytics). */
  noData: "No data to export.",
  failed: "Failed to load the ads figures.",
} as const;

export const ADS_CSV = "campaigns.csv";
export const MAX_BANNER_BYTES = 2 * 1024 * 1024;

/** A campaign's status (docs/guide/ads.md#campaigns): pause flag "1" is Paused; else status "0" is Active; else Inactive. */
export type CampaignStatus = "Paused" | "Active" | "Inactive";
export function campaignStatusOf(pause: string, status: string): CampaignStatus {
  if (pause === "1") return "Paused";
  return status === "0" ? "Active" : "Inactive";
}

/**
 * The spec's `status` of a campaign: "0" while now is within its activate and expire times (it may
 * run), "1" otherwise (not started yet or expired). Pausing is separate (the pause flag).
 */
export function campaignStatusCode(c: { activateAt: number; expireAt: number | null }, now = Date.now()): "0" | "1" {
  return c.activateAt <= now && (c.expireAt === null || now < c.expireAt) ? "0" : "1";
}

export { clickThroughRate } from "~/lib/ads";

/** Ksh with two decimals from cents. */
export function formatKsh(cents: number): string {
  return `Ksh ${(cents / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A datetime-local input's value read at `offsetMs` from UTC (the organisation's clock), or a refusal. */
const timeAt = (offsetMs: number, v: string, ctx: z.RefinementCtx) => {
  const ms = parseDateTimeAt(v, offsetMs);
  if (ms === null) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: ADS_MESSAGES.timeInvalid });
    return z.NEVER;
  }
  return ms;
};

const requiredTime = (message: string, offsetMs: number) =>
  z.string({ required_error: message, invalid_type_error: message }).transform((v, ctx) => timeAt(offsetMs, v, ctx));

const optionalTime = (offsetMs: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => (!v || !v.trim() ? null : timeAt(offsetMs, v, ctx)));

/** Revenue in Ksh (up to two decimals) → integer cents; empty is 0. */
const revenue = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const text = (v ?? "").trim().replace(/,/g, "");
    if (!text) return 0;
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: ADS_MESSAGES.revenueInvalid });
      return z.NEVER;
    }
    const [whole, fraction = ""] = text.split(".");
    return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  });

/** Network ids as posted (checked against the organisation by the service). */
const venueIds = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v, ctx) => {
    const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
    const ids: number[] = [];
    for (const raw of list) {
      if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ADS_MESSAGES.foreignVenue });
        return z.NEVER;
      }
      ids.push(Number(raw));
    }
    return [...new Set(ids)];
  });

/**
 * The campaign form (docs/guide/ads.md#campaigns: campaignname, clientname, revenue, activate_time, expire_time, pause) plus
 * networks; the times are read at `offsetMs` from UTC, the organisation's clock.
 */
export const campaignSchemaAt = (offsetMs: number) =>
  z
    .object({
      campaignname: requiredText(ADS_MESSAGES.nameRequired, 120),
      clientname: requiredText(ADS_MESSAGES.clientRequired, 120),
      revenue,
      activate_time: requiredTime(ADS_MESSAGES.activateRequired, offsetMs),
      expire_time: optionalTime(offsetMs),
      venue_ids: venueIds,
      pause: z
        .string()
        .optional()
        .transform((v) => (v === "on" || v === "1" ? 1 : 0)),
    })
    .superRefine((v, ctx) => {
      if (v.expire_time !== null && v.expire_time <= v.activate_time) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["expire_time"], message: ADS_MESSAGES.expireOrder });
      }
    });
/** The browser-side check of the form (which times are valid does not depend on the clock). */
export const campaignSchema = campaignSchemaAt(0);
export type CampaignInput = z.infer<typeof campaignSchema>;

/** A click-through address: http or https only (a javascript: or data: URL would run in the guest's browser). */
export const clickUrl = z
  .string({ required_error: ADS_MESSAGES.urlRequired, invalid_type_error: ADS_MESSAGES.urlRequired })
  .trim()
  .min(1, ADS_MESSAGES.urlRequired)
  .max(2000, VENUE_MESSAGES.tooLong)
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, ADS_MESSAGES.urlInvalid);

/** The banner upload's text fields (the image travels in `file`). */
export const bannerSchema = z.object({
  campaign_id: z
    .string({ required_error: ADS_MESSAGES.campaignRequired })
    .regex(/^\d{1,9}$/, ADS_MESSAGES.campaignRequired)
    .transform(Number),
  description: optionalText(300),
  click_url: clickUrl,
  active: z
    .string()
    .optional()
    .transform((v) => (v === "on" || v === "1" ? 1 : 0)),
});
export type BannerInput = z.infer<typeof bannerSchema>;

/** Figures of a campaign or banner over a window. */
export interface AdFigures {
  impressions: number;
  clicks: number;
  conversions: number;
}

export interface AdHourPoint extends AdFigures {
  hour: number;
}
