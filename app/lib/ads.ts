// Ads figures shown by the ads pages and the dashboard's dashlets. Kept apart from the forms'
// schemas (~/lib/schemas/ads: zod, phone numbers) so the dashboard's browser bundle carries neither.

/**
 * The click-through rate (docs/guide/ads.md#dashboard-and-analytics): clicks ÷ impressions × 100, two
 * decimals ("0.00" with no impressions).
 */
export function clickThroughRate(clicks: number, impressions: number): string {
  return impressions > 0 ? ((clicks / impressions) * 100).toFixed(2) : "0.00";
}

/** The banner chosen for a guest's connect page (services/ads/serving.server.ts), as the page shows it. */
export interface GuestBanner {
  id: number;
  /** Mlango's redirect, which logs the click. */
  href: string;
  src: string;
  width: number;
  height: number;
  description: string | null;
}
