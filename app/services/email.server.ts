import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { getEnv } from "~/env.server";
import { enqueue } from "./jobs/queue.server";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the mail is about (reset, invitation): kept in the outbox file, never logged. */
  link?: string;
  attachments?: { filename: string; content: string | Buffer; contentType?: string }[];
  /** Extra headers (a broadcast's List-Unsubscribe and Message-ID); kept in the outbox file too. */
  headers?: Record<string, string>;
}

/** An e-mail as a job's JSON payload (attachments in base64). */
export type EmailPayload = Omit<Email, "attachments"> & { attachments?: { filename: string; base64: string; contentType?: string }[] };

/** A mail tries this many times (over about two hours of backoff) before it is a dead letter. */
const EMAIL_ATTEMPTS = 8;

/**
 * Queues a mail (job `email.send`): the request that asks for it never waits for, or fails with, the
 * SMTP server, and a mail that cannot be delivered now is retried (app/services/jobs).
 */
export async function sendEmail(email: Email): Promise<void> {
  const payload: EmailPayload = {
    ...email,
    attachments: email.attachments?.map((a) => ({
      filename: a.filename,
      base64: Buffer.from(a.content).toString("base64"),
      contentType: a.contentType,
    })),
  };
  await enqueue("email.send", payload, { maxAttempts: EMAIL_ATTEMPTS });
}

export function emailFromPayload(payload: EmailPayload): Email {
  return {
    ...payload,
    attachments: payload.attachments?.map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.base64, "base64"),
      contentType: a.contentType,
    })),
  };
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

/**
 * Delivers a mail now: through SMTP_URL, or with none set, as JSON in data/outbox/ (so a fresh
 * install can still reset a password). Throws when SMTP refuses; the caller retries.
 */
export async function deliverEmail(email: Email): Promise<void> {
  const env = getEnv();
  if (env.SMTP_URL) {
    transport ??= nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({
      from: env.MAIL_FROM,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      attachments: email.attachments,
      headers: email.headers,
    });
    return;
  }
  const dir = outboxDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
  const { attachments, ...rest } = email;
  const stored = { from: env.MAIL_FROM, ...rest, attachments: attachments?.map((a) => a.filename), sentAt: new Date().toISOString() };
  await fs.writeFile(file, JSON.stringify(stored, null, 2));
  // The log says that a mail was written and names its file, nothing more: the link may carry a live
  // token, and the recipient and subject are personal data (who was invited, who reset a password).
  console.log(JSON.stringify({ at: new Date().toISOString(), event: "email_to_outbox", file }));
}

export function outboxDir(): string {
  return path.join(getEnv().DATA_DIR, "outbox");
}

/** Whether mail really leaves this machine (SMTP_URL is set); without it, mails are files in outboxDir(). */
export function mailGoesOut(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/**
 * What administrators are told instead of "sent" when no SMTP_URL is set: the mail
 * (`what`, e.g. "The invitation to ama@example.com") is kept in the outbox folder, with its path.
 * null when mail really goes out.
 */
export function outboxNotice(what: string): string | null {
  const folder = outboxFolder();
  return folder === null ? null : `${what} was not sent: no mail server is set (SMTP_URL), so it is kept in the outbox folder ${folder}.`;
}

/** The outbox folder's full path when mail stays on this machine; null when it really goes out. */
export function outboxFolder(): string | null {
  return mailGoesOut() ? null : path.resolve(outboxDir());
}

/**
 * The app's own address for links in mails and API answers: PUBLIC_URL (configuration) only. The
 * request's Host and X-Forwarded-Host are the client's choice and never make a link.
 */
export function publicOrigin(): string {
  return getEnv().PUBLIC_URL;
}
