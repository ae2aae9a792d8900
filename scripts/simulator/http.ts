// Plain HTTP as a phone's captive mini-browser or a gateway speaks it: no cookies, no JavaScript,
// redirects not followed (each hop is checked), keep-alive connections. node:http rather than
// fetch: at hundreds of guests a second the client must cost little next to the server it loads.
import http from "node:http";
import https from "node:https";

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The Location header, if any. */
  location: string | null;
}

export interface HttpRequest {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

export class HttpClient {
  readonly origin: string;
  private readonly agent: http.Agent;
  private readonly secure: boolean;

  /** `connections`: how many keep-alive sockets to the instance at most (one per concurrent guest). */
  constructor(origin: string, connections = 64) {
    const url = new URL(origin);
    this.origin = url.origin;
    this.secure = url.protocol === "https:";
    const Agent = this.secure ? https.Agent : http.Agent;
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: connections,
      maxFreeSockets: connections,
    });
  }

  /** A request to a path on the instance (or an absolute URL on it). */
  request(path: string, init: HttpRequest = {}): Promise<HttpResponse> {
    const url = new URL(path, this.origin);
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers: Record<string, string | number> = { ...init.headers };
    if (body) headers["Content-Length"] = body.length;
    const send = this.secure ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: init.method ?? "GET", headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const location = res.headers.location ?? null;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            location,
          });
        });
        res.on("error", reject);
      });
      req.setTimeout(init.timeoutMs ?? 30_000, () => req.destroy(new Error(`timed out after ${init.timeoutMs ?? 30_000} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A short description of an unexpected answer, for the report. */
export function describe(response: HttpResponse, expected: string): string {
  const text = response.headers["content-type"]?.includes("html") ? htmlText(response.body) : response.body;
  return `expected ${expected}, got HTTP ${response.status}${response.location ? ` → ${response.location}` : ""}${text ? `: ${text.slice(0, 160)}` : ""}`;
}

/** The readable text of a page (its alert, else its heading), for error messages. */
function htmlText(body: string): string {
  const alert = /<div class="alert[^"]*"[^>]*>([\s\S]*?)<\/div>/.exec(body)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(body)?.[1] ?? "";
  return decodeEntities(
    alert
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const e = entity.toLowerCase();
    if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e]!;
  });
}
