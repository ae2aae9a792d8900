// Hands a request that passed the boundary to Remix and writes Remix's answer back. Our own rather
// than @remix-run/express's, because the hand-off is where the boundary's rules meet Remix:
//   - the body is the one the boundary already read and capped (not the raw socket stream);
//   - the URL's host comes from Express (req.hostname honours TRUST_PROXY), never from an
//     untrusted X-Forwarded-Host, and Remix's own Origin-vs-Host check (a plain Error, so a 500) is
//     not asked again about an origin the boundary has already judged;
//   - cookies get Secure whenever the request came over HTTPS (req.secure honours TRUST_PROXY);
//   - answers without a Cache-Control of their own are private and never stored;
//   - the body is written with backpressure, and the compressor (server/app.mjs) is flushed whenever
//     the body pauses rather than after every chunk (see writeBody).
import { createRequestHandler } from "@remix-run/node";

function remixRequest(req, res) {
  // req.hostname is X-Forwarded-Host's host only behind TRUST_PROXY; the port comes from the same header.
  const forwarded = req.app.get("trust proxy") ? req.get("x-forwarded-host")?.split(",")[0].trim() : undefined;
  const hostHeader = forwarded || req.get("host");
  const port = hostHeader?.match(/:(\d+)$/)?.[1];
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "origin" || name === "x-forwarded-host") continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  headers.set("host", url.host);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url.href, { method: req.method, headers, body: hasBody ? req.body : undefined, signal: controller.signal });
}

/**
 * Headers a route may set for its own answer, replacing the app-wide ones helmet set before: the
 * console's splash previews are framed by the console (`frame-ancestors 'self'`, a sandbox), which
 * helmet's `frame-ancestors 'none'` and `X-Frame-Options: DENY` would forbid if both were sent.
 */
const ROUTE_OWNED = new Set(["content-security-policy", "x-frame-options"]);

async function sendResponse(req, res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (ROUTE_OWNED.has(name)) res.set(name, value);
    else res.append(name, name === "set-cookie" && req.secure && !/;\s*secure/i.test(value) ? `${value}; Secure` : value);
  }
  if (!response.headers.has("cache-control")) res.set("Cache-Control", "private, no-store");
  if (response.body) await writeBody(response.body, res);
  else res.end();
}

/**
 * Waiting for the response to take more (or to be gone), with one listener per response: the
 * compression middleware moves "drain" listeners to its zlib stream, where a `once` listener is
 * never removed (its wrapper removes itself from the response), so waiting with `once` on every full
 * write piled up listeners on a long export.
 */
function drainWaiter(res) {
  let wake = null;
  const resume = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  res.on("drain", resume);
  res.once("close", resume);
  return () => (res.destroyed ? Promise.resolve() : new Promise((resolve) => (wake = resolve)));
}

/**
 * Remix's writeReadableStreamToWritable, with two changes. It flushes the compressor once the body
 * pauses (a CSV export between batches, a page waiting on data), not after every chunk: React writes
 * a page in many small pieces, and gzip flushed after each one came out nearly twice the size. And it
 * waits when the socket is full, so a slow client of a large export does not pile the export up in memory.
 */
export async function writeBody(body, res) {
  const reader = body.getReader();
  const drained = drainWaiter(res);
  let flush = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const more = res.write(value);
      flush ??= setImmediate(() => {
        flush = null;
        if (typeof res.flush === "function" && !res.writableEnded) res.flush();
      });
      if (!more) await drained();
    }
    if (flush) clearImmediate(flush);
    res.end();
  } catch (error) {
    if (flush) clearImmediate(flush);
    res.destroy(error);
    throw error;
  }
}

export function remixHandler({ build, getLoadContext }) {
  const handle = createRequestHandler(build, build.mode);
  return async (req, res, next) => {
    try {
      const response = await handle(remixRequest(req, res), getLoadContext(req, res));
      await sendResponse(req, res, response);
    } catch (error) {
      next(error);
    }
  };
}
