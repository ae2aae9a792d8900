// GET /connect?token=…, the guest path's most requested page, answered straight from node:http ahead
// of Express (server/app.mjs, decision 0026): Express's per-request set-up (its router, prototype
// swaps, the compression middleware's wrapping) cost more CPU than the page itself, which put the
// page's p95 over its target at 64 connections. Everything else, HEAD included, goes through
// Express as before (router.server.ts), and this answer is the same: the same page, headers,
// refusals and compression.
import type { IncomingMessage, ServerResponse } from "node:http";
import querystring from "node:querystring";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import { connectPageForToken, guestHeaderValues, logPortalError, queryRefusal, tryAgainPage, type GuestPage } from "./router.server";

const PATH = "/connect";
/** As the compression middleware (server/app.mjs): brotli, else gzip, for bodies of 1 KB or more. */
const ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];
const COMPRESS_FROM_BYTES = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** Whether this request is the one the fast path answers. */
export function isFastGuestRequest(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  return req.method === "GET" && url.startsWith(PATH) && (url.length === PATH.length || url[PATH.length] === "?");
}

export async function answerFastGuestRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? PATH;
  let page: GuestPage;
  try {
    page = queryRefusal(url) ?? (await connectPageForToken(tokenOf(url)));
  } catch (error) {
    logPortalError(PATH, error);
    page = tryAgainPage();
  }
  try {
    send(req, res, page);
  } catch (error) {
    // Nothing awaits this function (server/app.mjs): a failure here must not become an unhandled rejection.
    logPortalError(PATH, error);
    res.destroy();
  }
}

/** The token as Express's "simple" query parser gives it: a repeated parameter is no token. */
function tokenOf(url: string): string | null {
  const query = url.indexOf("?");
  if (query < 0) return null;
  const token = querystring.parse(url.slice(query + 1)).token;
  return typeof token === "string" ? token : null;
}

/** negotiator 0.6.4 takes the server's preference second, as compression calls it; its types predate that. */
const negotiated = (req: IncomingMessage) =>
  (new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined }).encoding(ENCODINGS, PREFERRED);

function send(req: IncomingMessage, res: ServerResponse, page: GuestPage): void {
  const body = Buffer.from(page.html);
  const headers: Record<string, string | number> = { ...guestHeaderValues(page.csp), "Content-Type": "text/html; charset=utf-8", Vary: "Accept-Encoding" };
  const encoding = body.length >= COMPRESS_FROM_BYTES && req.headers["accept-encoding"] ? negotiated(req) : "identity";
  const whole = (bytes: Buffer, contentEncoding?: string) => {
    res.writeHead(page.status, { ...headers, ...(contentEncoding ? { "Content-Encoding": contentEncoding } : {}), "Content-Length": bytes.length });
    res.end(bytes);
  };
  if (!encoding || encoding === "identity") return whole(body);
  const done = (error: Error | null, compressed: Buffer) => (error ? whole(body) : whole(compressed, encoding));
  if (encoding === "br") zlib.brotliCompress(body, BROTLI, done);
  else if (encoding === "gzip") zlib.gzip(body, done);
  else zlib.deflate(body, done);
}
