// The guest path's ads routes, mounted by the portal router before its
// generic /assets handler: the banner images (/assets/ads/…) and the click redirect
// (/ads/click/{bannerId}?token=…), which counts the click and sends the guest to the banner's stored
// click-through URL — never to an address taken from the request.
import { Readable } from "node:stream";
import type express from "express";
import { parseId } from "~/lib/ids";
import { bannerAsset } from "./campaigns.server";
import { recordClick } from "./serving.server";

type SendPage = (res: express.Response, status: number, page: string) => void;

export function mountAdsRoutes(
  router: express.Router,
  { sendPage, messagePage }: { sendPage: SendPage; messagePage: (title: string, messages: string[]) => string },
): void {
  router.get("/ads/click/:bannerId", async (req, res) => {
    const bannerId = parseId(req.params.bannerId);
    const token = typeof req.query.token === "string" ? req.query.token : null;
    const target = bannerId === null ? null : await recordClick(bannerId, token);
    if (!target) return sendPage(res, 404, messagePage("Not found", ["There is no such advertisement."]));
    // The advertiser must not learn the connect token from a Referer; every click comes through here.
    res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" });
    res.redirect(302, target);
  });

  router.get("/assets/ads/*", async (req, res, next) => {
    const asset = await bannerAsset(`ads/${(req.params as Record<string, string>)[0] ?? ""}`);
    if (!asset) return next();
    res.set({
      "Content-Type": asset.contentType,
      "Content-Length": String(asset.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    res.status(200);
    Readable.fromWeb(asset.body as import("node:stream/web").ReadableStream).pipe(res);
  });
}
