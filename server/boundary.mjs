// The request boundary: every request that reaches Remix passes here first, so each of these rules
// holds for every page, data request, resource route and API call at once (docs/security.md).
//   - bodies are read with a per-route cap while they stream (413 as soon as it is passed);
//   - state-changing requests that carry no bearer token must come from our own origin (CSRF);
//   - forms must be urlencoded or multipart; malformed bodies are a 400, not a 500;
//   - NUL characters are refused in paths, queries and text fields (PostgreSQL cannot store them).
import getRawBody from "raw-body";

const KB = 1024;
const MB = 1024 * KB;
/** Forms are a few fields; the largest (a role's permissions, a dashboard layout) is a few KB. */
const FORM_LIMIT = 256 * KB;
/** A 10 MB image plus the multipart envelope. */
const UPLOAD_LIMIT = 11 * MB;
/** Routes that take uploads; everything else gets FORM_LIMIT. */
const UPLOAD_ROUTES = [
  /^\/\d+\/venues\/\d+\/layout$/,
  /^\/account\/api\/v1\/assets$/,
  /^\/\d+\/splash_pages\/assets(\/upload)?$/, // splash page images: the Images page and the builder's asset manager
  /^\/\d+\/broadcast\/\d+\/assets$/, // the e-mail designer's image uploads
  /^\/\d+\/ads\/banners(\/\d+)?$/, // ad banner images
];
/**
 * A splash page's code: the builder's save (project up to 1.5 MB + HTML and CSS up to 256 KB each,
 * sent as multipart) and the HTML, Styles and Scripts tabs' saves. The paths only: Remix's `?_data=`
 * and `?index` queries are not part of req.path.
 */
const CODE_LIMIT = 2 * MB + 64 * KB;
const CODE_ROUTES = [
  /^\/\d+\/splash_pages\/\d+\/(builder|html|styles|scripts)$/,
  /^\/\d+\/broadcast\/\d+\/email$/, // a broadcast's e-mail: HTML up to 200 KB, text 50 KB, the designer's project up to 1 MB
];
/** The same code through the account API (PUT splash_pages/{id}, JSON or form); the route itself reads at most 2 MB. */
const API_CODE_ROUTES = [/^\/account\/api\/v1\/splash_pages\/\d+$/];
/**
 * The APIs read JSON as well as forms, with their own 64 KB limit and their own 415 answer: the
 * account API, and the spec's calls at /api/v1/… (getmpesatransactions).
 */
export const isApiPath = (path) => path.startsWith("/account/api/") || path.startsWith("/api/");
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** An oversized body whose declared length is at most this is read and discarded after the 413. */
const DRAIN_LIMIT = 32 * MB;

export const BOUNDARY_MESSAGES = {
  tooLarge: "The request is too large.",
  crossSite: "This request came from another site, so it was not carried out.",
  contentType: "Send this form as application/x-www-form-urlencoded or multipart/form-data.",
  malformed: "The request body could not be read.",
  nul: "The request contains a character that is not allowed.",
};

export function bodyLimitFor(path) {
  if (UPLOAD_ROUTES.some((route) => route.test(path))) return UPLOAD_LIMIT;
  if (CODE_ROUTES.some((route) => route.test(path))) return CODE_LIMIT;
  if (API_CODE_ROUTES.some((route) => route.test(path))) return CODE_LIMIT;
  return FORM_LIMIT;
}

/**
 * The body as a Buffer. raw-body counts bytes as they arrive, chunked or not, and fails the moment
 * the limit is passed (or at once when Content-Length says so). Not body-parser: on an error it
 * reads the rest of the body before answering, which lets a client keep the connection busy.
 */
function readBody(req, limit) {
  return getRawBody(req, { limit, length: req.headers["content-length"] });
}

/** `Origin`, else the origin of `Referer`; null when the request names neither; "invalid" when malformed. */
function requestOrigin(req) {
  const origin = req.headers.origin;
  const source = origin ?? req.headers.referer;
  if (source === undefined) return null;
  try {
    const parsed = new URL(source);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : "invalid";
  } catch {
    return "invalid"; // includes `Origin: null` (sandboxed frames, privacy redirects)
  }
}

const hasNulEscape = (text) => /%00/i.test(text);

function jsonHasNul(value) {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(jsonHasNul);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => k.includes("\0") || jsonHasNul(v));
  return false;
}

/** Checks a body's text fields for NUL; throws BadBody when it cannot be read at all. */
async function bodyHasNul(contentType, body) {
  const type = contentType.toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) return hasNulEscape(body.toString("latin1")) || body.includes(0);
  if (type.startsWith("multipart/form-data")) {
    let form;
    try {
      // The boundary parameter is case-sensitive: parse with the header as sent.
      form = await new Request("http://boundary.invalid/", { method: "POST", body, headers: { "Content-Type": contentType } }).formData();
    } catch {
      throw new BadBody();
    }
    for (const [name, value] of form) {
      if (name.includes("\0") || (typeof value === "string" ? value.includes("\0") : value.name.includes("\0"))) return true;
    }
    return false;
  }
  if (type.includes("json")) {
    try {
      return jsonHasNul(JSON.parse(body.toString("utf8")));
    } catch {
      return false; // not JSON: the API answers that itself
    }
  }
  return false;
}

class BadBody extends Error {}

/**
 * The boundary middleware. `publicOrigin` is the console's configured origin (PUBLIC_URL); `refuse`
 * writes a readable refusal. On success the body is left on `req.body` as a Buffer for the Remix
 * adapter (or undefined for GET/HEAD).
 */
export function requestBoundary({ publicOrigin, refuse }) {
  return (req, res, next) => {
    if (hasNulEscape(req.originalUrl)) return refuse(req, res, 400, BOUNDARY_MESSAGES.nul);
    if (SAFE_METHODS.has(req.method)) return next();

    // CSRF. A bearer token is sent only by scripts: no browser can be made to add that header to a
    // cross-site request without a CORS preflight, which we never grant. Browsers send Origin on
    // every cross-site POST; a request with neither Origin nor Referer comes from no browser page.
    const bearer = /^Bearer\s+\S+$/i.test(req.headers.authorization ?? "");
    const origin = requestOrigin(req);
    if (!bearer && origin !== null && origin !== publicOrigin) return refuse(req, res, 403, BOUNDARY_MESSAGES.crossSite);

    const api = isApiPath(req.path);
    const length = Number(req.headers["content-length"] ?? 0);
    const chunked = /chunked/i.test(req.headers["transfer-encoding"] ?? "");
    if (!req.headers["content-type"] && !chunked && !(length > 0)) {
      // An empty body with no type (a bare `fetch(url, { method: "POST" })`) is an empty form.
      req.headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const type = String(req.headers["content-type"] ?? "").toLowerCase();
    if (!api && !FORM_TYPES.some((t) => type.startsWith(t))) return refuse(req, res, 415, BOUNDARY_MESSAGES.contentType);

    if (/\bgzip|deflate|br\b/i.test(req.headers["content-encoding"] ?? "")) return refuse(req, res, 415, BOUNDARY_MESSAGES.malformed);
    readBody(req, bodyLimitFor(req.path)).then(
      async (body) => {
        req.body = body;
        try {
          if (await bodyHasNul(String(req.headers["content-type"]), body)) return refuse(req, res, 400, BOUNDARY_MESSAGES.nul);
        } catch (thrown) {
          if (thrown instanceof BadBody) return refuse(req, res, 400, BOUNDARY_MESSAGES.malformed);
          return next(thrown);
        }
        next();
      },
      (error) => {
        const tooLarge = error.type === "entity.too.large";
        // A body of a declared, modest length is let through to the bin after the answer, so the
        // client can read it; a chunked or huge one is never read: the connection closes instead.
        if (!(length > 0 && length <= DRAIN_LIMIT)) {
          res.set("Connection", "close");
          res.on("finish", () => req.socket?.destroy());
        }
        refuse(req, res, tooLarge ? 413 : 400, tooLarge ? BOUNDARY_MESSAGES.tooLarge : BOUNDARY_MESSAGES.malformed);
      },
    );
  };
}
