// One interface for SMS providers: Africa's Talking first; a second provider
// implements the same two calls. The dispatch job sends through it and never knows the vendor.

/** One recipient's answer to a send. */
export interface SmsSendResult {
  /** The number as sent (E.164, +2547…). */
  to: string;
  /** sent: the provider took it (its delivery report comes later); failed: it refused this number. */
  status: "sent" | "failed";
  messageId: string | null;
  /** As the provider reports it, e.g. "KES 0.8000". */
  cost: string | null;
  /** The provider's words when it failed. */
  error: string | null;
  /** A failure worth trying again later (the provider's throttling or an outage), not a bad number. */
  retryable: boolean;
}

export interface SmsProvider {
  /**
   * Sends one text to several numbers in one request. Throws (to be retried with backoff) when the
   * provider cannot be reached or answers with a server error; answers per-recipient results otherwise.
   *
   * `commit`, when given, records the messages as sent. The provider awaits it after everything of
   * the request but its last byte has gone, and sends that byte only once it resolved (if it throws,
   * the request is dropped unfinished and its error thrown): a provider acts only on a whole
   * request, so a sender that dies before the commit has sent nothing, and one that dies after it has
   * recorded what it sent (decision 0018).
   */
  send(message: { to: string[]; text: string; from: string | null }, commit?: () => Promise<void>): Promise<SmsSendResult[]>;
}

/** A delivery report as providers send it, normalised. */
export interface SmsDeliveryReport {
  messageId: string;
  /** Final: delivered or failed; else still on its way (Sent, Buffered, Submitted). */
  outcome: "delivered" | "failed" | "pending";
  phoneNumber: string | null;
  failureReason: string | null;
}
