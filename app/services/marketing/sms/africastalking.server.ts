// Africa's Talking, the first SMS provider:
//   POST {base}/version1/messaging   header apiKey; form username, to (comma-separated), message,
//                                    from (optional), bulkSMSMode=1
//   → 201 { SMSMessageData: { Message, Recipients: [{ statusCode, number, status, cost, messageId }] } }
// Delivery reports come later to the callback URL set in Africa's Talking's dashboard (see
// app/guest/sms.ts); parseDeliveryReport reads one.
//
// Failures, and what may be tried again:
//   - the request as a whole (nothing reached, a timeout, HTTP 429 or 5xx, refused credentials, an
//     answer of another shape) throws SmsProviderError, with `retryable` saying whether the same
//     request could succeed later (429, 5xx, unreachable: yes; 401 and other 4xx: no);
//   - each recipient's statusCode: 100/101/102 sent; 405 InsufficientBalance, 500 InternalServerError
//     and 501 GatewayError are failures worth trying again (a top-up, an outage); every other code
//     (a bad number, a blacklisted user, a refused sender ID…) is final.
// A timeout is ambiguous (Africa's Talking may have taken the message): `kind` says so, so the caller
// can choose at-most-once over a retry.
import { getEnv } from "~/env.server";
import { normalizePhone } from "~/lib/phone";
import type { SmsDeliveryReport, SmsProvider, SmsSendResult } from "./provider.server";

export const AFRICASTALKING_URLS = {
  live: "https://api.africastalking.com",
  sandbox: "https://api.sandbox.africastalking.com",
} as const;

/** The username Africa's Talking gives every sandbox app. */
export const SANDBOX_USERNAME = "sandbox";

const DEFAULT_TIMEOUT_MS = 30_000;

/** Where to send: the stand-in (default AFRICASTALKING_URL, for tests and the demo) when set, else sandbox or live by the username. */
export function africasTalkingBaseUrl(username: string, standIn: string | undefined = getEnv().AFRICASTALKING_URL): string {
  return standIn ?? (username === SANDBOX_USERNAME ? AFRICASTALKING_URLS.sandbox : AFRICASTALKING_URLS.live);
}

export type SmsProviderErrorKind = "unreachable" | "timeout" | "auth" | "rate_limited" | "server" | "rejected" | "unexpected";

/** A send that got no per-recipient answer. The message is in words an operator can act on (no secrets). */
export class SmsProviderError extends Error {
  constructor(
    readonly kind: SmsProviderErrorKind,
    message: string,
    readonly retryable: boolean,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = "SmsProviderError";
  }
}

/** Per-recipient status codes: sent, or the failure's name and whether it is worth trying again. */
const SENT_CODES = new Set([100, 101, 102]);
const FAILURES: Record<number, { name: string; retryable: boolean }> = {
  401: { name: "RiskHold", retryable: false },
  402: { name: "InvalidSenderId", retryable: false },
  403: { name: "InvalidPhoneNumber", retryable: false },
  404: { name: "UnsupportedNumberType", retryable: false },
  405: { name: "InsufficientBalance", retryable: true },
  406: { name: "UserInBlacklist", retryable: false },
  407: { name: "CouldNotRoute", retryable: false },
  409: { name: "DoNotDisturbRejection", retryable: false },
  500: { name: "InternalServerError", retryable: true },
  501: { name: "GatewayError", retryable: true },
  502: { name: "RejectedByGateway", retryable: false },
};

export interface AfricasTalkingOptions {
  baseUrl: string;
  username: string;
  apiKey: string;
  timeoutMs?: number;
}

interface Recipient {
  statusCode: number;
  number: string;
  status: string;
  cost: string | null;
  messageId: string | null;
}

const digitsOf = (number: string) => number.replace(/\D/g, "");
const text = (value: unknown): string | null =>
  typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : null;

/** The Recipients of a 2xx answer; null when the answer has another shape. */
function recipientsOf(body: unknown): Recipient[] | null {
  const data = (body as { SMSMessageData?: { Recipients?: unknown } } | null)?.SMSMessageData;
  if (!data || !Array.isArray(data.Recipients)) return null;
  const recipients: Recipient[] = [];
  for (const item of data.Recipients as unknown[]) {
    const r = (item ?? {}) as Record<string, unknown>;
    const statusCode = Number(r.statusCode);
    const number = text(r.number);
    if (!Number.isInteger(statusCode) || number === null) return null;
    const messageId = text(r.messageId);
    recipients.push({
      statusCode,
      number,
      status: text(r.status) ?? "",
      cost: text(r.cost),
      messageId: messageId && messageId !== "None" ? messageId : null,
    });
  }
  return recipients;
}

function resultOf(to: string, recipient: Recipient | undefined): SmsSendResult {
  if (!recipient)
    return {
      to,
      status: "failed",
      messageId: null,
      cost: null,
      error: "Africa's Talking gave no answer for this number.",
      retryable: false,
    };
  if (SENT_CODES.has(recipient.statusCode))
    return { to, status: "sent", messageId: recipient.messageId, cost: recipient.cost, error: null, retryable: false };
  const known = FAILURES[recipient.statusCode];
  const name = recipient.status || known?.name || "Failed";
  return {
    to,
    status: "failed",
    messageId: null,
    cost: null,
    error: `${name} (${recipient.statusCode})`,
    retryable: known?.retryable ?? false,
  };
}

async function requestError(response: Response): Promise<SmsProviderError> {
  const said = (await response.text().catch(() => "")).replace(/\s+/g, " ").trim().slice(0, 200);
  const status = response.status;
  if (status === 401 || status === 403)
    return new SmsProviderError("auth", "Africa's Talking refused the username or API key.", false, status);
  if (status === 429)
    return new SmsProviderError(
      "rate_limited",
      "Africa's Talking is limiting how fast messages are sent; they will be tried again.",
      true,
      status,
    );
  if (status >= 500)
    return new SmsProviderError(
      "server",
      `Africa's Talking had a problem (HTTP ${status}); the messages will be tried again.`,
      true,
      status,
    );
  return new SmsProviderError(
    "rejected",
    `Africa's Talking refused the request (HTTP ${status})${said ? `: ${said}` : "."}`,
    false,
    status,
  );
}

/** An SmsProvider sending through Africa's Talking. */
export function africasTalking(options: AfricasTalkingOptions): SmsProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/version1/messaging`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async send({ to, text: message, from }, commit) {
      if (to.length === 0) return [];
      const form = new URLSearchParams({ username: options.username, to: to.join(","), message, bulkSMSMode: "1" });
      if (from) form.set("from", from);
      const held = commit ? holdLastByte(Buffer.from(form.toString())) : null;
      const answer = fetch(endpoint, {
        method: "POST",
        headers: { apiKey: options.apiKey, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body: held ? held.body : form.toString(),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
        ...(held ? { duplex: "half" } : {}),
      } as RequestInit);
      if (held && commit) {
        // An answer before the whole request went (a refusal of the headers) means nothing was sent.
        const first = await Promise.race([
          held.staged.then(() => "staged" as const),
          answer.then(
            () => "answered" as const,
            () => "failed" as const,
          ),
        ]);
        if (first === "staged") {
          try {
            await commit();
          } catch (error) {
            held.release(false);
            answer.catch(() => {});
            throw error;
          }
          held.release(true);
        }
      }
      let response: Response;
      try {
        response = await answer;
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === "TimeoutError";
        throw timedOut
          ? new SmsProviderError("timeout", `Africa's Talking did not answer within ${Math.round(timeoutMs / 1000)} seconds.`, true)
          : new SmsProviderError("unreachable", "Could not reach Africa's Talking; the messages will be tried again.", true);
      }
      if (!response.ok) throw await requestError(response);
      const recipients = recipientsOf(await response.json().catch(() => null));
      if (!recipients)
        throw new SmsProviderError("unexpected", "Africa's Talking answered in a way Mlango does not understand.", false, response.status);

      // Matched by number (the answer's order is not promised); a number sent twice takes its answers in turn.
      const byNumber = new Map<string, Recipient[]>();
      for (const r of recipients) byNumber.set(digitsOf(r.number), [...(byNumber.get(digitsOf(r.number)) ?? []), r]);
      return to.map((number) => resultOf(number, byNumber.get(digitsOf(number))?.shift()));
    },
  };
}

/**
 * A request body whose last byte waits for `release(true)` (SmsProvider's commit): `staged` resolves
 * once the HTTP client has taken the rest, i.e. the request is on its way; `release(false)` fails the
 * body, so the request is dropped unfinished and Africa's Talking never acts on it.
 */
function holdLastByte(bytes: Buffer) {
  let staged!: () => void;
  const stagedPromise = new Promise<void>((resolve) => (staged = resolve));
  let release!: (send: boolean) => void;
  const released = new Promise<boolean>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.length - 1));
    },
    // Called once the first chunk was taken; not again until this settles.
    async pull(controller) {
      staged();
      if (await released) {
        controller.enqueue(bytes.subarray(bytes.length - 1));
        controller.close();
      } else controller.error(new Error("The messages could not be recorded; the request was not finished."));
    },
  });
  return { body, staged: stagedPromise, release };
}

const FAILED_STATUSES = new Set(["Rejected", "Failed", "Expired"]);

/**
 * A delivery report as Africa's Talking POSTs it (form fields id, status, phoneNumber, networkCode,
 * failureReason, retryCount); null when it is not one. Success is delivered; Rejected, Failed and
 * Expired are final failures; anything else (Sent, Submitted, Buffered, AbsentSubscriber — the
 * network still tries) is on its way.
 */
export function parseDeliveryReport(body: unknown): SmsDeliveryReport | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const fields = body as Record<string, unknown>;
  const messageId = text(fields.id)?.trim();
  const status = text(fields.status)?.trim();
  if (!messageId || messageId.length > 100 || !status || status.length > 50) return null;
  const outcome = status === "Success" ? "delivered" : FAILED_STATUSES.has(status) ? "failed" : "pending";
  const phone = text(fields.phoneNumber);
  const reason = text(fields.failureReason)?.trim().slice(0, 200) || null;
  return {
    messageId,
    outcome,
    phoneNumber: phone ? normalizePhone(phone.slice(0, 32)) : null,
    failureReason: outcome === "failed" ? (reason ?? status) : null,
  };
}
