// Hands a request that passed the boundary to Remix and writes Remix's answer back. Our own rather
// than @remix-run/express's, because the hand-off is where the boundary's rules meet Remix:
//   - the body is the one the boundary already read and capped (not the raw socket stream);
//   - the URL's host comes from Express (req.hostname honours TRUST_PROXY), never from an
//     untrusted X-Forwarded-Host, and Remix's own Origin-vs-Host check (a plain Error, so a 500) is
//     not asked again about an origin the boundary has already judged;
//   - cookies get Secure whenever the request came over HTTPS (req.secure honours TRUST_PROXY);
//   - answers without a Cache-Control of their own are private and never stored.
import { createRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";

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
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
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
