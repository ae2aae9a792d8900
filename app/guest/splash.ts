// Splash pages' public files: the styling templates' style sheets, operators' images, and
// "View page" of a published splash page.
import type { IncomingMessage, ServerResponse } from "node:http";
import { messagePage, previewCard } from "./pages";
import { publicAsset } from "~/services/splash/assets.server";
import { publishedFrameByKey } from "~/services/splash/pages.server";
import { styleFileFor } from "~/services/splash/styles.server";
import { sendAsset, sendPage, sendText, SPLASH_CSP, type GuestInput } from "./http";

export function styleSheet(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): void {
  const body = styleFileFor(params.file!);
  if (!body) return sendPage(res, 404, messagePage("Not found", ["There is no such style sheet."]));
  sendText(res, 200, "text/css; charset=utf-8", body, {
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
  });
}

export async function splashImage(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const asset = await publicAsset(params["*"] ?? "");
  if (!asset) return sendPage(res, 404, messagePage("Not found", ["There is no such image."]));
  sendAsset(res, asset);
}

export async function publishedPage(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const frame = await publishedFrameByKey(params.publicKey!);
  if (!frame) return sendPage(res, 404, messagePage("Not found", ["This splash page is not published."]));
  sendPage(res, 200, frame.before + previewCard() + frame.after, SPLASH_CSP);
}
