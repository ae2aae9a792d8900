/**
 * A fake Africa's Talking SMS API for tests, benchmarks, the demo and the gateway simulator, so that
 * SMS broadcasts work offline.
 *
 * The real API's contract:
 *   POST /version1/messaging   header apiKey; form username, to (comma-separated), message, from
 *                              (optional), bulkSMSMode → 201 { SMSMessageData: { Message, Recipients:
 *                              [{ statusCode, number, status, cost, messageId }] } }
 *   A wrong apiKey or username: 401 "The supplied authentication is invalid" (text, like the real one).
 *   A number that is not one: that recipient gets 403 InvalidPhoneNumber (messageId "None").
 * Then, `deliveryDelayMs` after an accepted message, a delivery report is POSTed (form-encoded:
 * id, status, phoneNumber, networkCode, failureReason, retryCount) to `callbackUrl` — set in the real
 * dashboard, not in the request, so here an option or --delivery-url. How each message ends:
 * `outcomeFor` by number (+2547…), else `outcome` (default Success). `statusCodeFor` forces a
 * send-time statusCode for a number (405 InsufficientBalance, 406 UserInBlacklist, 500…).
 *
 * Rate: `rateLimitPerSecond` recipients per second, as a token bucket holding one second's worth
 * (a request larger than that needs a full bucket and leaves it in debt, so the average holds).
 * Over it the fake answers HTTP 429 with Retry-After: 1 and sends nothing. Africa's Talking does
 * not document its throttling; 429 is what a throttled HTTP API answers and what Mlango's adapter
 * treats as "try again later".
 *
 * `responseDelayMs` answers late (after recording the messages, as a real timeout is ambiguous).
 * `simulateInbound` POSTs an inbound message (from, to, text, date, id, linkId) to `inboundUrl`.
 * For browser tests and the demo, two control endpoints: GET /fake/messages (what was sent, JSON)
 * and POST /fake/inbound (form from, text: the same as simulateInbound).
 *
 * node:http only; listens on 127.0.0.1; calls no host but the callback URLs it is given. Run it with
 *   npx tsx scripts/fakes/africastalking.ts --port 3198 [--delivery-url URL] [--inbound-url URL] [--rate N]
 *     [--delivery-delay MS] [--outcome-for +254700000001=Failed]
 * and set AFRICASTALKING_URL=http://127.0.0.1:3198 for the server.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readBody } from "./read-body";

export type SmsOutcome = "Success" | "Failed" | "Rejected";

/** The SMS settings form (smsSettingsSchema) of an organisation sending through this fake. */
export const DEMO_AT_CREDENTIALS = { username: "mlango-demo", apiKey: "mlango-demo-at-key" } as const;

/** Why a message failed, as a delivery report words it. */
const FAILURE_REASONS: Record<Exclude<SmsOutcome, "Success">, string> = { Failed: "DeliveryFailure", Rejected: "UserInBlacklist" };
/** Names of the send-time status codes (Africa's Talking's documentation). */
const STATUS_NAMES: Record<number, string> = {
  101: "Success",
  102: "Queued",
  401: "RiskHold",
  402: "InvalidSenderId",
  403: "InvalidPhoneNumber",
  404: "UnsupportedNumberType",
  405: "InsufficientBalance",
  406: "UserInBlacklist",
  407: "CouldNotRoute",
  409: "DoNotDisturbRejection",
  500: "InternalServerError",
  501: "GatewayError",
  502: "RejectedByGateway",
};
const NUMBER = /^\+\d{9,15}$/;
/** GSM 03.38 basic characters (one unit each); anything else makes the text UCS-2. */
const GSM7 = /^[\n\r\x20-\x7e£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¡ÄÖÑÜ§¿äöñüà€]*$/;
const PRICE_PER_SEGMENT = 0.8;

export interface FakeSms {
  number: string;
  text: string;
  from: string | null;
  username: string;
  messageId: string;
  at: number;
  outcome: SmsOutcome;
}

export interface SentReport {
  messageId: string;
  url: string;
  body: Record<string, string>;
  /** the receiver's HTTP status; null when it could not be reached */
  status: number | null;
}

export interface FakeAfricasTalking {
  url: string;
  /** username → apiKey (default: DEMO_AT_CREDENTIALS) */
  credentials: Map<string, string>;
  /** every accepted message (one per recipient), in order */
  sent: FakeSms[];
  /** every request to /version1/messaging: its form fields (the apiKey header is not kept), HTTP status and number of recipients */
  requests: Array<{ at: number; form: Record<string, string>; status: number; recipients: number }>;
  /** recipients per second; null: unlimited */
  rateLimitPerSecond: number | null;
  deliveryDelayMs: number;
  /** where delivery reports go; null: none are sent */
  callbackUrl: string | null;
  /** where simulateInbound posts */
  inboundUrl: string | null;
  /** how messages end, by number (+2547…); else `outcome` */
  outcomeFor: Map<string, SmsOutcome>;
  outcome: SmsOutcome;
  /** a send-time statusCode forced for a number */
  statusCodeFor: Map<string, number>;
  /** answer this many ms late */
  responseDelayMs: number;
  /** every delivery report POSTed, in the order they completed */
  reportsSent: SentReport[];
  /** POSTs an inbound message to `inboundUrl` */
  simulateInbound(message: { from: string; text: string; to?: string; linkId?: string }): Promise<{ status: number; body: string }>;
  /** resolves when every due delivery report has been sent */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeAfricasTalkingOptions {
  port?: number;
  credentials?: Record<string, string>;
  rateLimitPerSecond?: number | null;
  deliveryDelayMs?: number;
  outcomeFor?: Record<string, SmsOutcome>;
  statusCodeFor?: Record<string, number>;
  callbackUrl?: string | null;
  inboundUrl?: string | null;
}

/** Delivery reports in flight at once (a dispatch of 100,000 must not open 100,000 sockets). */
const REPORT_CONCURRENCY = 16;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function segments(text: string): number {
  const [single, multi] = GSM7.test(text) ? [160, 153] : [70, 67];
  const units = [...text].length;
  return units <= single ? 1 : Math.ceil(units / multi);
}

const messageId = () => `ATXid_${randomBytes(16).toString("hex")}`;
const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

async function postForm(url: string, body: Record<string, string>): Promise<{ status: number | null; text: string }> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, text: await res.text().catch(() => "") };
  } catch {
    return { status: null, text: "" };
  }
}

export async function createFakeAfricasTalking(options: FakeAfricasTalkingOptions = {}): Promise<FakeAfricasTalking> {
  /** delivery reports waiting for their time, oldest first */
  const pending: Array<{ dueAt: number; sms: FakeSms }> = [];
  const inFlight = new Set<Promise<void>>();
  let pumpTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let tokens = options.rateLimitPerSecond ?? 0;
  let refilledAt = Date.now();

  /** Takes n recipients from the bucket; false when over the rate. */
  function takeTokens(n: number): boolean {
    const rate = fake.rateLimitPerSecond;
    if (rate === null) return true;
    const now = Date.now();
    tokens = Math.min(rate, tokens + ((now - refilledAt) / 1000) * rate);
    refilledAt = now;
    if (tokens >= Math.min(n, rate)) {
      tokens -= n;
      return true;
    }
    return false;
  }

  function pump(): void {
    if (pumpTimer) clearTimeout(pumpTimer);
    pumpTimer = null;
    const now = Date.now();
    while (!closed && pending.length > 0 && inFlight.size < REPORT_CONCURRENCY && pending[0].dueAt <= now) {
      const { sms } = pending.shift()!;
      const sending = report(sms);
      inFlight.add(sending);
      void sending.finally(() => {
        inFlight.delete(sending);
        pump();
      });
    }
    if (!closed && pending.length > 0 && inFlight.size < REPORT_CONCURRENCY)
      pumpTimer = setTimeout(pump, Math.max(0, pending[0].dueAt - now));
  }

  async function report(sms: FakeSms): Promise<void> {
    const url = fake.callbackUrl;
    if (!url) return;
    const body: Record<string, string> = {
      id: sms.messageId,
      status: sms.outcome,
      phoneNumber: sms.number,
      networkCode: "63902",
      retryCount: "0",
    };
    if (sms.outcome !== "Success") body.failureReason = FAILURE_REASONS[sms.outcome];
    const { status } = await postForm(url, body);
    fake.reportsSent.push({ messageId: sms.messageId, url, body, status });
  }

  async function messaging(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const form = new URLSearchParams(raw.toString("utf8"));
    const username = form.get("username") ?? "";
    const record = (status: number, recipients: number) =>
      fake.requests.push({ at: Date.now(), form: Object.fromEntries(form), status, recipients });
    if (!username || fake.credentials.get(username) !== header(req, "apiKey")) {
      record(401, 0);
      return sendText(res, 401, "The supplied authentication is invalid");
    }
    const to = (form.get("to") ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    const text = form.get("message") ?? "";
    if (to.length === 0 || text === "") {
      record(400, 0);
      return sendText(res, 400, `Request is missing required form field '${to.length === 0 ? "to" : "message"}'`);
    }
    if (!takeTokens(to.length)) {
      record(429, to.length);
      return sendText(res, 429, "Too Many Requests", { "Retry-After": "1" });
    }

    const from = form.get("from") || null;
    const at = Date.now();
    const cost = `KES ${(segments(text) * PRICE_PER_SEGMENT).toFixed(4)}`;
    let total = 0;
    const recipients = to.map((number) => {
      const statusCode = !NUMBER.test(number) ? 403 : (fake.statusCodeFor.get(number) ?? 101);
      if (statusCode !== 101 && statusCode !== 102)
        return { statusCode, number, status: STATUS_NAMES[statusCode] ?? "Failed", cost: "0", messageId: "None" };
      const sms: FakeSms = {
        number,
        text,
        from,
        username,
        messageId: messageId(),
        at,
        outcome: fake.outcomeFor.get(number) ?? fake.outcome,
      };
      fake.sent.push(sms);
      pending.push({ dueAt: at + fake.deliveryDelayMs, sms });
      total += segments(text) * PRICE_PER_SEGMENT;
      return { statusCode, number, status: STATUS_NAMES[statusCode], cost, messageId: sms.messageId };
    });
    pump();
    record(201, to.length);
    const accepted = recipients.filter((r) => r.messageId !== "None").length;
    if (fake.responseDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.responseDelayMs));
    sendJson(res, 201, {
      SMSMessageData: { Message: `Sent to ${accepted}/${to.length} Total Cost: KES ${total.toFixed(4)}`, Recipients: recipients },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://africastalking.invalid");
    const method = req.method ?? "GET";
    if (method === "GET" && url.pathname === "/fake/messages") {
      const number = url.searchParams.get("to");
      return sendJson(res, 200, { messages: fake.sent.filter((m) => !number || m.number === number) });
    }
    if (method !== "POST" || !["/version1/messaging", "/fake/inbound"].includes(url.pathname)) return sendText(res, 404, "Not found");
    const raw = await readBody(req);
    if (raw === null) return sendText(res, 413, "Request body too large");
    if (url.pathname === "/version1/messaging") return messaging(req, res, raw);
    const form = new URLSearchParams(raw.toString("utf8"));
    const answer = await fake.simulateInbound({ from: form.get("from") ?? "", text: form.get("text") ?? "" });
    sendJson(res, 200, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, error instanceof Error ? error.message : "Internal Server Error");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });

  const fake: FakeAfricasTalking = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credentials: new Map(Object.entries(options.credentials ?? { [DEMO_AT_CREDENTIALS.username]: DEMO_AT_CREDENTIALS.apiKey })),
    sent: [],
    requests: [],
    rateLimitPerSecond: options.rateLimitPerSecond ?? null,
    deliveryDelayMs: options.deliveryDelayMs ?? 1000,
    callbackUrl: options.callbackUrl ?? null,
    inboundUrl: options.inboundUrl ?? null,
    outcomeFor: new Map(Object.entries(options.outcomeFor ?? {})),
    outcome: "Success",
    statusCodeFor: new Map(Object.entries(options.statusCodeFor ?? {})),
    responseDelayMs: 0,
    reportsSent: [],
    async simulateInbound({ from, text, to = "12345", linkId }) {
      if (!fake.inboundUrl) throw new Error("No inbound URL: pass inboundUrl or --inbound-url.");
      const date = new Date().toISOString().replace("T", " ").slice(0, 19);
      const { status, text: body } = await postForm(fake.inboundUrl, {
        from,
        to,
        text,
        date,
        id: randomBytes(16).toString("hex"),
        linkId: linkId ?? randomBytes(8).toString("hex"),
      });
      return { status: status ?? 0, body };
    },
    async idle() {
      while (pending.length > 0 || inFlight.size > 0) {
        if (inFlight.size > 0) await Promise.race(inFlight);
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closed = true;
        if (pumpTimer) clearTimeout(pumpTimer);
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "3198" },
      "delivery-url": { type: "string" },
      "inbound-url": { type: "string" },
      rate: { type: "string" },
      "delivery-delay": { type: "string", default: "1000" },
      "outcome-for": { type: "string", multiple: true, default: [] },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Bad --port: ${values.port}`);
  const rate = values.rate === undefined ? null : Number(values.rate);
  if (rate !== null && !(Number.isInteger(rate) && rate > 0))
    throw new Error(`Bad --rate: ${values.rate} (messages per second, a whole number above 0)`);
  const delay = Number(values["delivery-delay"]);
  if (!Number.isInteger(delay) || delay < 0) throw new Error(`Bad --delivery-delay: ${values["delivery-delay"]}`);
  for (const [flag, url] of [
    ["--delivery-url", values["delivery-url"]],
    ["--inbound-url", values["inbound-url"]],
  ] as const) {
    if (url !== undefined && !/^https?:\/\/[^/?#]+/.test(url)) throw new Error(`Bad ${flag}: ${url}`);
  }
  const outcomeFor: Record<string, SmsOutcome> = {};
  for (const entry of values["outcome-for"]) {
    const [number = "", outcome = ""] = entry.split("=");
    if (!NUMBER.test(number) || !["Success", "Failed", "Rejected"].includes(outcome))
      throw new Error(`Bad --outcome-for: ${entry} (NUMBER=OUTCOME, NUMBER like +254712345678, OUTCOME Success, Failed or Rejected)`);
    outcomeFor[number] = outcome as SmsOutcome;
  }
  const fake = await createFakeAfricasTalking({
    port,
    rateLimitPerSecond: rate,
    deliveryDelayMs: delay,
    outcomeFor,
    callbackUrl: values["delivery-url"],
    inboundUrl: values["inbound-url"],
  });
  console.log(`Fake Africa's Talking at ${fake.url}`);
  console.log(`  username ${DEMO_AT_CREDENTIALS.username}, API key ${DEMO_AT_CREDENTIALS.apiKey}`);
  console.log(
    `  rate ${rate === null ? "unlimited" : `${rate} messages/s`}, delivery reports after ${delay} ms to ${fake.callbackUrl ?? "(none)"}`,
  );
  if (fake.inboundUrl) console.log(`  inbound messages (POST /fake/inbound from=…&text=STOP) go to ${fake.inboundUrl}`);
  for (const [number, outcome] of fake.outcomeFor) console.log(`  ${outcome} for ${number}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
