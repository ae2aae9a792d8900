// Scripts and stylesheets of /build sent as the build compressed them (name.br, name.gz written by
// scripts/precompress-build.mjs at the best settings), when the client accepts that encoding and the
// copy is not older than the file. Otherwise the request goes on to express.static, and the
// compression middleware compresses on the fly: a build made without the step still works.
import fs from "node:fs";
import path from "node:path";

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
};
const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
];

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/** Middleware for the directory mounted at /build; `cacheControl` as express.static sends it there. */
export function precompressed(dir, { cacheControl }) {
  const root = path.resolve(dir);
  // Per existing file: the encodings it has a current copy in (files are content-hashed, so this holds).
  const copies = new Map();
  const copiesOf = (file) => {
    if (copies.has(file)) return copies.get(file);
    const original = mtime(file);
    if (original === null) return [];
    const found = ENCODINGS.filter(([, suffix]) => (mtime(file + suffix) ?? -1) >= original).map(([encoding]) => encoding);
    copies.set(file, found);
    return found;
  };

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    if (!type) return next();
    let file;
    try {
      file = path.join(root, decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!file.startsWith(root + path.sep)) return next();
    const available = copiesOf(file);
    if (available.length === 0) return next();
    res.vary("Accept-Encoding");
    // Brotli whenever accepted: browsers list it after gzip ("gzip, deflate, br") with equal weight.
    const encoding = available.find((e) => req.acceptsEncodings(e) === e);
    if (!encoding) return next();
    res.set({ "Content-Type": type, "Content-Encoding": encoding, "Cache-Control": cacheControl });
    res.sendFile(file + (encoding === "br" ? ".br" : ".gz"), { cacheControl: false, dotfiles: "deny" }, (error) => {
      if (!error || res.headersSent) return;
      // The copy went away (a new build): forget it and let the next handler answer from scratch.
      copies.delete(file);
      for (const name of ["Content-Type", "Content-Encoding", "Cache-Control"]) res.removeHeader(name);
      next();
    });
  };
}
