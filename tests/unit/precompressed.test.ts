// server/precompressed.mjs: /build files sent from the copies the build compressed (name.br, name.gz),
// only when the client accepts the encoding and the copy is current; otherwise on to express.static.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressed } from "../../server/precompressed.mjs";

const CACHE = "public, max-age=31536000, immutable";
let dir: string;
let server: http.Server;
let port: number;
const script = "console.log('Kahawa Corner Café');\n".repeat(200);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
  fs.mkdirSync(path.join(dir, "_shared"));
  fs.writeFileSync(path.join(dir, "_shared/app.js"), script);
  fs.writeFileSync(path.join(dir, "_shared/app.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dir, "_shared/app.js.gz"), zlib.gzipSync(script));
  // A copy older than its file (a rebuild that skipped the step) must not be sent.
  fs.writeFileSync(path.join(dir, "old.js"), script);
  fs.writeFileSync(path.join(dir, "old.js.br"), zlib.brotliCompressSync("stale"));
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(dir, "old.js.br"), past, past);
  const app = express();
  app.use("/build", precompressed(dir, { cacheControl: CACHE }));
  app.use("/build", express.static(dir, { immutable: true, maxAge: "1y" }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function get(pathname: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: pathname, headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("precompressed /build files", () => {
  it("sends the brotli copy to a client that takes brotli, gzip to one that takes only gzip, with the file's type and caching", async () => {
    const br = await get("/build/_shared/app.js", "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["cache-control"]).toBe(CACHE);
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await get("/build/_shared/app.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
  });

  it("hands on to express.static without Accept-Encoding, for a stale copy, and for paths outside the directory", async () => {
    const plain = await get("/build/_shared/app.js");
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);

    const stale = await get("/build/old.js", "br");
    expect(stale.headers["content-encoding"]).toBeUndefined();
    expect(stale.body.toString()).toBe(script);

    // A copy removed after it was first sent (a new build under a running server): the file as it is.
    fs.writeFileSync(path.join(dir, "gone.js"), script);
    fs.writeFileSync(path.join(dir, "gone.js.br"), zlib.brotliCompressSync(script));
    expect((await get("/build/gone.js", "br")).headers["content-encoding"]).toBe("br");
    fs.rmSync(path.join(dir, "gone.js.br"));
    const gone = await get("/build/gone.js", "br");
    expect(gone.status).toBe(200);
    expect(gone.headers["content-encoding"]).toBeUndefined();
    expect(gone.headers["content-type"]).toMatch(/javascript/);
    expect(gone.body.toString()).toBe(script);

    expect((await get("/build/..%2F..%2Fetc%2Fpasswd", "br")).status).toBe(404);
    expect((await get("/build/%E0%A4%A.js", "br")).status).toBe(404);
  });
});
