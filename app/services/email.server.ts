import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { getEnv } from "~/env.server";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the mail is about (reset, invitation); logged when mails go to the outbox. */
  link?: string;
  attachments?: { filename: string; content: string | Buffer; contentType?: string }[];
}

let transport: nodemailer.Transporter | undefined;

/**
 * Sends through SMTP_URL; with none set, writes the message as JSON to data/outbox/ and logs
 * its link, so a fresh install can still reset a password.
 */
export async function sendEmail(email: Email): Promise<void> {
  const env = getEnv();
  if (env.SMTP_URL) {
    transport ??= nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({ from: env.MAIL_FROM, to: email.to, subject: email.subject, text: email.text, html: email.html, attachments: email.attachments });
    return;
  }
  const dir = outboxDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
  const { attachments, ...rest } = email;
  const stored = { from: env.MAIL_FROM, ...rest, attachments: attachments?.map((a) => a.filename), sentAt: new Date().toISOString() };
  await fs.writeFile(file, JSON.stringify(stored, null, 2));
  console.log(JSON.stringify({ at: new Date().toISOString(), event: "email_to_outbox", to: email.to, subject: email.subject, file, link: email.link }));
}

export function outboxDir(): string {
  return path.join(getEnv().DATA_DIR, "outbox");
}

/**
 * The app's own address for links in mails and API answers: PUBLIC_URL (configuration) only. The
 * request's Host and X-Forwarded-Host are the client's choice and never make a link.
 */
export function publicOrigin(): string {
  return getEnv().PUBLIC_URL;
}
