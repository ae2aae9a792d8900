// The one call the data-access page makes to prove a guest's phone (issue 35 items 1 and 5): send a
// one-time code to the number, then check the code the guest typed. The real module
// (phone-proof.server.ts, built on another branch) implements this shape; until it lands,
// data-access-code.server.ts is a minimal stand-in behind the same interface.

export type ProofSent = { ok: true } | { ok: false; status: number; message: string };

export interface PhoneProof {
  /** Sends a code to `phone` (E.164) for a guest of the organisation; `device`: who asks (throttled per phone and per device). */
  send(at: { organizationId: number; phone: string; device: string }): Promise<ProofSent>;
  /** Whether `code` proves `phone` now; a code proves once. */
  verify(at: { organizationId: number; phone: string; code: string }): Promise<boolean>;
}
