// The HTTP server: security headers, one log line per request, health check, static files, Remix.
import crypto from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import express from "express";
import helmet from "helmet";

installGlobals({ nativeFetch: true });

const BUILD_PATH = path.resolve("build/index.js");
const MAX_BODY_BYTES = 11 * 1024 * 1024; // a 10 MB floor plan plus form overhead
const development = process.env.NODE_ENV === "development";
// A map style on another host (MAP_STYLE_URL) is fetched, with its tiles, glyphs and sprites, from that origin.
const mapOrigins = /^https?:\/\//.test(process.env.MAP_STYLE_URL ?? "") ? [new URL(process.env.MAP_STYLE_URL).origin] : [];

const build = await import(BUILD_PATH);
const { startup, healthCheck } = build.entry.module;
await startup();

const app = express();
app.disable("x-powered-by");
if (process.env.TRUST_PROXY) app.set("trust proxy", Number(process.env.TRUST_PROXY) || process.env.TRUST_PROXY);

// Secrets in paths (reset and invitation tokens) never reach the log.
const redact = (p) => p.replace(/^\/(password\/reset|invitations)\/[^/]+/, "/$1/***");

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // originalUrl: req.path is relative inside mounted middleware. The query is left out (it may hold search terms).
    const path = req.originalUrl.split("?")[0];
    const org = path.match(/^\/(\d+)(\/|$)/)?.[1] ?? null;
    console.log(JSON.stringify({ at: new Date().toISOString(), method: req.method, path: redact(path), status: res.statusCode, ms: Math.round(ms * 10) / 10, org }));
  });
  next();
});

app.use((_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
});
app.use(
  helmet({
    contentSecurityPolicy: {
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'strict-dynamic'", (_req, res) => `'nonce-${res.locals.cspNonce}'`],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:", ...mapOrigins],
        "connect-src": [...(development ? ["'self'", "ws:"] : ["'self'"]), ...mapOrigins],
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
    await healthCheck();
    res.status(200).type("text/plain").send("ok");
  } catch (error) {
    console.error(JSON.stringify({ at: new Date().toISOString(), event: "healthcheck_failed", error: String(error) }));
    res.status(503).type("text/plain").send("database unavailable");
  }
});

app.use((req, res, next) => {
  const length = Number(req.headers["content-length"] ?? 0);
  if (length > MAX_BODY_BYTES) {
    // A browser posting a form (a floor plan over the limit) gets a page to read and a way back.
    if (req.headers.accept?.includes("text/html")) res.status(413).type("html").send(tooLargePage(req));
    else res.status(413).type("text/plain").send("The request is too large.");
    return;
  }
  next();
});

function tooLargePage(req) {
  let back = "/";
  try {
    const referer = new URL(req.headers.referer ?? "");
    if (referer.host === req.headers.host) back = referer.pathname + referer.search;
  } catch {
    // no or malformed Referer: home
  }
  const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large | Mlango</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f1f5f9;text-align:center;margin:4rem auto;max-width:32rem;padding:0 1rem">
<p style="font-size:3rem;font-weight:700;color:#cbd5e1;margin:0">413</p>
<h1 style="font-size:1.25rem">The request is too large.</h1>
<p>Uploaded files can be at most 10 MB. Choose a smaller file and try again.</p>
<p><a href="${escape(back)}" style="color:#4f46e5">Go back</a></p></body></html>`;
}

app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: build.mode,
    getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce, clientAddress: req.ip ?? null }),
  }),
);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
app.listen(port, host, () => {
  console.log(`Mlango is running at ${process.env.PUBLIC_URL ?? `http://localhost:${port}`}`);
  if (development) broadcastDevReady(build);
});
