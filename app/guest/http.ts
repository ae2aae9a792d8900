// The guest side's few HTTP helpers, on plain node:http (the guest router, routes.ts, calls the
// handlers): a handler gets the request, the response and what the boundary read, and answers with
// one of these. Guest pages are served under a CSP sandbox without allow-same-origin: they run with
// an opaque origin, so nothing on them (the built-in page, an operator's splash page) can read a
// console session. They set no cookie and send no Referer (the token is in the URL).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ParsedUrlQuery } from "node:querystring";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";

export const GUEST_CSP =
  "sandbox allow-forms allow-top-navigation; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";
/**
 * An operator's splash page may run its own scripts, still in the sandbox without allow-same-origin
 * (no cookies, no storage, no reading our responses) and with no network access of its own.
 */
export const SPLASH_CSP =
  "sandbox allow-forms allow-scripts allow-top-navigation; default-src 'none'; script-src 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** What a guest handler is given: the path's parameters, the query (node:querystring) and the body's fields. */
export interface GuestInput {
  params: Record<string, string | undefined>;
  query: ParsedUrlQuery;
  /** The raw query string (gateway entries read it in order). */
  search: string;
  /** A form's fields (repeated names as arrays) or parsed JSON; undefined when the route reads no body. */
  body: unknown;
}

export type GuestHandler = (req: IncomingMessage, res: ServerResponse, input: GuestInput) => Promise<void> | void;

/** A guest page to send: its status, HTML and Content-Security-Policy. */
export interface GuestPage {
  status: number;
  html: string;
  csp: string;
}

/** One query or form value as text; a repeated or missing one is null. */
export const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The headers of every guest page: the sandbox, no referrer, no caching. */
export function guestHeaderValues(csp = GUEST_CSP): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, "Content-Length": String(bytes.length) });
  res.end(bytes);
}

export function sendPage(res: ServerResponse, status: number, page: string, csp = GUEST_CSP, extra: Record<string, string> = {}): void {
  send(res, status, { ...guestHeaderValues(csp), ...extra, "Content-Type": "text/html; charset=utf-8" }, page);
}

export function sendGuestPage(res: ServerResponse, page: GuestPage, extra: Record<string, string> = {}): void {
  sendPage(res, page.status, page.html, page.csp, extra);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, { "Content-Type": "application/json; charset=utf-8", ...headers }, JSON.stringify(body));
}

export function sendText(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  send(res, status, { "Content-Type": type, ...headers }, body);
}

/** A redirect the guest's browser follows with no Referer (the connect token is in the URL) and that nothing caches. */
export function redirect(res: ServerResponse, status: 302 | 303, location: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    ...headers,
    Location: location,
    "Content-Length": "0",
  });
  res.end();
}

/** A stored image, streamed: keys are random and never reused, so it can be cached for good. */
export function sendAsset(res: ServerResponse, asset: { contentType: string; size: number; body: unknown }): void {
  res.writeHead(200, {
    "Content-Type": asset.contentType,
    "Content-Length": String(asset.size),
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  Readable.fromWeb(asset.body as ReadableStream).pipe(res);
}

/** A failure on our side (the database, a bug), logged; the guest sees a readable 503 and can try again. */
export function logPortalError(path: string, error: unknown): void {
  console.error(
    JSON.stringify({
      at: new Date().toISOString(),
      event: "portal_error",
      path: path.split("/").slice(0, 3).join("/"),
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
}

export const TRY_AGAIN = "Something went wrong on our side. Please try again in a moment.";
