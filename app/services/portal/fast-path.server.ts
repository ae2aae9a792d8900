// GET /connect?token=… and GET /connect/mpesa/wait?token=…&payment=…, the guest path's most
// requested pages, answered straight from node:http ahead of Express (server/app.mjs, decision
// 0026): Express's per-request set-up (its router, prototype swaps, the compression middleware's
// wrapping) cost more CPU than the page itself, which put the connect page's p95 over its target at
// 64 connections, and a burst of M-Pesa waiting pages in front of paid guests' grants (decision
// 0029). Everything else, HEAD included, goes through Express as before (router.server.ts,
// mpesa-routes.server.ts), and these answers are the same: the same pages, redirects, headers,
// refusals and compression.
import type { IncomingMessage, ServerResponse } from "node:http";
import querystring from "node:querystring";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import { waitingAnswerFor, type WaitingAnswer } from "./mpesa-routes.server";
import { connectPageForToken, guestHeaderValues, logPortalError, queryRefusal, tryAgainPage, type GuestPage } from "./router.server";

const CONNECT = "/connect";
const WAITING = "/connect/mpesa/wait";
/** As the compression middleware (server/app.mjs): brotli, else gzip, for bodies of 1 KB or more. */
const ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];
const COMPRESS_FROM_BYTES = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** The path of a request the fast path answers, else null. */
function fastPath(req: IncomingMessage): typeof CONNECT | typeof WAITING | null {
  if (req.method !== "GET") return null;
  const url = req.url ?? "";
  const end = url.indexOf("?");
  const path = end < 0 ? url : url.slice(0, end);
  return path === CONNECT || path === WAITING ? path : null;
}

/** Whether this request is one the fast path answers. */
export function isFastGuestRequest(req: IncomingMessage): boolean {
  return fastPath(req) !== null;
}

export async function answerFastGuestRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? CONNECT;
  const path = fastPath(req) ?? CONNECT;
  let answer: WaitingAnswer;
  try {
    answer =
      queryRefusal(url) ??
      (path === WAITING
        ? await waitingAnswerFor(param(url, "token"), param(url, "payment"))
        : await connectPageForToken(param(url, "token")));
  } catch (error) {
    logPortalError(path, error);
    answer = tryAgainPage();
  }
  try {
    if ("redirect" in answer) redirect(res, answer.redirect);
    else send(req, res, answer, answer.refresh ? { Refresh: answer.refresh } : {});
  } catch (error) {
    // Nothing awaits this function (server/app.mjs): a failure here must not become an unhandled rejection.
    logPortalError(path, error);
    res.destroy();
  }
}

/** A query parameter as Express's "simple" query parser gives it: a repeated one is none. */
function param(url: string, name: string): string | null {
  const query = url.indexOf("?");
  if (query < 0) return null;
  const value = querystring.parse(url.slice(query + 1))[name];
  return typeof value === "string" ? value : null;
}

/** As the Express route's res.redirect(303, …) with its headers (mpesa-routes.server.ts), without the body. */
function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "Content-Length": 0 });
  res.end();
}

/** negotiator 0.6.4 takes the server's preference second, as compression calls it; its types predate that. */
const negotiated = (req: IncomingMessage) =>
  (new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined }).encoding(
    ENCODINGS,
    PREFERRED,
  );

function send(req: IncomingMessage, res: ServerResponse, page: GuestPage, extra: Record<string, string>): void {
  const body = Buffer.from(page.html);
  const headers: Record<string, string | number> = {
    ...guestHeaderValues(page.csp),
    ...extra,
    "Content-Type": "text/html; charset=utf-8",
    Vary: "Accept-Encoding",
  };
  const encoding = body.length >= COMPRESS_FROM_BYTES && req.headers["accept-encoding"] ? negotiated(req) : "identity";
  const whole = (bytes: Buffer, contentEncoding?: string) => {
    res.writeHead(page.status, {
      ...headers,
      ...(contentEncoding ? { "Content-Encoding": contentEncoding } : {}),
      "Content-Length": bytes.length,
    });
    res.end(bytes);
  };
  if (!encoding || encoding === "identity") return whole(body);
  const done = (error: Error | null, compressed: Buffer) => (error ? whole(body) : whole(compressed, encoding));
  if (encoding === "br") zlib.brotliCompress(body, BROTLI, done);
  else if (encoding === "gzip") zlib.gzip(body, done);
  else zlib.deflate(body, done);
}
