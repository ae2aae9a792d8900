// Mail goes out through the job queue: with the SMTP server down, asking
// for a password reset answers exactly as for an unknown account (no error, no account oracle), and
// the mail is retried and ends as a visible dead letter; the outbox log names no live link.
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import * as apiForgot from "~/routes/account+/api.v1.auth.password.forgot";
import * as forgot from "~/routes/_auth+/password.forgot";
import { claimJob } from "~/services/jobs/queue.server";
import { JOB_TYPES } from "~/services/jobs/index.server";
import { runJob } from "~/services/jobs/worker.server";
import { deliverEmail } from "~/services/email.server";
import { makeRequest, makeUser, run } from "../fixtures";
import { startTestSmtp } from "../fixtures/smtp";

// A real SMTP server that refuses every recipient: the mail server is "down" for this file.
const smtp = await startTestSmtp();
process.env.SMTP_URL = smtp.url;
afterAll(() => smtp.close());
beforeEach(() => {
  smtp.refuse = true;
});

async function forgotPage(loginId: string) {
  const res = await run(() =>
    forgot.action({
      request: makeRequest("/password/forgot", { form: { login_id: loginId } }),
      params: {},
      context: { clientAddress: `198.51.100.${Math.floor(Math.random() * 250)}` },
    }),
  );
  return { status: res.status, location: res.headers.get("Location"), body: await res.text() };
}

async function forgotApi(loginId: string) {
  const request = new Request("http://localhost/account/api/v1/auth/password/forgot", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ login_id: loginId }),
  });
  const res = await run(() =>
    apiForgot.action({ request, params: {}, context: { clientAddress: `203.0.113.${Math.floor(Math.random() * 250)}` } }),
  );
  return { status: res.status, body: await res.text() };
}

describe("mail through the job queue", () => {
  it("answers a reset request for a real account exactly as for an unknown one while SMTP is down", async () => {
    expect(getEnv().SMTP_URL).toBe(smtp.url);
    const known = await makeUser({ email: `known-${randomUUID()}@example.com` });
    const unknown = `nobody-${randomUUID()}@example.com`;
    const [a, b] = [await forgotPage(known.email), await forgotPage(unknown)];
    expect(a.status).toBe(b.status);
    expect(a.status).toBeLessThan(500);
    expect(a.body).toBe(b.body);
    expect(a.location).toBe(b.location);
    const [c, d] = [await forgotApi(known.email), await forgotApi(unknown)];
    expect(c).toEqual(d);
    expect(c.status).toBe(200);
  });

  it("retries a mail SMTP refuses, then leaves it as a dead letter with the error", async () => {
    const user = await makeUser({ email: `retry-${randomUUID()}@example.com` });
    await forgotPage(user.email);
    const job = await db.selectFrom("jobs").select(["id", "max_attempts"]).where("type", "=", "email.send").executeTakeFirstOrThrow();
    let now = Date.now();
    for (let attempt = 1; attempt <= job.max_attempts; attempt++) {
      const claimed = await claimJob(now);
      expect(claimed?.id).toBe(job.id);
      await runJob(claimed!, JOB_TYPES);
      now = Number((await db.selectFrom("jobs").select("run_at").where("id", "=", job.id).executeTakeFirstOrThrow()).run_at);
    }
    const row = await db.selectFrom("jobs").select(["status", "attempts", "last_error"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(job.max_attempts);
    expect(row.last_error).toMatch(/Mailbox unavailable|550/);
    expect(smtp.received).toHaveLength(0);
  });

  it("delivers the queued mail once SMTP is back", async () => {
    const user = await makeUser({ email: `back-${randomUUID()}@example.com` });
    await forgotPage(user.email);
    smtp.refuse = false;
    await runJob((await claimJob())!, JOB_TYPES);
    expect(smtp.received.map((m) => m.to)).toEqual([[user.email]]);
  });
});

describe("the outbox", () => {
  it("logs only that a mail was written and its file name: never its link, recipient or subject", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const env = getEnv() as { SMTP_URL?: string };
    let lines: string[];
    try {
      env.SMTP_URL = undefined; // no SMTP server configured: the outbox
      await deliverEmail({
        to: "amina.otieno@example.com",
        subject: "Reset your password, Amina",
        text: "…",
        link: "http://localhost/password/reset/LIVE-TOKEN-123",
      });
      lines = log.mock.calls.map((c) => String(c[0]));
    } finally {
      env.SMTP_URL = smtp.url;
      log.mockRestore();
    }
    const line = lines.find((l) => l.includes("email_to_outbox"));
    expect(line).toBeDefined();
    expect(line).not.toContain("LIVE-TOKEN-123");
    expect(line).not.toContain("amina");
    expect(line).not.toContain("Reset your password");
    expect(Object.keys(JSON.parse(line!)).sort()).toEqual(["at", "event", "file"]);
    expect(JSON.parse(line!).file).toMatch(/outbox/);
  });
});
