// The request boundary: every request passes here first — the guest path's routes, /graphql and
// Remix alike (server/app.mjs) — so each of these rules holds for every page, call and API at once
// (docs/security.md). Plain node:http: it knows nothing of Express or Remix.
//   - NUL characters are refused in paths and queries, and in text fields of bodies (PostgreSQL
//     cannot store them);
//   - bodies are read with a cap while they stream (413 and the connection closed as soon as it is passed);
//   - a body must be of a type the route reads (forms, or JSON where the route reads JSON);
//   - JSON is read by one bounded reader: at most JSON_DEPTH levels deep, else 400;
//   - state-changing requests that carry no bearer token must come from our own origin (CSRF), where
//     a route reads cookies: the guest path and /graphql read none.
// Each caller gives its rules (limit, types, origin) and a `refuse` that answers in its own shape.
import querystring from "node:querystring";
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
 * and `?index` queries are not part of the path.
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
/** Nesting no caller needs: Daraja's callbacks are 5 levels deep, FreeRADIUS's attributes 3, GraphQL variables a few. */
export const JSON_DEPTH = 64;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** An oversized body whose declared length is at most this is read and discarded after the 413. */
const DRAIN_LIMIT = 32 * MB;

export const BODY_TYPES = {
  form: ["application/x-www-form-urlencoded", "multipart/form-data"],
  urlencoded: ["application/x-www-form-urlencoded"],
  json: ["application/json"],
};

export const BOUNDARY_MESSAGES = {
  tooLarge: "The request is too large.",
  tooLong: "The address of this page is too long.",
  crossSite: "This request came from another site, so it was not carried out.",
  contentType: "Send this form as application/x-www-form-urlencoded or multipart/form-data.",
  malformed: "The request body could not be read.",
  tooDeep: "The request body is nested too deeply.",
  nul: "The request contains a character that is not allowed.",
};

export function bodyLimitFor(path) {
  if (UPLOAD_ROUTES.some((route) => route.test(path))) return UPLOAD_LIMIT;
  if (CODE_ROUTES.some((route) => route.test(path))) return CODE_LIMIT;
  if (API_CODE_ROUTES.some((route) => route.test(path))) return CODE_LIMIT;
  return FORM_LIMIT;
}

/** The path of a request URL, without its query. */
export const pathOf = (url) => {
  const end = url.indexOf("?");
  return end < 0 ? url : url.slice(0, end);
};

/** `Origin`, else the origin of `Referer`; null when the request names neither; "invalid" when malformed. */
function requestOrigin(req) {
  const source = req.headers.origin ?? req.headers.referer;
  if (source === undefined) return null;
  try {
    const parsed = new URL(source);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : "invalid";
  } catch {
    return "invalid"; // includes `Origin: null` (sandboxed frames, privacy redirects)
  }
}

const hasNulEscape = (text) => /%00/i.test(text);

/** Whether a parsed value holds a NUL in any string or key; a loop, not recursion (no depth can overflow it). */
export function hasNul(value) {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes("\0")) return true;
    } else if (item && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) {
        if (key.includes("\0")) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

class BadBody extends Error {}

/**
 * The one JSON reader: the text's nesting is counted before JSON.parse (brackets outside strings), so
 * a body of a few KB nested thousands deep is a 400, not a stack overflow in whatever walks it next.
 */
export function readJson(text, maxDepth = JSON_DEPTH) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) throw new BadBody(BOUNDARY_MESSAGES.tooDeep);
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody(BOUNDARY_MESSAGES.malformed);
  }
}

/** The fields of a body the boundary read: forms as node:querystring gives them, JSON parsed; NUL refused. */
async function fieldsOf(type, body, { jsonRequired, parameterLimit }) {
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const text = body.toString("latin1");
    if (hasNulEscape(text) || body.includes(0)) throw new BadBody(BOUNDARY_MESSAGES.nul);
    // As express.urlencoded({ extended: false }): repeated names give arrays.
    const fields = querystring.parse(body.toString("utf8"), "&", "=", { maxKeys: parameterLimit + 1 });
    if (Object.keys(fields).length > parameterLimit) throw new BadBody(BOUNDARY_MESSAGES.tooLarge);
    return fields;
  }
  if (type.startsWith("multipart/form-data")) {
    let form;
    try {
      form = await new Request("http://boundary.invalid/", { method: "POST", body, headers: { "Content-Type": type } }).formData();
    } catch {
      throw new BadBody(BOUNDARY_MESSAGES.malformed);
    }
    for (const [name, value] of form) {
      if (name.includes("\0") || (typeof value === "string" ? value.includes("\0") : value.name.includes("\0")))
        throw new BadBody(BOUNDARY_MESSAGES.nul);
    }
    return undefined;
  }
  if (type.toLowerCase().includes("json")) {
    const text = body.toString("utf8");
    if (text.trim() === "" && !jsonRequired) return undefined;
    let value;
    try {
      value = readJson(text);
    } catch (error) {
      // Not JSON: a caller that reads JSON itself (Remix's APIs, GraphQL) answers that in its own shape; a nesting too deep is ours.
      if (!jsonRequired && error.message === BOUNDARY_MESSAGES.malformed) return undefined;
      throw error;
    }
    // As body-parser's strict mode, where the route reads JSON: an object or an array, never a bare value.
    if (jsonRequired && (value === null || typeof value !== "object")) throw new BadBody(BOUNDARY_MESSAGES.malformed);
    if (hasNul(value)) throw new BadBody(BOUNDARY_MESSAGES.nul);
    return value;
  }
  return undefined;
}

const tooLargeStatus = (message) => (message === BOUNDARY_MESSAGES.tooLarge ? 413 : 400);

/**
 * Passes a request through the boundary. `rules`:
 *   limit      the body's cap in bytes;
 *   types      the content types the route reads (BODY_TYPES), or null for any (the route checks its own);
 *   jsonRequired  a JSON body that does not parse is a 400 here (else it is left for the route);
 *   origin     the origin state-changing requests without a bearer token must come from, or null where
 *              the route reads no cookie (nothing to forge);
 *   queryLimit a cap on the query string's length (414), where the route wants one;
 *   parameterLimit  fields of a urlencoded form at most (413);
 *   refuse(req, res, status, message)  writes the refusal.
 * Resolves to { body, fields } (body a Buffer, undefined for GET/HEAD; fields as fieldsOf reads them),
 * or null once the refusal is written.
 */
export async function passBoundary(req, res, rules) {
  const stop = (status, message) => {
    rules.refuse(req, res, status, message);
    return null;
  };
  const url = req.url ?? "/";
  if (hasNulEscape(url)) return stop(400, BOUNDARY_MESSAGES.nul);
  if (rules.queryLimit !== undefined && url.length - pathOf(url).length > rules.queryLimit + 1) return stop(414, BOUNDARY_MESSAGES.tooLong);
  if (SAFE_METHODS.has(req.method)) return { body: undefined, fields: undefined };

  // CSRF. A bearer token is sent only by scripts: no browser can be made to add that header to a
  // cross-site request without a CORS preflight, which we never grant. Browsers send Origin on
  // every cross-site POST; a request with neither Origin nor Referer comes from no browser page.
  if (rules.origin) {
    const bearer = /^Bearer\s+\S+$/i.test(req.headers.authorization ?? "");
    const origin = requestOrigin(req);
    if (!bearer && origin !== null && origin !== rules.origin) return stop(403, BOUNDARY_MESSAGES.crossSite);
  }

  const length = Number(req.headers["content-length"] ?? 0);
  const chunked = /chunked/i.test(req.headers["transfer-encoding"] ?? "");
  if (!req.headers["content-type"] && !chunked && !(length > 0)) {
    // An empty body with no type (a bare `fetch(url, { method: "POST" })`) is an empty form.
    req.headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const type = String(req.headers["content-type"] ?? "");
  const lowerType = type.toLowerCase();
  if (rules.types && !rules.types.some((t) => lowerType.startsWith(t))) {
    const message = rules.types.includes("application/json") ? BOUNDARY_MESSAGES.malformed : BOUNDARY_MESSAGES.contentType;
    return stop(415, message);
  }
  if (/\bgzip|deflate|br\b/i.test(req.headers["content-encoding"] ?? "")) return stop(415, BOUNDARY_MESSAGES.malformed);

  let body;
  try {
    // raw-body counts bytes as they arrive, chunked or not, and fails the moment the limit is passed
    // (or at once when Content-Length says so). Not body-parser: on an error it reads the rest of
    // the body before answering, which lets a client keep the connection busy.
    body = await getRawBody(req, { limit: rules.limit, length: req.headers["content-length"] });
  } catch (error) {
    const tooLarge = error.type === "entity.too.large";
    // A body of a declared, modest length is let through to the bin after the answer, so the
    // client can read it; a chunked or huge one is never read: the connection closes instead.
    if (!(length > 0 && length <= DRAIN_LIMIT)) {
      res.setHeader("Connection", "close");
      res.on("finish", () => req.socket?.destroy());
    }
    return stop(tooLarge ? 413 : 400, tooLarge ? BOUNDARY_MESSAGES.tooLarge : BOUNDARY_MESSAGES.malformed);
  }
  try {
    const fields = await fieldsOf(type, body, { jsonRequired: rules.jsonRequired === true, parameterLimit: rules.parameterLimit ?? 1000 });
    return { body, fields };
  } catch (error) {
    if (!(error instanceof BadBody)) throw error;
    return stop(tooLargeStatus(error.message), error.message);
  }
}

/** The rules for a request Remix answers: per-route caps, forms only outside the APIs, same origin. */
export function consoleRules(path, { publicOrigin, refuse }) {
  return { limit: bodyLimitFor(path), types: isApiPath(path) ? null : BODY_TYPES.form, origin: publicOrigin, refuse };
}
