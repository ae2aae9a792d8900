// The ads on guest pages: the banner images (/assets/ads/…) and the click redirect
// (/ads/click/{bannerId}?token=…), which counts the click and sends the guest to the banner's stored
// click-through URL — never to an address taken from the request.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseId } from "~/lib/ids";
import { bannerAsset } from "~/services/ads/campaigns.server";
import { recordClick } from "~/services/ads/serving.server";
import { messagePage } from "./pages";
import { redirect, sendAsset, sendPage, text, type GuestInput } from "./http";

export async function adClick(_req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const bannerId = parseId(params.bannerId);
  const target = bannerId === null ? null : await recordClick(bannerId, text(query.token));
  if (!target) return sendPage(res, 404, messagePage("Not found", ["There is no such advertisement."]));
  // The advertiser must not learn the connect token from a Referer; every click comes through here.
  redirect(res, 302, target, { "X-Robots-Tag": "noindex" });
}

export async function adBanner(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const asset = await bannerAsset(`ads/${params["*"] ?? ""}`);
  if (!asset) return sendPage(res, 404, messagePage("Not found", ["There is no such image."]));
  sendAsset(res, asset);
}
