// The server's body writer (server/remix-handler.mjs) behind the compression middleware, as the app
// mounts it: a page written in many small pieces fills the compressor again and again, and each
// wait for it to drain must not leave a listener behind (node warns past 10 on one emitter; a long
// export piled up thousands, each called on every later drain).
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import crypto from "node:crypto";
// @ts-expect-error: compression ships no types (the server is plain JavaScript)
import compression from "compression";
import express from "express";
import { expect, it } from "vitest";
import { writeBody } from "../../server/remix-handler.mjs";

it("writes a many-piece body through the compressor whole, waiting for it to drain without piling up listeners", async () => {
  const pieces = Array.from({ length: 3_000 }, () => crypto.randomBytes(1024)); // incompressible: the compressor's buffer fills
  const app = express();
  app.use(compression({ threshold: 0 }));
  app.get("/", (_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < pieces.length) controller.enqueue(pieces[i++]);
        else controller.close();
      },
    });
    void writeBody(body, res);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    const { port } = server.address() as AddressInfo;
    const wire = await new Promise<Buffer>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/", headers: { "Accept-Encoding": "gzip" } }, (res) => {
        expect(res.headers["content-encoding"]).toBe("gzip");
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks)));
        res.on("error", reject);
      });
    });
    expect(zlib.gunzipSync(wire).equals(Buffer.concat(pieces))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes("MaxListenersExceeded"))).toEqual([]);
  } finally {
    process.off("warning", onWarning);
    server.close();
  }
});
