// The Africa's Talking adapter against the fake Africa's Talking (scripts/fakes/africastalking.ts):
// the documented request, per-recipient answers (sent, a bad number, failures worth retrying or
// not), whole-request failures (refused credentials, the rate limit, a server error, an answer of
// another shape, a timeout, nothing listening) as SmsProviderError, the addresses chosen by the
// username and AFRICASTALKING_URL, and reading delivery reports.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getEnv } from "~/env.server";
import {
  africasTalking,
  africasTalkingBaseUrl,
  AFRICASTALKING_URLS,
  parseDeliveryReport,
  SmsProviderError,
} from "~/services/marketing/sms/africastalking.server";
import { createFakeAfricasTalking, DEMO_AT_CREDENTIALS, type FakeAfricasTalking } from "../../scripts/fakes/africastalking";

let fake: FakeAfricasTalking;
let receiver: Server;
let receiverUrl: string;
const received: Array<Record<string, string>> = [];

beforeAll(async () => {
  // Where the fake's delivery reports go: a listener that keeps them.
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ contentType: req.headers["content-type"] ?? "", ...Object.fromEntries(new URLSearchParams(body)) });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/delivery`;
  fake = await createFakeAfricasTalking({ deliveryDelayMs: 10, callbackUrl: receiverUrl });
});
afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(async () => {
  await fake.idle();
  received.length = 0;
  fake.rateLimitPerSecond = null;
  fake.responseDelayMs = 0;
  fake.outcome = "Success";
  fake.outcomeFor.clear();
  fake.statusCodeFor.clear();
});

const provider = (overrides: Partial<Parameters<typeof africasTalking>[0]> = {}) =>
  africasTalking({ baseUrl: fake.url, username: DEMO_AT_CREDENTIALS.username, apiKey: DEMO_AT_CREDENTIALS.apiKey, ...overrides });

/** A throwaway HTTP server answering every request the same way. */
async function answering(status: number, body: string, type = "application/json") {
  const server = createServer((_req, res) => {
    res.writeHead(status, { "Content-Type": type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function thrown(promise: Promise<unknown>): Promise<SmsProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsProviderError);
  return error as SmsProviderError;
}

describe("sending", () => {
  it("posts the documented form and answers each recipient with its message id and cost", async () => {
    const before = fake.requests.length;
    const results = await provider().send({ to: ["+254712000001", "+254733000002"], text: "Karibu tena! 20% off today.", from: "MLANGO" });
    expect(results).toEqual([
      {
        to: "+254712000001",
        status: "sent",
        messageId: expect.stringMatching(/^ATXid_/),
        cost: "KES 0.8000",
        error: null,
        retryable: false,
      },
      {
        to: "+254733000002",
        status: "sent",
        messageId: expect.stringMatching(/^ATXid_/),
        cost: "KES 0.8000",
        error: null,
        retryable: false,
      },
    ]);
    expect(fake.requests.length - before).toBe(1);
    expect(fake.requests.at(-1)).toMatchObject({
      status: 201,
      recipients: 2,
      form: {
        username: DEMO_AT_CREDENTIALS.username,
        to: "+254712000001,+254733000002",
        message: "Karibu tena! 20% off today.",
        from: "MLANGO",
        bulkSMSMode: "1",
      },
    });
    expect(fake.sent.slice(-2).map((m) => [m.number, m.messageId])).toEqual(results.map((r) => [r.to, r.messageId]));
  });

  it("holds the request's last byte until the commit: the provider has nothing before it, the whole request after", async () => {
    const before = fake.requests.length;
    let atCommit = -1;
    const results = await provider().send({ to: ["+254712000011", "+254733000012"], text: "Held", from: null }, async () => {
      await new Promise((r) => setTimeout(r, 100));
      atCommit = fake.requests.length - before;
    });
    expect(atCommit).toBe(0);
    expect(fake.requests.length - before).toBe(1);
    expect(fake.requests.at(-1)).toMatchObject({
      status: 201,
      recipients: 2,
      form: { to: "+254712000011,+254733000012", message: "Held", bulkSMSMode: "1" },
    });
    expect(results.map((r) => r.status)).toEqual(["sent", "sent"]);
  });

  it("drops the request unfinished when the commit fails: the provider acts on nothing", async () => {
    const before = fake.requests.length;
    const sent = fake.sent.length;
    await expect(
      provider().send({ to: ["+254712000013"], text: "Never", from: null }, () => Promise.reject(new Error("database gone"))),
    ).rejects.toThrow("database gone");
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests.length).toBe(before);
    expect(fake.sent.length).toBe(sent);
  });

  it("sends no from field when there is no sender ID, and nothing at all for no numbers", async () => {
    await provider().send({ to: ["+254712000003"], text: "Hi", from: null });
    expect(fake.requests.at(-1)!.form).not.toHaveProperty("from");
    const before = fake.requests.length;
    expect(await provider().send({ to: [], text: "Hi", from: null })).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it("fails a bad number for good and still sends to the others", async () => {
    const results = await provider().send({ to: ["0712", "+254712000004"], text: "Hi", from: null });
    expect(results[0]).toEqual({
      to: "0712",
      status: "failed",
      messageId: null,
      cost: null,
      error: "InvalidPhoneNumber (403)",
      retryable: false,
    });
    expect(results[1]).toMatchObject({ to: "+254712000004", status: "sent" });
  });

  it("marks InsufficientBalance and the provider's own errors as worth retrying, a blacklisted user not", async () => {
    fake.statusCodeFor.set("+254712000005", 405);
    fake.statusCodeFor.set("+254712000006", 500);
    fake.statusCodeFor.set("+254712000007", 406);
    fake.statusCodeFor.set("+254712000008", 102);
    const results = await provider().send({
      to: ["+254712000005", "+254712000006", "+254712000007", "+254712000008"],
      text: "Hi",
      from: null,
    });
    expect(results.map((r) => [r.status, r.error, r.retryable])).toEqual([
      ["failed", "InsufficientBalance (405)", true],
      ["failed", "InternalServerError (500)", true],
      ["failed", "UserInBlacklist (406)", false],
      ["sent", null, false], // 102 Queued: taken
    ]);
  });

  it("hands the fake's delivery reports to the callback URL, form-encoded, with each number's outcome", async () => {
    fake.outcomeFor.set("+254712000010", "Failed");
    const results = await provider().send({ to: ["+254712000009", "+254712000010"], text: "Hi", from: null });
    await fake.idle();
    const byId = new Map(received.map((r) => [r.id, r]));
    expect(byId.get(results[0].messageId!)).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      status: "Success",
      phoneNumber: "+254712000009",
      networkCode: "63902",
    });
    expect(byId.get(results[1].messageId!)).toMatchObject({
      status: "Failed",
      phoneNumber: "+254712000010",
      failureReason: "DeliveryFailure",
    });
    expect(byId.get(results[0].messageId!)).not.toHaveProperty("failureReason");
  });
});

describe("whole-request failures", () => {
  it("throws a final auth error for a wrong API key or username, and the fake sends nothing", async () => {
    const sent = fake.sent.length;
    for (const wrong of [provider({ apiKey: "not-the-key" }), provider({ username: "someone-else" })]) {
      const error = await thrown(wrong.send({ to: ["+254712000011"], text: "Hi", from: null }));
      expect(error).toMatchObject({
        kind: "auth",
        retryable: false,
        httpStatus: 401,
        message: "Africa's Talking refused the username or API key.",
      });
      expect(error.message).not.toContain("not-the-key");
    }
    expect(fake.sent.length).toBe(sent);
  });

  it("throws a retryable rate-limit error over the fake's rate, and sends again once the second has passed", async () => {
    fake.rateLimitPerSecond = 2;
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a full bucket
    const sent = fake.sent.length;
    await provider().send({ to: ["+254712000012", "+254712000013"], text: "Hi", from: null });
    const error = await thrown(provider().send({ to: ["+254712000014"], text: "Hi", from: null }));
    expect(error).toMatchObject({ kind: "rate_limited", retryable: true, httpStatus: 429 });
    expect(fake.sent.length - sent).toBe(2);
    expect(fake.requests.at(-1)).toMatchObject({ status: 429 });

    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await provider().send({ to: ["+254712000014"], text: "Hi", from: null }))[0].status).toBe("sent");
  });

  it("throws a retryable error for a server error, and a final one for another refusal or an answer of another shape", async () => {
    const cases = [
      { status: 503, body: "Service Unavailable", type: "text/plain", expected: { kind: "server", retryable: true, httpStatus: 503 } },
      {
        status: 400,
        body: "Invalid senderId",
        type: "text/plain",
        expected: {
          kind: "rejected",
          retryable: false,
          httpStatus: 400,
          message: "Africa's Talking refused the request (HTTP 400): Invalid senderId",
        },
      },
      {
        status: 201,
        body: JSON.stringify({ SMSMessageData: { Message: "??" } }),
        type: "application/json",
        expected: { kind: "unexpected", retryable: false },
      },
      { status: 201, body: "<html>proxy</html>", type: "text/html", expected: { kind: "unexpected", retryable: false } },
    ];
    for (const c of cases) {
      const server = await answering(c.status, c.body, c.type);
      try {
        expect(await thrown(provider({ baseUrl: server.url }).send({ to: ["+254712000015"], text: "Hi", from: null }))).toMatchObject(
          c.expected,
        );
      } finally {
        await server.close();
      }
    }
  });

  it("fails a number the answer leaves out, for good (it may have been sent)", async () => {
    const body = {
      SMSMessageData: {
        Message: "Sent to 1/2",
        Recipients: [{ statusCode: 101, number: "+254712000016", status: "Success", cost: "KES 0.8000", messageId: "ATXid_1" }],
      },
    };
    const server = await answering(201, JSON.stringify(body));
    try {
      const results = await provider({ baseUrl: server.url }).send({ to: ["+254712000016", "+254712000017"], text: "Hi", from: null });
      expect(results.map((r) => [r.to, r.status, r.messageId, r.retryable])).toEqual([
        ["+254712000016", "sent", "ATXid_1", false],
        ["+254712000017", "failed", null, false],
      ]);
    } finally {
      await server.close();
    }
  });

  it("throws a timeout (retryable, but ambiguous) when the answer is late, and unreachable when nothing listens", async () => {
    fake.responseDelayMs = 400;
    const late = await thrown(provider({ timeoutMs: 100 }).send({ to: ["+254712000018"], text: "Hi", from: null }));
    expect(late).toMatchObject({ kind: "timeout", retryable: true });

    const gone = await createFakeAfricasTalking();
    const goneUrl = gone.url;
    await gone.close();
    expect(await thrown(provider({ baseUrl: goneUrl }).send({ to: ["+254712000019"], text: "Hi", from: null }))).toMatchObject({
      kind: "unreachable",
      retryable: true,
    });
  });
});

describe("where it sends", () => {
  it("uses AFRICASTALKING_URL when set, else the sandbox for the sandbox username and the live API for others", () => {
    const saved = getEnv().AFRICASTALKING_URL;
    try {
      getEnv().AFRICASTALKING_URL = undefined;
      expect(africasTalkingBaseUrl("sandbox")).toBe(AFRICASTALKING_URLS.sandbox);
      expect(africasTalkingBaseUrl("acme-cafe")).toBe(AFRICASTALKING_URLS.live);
      expect(AFRICASTALKING_URLS).toEqual({ live: "https://api.africastalking.com", sandbox: "https://api.sandbox.africastalking.com" });
      getEnv().AFRICASTALKING_URL = fake.url;
      expect(africasTalkingBaseUrl("acme-cafe")).toBe(fake.url);
      expect(africasTalkingBaseUrl("sandbox")).toBe(fake.url);
    } finally {
      getEnv().AFRICASTALKING_URL = saved;
    }
  });
});

describe("reading delivery reports", () => {
  it.each([
    [
      { id: "ATXid_1", status: "Success", phoneNumber: "+254712000001", networkCode: "63902" },
      { messageId: "ATXid_1", outcome: "delivered", phoneNumber: "+254712000001", failureReason: null },
    ],
    [
      { id: "ATXid_2", status: "Failed", phoneNumber: "0712000002", failureReason: "DeliveryFailure" },
      { messageId: "ATXid_2", outcome: "failed", phoneNumber: "+254712000002", failureReason: "DeliveryFailure" },
    ],
    [
      { id: "ATXid_3", status: "Rejected", phoneNumber: "+254712000003" },
      { messageId: "ATXid_3", outcome: "failed", phoneNumber: "+254712000003", failureReason: "Rejected" },
    ],
    [
      { id: "ATXid_4", status: "Buffered", phoneNumber: "+254712000004", failureReason: "ignored" },
      { messageId: "ATXid_4", outcome: "pending", phoneNumber: "+254712000004", failureReason: null },
    ],
    [
      { id: "ATXid_5", status: "Sent" },
      { messageId: "ATXid_5", outcome: "pending", phoneNumber: null, failureReason: null },
    ],
    [
      { id: "ATXid_6", status: "Success", phoneNumber: "not a number" },
      { messageId: "ATXid_6", outcome: "delivered", phoneNumber: null, failureReason: null },
    ],
  ])("reads %o", (body, expected) => {
    expect(parseDeliveryReport(body)).toEqual(expected);
  });

  it.each([
    [null],
    [[]],
    ["id=1"],
    [{}],
    [{ id: "ATXid_1" }],
    [{ status: "Success" }],
    [{ id: "", status: "Success" }],
    [{ id: ["a"], status: "Success" }],
    [{ id: "x".repeat(101), status: "Success" }],
  ])("refuses %o", (body) => {
    expect(parseDeliveryReport(body)).toBeNull();
  });
});
