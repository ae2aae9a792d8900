// The HTTP application, a node:http request handler: the headers every answer gets, one log line per
// request, compression, the one request boundary (server/boundary.mjs), then the guest side's router
// (app/guest/routes.ts) or the console's Express app (helmet, health check, static files, /graphql,
// Remix). server.mjs starts it; tests import it.
import crypto from "node:crypto";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { getEnv } from "../app/config.server.mjs";
import { consoleRules, isApiPath, passBoundary, pathOf } from "./boundary.mjs";
import { precompressed } from "./precompressed.mjs";
import { remixHandler } from "./remix-handler.mjs";

// Secrets in paths (reset, invitation and guest tokens, portal keys) never reach the log.
const redact = (p) =>
  p
    .replace(/^\/(password\/reset|invitations|register\/verify|splash\/connection|unsubscribe)\/[^/]+/, "/$1/***")
    .replace(/^\/(hotspot\/[^/]+|captive|marketing\/sms)\/[^/]+/, "/$1/***");

// Headers on every answer, whoever makes it (the guest side, Express, Node's parser):
// powerful browser features that no page of Mlango uses are off for every origin (the network map
// shows positions it is given; nothing asks for the device's own), and no answer is MIME-sniffed
// (the guest path's JSON included). "browsing-topics" is the successor of "interest-cohort", which
// current browsers no longer know (they log an error for a feature they do not recognise). Autoplay
// and fullscreen stay allowed: an operator's splash page may play a muted video.
export const PERMISSIONS_POLICY = [
  "accelerometer",
  "bluetooth",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => `${feature}=()`)
  .join(", ");
const EVERY_ANSWER = [
  ["Permissions-Policy", PERMISSIONS_POLICY],
  ["X-Content-Type-Options", "nosniff"],
];

/** The console's origin as configured (PUBLIC_URL; the local server outside production). */
export function configuredOrigin() {
  return new URL(getEnv().PUBLIC_URL).origin;
}

// The request log: lines gathered while the event loop is busy go out in one write when it turns
// (one write per request cost ~5 % of a guest page's CPU, the portal benchmark), and whatever is left when
// the process exits is written then (stdout to a file or pipe is synchronous on Linux).
let pendingLines = [];
function flushLog() {
  if (pendingLines.length === 0) return;
  const text = pendingLines.join("");
  pendingLines = [];
  process.stdout.write(text);
}
process.on("exit", flushLog);
function logLine(line) {
  if (pendingLines.length === 0) setImmediate(flushLog);
  pendingLines.push(line + "\n");
}

/** One log line per request once its answer is sent. The query is left out (it may hold search terms). */
function logWhenFinished(req, res) {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const path = pathOf(req.url ?? "/");
    const org = path.match(/^\/(\d+)(\/|$)/)?.[1] ?? null;
    logLine(
      JSON.stringify({
        at: new Date().toISOString(),
        method: req.method,
        path: redact(path),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        org,
      }),
    );
  });
}

/**
 * The server's request handler (node:http): the headers every answer gets and the log line, the
 * compression, then the one request boundary (server/boundary.mjs) with the rules of whoever answers:
 * the guest side's router when it has the route (app/guest/routes.ts), else the console's Express
 * app (below) — /graphql, or Remix. server.mjs and the tests' servers pass it to http.createServer.
 */
export function createApp({ build }) {
  return serve({ guest: build.entry.module.guestRoutes(), console: consoleApp({ build }) });
}

/**
 * The same handler with `guest` (guestRoutes()) alone in front of `console`, a node:http handler;
 * without one, what the guest side does not answer is a 404 (the tests' and benchmarks' guest-only servers).
 */
export function serve({ guest, console: next = notFound }) {
  // Answers compressed as the client asks (brotli, else gzip): operators and guests are often on mobile
  // data. Bodies under 1 KB and types that are compressed already (images, XLSX) go as they are. Streamed
  // answers (CSV exports, streamed HTML) stay streamed: the Remix hand-off (server/remix-handler.mjs)
  // flushes the compressor whenever the body pauses.
  const compress = compression({ threshold: 1024 });
  const publicOrigin = configuredOrigin();
  const requestLog = getEnv().REQUEST_LOG === "on";
  return (req, res) => {
    for (const [name, value] of EVERY_ANSWER) res.setHeader(name, value);
    if (requestLog) logWhenFinished(req, res);
    compress(req, res, () => {
      const url = req.url ?? "/";
      const route = guest.find(req.method ?? "GET", url);
      const path = pathOf(url);
      const rules = route?.rules ?? (path === "/graphql" ? graphqlRules : consoleRules(path, { publicOrigin, refuse }));
      passBoundary(req, res, rules).then(
        (passed) => {
          if (!passed) return;
          if (route) return route.answer(req, res, passed.fields);
          req.body = passed.body;
          next(req, res);
        },
        (error) => {
          console.error(JSON.stringify({ at: new Date().toISOString(), event: "boundary_error", error: String(error?.stack ?? error) }));
          if (!res.headersSent) refuse(req, res, 500, "Something went wrong on our side.");
          else res.destroy();
        },
      );
    });
  };
}

function notFound(_req, res) {
  res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Not found");
}

/** GraphQL's own body limit (its handler reads at most that too), JSON errors in its shape; bearer tokens, no cookies (decision 0015). */
const graphqlRules = {
  limit: 100 * 1024,
  types: null,
  origin: null,
  refuse: (_req, res, status, message) =>
    answer(
      res,
      status,
      "application/json; charset=utf-8",
      JSON.stringify({ errors: [{ message, extensions: { code: "BAD_USER_INPUT" } }] }),
    ),
};

/** The console: security headers (helmet), the health check, static files, /graphql, then Remix. */
function consoleApp({ build }) {
  const env = getEnv();
  // A map style on another host (MAP_STYLE_URL) is fetched, with its tiles, glyphs and sprites, from that origin.
  const mapOrigins = /^https?:\/\//.test(env.MAP_STYLE_URL ?? "") ? [new URL(env.MAP_STYLE_URL).origin] : [];
  // Under `remix dev`, its live reload talks over a WebSocket.
  const devServer = env.REMIX_DEV_ORIGIN !== undefined;
  const app = express();
  app.disable("x-powered-by");
  // Forwarded headers (client address, protocol, host) are believed only behind TRUST_PROXY.
  if (env.TRUST_PROXY !== undefined) app.set("trust proxy", env.TRUST_PROXY);

  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          "default-src": ["'self'"],
          // The page's own scripts carry the nonce; their chunks (the editors' import()) come from 'self'.
          // No 'strict-dynamic': it would let any script element a trusted script inserts run, whatever
          // its source, such as one a stored editor project makes GrapesJS insert (decision 0067).
          "script-src": ["'self'", (_req, res) => `'nonce-${res.locals.cspNonce}'`],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:", "blob:", ...mapOrigins],
          "connect-src": [...(devServer ? ["'self'", "ws:"] : ["'self'"]), ...mapOrigins],
          "worker-src": ["'self'", "blob:"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "upgrade-insecure-requests": null,
        },
      },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      frameguard: { action: "deny" },
      crossOriginEmbedderPolicy: false,
    }),
  );

  app.get("/healthz", async (_req, res) => {
    try {
      await build.entry.module.healthCheck();
      res.status(200).type("text/plain").send("ok");
    } catch (error) {
      console.error(JSON.stringify({ at: new Date().toISOString(), event: "healthcheck_failed", error: String(error) }));
      res.status(503).type("text/plain").send("database unavailable");
    }
  });

  // Content-hashed names: cached for a year, never revalidated; sent precompressed when the build wrote copies.
  app.use("/build", precompressed("public/build", { cacheControl: "public, max-age=31536000, immutable" }));
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // Browsers and crawlers ask for /favicon.ico whatever the page links: send them to the one icon.
  app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

  // The data API: bearer tokens only, its own body limit and errors in GraphQL's shape (decision 0015).
  app.use("/graphql", build.entry.module.graphqlHandler());

  app.all("*", remixHandler({ build, getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce, clientAddress: req.ip ?? null }) }));

  return app;
}

/**
 * Requests Node's parser refuses before any handler runs (a 10 MB query string, headers over 16 KB,
 * garbage): a short readable answer instead of Node's bare status line. server.on("clientError", …).
 */
export function answerClientError(error, socket) {
  if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const message = tooLarge ? "The address or headers of this request are too long." : "The request could not be read.";
  socket.end(
    `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n${EVERY_ANSWER.map(([name, value]) => `${name}: ${value}\r\n`).join("")}Connection: close\r\n\r\n${message}`,
  );
}

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function answer(res, status, type, body) {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
  res.end(body);
}

/** A refusal people can read: a small page for browsers, the API's JSON shape for its paths, else text. */
function refuse(req, res, status, message) {
  if (isApiPath(pathOf(req.url ?? "/")))
    return answer(res, status, "application/json; charset=utf-8", JSON.stringify({ error: { message } }));
  if (req.headers.accept?.includes("text/html")) return answer(res, status, "text/html; charset=utf-8", refusalPage(req, status, message));
  answer(res, status, "text/plain; charset=utf-8", message);
}

function refusalPage(req, status, message) {
  let back = "/";
  try {
    const referer = new URL(req.headers.referer ?? "");
    if (referer.origin === configuredOrigin()) back = referer.pathname + referer.search;
  } catch {
    // no or malformed Referer: home
  }
  const hint = status === 413 ? "<p>Uploaded files can be at most 10 MB. Choose a smaller file and try again.</p>" : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} | Mlango</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f1f5f9;text-align:center;margin:4rem auto;max-width:32rem;padding:0 1rem">
<p style="font-size:3rem;font-weight:700;color:#cbd5e1;margin:0">${status}</p>
<h1 style="font-size:1.25rem">${escapeHtml(message)}</h1>${hint}
<p><a href="${escapeHtml(back)}" style="color:#4f46e5">Go back</a></p></body></html>`;
}
