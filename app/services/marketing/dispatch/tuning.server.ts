// The dispatch's constants (decision 0018). Constants rather than environment settings: they are
// what the measurements were made with; tests and the benchmark change them on this object.
const MINUTE_MS = 60_000;

export const DISPATCH_TUNING = {
  /**
   * A send job works one time slice of one organisation and channel, and no other job works the
   * same slice (dedupe key), so the organisation's rate holds whatever the number of workers.
   * Its last second is left empty (sender.server.ts), so at least 2 s; far below the job lease (5 minutes).
   */
  sliceMs: 10_000,
  /** E-mail pace per organisation (the SMTP relay's limit); SMS uses the organisation's own setting. */
  emailPerSecond: 1_000,
  /** Rows per claim. The most messages a crash can send twice is one batch (decision 0018). */
  emailBatch: 50,
  smsBatch: 100,
  /** How long a claimed row is left to its sender before another may take it (longer than any send). */
  deliveryLeaseMs: 10 * MINUTE_MS,
  /** Tries of one message that fails for a reason worth trying again, then `failed`. */
  maxAttempts: 5,
};
