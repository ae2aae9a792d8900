// Broadcast mail sent so that a crash can neither lose nor repeat it (decision 0018, "exactly once").
// SMTP takes a message only at the end of its data, the lone dot after it (RFC 5321 §4.1.1.4): a
// connection that closes before the dot leaves the server nothing. So each mail goes in three steps:
//   1. the envelope and the whole message, all but the dot;
//   2. `commit`: the delivery row is recorded as sent;
//   3. the dot, and the server's answer.
// A worker that dies before 2 has sent nothing (its row is claimed again later); one that dies after
// 3 has its row recorded. Only a death in the microseconds between 2 and 3 loses the mail, and then
// it is not sent twice either.
//
// nodemailer's SMTPConnection (the library under its transports) pipes a message stream into the DATA
// command once the server said 354, and sends the dot when that stream ends. Its transports compose
// and send in one call, so this keeps its own few connections to SMTP_URL.
import { Readable } from "node:stream";
import MailComposer from "nodemailer/lib/mail-composer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { getEnv } from "~/env.server";
import { deliverEmail, type Email } from "../../email.server";

/** Connections kept open to the mail server (the broadcast's mails in flight at once). */
export const HELD_SMTP_CONNECTIONS = 10;

export type HeldOutcome =
  /** The server took the mail after the commit. */
  | { sent: true }
  /** Not sent: refused or failed before the commit (which did not run). */
  | { sent: false; committed: false; error: Error & { responseCode?: number } }
  /** Committed, then refused at the end (`responseCode`), or the answer was lost: it may have gone. */
  | { sent: false; committed: true; error: Error & { responseCode?: number } };

interface Pool {
  url: string;
  all: Set<SMTPConnection>;
  idle: SMTPConnection[];
  open: number;
  waiting: ((connection: SMTPConnection | Error) => void)[];
}

let pool: Pool | null = null;

function poolFor(url: string): Pool {
  if (pool?.url !== url) {
    closeHeldSmtp();
    pool = { url, all: new Set(), idle: [], open: 0, waiting: [] };
  }
  return pool;
}

async function connect(p: Pool): Promise<SMTPConnection> {
  const options = parseConnectionUrl(p.url);
  const connection = new SMTPConnection({ ...options, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
  await new Promise<void>((resolve, reject) => {
    connection.once("error", reject);
    connection.connect(() => {
      connection.removeListener("error", reject);
      resolve();
    });
  });
  // Errors of a connection in use reach its send's callback; an idle one that ends leaves the pool.
  p.all.add(connection);
  connection.on("error", () => {});
  connection.once("end", () => {
    p.all.delete(connection);
    if (!p.idle.includes(connection)) return;
    p.idle = p.idle.filter((c) => c !== connection);
    p.open--;
  });
  if (options.auth?.user) {
    await new Promise<void>((resolve, reject) =>
      connection.login({ user: options.auth!.user!, pass: options.auth!.pass ?? "" }, (error) => (error ? reject(error) : resolve())),
    );
  }
  return connection;
}

async function acquire(p: Pool): Promise<SMTPConnection> {
  const ready = p.idle.pop();
  if (ready) return ready;
  if (p.open < HELD_SMTP_CONNECTIONS) {
    p.open++;
    try {
      return await connect(p);
    } catch (error) {
      p.open--;
      wakeOne(p);
      throw error;
    }
  }
  const next = await new Promise<SMTPConnection | Error>((resolve) => p.waiting.push(resolve));
  if (next instanceof Error) throw next;
  return next;
}

/** A waiter gets a new connection when one closed (or failed to open). */
function wakeOne(p: Pool): void {
  const waiter = p.waiting.shift();
  if (!waiter) return;
  p.open++;
  connect(p).then(waiter, (error: Error) => {
    p.open--;
    waiter(error);
    wakeOne(p);
  });
}

function giveBack(p: Pool, connection: SMTPConnection, reusable: boolean): void {
  if (!reusable || pool !== p) {
    connection.close();
    if (pool === p) {
      p.open--;
      wakeOne(p);
    }
    return;
  }
  const waiter = p.waiting.shift();
  if (waiter) waiter(connection);
  else p.idle.push(connection);
}

/**
 * Sends `email` so that the mail server takes it only once `commit` has resolved (see the top of the
 * file). Without SMTP_URL the mail goes to the outbox after the commit.
 */
export async function sendHeldMail(email: Email, commit: () => Promise<void>): Promise<HeldOutcome> {
  const env = getEnv();
  if (!env.SMTP_URL) {
    await commit();
    await deliverEmail(email);
    return { sent: true };
  }
  const composed = new MailComposer({
    from: env.MAIL_FROM,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    attachments: email.attachments,
    headers: email.headers,
  }).compile();
  const envelope = composed.getEnvelope();
  const bytes = await composed.build();

  const p = poolFor(env.SMTP_URL);
  let connection: SMTPConnection;
  try {
    connection = await acquire(p);
  } catch (error) {
    return { sent: false, committed: false, error: error as Error };
  }

  // The message: all its bytes as soon as DATA is accepted, its end only after the commit.
  let staged!: () => void;
  const dataAccepted = new Promise<void>((resolve) => (staged = resolve));
  let release!: (end: boolean) => void;
  const released = new Promise<boolean>((resolve) => (release = resolve));
  let reads = 0;
  const message = new Readable({
    read() {
      if (reads++ === 0) {
        this.push(bytes);
        staged();
      } else if (reads === 2) {
        void released.then((end) =>
          end ? this.push(null) : this.destroy(new Error("The delivery could not be recorded; the mail was not finished.")),
        );
      }
    },
  });
  const answered = new Promise<void>((resolve, reject) =>
    connection.send({ from: envelope.from || "", to: envelope.to }, message, (error) => (error ? reject(error) : resolve())),
  );
  const beforeData = await Promise.race([
    dataAccepted.then(() => null),
    answered.then(
      () => null,
      (error: Error) => error,
    ),
  ]);
  if (beforeData) {
    giveBack(p, connection, false);
    return { sent: false, committed: false, error: beforeData };
  }
  try {
    await commit();
  } catch (error) {
    // Not recorded, so not sent: the unfinished message goes with its connection.
    release(false);
    answered.catch(() => {});
    giveBack(p, connection, false);
    throw error;
  }
  release(true);
  try {
    await answered;
    giveBack(p, connection, true);
    return { sent: true };
  } catch (error) {
    giveBack(p, connection, false);
    return { sent: false, committed: true, error: error as Error };
  }
}

/** Closes every connection, mails in flight included (their servers drop them unfinished): tests, and a worker shutting down. */
export function closeHeldSmtp(): void {
  for (const connection of pool?.all ?? []) connection.close();
  pool = null;
}
