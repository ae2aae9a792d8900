// A lean HTTP/1.1 client for the fakes' callbacks and the benchmarks' simulated guests: node:http(s)
// with keep-alive agents. fetch (undici, WHATWG streams) costs about twice the CPU of node:http per
// request on this machine (decision 0029); in a benchmark the fakes and the guests share the
// machine's cores with the server they measure, so what they spend is taken from the server.
// Redirects are never followed (the answer is returned); gzip, deflate and br bodies are
// decompressed, as a phone's browser would.
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import zlib from "node:zlib";

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** the body, decompressed, as UTF-8 text */
  text: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** abort (and reject) when the connection stays silent this long (Node's socket timeout) */
  timeoutMs?: number;
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
  const { method = "GET", headers = {}, body, timeoutMs = 60_000 } = options;
  return new Promise((resolve, reject) => {
    const sent = {
      "Accept-Encoding": "gzip, deflate, br",
      ...headers,
      ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }),
    };
    const secure = url.startsWith("https:");
    const req = (secure ? https : http).request(
      url,
      { method, headers: sent, agent: secure ? agents.https : agents.http, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: decode(Buffer.concat(chunks), res.headers["content-encoding"]),
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`No answer from ${url} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

function decode(raw: Buffer, encoding: string | undefined): string {
  if (encoding === "br") return zlib.brotliDecompressSync(raw).toString("utf8");
  if (encoding === "gzip") return zlib.gunzipSync(raw).toString("utf8");
  if (encoding === "deflate") return zlib.inflateSync(raw).toString("utf8");
  return raw.toString("utf8");
}
