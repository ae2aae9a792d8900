// Answers compressed for mobile data, over real HTTP against the built server
// (server/app.mjs over build/index.js), on SQLite and PostgreSQL: pages in brotli or gzip as the
// client asks and as they are without Accept-Encoding, a large CSV export compressed and still
// streamed (the compressor is flushed after every batch), small bodies left alone, and /build
// files cached for a year as immutable. node:http, not fetch: fetch asks for and undoes encodings itself.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildConnection } from "~/tools/factories.server";
import { issueToken } from "~/services/auth.server";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { insertVenue } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it came over the wire, chunk by chunk. */
  chunks: Buffer[];
}

function get(pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

function decode(answer: Answer): Buffer {
  const body = Buffer.concat(answer.chunks);
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "gzip") return zlib.gunzipSync(body);
  expect(encoding).toBeUndefined();
  return body;
}

/** The page without what differs per request (the CSP nonce). */
const comparable = (html: string) => html.replace(/nonce(=|-)"?[A-Za-z0-9+/=]+"?/g, "nonce");

describe("compressed answers", () => {
  it("sends a page in brotli or gzip as asked, the same page as uncompressed, and none when not asked", async () => {
    const plain = await get("/login", { Accept: "text/html" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const html = decode(plain).toString("utf8");
    expect(html).toContain("Sign in");
    expect(Buffer.byteLength(html)).toBeGreaterThan(1024);

    for (const [asked, expected] of [
      ["br", "br"],
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["gzip;q=1, br;q=0.5", "gzip"],
    ] as const) {
      const answer = await get("/login", { Accept: "text/html", "Accept-Encoding": asked });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(expected);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
      const wire = Buffer.concat(answer.chunks).length;
      const page = decode(answer).toString("utf8");
      expect(comparable(page)).toBe(comparable(html));
      expect(wire).toBeLessThan(Buffer.byteLength(page) / 2);
    }

    // An encoding the server does not speak, or identity only: the page as it is.
    for (const asked of ["identity", "compress", "br;q=0, gzip;q=0"]) {
      const answer = await get("/login", { Accept: "text/html", "Accept-Encoding": asked });
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(comparable(decode(answer).toString("utf8"))).toBe(comparable(html));
    }
  });

  it("compresses the guest path's pages too", async () => {
    // An unknown portal key: the guest path's own page (not Remix's), long enough to compress.
    const plain = await get("/hotspot/unifi/not-a-key?id=aa:bb:cc:dd:ee:ff", { Accept: "text/html" });
    expect(plain.status).toBe(404);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const body = decode(plain);
    expect(body.length).toBeGreaterThan(1024);
    const compressed = await get("/hotspot/unifi/not-a-key?id=aa:bb:cc:dd:ee:ff", { Accept: "text/html", "Accept-Encoding": "br" });
    expect(compressed.status).toBe(404);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(comparable(decode(compressed).toString("utf8"))).toBe(comparable(body.toString("utf8")));
  });

  it("sends the sign-in page without scripts, under the 60 KB budget with its stylesheet", async () => {
    const page = await get("/login", { Accept: "text/html", "Accept-Encoding": "gzip, deflate, br" });
    const html = decode(page).toString("utf8");
    expect(html).toContain('name="login_id"');
    expect(html).not.toMatch(/<script|modulepreload/);
    const stylesheets = Array.from(html.matchAll(/<link rel="stylesheet" href="(\/build\/[^"]+)"/g), (m) => m[1]);
    expect(stylesheets.length).toBeGreaterThan(0);
    let bytes = Buffer.concat(page.chunks).length;
    for (const href of stylesheets) bytes += Buffer.concat((await get(href, { "Accept-Encoding": "gzip, deflate, br" })).chunks).length;
    expect(bytes).toBeLessThan(60 * 1024);
  });

  it("leaves bodies under 1 KB alone", async () => {
    const health = await get("/healthz", { "Accept-Encoding": "br, gzip" });
    expect(health.status).toBe(200);
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(Buffer.concat(health.chunks).toString()).toBe("ok");
  });

  it("streams a large CSV export compressed: the header arrives first, on its own, and the whole decodes to the right CSV", async () => {
    const { org, owner } = await makeOrg(`Compression ${Math.random()}`);
    const venue = await insertVenue(org.id, { name: "Kahawa Corner Café" });
    const base = Date.UTC(2026, 10, 20, 12, 0);
    const count = 4_500; // more than two batches on either database
    const rows = Array.from({ length: count }, (_, i) =>
      buildConnection(org.id, {
        venue_id: venue.id,
        created_at: base + i * 1000,
        authorized_at: base + i * 1000 + 500,
        ended_at: base + i * 1000 + 60_500,
      }),
    );
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto("connections")
        .values(rows.slice(i, i + 500))
        .execute();
    const token = await issueToken(owner.id, "api");
    const auth = { Authorization: `Bearer ${token}` };

    const plain = await get(`/${org.id}/connections.csv`, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const csv = decode(plain);

    for (const encoding of ["br", "gzip"]) {
      const answer = await get(`/${org.id}/connections.csv`, { ...auth, "Accept-Encoding": encoding });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(encoding);
      expect(answer.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(answer.headers["content-disposition"]).toBe('attachment; filename="connections.csv"');
      // Streamed, not buffered whole: no length known up front, several pieces.
      expect(answer.headers["content-length"]).toBeUndefined();
      expect(answer.headers["transfer-encoding"]).toBe("chunked");
      expect(answer.chunks.length).toBeGreaterThan(1);

      // The first pieces decode by themselves to whole lines, the header first (the compressor is
      // flushed after each piece the export writes: the header, then each batch; a compressor left
      // to fill its buffer would cut mid-line), and more pieces follow.
      const partial = (pieces: Buffer[]) =>
        (encoding === "br"
          ? zlib.brotliDecompressSync(Buffer.concat(pieces), { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : zlib.gunzipSync(Buffer.concat(pieces), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
        ).toString("utf8");
      let upTo = 1;
      while (partial(answer.chunks.slice(0, upTo)) === "") upTo++;
      expect(upTo).toBeLessThan(answer.chunks.length);
      const firstText = partial(answer.chunks.slice(0, upTo));
      expect(firstText.startsWith("\uFEFF#,Connected At (UTC),")).toBe(true);
      expect(firstText.endsWith("\n")).toBe(true);
      expect(firstText.split("\n").length).toBeLessThan(count);

      const whole = decode(answer);
      expect(whole.equals(csv)).toBe(true);
      const lines = whole.subarray(3).toString("utf8").trim().split("\n");
      expect(lines).toHaveLength(count + 1);
      expect(lines[1]).toContain("Kahawa Corner Café");
      expect(Buffer.concat(answer.chunks).length).toBeLessThan(whole.length / 4);
    }
  });

  it("serves /build files for a year as immutable, compressed when asked, the same bytes as the file", async () => {
    const html = decode(await get("/login", { Accept: "text/html" })).toString("utf8");
    const stylesheet = html.match(/<link rel="stylesheet" href="(\/build\/[^"]+\.css)"/)?.[1];
    expect(stylesheet).toBeDefined();
    const onDisk = fs.readFileSync(path.join("public", stylesheet!));

    for (const encoding of [undefined, "br", "gzip"]) {
      const answer = await get(stylesheet!, encoding ? { "Accept-Encoding": encoding } : {});
      expect(answer.status).toBe(200);
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.headers["content-type"]).toMatch(/^text\/css/);
      expect(answer.headers["content-encoding"]).toBe(encoding);
      expect(decode(answer).equals(onDisk)).toBe(true);
    }

    // The largest shared script (React and Remix or a chart library), and a path outside the directory is not served.
    const shared = fs
      .readdirSync("public/build/_shared")
      .filter((f) => f.endsWith(".js"))
      .map((f) => ({ f, size: fs.statSync(`public/build/_shared/${f}`).size }))
      .sort((a, b) => b.size - a.size)[0].f;
    const script = await get(`/build/_shared/${shared}`, { "Accept-Encoding": "br" });
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.headers["content-encoding"]).toBe("br");
    expect(decode(script).equals(fs.readFileSync(`public/build/_shared/${shared}`))).toBe(true);
    expect((await get("/build/..%2F..%2Fpackage.json", { "Accept-Encoding": "br" })).status).toBe(404);
  });
});
